package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/cache"
	"github.com/acecanvas/ace/internal/deckio"
	"github.com/acecanvas/ace/internal/diff"
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/fonts"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/outfile"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/recipe"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/report"
	"github.com/acecanvas/ace/internal/runner"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/store"
	"github.com/acecanvas/ace/internal/telemetry"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
	"github.com/acecanvas/ace/workers"
	"github.com/acecanvas/ace/workflows"
)

var _ llm.Limiter = (*cache.Limiter)(nil)

// editFlags are the options of `ace edit`.
type editFlags struct {
	instruction string
	recipePath  string
	out         string
	recordPath  string
	reportPath  string
	jsonOut     bool
	tau         float64
	iterations  int
	maxTurns    int
	maxSteps    int
	vq          bool
	noRender    bool
	renderLimit time.Duration // 0: the renderer's default, 30 s
	overwrite   bool
	skills      bool
}

func init() {
	var f editFlags
	cmd := &cobra.Command{
		Use:   `edit DECK (-i "instruction" | --recipe R.yaml) [-o OUT]`,
		Short: "Edit a deck from a natural-language instruction or a recipe, in process",
		Long: `Edit runs ACE's self-correcting loop on DECK (.pptx, ACE .json or Figma .json)
without Temporal: route (CARE), act (the design agent's tool calls), apply,
render (headless Chromium; geometry gate), diff (JsonDiff), judge (IF 0-5 and a
critique), then stop at IF >= tau, continue with the critique, or roll back to
the best earlier state; strict-peak selection picks the result.

The model is any OpenAI-compatible server:
  OPENAI_BASE_URL   e.g. https://api.openai.com/v1, http://localhost:8000/v1 (vLLM),
                    http://localhost:11434/v1 (Ollama); empty = OpenAI
  OPENAI_API_KEY    bearer token (local servers usually ignore it); or
                    OPENAI_API_KEY_FILE, a file holding it
  ACE_AGENT_MODEL   the design agent's model (required)
  ACE_JUDGE_MODEL   the judge's model (default: the agent's)
  ACE_ROUTER_MODEL  the CARE router's model (default: the judge's)
  ACE_PRICES        USD per 1M tokens per model, JSON file or inline JSON
  ACE_LLM_TIMEOUT, ACE_LLM_MAX_RETRIES, ACE_LLM_RPM, ACE_LLM_TPM, ACE_LLM_MAX_TOKENS

With --recipe the recipe's steps compile to tool calls (no model needed); its
instruction steps go to the agent when a model is configured, and its
expectations decide the outcome (exit code 3 when one fails).

It prints each iteration (IF score, gate, tool calls and errors, tokens, cost,
time), every model call, and the task's totals. The original file is never
modified; the result goes to OUT (default DECK.edited.EXT). An edit that
changes nothing writes the deck unchanged to OUT when -o names it, and
nothing without -o. Ctrl-C stops the edit and writes nothing (exit 130).`,
		Example: `  ACE_AGENT_MODEL=gpt-4.1 ace edit deck.pptx -i "Make every slide title navy" -o out.pptx
  OPENAI_BASE_URL=http://localhost:11434/v1 ACE_AGENT_MODEL=qwen2.5:14b ace edit deck.json -i "Add a footer to every slide" --record run.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			ctx, caught, stop := onInterrupt(ctx)
			defer stop()
			err := runEdit(ctx, cmd.OutOrStdout(), cmd.ErrOrStderr(), args[0], f)
			if sig := caught(); sig != nil && err != nil {
				return interrupted(sig, "edit of "+args[0], "nothing written (the original stands); run the same command again to redo the edit")
			}
			return err
		},
	}
	cmd.Flags().StringVarP(&f.instruction, "instruction", "i", "", "what to change, in natural language (this, --recipe, or both)")
	cmd.Flags().StringVar(&f.recipePath, "recipe", "", "a migration recipe (YAML) to apply instead of, or with, -i")
	cmd.Flags().StringVarP(&f.out, "out", "o", "", "output deck path (.pptx or .json; default DECK.edited.EXT)")
	cmd.Flags().StringVar(&f.recordPath, "record", "", "write the run record (iterations, calls, tokens, cost, timings) as JSON to this file")
	cmd.Flags().StringVar(&f.reportPath, "report", "", "write a self-contained HTML page (before/after of changed slides, diff, iterations, usage) to this file")
	cmd.Flags().BoolVar(&f.jsonOut, "json", false, "print the run record as JSON instead of tables")
	cmd.Flags().Float64Var(&f.tau, "tau", policy.Default.Tau, "stop when the IF score reaches this (0-5)")
	cmd.Flags().IntVar(&f.iterations, "iterations", policy.Default.MaxIterations, "iteration budget T")
	cmd.Flags().IntVar(&f.maxTurns, "max-turns", agent.DefaultMaxTurns, "agent turns (model rounds) per task")
	cmd.Flags().IntVar(&f.maxSteps, "max-steps", editloop.DefaultMaxSteps, "agent steps per iteration before its result goes to the gate as it stands")
	cmd.Flags().BoolVar(&f.vq, "vq", false, "also run the visual-quality judge on changed slides (reported only)")
	cmd.Flags().BoolVar(&f.noRender, "no-render", false, "skip Chromium: no geometry gate, no images for the judge")
	cmd.Flags().DurationVar(&f.renderLimit, "render-timeout", 30*time.Second, "time limit for rendering one slide; a slide that takes longer fails the edit with a timeout")
	cmd.Flags().BoolVar(&f.overwrite, "force", false, "replace OUT if it exists")
	cmd.Flags().BoolVar(&f.skills, "skills", false, "use the skill bank (ace skills list): the skills matching the instruction are starred in a catalog the agent can read with load_skill, and the edit is recorded for ace skills evolve. "+
		"Off by default until skills on vs off has been measured with ace bench on a real model; the seed bank is new")
	rootCmd.AddCommand(cmd)
}

func runEdit(ctx context.Context, stdout, stderr io.Writer, deckPath string, f editFlags) error {
	if strings.TrimSpace(f.instruction) == "" && f.recipePath == "" {
		return badInput(errors.New(`edit: give -i "instruction" or --recipe R.yaml`))
	}
	if f.tau < 0 || f.tau > 5 || f.iterations < 1 || f.maxTurns < 1 || f.maxSteps < 0 {
		return badInput(fmt.Errorf("edit: --tau must be in 0..5, --iterations and --max-turns at least 1, --max-steps not negative"))
	}
	if f.renderLimit < 0 {
		return badInput(fmt.Errorf("edit: --render-timeout %s: want a positive duration such as 30s", f.renderLimit))
	}
	cfg, err := llm.ConfigFromEnv()
	if err != nil {
		return badInput(err)
	}
	if cfg.RPM > 0 || cfg.TPM > 0 {
		// One budget per endpoint, shared by every process through Redis
		// when ACE_REDIS_URL is set (in-process otherwise).
		lim := cache.NewLimiter(ctx, workers.ConfigFromEnv().Redis, "llm:"+cfg.BaseURL, cache.Rate{RequestsPerMin: cfg.RPM, TokensPerMin: cfg.TPM})
		defer lim.Close()
		cfg.Limiter = lim
	}
	client, err := llm.New(cfg)
	if err != nil {
		return badInput(err)
	}
	if _, err := client.Model(llm.RoleAgent); err != nil && f.recipePath == "" {
		return badInput(fmt.Errorf("edit: a natural-language edit needs a model: %w", err))
	}
	if client.HasModel(llm.RoleAgent) || client.HasModel(llm.RoleJudge) {
		// A wrong OPENAI_BASE_URL fails here in seconds, not after every
		// retry of the router, the agent and the judge.
		if err := client.Reachable(ctx, 10*time.Second); err != nil {
			return badInput(fmt.Errorf("edit: %w", err))
		}
	}
	var recipeYAML []byte
	if f.recipePath != "" {
		if recipeYAML, err = os.ReadFile(f.recipePath); err != nil {
			return badInput(fmt.Errorf("edit: recipe: %w", err))
		}
		// Check it before any deck is loaded or Chromium started: every
		// problem with its line and column, once.
		if _, err := recipe.Parse(f.recipePath, recipeYAML); err != nil {
			return badInput(err)
		}
		// A step for the agent without a model would be skipped: refuse,
		// as ace batch does, rather than half-apply the recipe.
		if steps := instructionSteps(f.recipePath, recipeYAML); len(steps) > 0 && !client.HasModel(llm.RoleAgent) {
			_, why := client.Model(llm.RoleAgent)
			return badInput(fmt.Errorf("recipe %s: %s is an instruction for the agent and needs a model (%v); configure one or remove the step", f.recipePath, steps[0], why))
		}
	}
	out := f.out
	if out == "" {
		// Figma JSON is import-only; its edit is written as ACE JSON.
		out = strings.TrimSuffix(deckPath, filepath.Ext(deckPath)) + ".edited" + filepath.Ext(deckPath)
	}
	// A bad output path is bad input, found before the edit runs.
	if err := checkDeckOutput("edit", "-o", deckPath, out, f.overwrite); err != nil {
		return err
	}
	if err := checkSideOutputs(deckPath, out, f.recipePath, map[string]string{"--record": f.recordPath, "--report": f.reportPath}); err != nil {
		return err
	}
	d, blobs, err := loadDeck("edit", deckPath)
	if err != nil {
		return err
	}
	// The loop prints its table only at the end: say that work began.
	fmt.Fprintf(stderr, "ace edit: %s (%s): editing; Ctrl-C stops it without writing anything\n", deckPath, plural(len(d.Slides), "slide"))

	var st store.Store = store.NewMemory()
	if f.skills {
		// The edit's turn record names its decks by ref; ace skills evolve
		// grades and replays it later, so they must outlive this process.
		if st, err = localSkillStore(); err != nil {
			return fmt.Errorf("edit: --skills: %w", err)
		}
	}
	if err := store.PutBlobs(ctx, st, blobs); err != nil {
		return err
	}
	origin, err := store.PutDeck(ctx, st, d)
	if err != nil {
		return err
	}
	var recipeRef string
	if recipeYAML != nil {
		if recipeRef, err = st.Put(ctx, recipeYAML); err != nil {
			return err
		}
	}
	// Routing decisions and routed contexts: shared through Redis when
	// ACE_REDIS_URL is set (a rerun of the same edit skips the router),
	// in-process otherwise.
	rc := cache.New(ctx, workers.ConfigFromEnv().Redis)
	defer rc.Close()
	steps := &runner.Steps{Store: st, LLM: client, Cache: rc}
	if f.skills {
		bank, _, closeBank, err := openSkillBank(ctx, "")
		if err != nil {
			return fmt.Errorf("edit: --skills: %w", err)
		}
		defer closeBank()
		steps.Skills = bank
	}
	// Progress on stderr: the step each iteration is at, and slides
	// rendered (issue 20: a 37-slide deck was 20-25 s of silence).
	status := newStatusLine(stderr)
	var (
		stepMu sync.Mutex
		step   string
	)
	steps.Progress = func(pr runner.Progress) {
		stepMu.Lock()
		step = fmt.Sprintf("edit: iteration %d: %s", pr.Iteration, pr.Step)
		stepMu.Unlock()
		status.show(step, false)
	}
	steps.Beat = func(_ context.Context, slides int) {
		stepMu.Lock()
		at := step
		stepMu.Unlock()
		status.show(fmt.Sprintf("%s, %s", at, plural(slides, "slide")), true)
	}
	if !f.noRender {
		status.say("edit: starting Chromium")
		pool, err := render.NewPool(ctx, render.Options{Memo: cache.NewLRU(0, 0), Timeout: f.renderLimit})
		if err != nil {
			return fmt.Errorf("edit: start Chromium for the geometry gate: %w (set ACE_CHROMIUM, or pass --no-render)", err)
		}
		defer pool.Close()
		steps.Renderer = pool
	}
	// Traces and metrics go out over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT
	// is set (telemetry.Setup); the edit's step trace and counters are
	// recorded from its EditResult, as the workflow's Publish does.
	shutdown, err := telemetry.Setup(ctx, "ace-edit")
	if err != nil {
		return fmt.Errorf("edit: telemetry: %w", err)
	}
	defer shutdown(context.WithoutCancel(ctx))
	rec, runErr := runner.Run(ctx, steps, editloop.Request{
		DeckRef: origin, Instruction: f.instruction, RecipeRef: recipeRef, RecipePath: f.recipePath,
		Policy:        policy.Config{Tau: f.tau, MaxIterations: f.iterations},
		MaxAgentTurns: f.maxTurns, MaxSteps: f.maxSteps, VQ: f.vq, ExportFormat: strings.TrimPrefix(strings.ToLower(filepath.Ext(out)), "."),
		Skills: f.skills,
	})
	status.finish()
	if rec != nil {
		telemetry.RecordResult(ctx, workflows.Result(&acev1.EditRequest{DeckName: filepath.Base(deckPath)}, rec))
	}
	if ctx.Err() != nil {
		// Interrupted: write nothing, not even an earlier iteration the
		// loop kept; the caller says so.
		return fmt.Errorf("edit: %w", ctx.Err())
	}
	// What the user asked for but did not get written: exit 1 at the end,
	// after the deck itself is written.
	var notWritten []string
	if f.recordPath != "" && rec != nil {
		b, _ := json.MarshalIndent(recordWithCalls(ctx, st, rec), "", "  ")
		if err := outfile.Write(f.recordPath, append(b, '\n'), f.overwrite); err != nil {
			notWritten = append(notWritten, fmt.Sprintf("the run record --record %s (%v)", f.recordPath, err))
		}
	}
	if f.jsonOut {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(recordWithCalls(ctx, st, rec))
	} else {
		printRecord(stdout, rec)
	}
	if runErr != nil {
		for _, nw := range notWritten {
			fmt.Fprintf(stderr, "ace: edit: not written: %s\n", nw)
		}
		if errors.Is(runErr, llm.ErrNoModel) || (recipeRef != "" && len(rec.Iterations) == 0) {
			return badInput(runErr) // no model, or a recipe that does not parse
		}
		return runErr
	}
	changed := rec.Final != origin
	pureRecipe := f.recipePath != "" && strings.TrimSpace(f.instruction) == ""
	// An output asked for with -o is written even when the edit changed
	// nothing (the deck as it stands, in OUT's format), as ace batch
	// exports every deck it did not fail; without -o an unchanged deck is
	// not copied to DECK.edited.EXT. What is written is the loop's export
	// of the kept deck, byte for byte.
	if rec.Export.Ref != "" && (changed || f.out != "") {
		if err := writeExport(ctx, st, rec, out, f.overwrite); err != nil {
			return fmt.Errorf("edit: write %s: %w", out, err)
		}
		if changed {
			if !f.jsonOut {
				fmt.Fprintf(stdout, "wrote %s (iteration %d)\n", out, rec.Selected)
			}
		} else {
			fmt.Fprintf(stderr, "ace: edit: %s; wrote the deck unchanged to %s\n", unchangedWhy(rec, pureRecipe), out)
		}
	} else if !f.jsonOut {
		fmt.Fprintf(stdout, "%s; nothing written (the original stands; pass -o OUT to write a copy anyway)\n", unchangedWhy(rec, pureRecipe))
	}
	if f.reportPath != "" {
		if err := writeEditReport(ctx, f.reportPath, deckPath, out, d, steps, rec, f.overwrite); err != nil {
			notWritten = append(notWritten, fmt.Sprintf("the report --report %s (%v)", f.reportPath, err))
		} else if !f.jsonOut {
			fmt.Fprintf(stdout, "report %s\n", f.reportPath)
		}
	}
	if len(notWritten) > 0 {
		return errors.New("edit: not written: " + strings.Join(notWritten, "; ") + "; give a path in a writable directory and run again")
	}
	if code := rec.Outcome.ExitCode(); code != policy.ExitOK {
		return &exitError{code: code, err: errors.New(rec.Reason)}
	}
	return nil
}

// writeExport writes the loop's export of the kept deck to out (atomic;
// a .json deck's pictures go beside it, deckio.WriteEncoded).
func writeExport(ctx context.Context, st store.Store, rec *editloop.Record, out string, overwrite bool) error {
	data, err := st.Get(ctx, rec.Export.Ref)
	if err != nil {
		return err
	}
	final, err := store.GetDeck(ctx, st, rec.Final)
	if err != nil {
		return err
	}
	return deckio.WriteEncoded(out, data, final, store.Assets(ctx, st), overwrite)
}

// recordWithCalls is the record as `--record` and `--json` write it: each
// iteration with its tool calls read back from the store (the loop keeps
// only their ref).
func recordWithCalls(ctx context.Context, st store.Store, rec *editloop.Record) any {
	type iteration struct {
		editloop.IterationRecord
		Calls []agent.Call `json:"calls,omitempty"`
	}
	type record struct {
		*editloop.Record
		Iterations []iteration `json:"iterations"`
	}
	out := record{Record: rec, Iterations: []iteration{}}
	for _, it := range rec.Iterations {
		x := iteration{IterationRecord: it}
		if it.CallsRef != "" {
			if data, err := st.Get(ctx, it.CallsRef); err == nil {
				_ = json.Unmarshal(data, &x.Calls)
			}
		}
		out.Iterations = append(out.Iterations, x)
	}
	return out
}

// unchangedWhy says in a few words why an edit's result is its input.
func unchangedWhy(rec *editloop.Record, pureRecipe bool) string {
	switch {
	case rec.Outcome == policy.Unchanged && pureRecipe:
		return "recipe changed nothing"
	case rec.Outcome == policy.Unchanged:
		return "the edit changed nothing"
	case rec.Outcome == policy.Stopped && unchangedEverywhere(rec):
		// A deliberate no-op the judge accepted (the target was absent
		// or already right): not a failure.
		return "the edit changed nothing, and the judge accepted the deck as it was"
	}
	return "no iteration was kept (" + string(rec.Outcome) + ")"
}

// unchangedEverywhere: every iteration left the deck as it found it.
func unchangedEverywhere(rec *editloop.Record) bool {
	for _, it := range rec.Iterations {
		if !it.DiffEmpty {
			return false
		}
	}
	return len(rec.Iterations) > 0
}

// printRecord writes the iteration table, the model calls and the totals.
func printRecord(w io.Writer, rec *editloop.Record) {
	if rec == nil {
		return
	}
	if rec.Recipe != "" {
		fmt.Fprintf(w, "recipe: %s\n", rec.Recipe)
	}
	for _, e := range rec.Warnings {
		fmt.Fprintf(w, "warning: %s\n", e)
	}
	dec := rec.Route.Decision
	fmt.Fprintf(w, "route: %s, target slides %v (%s)\n", dec.Mode, oneBased(dec.TargetSlides), dec.Source)
	printSkills(w, rec)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "iter\tIF\tgate\tcalls\ttool errors\tturns\tdiff\tprompt tok\tcached tok\tcompl tok\tcost USD\ttime s\tdecision")
	for _, it := range rec.Iterations {
		score := "-"
		if it.Score != nil {
			score = fmt.Sprintf("%.1f", *it.Score)
		} else if it.JudgeSkipped {
			score = "skipped"
		} else if it.JudgeMissing {
			score = "missing"
		}
		gate, decision := "pass", "-"
		switch {
		case it.Error != "":
			gate, decision = "-", "step failed"
		case !it.Rendered:
			gate = "not rendered"
		case !it.GatePassed:
			gate = fmt.Sprintf("FAIL (+%d)", len(it.NewViolations))
		}
		if it.Decision != nil {
			decision = string(it.Decision.Action)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%.4f\t%.1f\t%s\n", it.N, score, gate,
			it.ToolCalls, len(it.ToolErrors), it.Turns, it.DiffDistinct,
			it.Usage.PromptTokens, it.Usage.CachedPromptTokens, it.Usage.CompletionTokens, it.Usage.CostUSD,
			float64(it.Timings.Total)/1000, decision)
	}
	tw.Flush()
	for _, it := range rec.Iterations {
		if it.Critique != "" {
			fmt.Fprintf(w, "critique %d: %s\n", it.N, it.Critique)
		}
		for _, v := range it.NewViolations {
			fmt.Fprintf(w, "new violation %d: %s\n", it.N, v)
		}
		for _, e := range it.ToolErrors {
			fmt.Fprintf(w, "tool error %d (turn %d, %s, %s): %s\n", it.N, e.Turn, e.Tool, e.Kind, e.Message)
		}
		for _, e := range it.Notes {
			fmt.Fprintf(w, "note %d: %s\n", it.N, e)
		}
		if it.Error != "" {
			fmt.Fprintf(w, "failed %d: %s\n", it.N, it.Error)
		}
		if it.Decision != nil && it.Decision.Action != policy.Stop {
			fmt.Fprintf(w, "decision %d: %s: %s\n", it.N, it.Decision.Action, it.Decision.Reason)
		}
		for _, e := range it.Warnings {
			fmt.Fprintf(w, "warning %d: %s\n", it.N, e)
		}
	}
	for _, r := range rec.Reverted {
		fmt.Fprintf(w, "reverted slide %d (%s) to the original, per-slide gate: %s\n", r.Number, r.SlideID, strings.Join(r.Violations, "; "))
	}
	if rec.ChecksOnOrigin {
		fmt.Fprintln(w, "expectations: checked on the original deck (no iteration was kept)")
	}
	for _, c := range rec.Checks {
		fmt.Fprintln(w, c.String())
	}
	fmt.Fprintln(w, "model calls:")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  purpose\tmodel\tattempts\tprompt tok\tcached tok\tcompl tok\tcost USD\ttime ms\terror")
	for _, c := range rec.Calls() {
		cost := fmt.Sprintf("%.6f", c.CostUSD)
		if !c.Priced {
			cost = "unpriced"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%d\t%d\t%d\t%d\t%s\t%d\t%s\n", c.Purpose, c.Model, len(c.Attempts),
			c.PromptTokens, c.CachedPromptTokens, c.CompletionTokens, cost, c.DurationMS, c.Error)
	}
	tw.Flush()
	u := rec.Usage
	fmt.Fprintf(w, "task: %d calls, %d prompt tokens (%d cached), %d completion tokens, $%.4f", u.Calls, u.PromptTokens, u.CachedPromptTokens, u.CompletionTokens, u.CostUSD)
	if u.Unpriced > 0 {
		fmt.Fprintf(w, " (+%d calls to models without a price; set ACE_PRICES)", u.Unpriced)
	}
	fmt.Fprintf(w, ", %d agent turns, %.1f s\n", rec.AgentTurns, float64(rec.DurationMS)/1000)
	fmt.Fprintf(w, "outcome: %s (%s): %s\n", rec.Outcome, rec.Outcome.Wording(), rec.Reason)
}

func oneBased(idx []int) []int {
	out := make([]int, len(idx))
	for i, v := range idx {
		out[i] = v + 1
	}
	return out
}

// writeEditReport renders the record as the HTML page of internal/report
// and writes it with outfile.Write (a symbolic link at path is replaced
// only with replaceLink, --force).
func writeEditReport(ctx context.Context, path, deckPath, outPath string, origin *scenegraph.Deck, steps *runner.Steps, rec *editloop.Record, replaceLink bool) error {
	final, err := store.GetDeck(ctx, steps.Store, rec.Final)
	if err != nil {
		return err
	}
	d := diff.Compute(origin, final)
	e := report.Edit{
		Deck: filepath.Base(deckPath), Instruction: rec.Instruction, Recipe: rec.Recipe,
		Outcome: string(rec.Outcome), Reason: rec.Reason,
		DiffText: d.Text(origin), DiffEntries: d.Distinct, Similarity: d.Score,
		Usage: report.Usage{Calls: rec.Usage.Calls, PromptTokens: rec.Usage.PromptTokens, CachedTokens: rec.Usage.CachedPromptTokens,
			CompletionTokens: rec.Usage.CompletionTokens, CostUSD: rec.Usage.CostUSD},
		Timings:  []report.Timing{{Step: "route", Duration: time.Duration(rec.Route.DurationMS) * time.Millisecond}},
		Warnings: append([]string(nil), rec.Warnings...),
		Fonts:    fonts.Used(final),
	}
	if rec.Final != rec.Origin {
		e.Output = outPath
	}
	e.Skills = reportSkills(rec)
	// The same timeline a batch page shows, from the same EditResult.
	e.Timeline = report.TimelineOf(workflows.Result(&acev1.EditRequest{}, rec))
	var act, apply, dif, rend, judge time.Duration
	for _, it := range rec.Iterations {
		e.Iterations = append(e.Iterations, report.Iteration{N: it.N, Score: it.Score, VQ: it.VQ, Critique: it.Critique,
			GatePassed: it.GatePassed, NewViolations: it.NewViolations, Decision: decisionOf(it),
			Tokens: it.Usage.PromptTokens + it.Usage.CompletionTokens, CostUSD: it.Usage.CostUSD,
			Duration: time.Duration(it.Timings.Total) * time.Millisecond, Selected: it.N == rec.Selected})
		for _, te := range it.ToolErrors {
			e.Warnings = append(e.Warnings, fmt.Sprintf("iteration %d, turn %d: %s %s: %s", it.N, te.Turn, te.Tool, te.Kind, te.Message))
		}
		e.Warnings = append(e.Warnings, it.Warnings...)
		if it.N == rec.Selected {
			e.Violations = it.NewViolations
		}
		act += time.Duration(it.Timings.Act) * time.Millisecond
		apply += time.Duration(it.Timings.Apply) * time.Millisecond
		dif += time.Duration(it.Timings.Diff) * time.Millisecond
		rend += time.Duration(it.Timings.Render) * time.Millisecond
		judge += time.Duration(it.Timings.Judge) * time.Millisecond
	}
	e.Timings = append(e.Timings, report.Timing{Step: "act", Duration: act}, report.Timing{Step: "apply", Duration: apply},
		report.Timing{Step: "diff", Duration: dif}, report.Timing{Step: "render", Duration: rend}, report.Timing{Step: "judge", Duration: judge})
	for _, c := range rec.Checks {
		msg := c.String()
		if rec.ChecksOnOrigin {
			msg += " (checked on the original deck: no iteration was kept)"
		}
		e.Checks = append(e.Checks, report.Check{Name: c.Kind, Passed: false, Message: msg})
	}
	if steps.Renderer != nil && rec.Final != rec.Origin {
		if e.Slides, err = slidePairs(ctx, steps, rec, origin, final); err != nil {
			return err
		}
	}
	// The attempts the gate refused, as the loop's Render step pictured
	// them, with the violations that failed it.
	put := map[string]bool{}
	for _, r := range rec.Reverted {
		put[r.SlideID] = true
		e.Reverted = append(e.Reverted, report.Reverted{Number: r.Number, SlideID: r.SlideID, Violations: r.Violations})
	}
	for _, it := range rec.Iterations {
		for _, b := range it.Blocked {
			if len(e.Rejected) == report.MaxRejected {
				break
			}
			var png []byte
			if b.Image != "" {
				if png, err = steps.Store.Get(ctx, b.Image); err != nil {
					return fmt.Errorf("picture of slide %d of iteration %d: %w", b.Number, it.N, err)
				}
			}
			e.Rejected = append(e.Rejected, report.NewRejected(it.N, b.Number, png, origin.Width, origin.Height, b.Violations,
				put[b.SlideID] && it.N == rec.Selected))
		}
	}
	var buf bytes.Buffer
	if err := report.WriteEdit(&buf, e); err != nil {
		return err
	}
	return outfile.Write(path, buf.Bytes(), replaceLink)
}

// decisionOf is an iteration's decision for the report ("step failed"
// when a step ended it).
func decisionOf(it editloop.IterationRecord) string {
	if it.Decision == nil {
		return "step failed"
	}
	return string(it.Decision.Action)
}

// slidePairs renders the changed slides before and after (at most 60) with
// the loop's own Render step.
func slidePairs(ctx context.Context, steps *runner.Steps, rec *editloop.Record, origin, final *scenegraph.Deck) ([]report.SlidePair, error) {
	df, err := steps.Diff(ctx, editloop.DiffInput{OriginRef: rec.Origin, DeckRef: rec.Final})
	if err != nil {
		return nil, err
	}
	ids := df.ChangedSlides
	if len(ids) > 60 {
		ids = ids[:60]
	}
	images := func(ref string) (map[string][]byte, error) {
		out, err := steps.RenderSlides(ctx, ref, ids, true, 0)
		if err != nil {
			return nil, err
		}
		m := map[string][]byte{}
		for _, im := range out.Images {
			if m[im.SlideID], err = steps.Store.Get(ctx, im.Ref); err != nil {
				return nil, err
			}
		}
		return m, nil
	}
	before, err := images(rec.Origin)
	if err != nil {
		return nil, err
	}
	after, err := images(rec.Final)
	if err != nil {
		return nil, err
	}
	var pairs []report.SlidePair
	for _, id := range ids {
		p := report.SlidePair{Before: before[id], After: after[id]}
		if s, i := final.SlideByID(id); s != nil {
			p.Number, p.Title = i+1, s.Name
		} else if s, i := origin.SlideByID(id); s != nil {
			p.Number, p.Title, p.Note = i+1, s.Name, "removed"
		}
		if _, i := origin.SlideByID(id); i < 0 {
			p.Note = "added"
		}
		pairs = append(pairs, p)
	}
	return pairs, nil
}
