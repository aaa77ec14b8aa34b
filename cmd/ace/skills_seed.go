package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/acecanvas/ace/internal/coldstart"
	"github.com/acecanvas/ace/internal/llm"
)

func init() { skillsCmd.AddCommand(newSkillsSeedCmd()) }

type seedFlags struct {
	out    string
	docs   string
	report string
}

// newSkillsSeedCmd is `ace skills seed`: the cold start (internal/coldstart).
func newSkillsSeedCmd() *cobra.Command {
	var f seedFlags
	cmd := &cobra.Command{
		Use:   "seed --out DIR",
		Short: "Write a first skill bank from ACE's tool reference and guides, for review",
		Long: `seed builds a first skill bank from ACE's own documentation (Designer-RSI
App. G): the tool reference (docs/tools.md, as this binary's registry writes it)
and the guides given with --docs are cut into pages; one model call groups them
into 20-30 themes; each theme gets its best-matching pages by the same token
overlap retrieval uses; one call per theme writes a SKILL.md from those pages,
seeing the skills written so far so it does not repeat them; every skill is
validated (tool names exist, no near-duplicates, all five body sections) and an
invalid one is asked for once more with its problems, then dropped.

The skills are written to DIR/NAME/SKILL.md for a person to review; reviewed
files go into internal/skills/seed. DIR must be new or empty. The calls use the
agent model (ACE_AGENT_MODEL, OPENAI_BASE_URL, OPENAI_API_KEY).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runSkillsSeed(cmd, f)
		},
	}
	cmd.Flags().StringVar(&f.out, "out", "", "folder to write NAME/SKILL.md into (new or empty; required)")
	cmd.Flags().StringVar(&f.docs, "docs", "docs/recipes.md", "comma-separated guides (Markdown) to seed from besides the tool reference; \"\" for none")
	cmd.Flags().StringVar(&f.report, "report", "", "also write the run (pages, themes, assignments, outcomes, calls) as JSON here")
	return cmd
}

func runSkillsSeed(cmd *cobra.Command, f seedFlags) error {
	if f.out == "" {
		return badInput(errors.New("skills seed: --out DIR is required"))
	}
	if ents, err := os.ReadDir(f.out); err == nil && len(ents) > 0 {
		return badInput(fmt.Errorf("skills seed: %s is not empty: give a new folder (a run never overwrites reviewed skills)", f.out))
	}
	docs := []coldstart.Doc{coldstart.ToolsDoc()}
	for _, path := range strings.Split(f.docs, ",") {
		path = strings.TrimSpace(path)
		if path == "" {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return badInput(fmt.Errorf("skills seed: --docs %s: %w (run from the repository root, or pass --docs PATH,...; --docs \"\" seeds from the tool reference alone)", path, err))
		}
		docs = append(docs, coldstart.Doc{Name: path, Markdown: string(b)})
	}
	pages, err := coldstart.DocPages(docs...)
	if err != nil {
		return badInput(fmt.Errorf("skills seed: %w", err))
	}
	cfg, err := llm.ConfigFromEnv()
	if err != nil {
		return badInput(err)
	}
	client, err := llm.New(cfg)
	if err != nil {
		return badInput(err)
	}
	if _, err := client.Model(llm.RoleAgent); err != nil {
		return badInput(fmt.Errorf("skills seed needs a model: %w", err))
	}
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "%d pages from %d documents\n", len(pages), len(docs))
	s := coldstart.NewSeeder(client)
	s.Progress = func(o coldstart.Outcome) { printSeedOutcome(out, o) }
	res, seedErr := s.Seed(cmd.Context(), pages)
	if err := coldstart.WriteDir(f.out, res.Skills); err != nil {
		return errors.Join(seedErr, err)
	}
	if f.report != "" {
		b, err := json.MarshalIndent(res, "", "  ")
		if err == nil {
			err = os.WriteFile(f.report, append(b, '\n'), 0o644)
		}
		if err != nil {
			return errors.Join(seedErr, fmt.Errorf("skills seed: --report: %w", err))
		}
	}
	printSeedSummary(out, res, f.out)
	return seedErr
}

func printSeedOutcome(w io.Writer, o coldstart.Outcome) {
	switch o.Kind {
	case coldstart.OutcomeKept:
		fmt.Fprintf(w, "kept     %-28s skill %s (%s)\n", o.Theme, o.Skill, plural(o.Attempts, "call"))
	case coldstart.OutcomeNoSkill:
		fmt.Fprintf(w, "no skill %-28s %s\n", o.Theme, o.Reason)
	case coldstart.OutcomeDropped:
		fmt.Fprintf(w, "DROPPED  %-28s %s\n", o.Theme, strings.Join(o.Problems, "; "))
	case coldstart.OutcomeNoPages:
		fmt.Fprintf(w, "no pages %-28s no page shares enough words with the theme\n", o.Theme)
	}
}

func printSeedSummary(w io.Writer, res coldstart.Result, dir string) {
	if len(res.Assignments) > 0 {
		fmt.Fprintf(w, "\npages per theme (best first, at most %d):\n", coldstart.PagesPerTheme)
		for _, a := range res.Assignments {
			var ids []string
			for _, p := range a.Pages {
				ids = append(ids, fmt.Sprintf("%s %.2f", p.Page, p.Score))
			}
			fmt.Fprintf(w, "  %s: %s\n", a.Theme, strings.Join(ids, ", "))
		}
	}
	if len(res.Unassigned) > 0 {
		fmt.Fprintf(w, "pages no theme took (%d): %s\n", len(res.Unassigned), strings.Join(res.Unassigned, ", "))
	}
	var u llm.Usage
	for _, c := range res.Calls {
		u.Add(c)
	}
	fmt.Fprintf(w, "\n%s written to %s for review (%s, %d prompt + %d completion tokens)\n",
		plural(len(res.Skills), "skill"), dir, plural(len(res.Calls), "model call"), u.PromptTokens, u.CompletionTokens)
}
