package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/recipe"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/tools"
)

func init() {
	cmd := &cobra.Command{
		Use:   "recipe",
		Short: "Inspect migration recipes: check a file, or see the tool calls it compiles to on a deck",
	}
	var asJSON bool
	plan := &cobra.Command{
		Use:   "plan RECIPE DECK",
		Short: "Compile a recipe against a deck and print the batch_execute commands, without changing anything",
		Long: `Plan parses the recipe (every problem is reported with its line and column),
compiles it against DECK (.pptx, scene-graph .json or Figma .json) and prints what
each step matched and the tool calls, as the one batch_execute the edit would
apply. With --json it prints the batch_execute arguments only. The deck is not
modified and nothing is written. Recipes are documented in docs/recipes.md.`,
		Example: "  ace recipe plan testdata/recipes/rebrand.yaml testdata/decks/northwind-qbr.pptx",
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := recipe.Load(args[0])
			if err != nil {
				return badInput(err)
			}
			d, _, err := loadDeck("recipe plan", args[1])
			if err != nil {
				return err
			}
			cfg, _ := llm.ConfigFromEnv()
			added := scenegraph.Blobs{}
			p, err := recipe.Compile(r, d, recipe.Options{Tools: tools.Options{Blobs: added}, HaveModel: cfg.AgentModel != ""})
			if err != nil {
				return badInput(err)
			}
			out := cmd.OutOrStdout()
			if asJSON {
				_, err := out.Write(append(p.BatchExecute(), '\n'))
				return err
			}
			fmt.Fprintf(out, "recipe %q on %s (%d slides): %d tool calls\n\n", r.Name, args[1], len(d.Slides), len(p.Calls))
			tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "STEP\tLINE\tWHAT\tMATCHES\tCALLS")
			for _, s := range p.Steps {
				fmt.Fprintf(tw, "%d\t%d\t%s\t%d\t%d\n", s.Index+1, s.Line, s.Label, s.Matches, s.Calls)
			}
			tw.Flush()
			for _, w := range p.Warnings {
				fmt.Fprintln(out, "warning:", w)
			}
			for _, in := range p.Instructions {
				fmt.Fprintln(out, "for the agent:", in)
			}
			changed := scenegraph.ChangedSlides(d, p.Result)
			fmt.Fprintf(out, "\nslides that would change: %d of %d\n\nbatch_execute:\n%s\n", len(changed), len(d.Slides), p.BatchExecute())
			return nil
		},
	}
	plan.Flags().BoolVar(&asJSON, "json", false, "print only the batch_execute arguments as JSON")
	check := &cobra.Command{
		Use:     "check RECIPE",
		Short:   "Parse a recipe and report every problem with its line and column",
		Example: "  ace recipe check testdata/recipes/legal-footer.yaml",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := recipe.Load(args[0])
			if err != nil {
				return badInput(err)
			}
			b, _ := json.Marshal(map[string]any{"name": r.Name, "steps": len(r.Steps), "expectations": len(r.Expect)})
			fmt.Fprintf(cmd.OutOrStdout(), "%s: ok %s\n", args[0], b)
			return nil
		},
	}
	cmd.AddCommand(plan, check)
	rootCmd.AddCommand(cmd)
}
