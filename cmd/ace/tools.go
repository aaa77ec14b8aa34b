package main

import (
	"encoding/json"
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/acecanvas/ace/internal/tools"
)

func init() {
	var asJSON, asMarkdown bool
	var module string
	cmd := &cobra.Command{
		Use:   "tools",
		Short: "List the 98-tool action space (names, modules, descriptions, schemas)",
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
			fmt.Fprintf(os.Stderr, "%d tools\n", n)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print tools with their JSON Schemas")
	cmd.Flags().BoolVar(&asMarkdown, "markdown", false, "print the Markdown reference (docs/tools.md)")
	cmd.Flags().StringVar(&module, "module", "", "only this module (content, slide, chart, dataChart, smartArt, table, connection, importExport, unsplash, batch, math)")
	rootCmd.AddCommand(cmd)
}

// firstSentence cuts a description at its first ". " for the table view.
func firstSentence(s string) string {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '.' && s[i+1] == ' ' {
			return s[:i+1]
		}
	}
	return s
}
