package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/acecanvas/ace/internal/bench"
	"github.com/acecanvas/ace/internal/benchrun"
	"github.com/acecanvas/ace/internal/cache"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/outfile"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/workers"
)

// benchFlags are the options of `ace bench`.
type benchFlags struct {
	arms        string
	tasks       string
	seeds       int
	out         string
	concurrency int
	noRender    bool
	force       bool
	resume      bool
	rejudge     string
}

func init() {
	var f benchFlags
	cmd := &cobra.Command{
		Use:   "bench SUITE.yaml [--arms a,b] [--seeds N] [-o OUT] [--tasks id,id] [--concurrency N]",
		Short: "Run a task suite under named arms and compare them with paired statistics",
		Long: `Bench runs every task of SUITE (a deck, an instruction or a recipe, and
deterministic checks; format in docs/bench.md) under each arm and seed through
the full edit loop, in process as ace edit runs it (route, agent steps with
observations, gate, judge, critic, export). Each result is exported, imported
again and checked; SCR is the share of the final deck's slides with no layout
violation. One JSON line per run goes to OUT/results.jsonl as runs end; at the
end OUT/summary.json holds each arm's means and every arm compared with the
first on the same tasks and seeds (mean difference, bootstrap 95% CI, Wilcoxon
p, wins/ties/losses for IF, VQ, checks, SCR, time and cost), and
OUT/report.html shows the table, the comparisons and each task's before/after.
After an interruption, --resume with the same -o runs only what results.jsonl
lacks.

An arm (the suite's arms: key) names models (agent_model, judge_model,
router_model; empty: the environment's), tau, iterations (T), context_mode
(auto lets CARE route; micro, macro, systemic, full or off fix the mode),
observations and vq (on or off). skills is accepted but not implemented yet:
such an arm runs without skills and the report says so. A suite without arms
runs one arm, "default", with the environment's models.

The model is any OpenAI-compatible server, set as for ace edit:
  OPENAI_BASE_URL, OPENAI_API_KEY, ACE_AGENT_MODEL, ACE_JUDGE_MODEL,
  ACE_ROUTER_MODEL, ACE_PRICES (USD per 1M tokens, for the cost column).

Runs are in process; the embedded Temporal stack is not used (each run is one
editloop.Run, so it could be an EditWorkflow per task, arm and seed once
EditRequest carries the context mode and observation switches).`,
		Example: `  ACE_AGENT_MODEL=gpt-4.1 ace bench bench/suites/core.yaml --arms baseline,no-care --seeds 2 -o out/core
  OPENAI_BASE_URL=http://localhost:11434/v1 ACE_AGENT_MODEL=qwen2.5:14b ace bench bench/suites/core.yaml --tasks qbr-table-cell,career-title-rewrite`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			ctx, caught, stop := onInterrupt(ctx)
			defer stop()
			err := runBench(ctx, cmd.OutOrStdout(), cmd.ErrOrStderr(), args[0], f)
			if sig := caught(); sig != nil && err != nil {
				return interrupted(sig, "bench "+args[0], "the runs that ended are in results.jsonl, summary.json and report.html")
			}
			return err
		},
	}
	cmd.Flags().StringVar(&f.arms, "arms", "", "comma-separated arm names from the suite's arms: (default: every arm of the suite)")
	cmd.Flags().StringVar(&f.tasks, "tasks", "", "comma-separated task ids to run (default: every task)")
	cmd.Flags().IntVar(&f.seeds, "seeds", 1, "runs of each task under each arm (seed 1..N), paired across arms")
	cmd.Flags().StringVarP(&f.out, "out", "o", "", "output folder for results.jsonl, summary.json and report.html (default bench-SUITE)")
	cmd.Flags().IntVar(&f.concurrency, "concurrency", 1, "runs in flight at once")
	cmd.Flags().BoolVar(&f.noRender, "no-render", false, "skip Chromium: no geometry gate, no SCR, no pictures; no_new_violations checks are not rendered")
	cmd.Flags().StringVar(&f.rejudge, "rejudge", "", "a judge model that scores every final deck again, out of the loop (IF_rejudged), to bound self-judging")
	cmd.Flags().BoolVar(&f.force, "force", false, "replace an earlier run's files in OUT")
	cmd.Flags().BoolVar(&f.resume, "resume", false, "keep OUT/results.jsonl and run only the task, arm and seed runs it lacks (after an interruption)")
	rootCmd.AddCommand(cmd)
}

