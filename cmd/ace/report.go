package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/acecanvas/ace/internal/recipe"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/report"
	"github.com/acecanvas/ace/internal/store"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
	"github.com/acecanvas/ace/workers"
)

func init() {
	var outDir string
	cmd := &cobra.Command{
		Use:   "report BATCH",
		Short: "Write the HTML report of a batch: an index and one page per deck with before/after pictures",
		Long: `Report reads a batch's results (from ACE_EVENTS and the snapshot store, on the
embedded stack or the cluster ACE_NATS_URL names) and writes DIR/report.html, an
index of the decks, and DIR/reports/DECK.html for each edit: the instruction or
recipe, the changed slides before and after side by side, the JsonDiff, each
iteration's score, critique and gate, failed expectations, tokens and cost.
Pages are self-contained HTML (pictures embedded), safe to mail or archive.
ace batch writes the same report when it finishes.`,
		Example: "  ace report b3f9c2a71d0e -o out/",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			conn, err := workers.Connect(ctx, workers.ConfigFromEnv())
			if err != nil {
				return err
			}
			defer conn.Close()
			st, err := workers.Status(ctx, conn.JS, args[0])
			if err != nil {
				return err
			}
			if len(st.Decks) == 0 {
				return noBatchEvents(args[0], conn)
			}
			index, err := writeBatchReport(ctx, conn.Store, st, nil, outDir, "", "", nil, false)
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), "report:", index)
			return nil
		},
	}
	cmd.Flags().StringVarP(&outDir, "out", "o", "out", "directory for report.html and reports/")
	rootCmd.AddCommand(cmd)
}

// writeBatchReport pictures every finished deck's changed slides before
// and after (the render steps' kept pictures, else rendered now)
// and writes the batch's HTML report into dir.
// A symbolic link among the report's files is refused unless replaceLinks
// (ace batch --force), when the link itself is replaced.
func writeBatchReport(ctx context.Context, s store.Store, st *workers.State, sum *workers.Summary, dir, instruction, recipePath string, recipeData []byte, replaceLinks bool) (string, error) {
	recipeName := ""
	var rcp *recipe.Recipe
	if len(recipeData) > 0 {
		if recipePath == "" {
			recipePath = "recipe.yaml"
		}
		if r, err := recipe.Parse(recipePath, recipeData); err == nil {
			rcp, recipeName = r, r.Name
		}
	}
	// The pictures the workflows' render steps kept in the store are read
	// (store.Memo); Chromium starts only for a slide none pictured.
	pool, err := render.NewPool(ctx, render.Options{Size: 1, Lazy: true, Pictures: store.Memo(s)})
	if err != nil {
		return "", fmt.Errorf("report: %w", err)
	}
	defer pool.Close()
	keys := st.Keys()
	results := map[string]*acev1.EditResult{}
	// The edited decks: where Summarize wrote them (ace batch), else
	// files of the deck's name already in dir (ace report).
	outputs := map[string]string{}
	if sum != nil {
		for _, r := range sum.Rows {
			if r.Output != "" {
				outputs[r.Deck] = r.Output
			}
		}
	}
	paths := make(map[string]string, len(keys))
	for _, k := range keys {
		paths[k] = st.Decks[k].Path
	}
	names := workers.OutputNames(paths)
	var last int64
	for _, k := range keys {
		d := st.Decks[k]
		if d.Result != nil {
			results[k] = d.Result
		}
		if sum == nil && d.Result != nil && d.Result.ExportFormat != "" {
			if p := filepath.Join(dir, names[k]+"."+d.Result.ExportFormat); exists(p) {
				outputs[k] = p
			}
		}
		if d.Updated > last {
			last = d.Updated
		}
	}
	b := report.Batch{ID: st.Batch, Recipe: recipeName, Rows: report.Rows(keys, results, outputs)}
	if st.Started > 0 && last > st.Started {
		b.Started = time.UnixMilli(st.Started)
		b.Duration = time.Duration(last-st.Started) * time.Millisecond
	}
	return report.WriteBatchTo(ctx, dir, s, pool, b, results, instruction, rcp, replaceLinks)
}

func trimExt(name string) string { return name[:len(name)-len(filepath.Ext(name))] }

func exists(p string) bool { _, err := os.Stat(p); return err == nil }
