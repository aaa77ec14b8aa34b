package benchrun

import (
	"context"

	"fmt"
	"os"
	"sync"
	"time"

	"github.com/acecanvas/ace/internal/bench"
	"github.com/acecanvas/ace/internal/cache"
	"github.com/acecanvas/ace/internal/deckio"
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/judge"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/report"
	"github.com/acecanvas/ace/internal/runner"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/store"
)

// Harness runs a suite's tasks under arms and seeds.
type Harness struct {
	Tasks []*bench.Task
	Arms  []Arm
	// Seeds is how many times each task runs under each arm (seed 1..N).
	Seeds int
	// Concurrency bounds the runs in flight (default 1). Each run holds
	// its own store; the render pool and the route cache are shared.
	Concurrency int
	// LLM is the environment's model configuration; each arm's model
	// names go over it (Arm.LLMConfig).
	LLM llm.Config
	// Pool renders the gate, the observations, SCR and the report's
	// pictures. nil runs without a renderer: no gate, no SCR, and
	// no_new_violations checks are not rendered.
	Pool *render.Pool
	// Cache holds routing decisions and contexts across runs (nil: none).
	Cache cache.Cache
	// Rejudge, when set, names a judge model that scores each run's
	// final deck again out of the loop (ACE §5.4 bounds self-judging
	// so): Row.IFRejudged. Its calls count in the row's tokens and cost.
	Rejudge string
	// Pictures, when > 0, keeps up to that many before/after pairs of
	// changed slides of each task's seed-1 run per arm, for the report.
	Pictures int
	// Resume are rows of an earlier run of the same bench (results.jsonl):
	// a task, arm and seed with a row there that was not canceled is not
	// run again, and its row is returned as it was.
	Resume []Row
	// Done is told each row as its run ends, in the order runs end (under
	// a lock: one call at a time).
	Done func(Row) error
	// Skills is the skill bank the arms with skills on retrieve from and
	// record their edits to (*skills.Bank); nil fails their runs at
	// Route, saying so.
	Skills runner.SkillBank
	// Keep, when set, also holds the original deck and pictures of each
	// run with skills on: its turn record names the deck by ref, and the
	// evolve round replays it from there (ace skills evolve's local
	// store). Each run's own store is in memory and ends with it.
	Keep store.Store
}

// Run runs every task under every arm and seed, at most Concurrency at
// once, and returns the rows in task, arm, seed order with the pictures
// kept for the report. A run that fails is a row with its Error, never
// an error of Run; the error is Done's, or ctx's when it ended.
func (h *Harness) Run(ctx context.Context) ([]Row, map[RunKey][]report.SlidePair, error) {
	type job struct {
		i    int
		task *bench.Task
		arm  int
		seed int
	}
	type runID struct {
		task, arm string
		seed      int
	}
	had := map[runID]Row{}
	for _, r := range h.Resume {
		if r.Arm != "" && r.Outcome != policy.Canceled {
			had[runID{r.Task, r.Arm, r.Seed}] = r
		}
	}
	var jobs []job
	var rows []Row
	for _, t := range h.Tasks {
		for a := range h.Arms {
			for s := 1; s <= max(h.Seeds, 1); s++ {
				r, ok := had[runID{t.ID, h.Arms[a].Name, s}]
				if !ok {
					jobs = append(jobs, job{i: len(rows), task: t, arm: a, seed: s})
				}
				rows = append(rows, r)
			}
		}
	}
	clients := make([]*llm.Client, len(h.Arms))
	for i, a := range h.Arms {
		c, err := llm.New(a.LLMConfig(h.LLM))
		if err != nil {
			return nil, nil, fmt.Errorf("arm %s: %w", a.Name, err)
		}
		clients[i] = c
	}
	var rejudge *llm.Client
	if h.Rejudge != "" {
		cfg := h.LLM
		cfg.JudgeModel = h.Rejudge
		c, err := llm.New(cfg)
		if err != nil {
			return nil, nil, fmt.Errorf("rejudge: %w", err)
		}
		rejudge = c
	}
	pics := map[RunKey][]report.SlidePair{}
	var mu sync.Mutex
	var doneErr error
	ch := make(chan job)
	var wg sync.WaitGroup
	for range max(h.Concurrency, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				if ctx.Err() != nil {
					continue // handed over as the bench was canceled: not started
				}
				keep := 0
				if j.seed == 1 {
					keep = h.Pictures
				}
				row, p := h.runOne(ctx, j.task, h.Arms[j.arm], clients[j.arm], rejudge, j.seed, keep)
				mu.Lock()
				rows[j.i] = row
				if len(p) > 0 {
					pics[RunKey{Task: row.Task, Arm: row.Arm}] = p
				}
				if h.Done != nil && doneErr == nil {
					doneErr = h.Done(row)
				}
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		if ctx.Err() != nil {
			break
		}
		mu.Lock()
		stop := doneErr != nil
		mu.Unlock()
		if stop {
			break
		}
		ch <- j
	}
	close(ch)
	wg.Wait()
	if doneErr != nil {
		return rows, pics, doneErr
	}
	if err := ctx.Err(); err != nil {
		return rows, pics, err
	}
	return rows, pics, nil
}

