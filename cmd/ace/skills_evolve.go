package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"

	"github.com/acecanvas/ace/internal/cache"
	"github.com/acecanvas/ace/internal/evolve"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/skills"
	"github.com/acecanvas/ace/internal/store"
	"github.com/acecanvas/ace/internal/tools"
	"github.com/acecanvas/ace/workers"
	"github.com/acecanvas/ace/workflows"
)

// localSkillStore is the content-addressed store of an in-process edit
// with skills and of `ace skills evolve` in process: the turn records'
// decks must outlive the edit for the evolve round to replay them.
func localSkillStore() (store.Store, error) {
	dir := filepath.Join(workers.ConfigFromEnv().DataDir, "store")
	s, err := store.NewFS(dir)
	if err != nil {
		return nil, fmt.Errorf("the local store %s (set ACE_DATA_DIR to a writable folder): %w", dir, err)
	}
	return s, nil
}

func init() {
	var dryRun, jsonOut bool
	var round string
	cmd := &cobra.Command{
		Use:   "evolve",
		Short: "Run one evolve round: grade the recorded edits, rewrite failing skills, mint new ones, gate each change",
		Long: `evolve runs one round of the skill bank's evolution (Designer-RSI): it grades
the recorded edits that have no grade yet, pools the subtasks no skill covered,
rewrites each skill charged with 2 or more failures and mints a skill for each
subtask seen uncovered 3 times, and puts every change through the replay gate:
the change and the current bank each re-run the same recorded edits, a judge
compares each pair in both orders, and the change is committed (a new version)
only when it wins at least one edit and loses none. Rejected changes leave the
bank as it was and are logged (ace skills history NAME).

With ACE_TEMPORAL_ADDRESS set the round runs as the EvolveWorkflow on the
cluster's evolve workers (the bucket bank); otherwise it runs in this process
on the folder bank, replaying edits recorded by ace edit --skills. Workers with
the evolve queue also run a round on a schedule (ACE_EVOLVE_EVERY, default 1h)
once 50 newly graded edits have come in.

--dry-run grades and plans but changes no skill. Needs a model (OPENAI_BASE_URL,
ACE_JUDGE_MODEL, ...) like ace edit.`,
		Args:    cobra.NoArgs,
		Example: "  ace skills evolve --dry-run\n  ace skills evolve\n  ace skills evolve --json",
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			if round == "" {
				round = "manual-" + time.Now().UTC().Format("20060102T150405Z")
			}
			var rep evolve.Report
			var err error
			if os.Getenv("ACE_TEMPORAL_ADDRESS") != "" && skillsBank == "" {
				rep, err = evolveOnCluster(ctx, cmd.ErrOrStderr(), round, dryRun)
			} else {
				rep, err = evolveInProcess(ctx, cmd.ErrOrStderr(), round, dryRun)
			}
			if err != nil {
				return err
			}
			return printEvolveReport(cmd.OutOrStdout(), round, rep, dryRun, jsonOut)
		},
	}
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "grade and plan only: no proposal, no replay, no change to the bank")
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print the round's report as JSON")
	cmd.Flags().StringVar(&round, "round", "", "the round's id (default manual-<UTC time>); running an unfinished round's id again resumes it")
	skillsCmd.AddCommand(cmd)
}