func runBench(ctx context.Context, stdout, stderr io.Writer, suitePath string, f benchFlags) error {
	if f.seeds < 1 || f.concurrency < 1 {
		return badInput(errors.New("bench: --seeds and --concurrency must be at least 1"))
	}
	suite, err := bench.Load(suitePath, bench.Options{})
	if err != nil {
		return badInput(err)
	}
	tasks, err := pickTasks(suite, f.tasks)
	if err != nil {
		return badInput(err)
	}
	arms, err := pickArms(suite, f.arms)
	if err != nil {
		return badInput(err)
	}
	cfg, err := llm.ConfigFromEnv()
	if err != nil {
		return badInput(err)
	}
	if cfg.RPM > 0 || cfg.TPM > 0 {
		lim := cache.NewLimiter(ctx, workers.ConfigFromEnv().Redis, "llm:"+cfg.BaseURL, cache.Rate{RequestsPerMin: cfg.RPM, TokensPerMin: cfg.TPM})
		defer lim.Close()
		cfg.Limiter = lim
	}
	needModel := slices.ContainsFunc(tasks, func(t *bench.Task) bool { return t.Instruction != "" })
	for _, a := range arms {
		c, err := llm.New(a.LLMConfig(cfg))
		if err != nil {
			return badInput(fmt.Errorf("bench: arm %s: %w", a.Name, err))
		}
		if _, err := c.Model(llm.RoleAgent); err != nil && needModel {
			return badInput(fmt.Errorf("bench: arm %s: the tasks' instructions need an agent model: %w (or give the arm agent_model)", a.Name, err))
		}
		if c.HasModel(llm.RoleAgent) {
			if err := c.Reachable(ctx, 10*time.Second); err != nil {
				return badInput(fmt.Errorf("bench: arm %s: %w", a.Name, err))
			}
		}
	}
	out := f.out
	if out == "" {
		out = "bench-" + suite.Name
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return badInput(fmt.Errorf("bench: -o %s: %w", out, err))
	}
	resultsPath := filepath.Join(out, benchrun.ResultsFile)
	var earlier []benchrun.Row
	if f.resume {
		if b, err := os.ReadFile(resultsPath); err == nil {
			if earlier, err = benchrun.ReadRows(bytes.NewReader(b)); err != nil {
				return badInput(fmt.Errorf("bench: --resume: %w", err))
			}
		} else if !errors.Is(err, fs.ErrNotExist) {
			return badInput(fmt.Errorf("bench: --resume: %w", err))
		}
	} else if _, err := os.Lstat(resultsPath); err == nil && !f.force {
		return badInput(fmt.Errorf("bench: %s exists from an earlier run; pass --resume to run only what it lacks, --force to replace it, or -o another folder", resultsPath))
	}
	flags := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	if f.resume {
		flags = os.O_CREATE | os.O_WRONLY | os.O_APPEND
	}
	results, err := os.OpenFile(resultsPath, flags, 0o644)
	if err != nil {
		return badInput(fmt.Errorf("bench: %w", err))
	}
	defer results.Close()

	h := &benchrun.Harness{Tasks: tasks, Arms: arms, Seeds: f.seeds, Concurrency: f.concurrency, LLM: cfg,
		Cache: cache.New(ctx, workers.ConfigFromEnv().Redis), Pictures: 2, Rejudge: f.rejudge, Resume: earlier}
	defer h.Cache.Close()
	if slices.ContainsFunc(arms, func(a benchrun.Arm) bool { return a.Skills }) {
		// An arm with skills: on retrieves from the CLI's skill bank
		// (ace skills list) and records its edits there.
		bank, _, closeBank, err := openSkillBank(ctx, "")
		if err != nil {
			return fmt.Errorf("bench: an arm has skills: on: %w", err)
		}
		defer closeBank()
		h.Skills = bank
		// Their turn records are replayed by ace skills evolve from the
		// local store: keep each run's original deck there.
		if h.Keep, err = localSkillStore(); err != nil {
			return fmt.Errorf("bench: an arm has skills: on: %w", err)
		}
	}
	if !f.noRender {
		pool, err := render.NewPool(ctx, render.Options{Memo: cache.NewLRU(0, 0)})
		if err != nil {
			return fmt.Errorf("bench: start Chromium: %w (set ACE_CHROMIUM, or pass --no-render)", err)
		}
		defer pool.Close()
		h.Pool = pool
	}
	total := len(tasks) * len(arms) * f.seeds
	for _, a := range arms {
		fmt.Fprintf(stderr, "ace bench: arm %s: %s\n", a.Name, a.Describe(cfg))
		for _, n := range a.Notes {
			fmt.Fprintf(stderr, "ace bench: arm %s: %s\n", a.Name, n)
		}
	}
	done := 0
	if len(earlier) > 0 {
		// The runs results.jsonl already holds are not run again.
		done = keptRuns(earlier, tasks, arms, f.seeds)
		fmt.Fprintf(stderr, "ace bench: --resume: %d of the runs are in %s already\n", done, resultsPath)
	}
	fmt.Fprintf(stderr, "ace bench: %d task(s) x %d arm(s) x %d seed(s) = %d runs, %d at once\n", len(tasks), len(arms), f.seeds, total, f.concurrency)
	h.Done = func(r benchrun.Row) error {
		done++
		fmt.Fprintf(stderr, "[%d/%d] %s %s seed %d: %s, checks %d/%d, IF %s, %.1f s, USD %s%s\n", done, total, r.Task, r.Arm, r.Seed,
			r.Outcome.Wording(), r.ChecksPassed, r.ChecksPassed+r.ChecksFailed, scoreText(r.IF), r.WallS, benchrun.CostText(r.CostUSD, true, r.Unpriced), errText(r.Error))
		return benchrun.WriteRow(results, r)
	}
	started := time.Now()
	rows, pics, runErr := h.Run(ctx)
	if runErr != nil && ctx.Err() == nil {
		return fmt.Errorf("bench: %w", runErr)
	}
	// Interrupted: the runs that ended are summarized all the same (a
	// run that never started has no row).
	sum := benchrun.Summarize(suite.Name, len(tasks), f.seeds, arms, cfg, rows)
	sum.WriteTable(stdout)
	data, err := benchrun.EncodeSummary(sum)
	if err == nil {
		err = outfile.Write(filepath.Join(out, benchrun.SummaryFile), data, f.force)
	}
	if err != nil {
		return fmt.Errorf("bench: %s: %w", benchrun.SummaryFile, err)
	}
	page, err := benchrun.WritePage(benchrun.Page(sum, tasks, rows, pics, started, time.Since(started)))
	if err == nil {
		err = outfile.Write(filepath.Join(out, benchrun.ReportFile), page, f.force)
	}
	if err != nil {
		return fmt.Errorf("bench: %s: %w", benchrun.ReportFile, err)
	}
	fmt.Fprintf(stdout, "wrote %s, %s, %s\n", resultsPath, filepath.Join(out, benchrun.SummaryFile), filepath.Join(out, benchrun.ReportFile))
	if ctx.Err() != nil {
		return fmt.Errorf("bench: %w (the summary covers the %d run(s) that ended)", ctx.Err(), done)
	}
	return nil
}

