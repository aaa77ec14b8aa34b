package main

import (
	"encoding/json"
	"io"

	"github.com/spf13/cobra"

	"github.com/acecanvas/ace/internal/diff"
)

func init() {
	var jsonOut, noSnapshot, all bool
	cmd := &cobra.Command{
		Use:   "diff ORIGIN CURRENT [--json]",
		Short: "Show what changed between two decks (JsonDiff, the judge's input)",
		Long: `Diff compares ORIGIN with CURRENT (.pptx, ACE scene-graph .json or Figma .json)
the way the IF judge sees an edit (ACE Appendix E): slides aligned by id, nodes
by id, unique layer name, text, then type and order; added, removed, modified,
moved (re-parented), slide_reorder, z_order and row_reorder entries; +-1% and
0.01-per-colour-channel tolerances; same-named sibling edits merged.

The text form is an indented tree mirroring the hierarchy, followed by a
per-slide snapshot of ORIGIN; --json prints the structured entries, the score
1 - d/(d+100) and whether the diff touches visual content. Both keep the
judge's cap of 200 entries ("truncated" counts the rest); --all keeps every
entry.
Exit status: 0 (also when the decks differ), 2 when a deck cannot be read.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDiff(cmd.OutOrStdout(), args[0], args[1], jsonOut, noSnapshot, all)
		},
	}
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print the structured diff as JSON")
	cmd.Flags().BoolVar(&all, "all", false, "keep every entry, not only the first 200 the judge sees")
	cmd.Flags().BoolVar(&noSnapshot, "no-snapshot", false, "omit the per-slide snapshot of ORIGIN from the text form")
	rootCmd.AddCommand(cmd)
}

func runDiff(w io.Writer, originPath, currentPath string, jsonOut, noSnapshot, all bool) error {
	origin, _, err := loadDeck("diff", originPath)
	if err != nil {
		return err
	}
	current, _, err := loadDeck("diff", currentPath)
	if err != nil {
		return err
	}
	limit := diff.MaxEntries
	if all {
		limit = 0
	}
	d := diff.ComputeLimit(origin, current, limit)
	if jsonOut {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(d)
	}
	snap := origin
	if noSnapshot {
		snap = nil
	}
	_, err = io.WriteString(w, d.Text(snap))
	return err
}