// RunKey names a task's runs under one arm.
type RunKey struct{ Task, Arm string }

// runOne runs one task under one arm and seed: the deck and recipe go
// into a store of the run's own, the loop runs (runner.Run), and the
// result is checked (check).
func (h *Harness) runOne(ctx context.Context, t *bench.Task, a Arm, client, rejudge *llm.Client, seed, pictures int) (Row, []report.SlidePair) {
	row := Row{Task: t.ID, Category: t.Category, Arm: a.Name, Seed: seed, Deck: t.DeckRef}
	fail := func(err error) (Row, []report.SlidePair) {
		row.Outcome, row.Error = policy.Failed, err.Error()
		return row, nil
	}
	d, blobs, err := deckio.Load(t.Deck)
	if err != nil {
		return fail(fmt.Errorf("deck %s: %w", t.Deck, err))
	}
	st := store.NewMemory()
	if err := store.PutBlobs(ctx, st, blobs); err != nil {
		return fail(err)
	}
	origin, err := store.PutDeck(ctx, st, d)
	if err != nil {
		return fail(err)
	}
	if a.Skills && h.Keep != nil {
		if err := store.PutBlobs(ctx, h.Keep, blobs); err != nil {
			return fail(fmt.Errorf("keep the deck for the evolve round: %w", err))
		}
		if _, err := store.PutDeck(ctx, h.Keep, d); err != nil {
			return fail(fmt.Errorf("keep the deck for the evolve round: %w", err))
		}
	}
	req := a.Request(origin)
	req.Instruction = t.Instruction
	if t.Recipe != "" {
		y, err := os.ReadFile(t.Recipe)
		if err != nil {
			return fail(fmt.Errorf("recipe: %w", err))
		}
		if req.RecipeRef, err = st.Put(ctx, y); err != nil {
			return fail(err)
		}
		req.RecipePath = t.Recipe
	}
	steps := &runner.Steps{Store: st, LLM: client, Cache: h.Cache, Skills: h.Skills}
	if h.Pool != nil {
		steps.Renderer = h.Pool
	}
	rec, runErr := runner.Run(ctx, steps, req)
	fillFromRecord(&row, rec)
	if runErr != nil {
		row.Error = runErr.Error()
	}
	if rec == nil {
		return row, nil
	}
	t0 := time.Now()
	err = h.check(ctx, &row, t, steps, rec, d)
	row.Timings.Check = time.Since(t0).Milliseconds()
	if err != nil {
		row.Error = joinErr(row.Error, "check: "+err.Error())
		return row, nil
	}
	if rejudge != nil && rec.Route.AgentInstruction != "" && row.Outcome != policy.Failed {
		if err := rejudgeRun(ctx, &row, &runner.Steps{Store: st, LLM: rejudge, Renderer: steps.Renderer}, rec); err != nil {
			row.Error = joinErr(row.Error, "rejudge: "+err.Error())
		}
	}
	var pairs []report.SlidePair
	if pictures > 0 && h.Pool != nil && rec.Final != rec.Origin {
		final, err := store.GetDeck(ctx, st, rec.Final)
		if err == nil {
			assets := store.Assets(ctx, st)
			pairs, err = report.Pairs(ctx, h.Pool, d, final, assets, assets, PictureScale)
		}
		if err != nil {
			row.Error = joinErr(row.Error, "pictures: "+err.Error())
		}
		if len(pairs) > pictures {
			pairs = pairs[:pictures]
		}
	}
	return row, pairs
}

