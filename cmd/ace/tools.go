package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/acecanvas/ace/internal/tools"
)

func init() {
	var asJSON, asMarkdown bool
	var module string
	cmd := &cobra.Command{
		Use:   "tools",
		Short: "List the 100-tool action space (names, modules, descriptions, schemas)",
		Long: `tools prints the catalogue of tools the agent and recipes use to edit decks.
--json prints every tool with its JSON Schema (OpenAI function-definition shape);
--markdown prints docs/tools.md (make docs writes it).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			reg := tools.Registry()
			if module != "" {
				if _, ok := tools.ModuleCounts[module]; !ok {
					return badInput(fmt.Errorf("unknown module %q; modules: %v", module, tools.ModuleOrder))
				}
			}
			out := cmd.OutOrStdout()
			switch {
			case asMarkdown:
				_, err := fmt.Fprint(out, reg.Markdown())
				return err
			case asJSON:
				type entry struct {
					Name        string          `json:"name"`
					Module      string          `json:"module"`
					ReadOnly    bool            `json:"readOnly,omitempty"`
					Description string          `json:"description"`
					Parameters  json.RawMessage `json:"parameters"`
				}
				var list []entry
				for _, t := range reg.All() {
					if module == "" || t.Module == module {
						list = append(list, entry{t.Name, t.Module, t.ReadOnly, t.Description, t.Schema})
					}
				}
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				enc.SetEscapeHTML(false)
				return enc.Encode(list)
			}
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "MODULE\tTOOL\tKIND\tSUMMARY")
			n := 0
			for _, t := range reg.All() {
				if module != "" && t.Module != module {
					continue
				}
				kind := "edit"
				if t.ReadOnly {
					kind = "read"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", t.Module, t.Name, kind, firstSentence(t.Description))
				n++
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			fmt.Fprintln(cmd.ErrOrStderr(), plural(n, "tool"))
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print tools with their JSON Schemas")
	cmd.Flags().BoolVar(&asMarkdown, "markdown", false, "print the Markdown reference (docs/tools.md)")
	cmd.Flags().StringVar(&module, "module", "", "only this module (content, slide, chart, dataChart, smartArt, table, connection, importExport, unsplash, batch, math)")
	rootCmd.AddCommand(cmd)
}

// abbrevs end in a full stop without ending a sentence.
var abbrevs = []string{"e.g.", "i.e.", "etc.", "vs.", "cf.", "approx.", "incl.", "fig."}

// firstSentence cuts a description at the end of its first sentence for
// the table view: a full stop followed by a space (or the end), outside
// parentheses and brackets, and not the stop of an abbreviation such as
// "e.g." or "etc.".
func firstSentence(s string) string {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[':
			depth++
		case ')', ']':
			if depth > 0 {
				depth--
			}
		case '.':
			if depth > 0 || (i+1 < len(s) && s[i+1] != ' ') {
				continue
			}
			if endsWithAbbrev(s[:i+1]) {
				continue
			}
			return s[:i+1]
		}
	}
	return s
}

// endsWithAbbrev reports whether s ends with one of abbrevs as a word.
func endsWithAbbrev(s string) bool {
	lower := strings.ToLower(s)
	for _, a := range abbrevs {
		if strings.HasSuffix(lower, a) {
			k := len(lower) - len(a)
			if k == 0 || !isLetter(lower[k-1]) {
				return true
			}
		}
	}
	return false
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