// pickTasks is the suite's tasks named in list (comma-separated ids, in
// the suite's order), or every task for an empty list.
func pickTasks(s *bench.Suite, list string) ([]*bench.Task, error) {
	if strings.TrimSpace(list) == "" {
		return s.Tasks, nil
	}
	want := map[string]bool{}
	for _, id := range strings.Split(list, ",") {
		if id = strings.TrimSpace(id); id != "" {
			want[id] = true
		}
	}
	var out []*bench.Task
	for _, t := range s.Tasks {
		if want[t.ID] {
			out = append(out, t)
			delete(want, t.ID)
		}
	}
	if len(want) > 0 {
		var missing []string
		for id := range want {
			missing = append(missing, id)
		}
		slices.Sort(missing)
		return nil, fmt.Errorf("bench: --tasks: suite %s has no task %s", s.Path, strings.Join(missing, ", "))
	}
	return out, nil
}

// pickArms resolves the suite's arms named in list (in list order), every
// arm of the suite for an empty list, or benchrun.DefaultArm for a suite
// without arms.
func pickArms(s *bench.Suite, list string) ([]benchrun.Arm, error) {
	var chosen []bench.Arm
	switch {
	case strings.TrimSpace(list) == "" && len(s.Arms) == 0:
		chosen = []bench.Arm{benchrun.DefaultArm}
	case strings.TrimSpace(list) == "":
		chosen = s.Arms
	default:
		var names []string
		for _, a := range s.Arms {
			names = append(names, a.Name)
		}
		seen := map[string]bool{}
		for _, name := range strings.Split(list, ",") {
			name = strings.TrimSpace(name)
			if name == "" || seen[name] {
				continue
			}
			seen[name] = true
			i := slices.Index(names, name)
			switch {
			case i >= 0:
				chosen = append(chosen, s.Arms[i])
			case name == benchrun.DefaultArm.Name:
				chosen = append(chosen, benchrun.DefaultArm)
			default:
				return nil, fmt.Errorf("bench: --arms: suite %s has no arm %q (it has: %s, and %s for the environment's models with the loop's defaults)",
					s.Path, name, strings.Join(names, ", "), benchrun.DefaultArm.Name)
			}
		}
	}
	out := make([]benchrun.Arm, 0, len(chosen))
	for _, a := range chosen {
		r, err := benchrun.Resolve(a)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

func scoreText(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.1f", *v)
}

func errText(e string) string {
	if e == "" {
		return ""
	}
	return " (" + e + ")"
}

// keptRuns counts the runs of the selection (tasks x arms x seeds 1..n)
// that rows hold and Harness.Resume keeps (not canceled).
func keptRuns(rows []benchrun.Row, tasks []*bench.Task, arms []benchrun.Arm, seeds int) int {
	type id struct {
		task, arm string
		seed      int
	}
	want := map[id]bool{}
	for _, t := range tasks {
		for _, a := range arms {
			for s := 1; s <= seeds; s++ {
				want[id{t.ID, a.Name, s}] = true
			}
		}
	}
	n := 0
	for _, r := range rows {
		k := id{r.Task, r.Arm, r.Seed}
		if want[k] && r.Outcome != policy.Canceled {
			delete(want, k)
			n++
		}
	}
	return n
}