// evolveInProcess runs the round with evolve.Runner on the CLI's bank.
func evolveInProcess(ctx context.Context, stderr io.Writer, round string, dryRun bool) (evolve.Report, error) {
	b, where, closeBank, err := openSkillBank(ctx, skillsBank)
	if err != nil {
		return evolve.Report{}, err
	}
	defer closeBank()
	cfg, err := llm.ConfigFromEnv()
	if err != nil {
		return evolve.Report{}, badInput(fmt.Errorf("skills evolve: model config: %w", err))
	}
	c, err := llm.New(cfg)
	if err != nil {
		return evolve.Report{}, badInput(fmt.Errorf("skills evolve: %w", err))
	}
	st, err := localSkillStore()
	if err != nil {
		return evolve.Report{}, err
	}
	r := &evolve.Runner{Bank: b, LLM: c, Store: st, Tools: tools.Registry().Names(),
		Log: func(format string, args ...any) { fmt.Fprintf(stderr, format+"\n", args...) }}
	if !dryRun {
		pool, err := render.NewPool(ctx, render.Options{Memo: cache.NewLRU(0, 0)})
		if err != nil {
			return evolve.Report{}, fmt.Errorf("skills evolve: the replays need a renderer (set ACE_CHROMIUM to a Chromium binary): %w", err)
		}
		defer pool.Close()
		r.Replayer = evolve.LoopReplayer{Store: st, LLM: c, Renderer: pool}
	}
	due, err := evolve.RoundIsDue(ctx, b, round)
	if err != nil {
		return evolve.Report{}, err
	}
	r.Since = due.Since
	fmt.Fprintf(stderr, "ace skills evolve: round %s on %s (%d new record(s) since the last round)\n", round, where, due.New)
	return r.Run(ctx, round, dryRun)
}

// evolveOnCluster starts EvolveWorkflow on the cluster and waits for it.
func evolveOnCluster(ctx context.Context, stderr io.Writer, round string, dryRun bool) (evolve.Report, error) {
	conn, err := workers.Connect(ctx, workers.ConfigFromEnv())
	if err != nil {
		return evolve.Report{}, err
	}
	defer conn.Close()
	id := "ace-skills-evolve-" + round
	run, err := conn.Temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: workflows.QueueEvolve},
		workflows.EvolveWorkflowName, workflows.EvolveInput{Round: round, DryRun: dryRun})
	if err != nil {
		return evolve.Report{}, fmt.Errorf("skills evolve: start %s: %w", id, err)
	}
	fmt.Fprintf(stderr, "ace skills evolve: round %s running as workflow %s (needs a worker with the evolve queue)\n", round, id)
	var out workflows.EvolveReport
	if err := run.Get(ctx, &out); err != nil {
		return evolve.Report{}, fmt.Errorf("skills evolve: workflow %s: %w", id, err)
	}
	return out.Report, nil
}

// printEvolveReport prints what the round did: records graded and pooled,
// the plan, each decision, and what it gave up on.
func printEvolveReport(w io.Writer, round string, rep evolve.Report, dryRun, asJSON bool) error {
	if asJSON {
		rep.Calls = nil
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Round  string        `json:"round"`
			DryRun bool          `json:"dryRun,omitempty"`
			Report evolve.Report `json:"report"`
		}{round, dryRun, rep})
	}
	fmt.Fprintf(w, "round %s: %d record(s) graded, %d subtask occurrence(s) pooled\n", round, rep.Graded, rep.Pooled)
	fmt.Fprintf(w, "plan: rewrite [%s], mint [%s], deprecate [%s]\n", strings.Join(rep.Plan.Rewrite, ", "),
		strings.Join(mintLabels(rep.Plan.Mint), ", "), strings.Join(rep.Plan.Deprecate, ", "))
	if dryRun {
		fmt.Fprintln(w, "dry run: no proposal was made and the bank is unchanged")
	}
	for _, d := range rep.Decisions {
		verdict := "rejected, bank unchanged"
		if d.Accepted {
			verdict = fmt.Sprintf("committed as v%d", d.Version)
		}
		fmt.Fprintf(w, "  %s %s: %s (%s)\n", d.Kind, d.Skill, verdict, d.Reason)
	}
	for _, g := range rep.GaveUp {
		fmt.Fprintf(w, "  gave up: %s\n", g)
	}
	u := llm.Sum(rep.Calls)
	fmt.Fprintf(w, "model calls: %d, tokens in %d, out %d\n", len(rep.Calls), u.PromptTokens, u.CompletionTokens)
	return nil
}

func mintLabels(es []skills.CoverageEntry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Label)
	}
	return out
}