// PictureScale is the report's picture scale (a 1280 px slide is 384 px
// wide): several arms of many tasks stay one mailable page.
const PictureScale = 0.3

func joinErr(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// fillFromRecord copies what the loop recorded into row.
func fillFromRecord(row *Row, rec *editloop.Record) {
	if rec == nil {
		row.Outcome = policy.Failed
		return
	}
	row.Outcome, row.Reason = rec.Outcome, rec.Reason
	row.Iterations, row.Selected, row.AgentTurns = len(rec.Iterations), rec.Selected, rec.AgentTurns
	for _, it := range rec.Iterations {
		row.IFs = append(row.IFs, it.Score)
		row.VQs = append(row.VQs, it.VQ)
		row.ToolCalls += it.ToolCalls
		row.ToolErrors += len(it.ToolErrors)
		tm := it.Timings
		row.Timings.Act += tm.Act
		row.Timings.Observe += tm.Observe
		row.Timings.Apply += tm.Apply
		row.Timings.Diff += tm.Diff
		row.Timings.Render += tm.Render
		row.Timings.Judge += tm.Judge
		row.Timings.Critic += tm.Critic
		if it.Rendered && !it.GatePassed && it.Error == "" {
			row.GateViolations = it.NewViolations
		}
	}
	if !anyScore(row.VQs) {
		row.VQs = nil
	}
	if len(rec.Iterations) > 0 {
		row.ContextMode = rec.Iterations[0].Mode
	}
	if kept := rec.Kept(); kept != nil {
		row.IF, row.VQ, row.GatePassed = kept.Score, kept.VQ, kept.GatePassed
	}
	if sk := rec.Route.Skills; sk != nil {
		covered := sk.Covered
		row.SkillsStarred, row.SkillsLoaded, row.SkillsCovered = sk.Starred, rec.LoadedSkills(), &covered
	}
	u := rec.Usage
	row.Tokens = Tokens{Uncached: u.PromptTokens - u.CachedPromptTokens, Cached: u.CachedPromptTokens, Completion: u.CompletionTokens}
	row.ModelCalls, row.CostUSD, row.Unpriced = u.Calls, u.CostUSD, u.Unpriced
	row.Timings.Route, row.Timings.Loop = rec.Route.DurationMS, rec.DurationMS
	row.WallS = float64(rec.DurationMS) / 1000
}

func anyScore(s []*float64) bool {
	for _, v := range s {
		if v != nil {
			return true
		}
	}
	return false
}

// check evaluates the task's checks on the result as a user opens it:
// the loop's export imported again (bench.Reimport of the kept deck when
// the loop exported nothing), and measures the final render's clean-slide
// rate and its new violations against the original (render.Gate over
// every slide), which no_new_violations reads.
func (h *Harness) check(ctx context.Context, row *Row, t *bench.Task, steps *runner.Steps, rec *editloop.Record, original *scenegraph.Deck) error {
	final, err := store.GetDeck(ctx, steps.Store, rec.Final)
	if err != nil {
		return err
	}
	var result *scenegraph.Deck
	if rec.Export.Ref != "" {
		data, err := steps.Store.Get(ctx, rec.Export.Ref)
		if err != nil {
			return err
		}
		if result, _, err = deckio.Decode("result."+rec.Export.Format, data); err != nil {
			return fmt.Errorf("import the export again: %w", err)
		}
	} else if result, err = bench.Reimport(final, store.Assets(ctx, steps.Store)); err != nil {
		return err
	}
	ev := bench.Evidence{Result: result, Original: original}
	if steps.Renderer != nil {
		now, err := steps.RenderSlides(ctx, rec.Final, nil, false, 0)
		if err != nil {
			return fmt.Errorf("render the final deck: %w", err)
		}
		before, err := steps.RenderSlides(ctx, rec.Origin, nil, false, 0)
		if err != nil {
			return fmt.Errorf("render the original deck: %w", err)
		}
		dirty := map[string]bool{}
		for _, v := range now.Violations {
			dirty[v.SlideID] = true
		}
		row.Slides, row.CleanSlides = now.Slides, now.Slides-len(dirty)
		if now.Slides > 0 {
			scr := float64(row.CleanSlides) / float64(now.Slides)
			row.SCR = &scr
		}
		dirty = map[string]bool{}
		for _, v := range before.Violations {
			dirty[v.SlideID] = true
		}
		row.OriginCleanSlides = before.Slides - len(dirty)
		if before.Slides > 0 {
			scr := float64(row.OriginCleanSlides) / float64(before.Slides)
			row.SCROrigin = &scr
		}
		_, fresh := render.Gate(now.Violations, before.Violations)
		ev.Render = &bench.RenderEvidence{}
		for _, v := range fresh {
			desc := judge.Describe(v)
			row.NewViolations = append(row.NewViolations, desc)
			ev.Render.NewViolations = append(ev.Render.NewViolations, desc)
		}
	}
	row.Checks = t.Evaluate(ev)
	for _, r := range row.Checks {
		switch r.Status {
		case bench.StatusPass:
			row.ChecksPassed++
		case bench.StatusFail:
			row.ChecksFailed++
		}
	}
	if n := row.ChecksPassed + row.ChecksFailed; n > 0 {
		share := float64(row.ChecksPassed) / float64(n)
		row.ChecksShare = &share
	}
	row.ChecksAll, _ = bench.Passed(row.Checks)
	return nil
}

// rejudgeRun scores the run's final deck with the out-of-loop judge: the
// loop's own Judge step on the diff of the original against the final
// deck (with the changed slides' pictures when the diff touches visual
// content), as the in-loop judge scored each iteration.
func rejudgeRun(ctx context.Context, row *Row, s *runner.Steps, rec *editloop.Record) error {
	df, err := s.Diff(ctx, editloop.DiffInput{OriginRef: rec.Origin, DeckRef: rec.Final, Targets: rec.Route.Decision.TargetSlides})
	if err != nil {
		return err
	}
	in := editloop.JudgeInput{Instruction: rec.Route.AgentInstruction, DiffTextRef: df.TextRef, TouchesVisual: df.TouchesVisual}
	if kept := rec.Kept(); kept != nil {
		in.Account = kept.Account
	}
	if df.TouchesVisual && s.Renderer != nil && !df.Empty {
		shots, err := s.RenderSlides(ctx, rec.Final, df.ChangedSlides, true, 0)
		if err != nil {
			return err
		}
		in.Images = shots.Images
	}
	out, err := s.Judge(ctx, in)
	if err != nil {
		return err
	}
	u := llm.Sum(out.IF.Calls)
	row.ModelCalls += u.Calls
	row.Tokens.Uncached += u.PromptTokens - u.CachedPromptTokens
	row.Tokens.Cached += u.CachedPromptTokens
	row.Tokens.Completion += u.CompletionTokens
	row.CostUSD += u.CostUSD
	row.Unpriced += u.Unpriced
	row.IFRejudged = out.IF.Score
	if out.IF.Missing {
		return fmt.Errorf("no score: %s", out.IF.Problem)
	}
	return nil
}
