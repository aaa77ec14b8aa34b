package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/judge"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/recipe"
	"github.com/acecanvas/ace/internal/route"
	"github.com/acecanvas/ace/internal/store"
)

// Request is one edit of the snapshot DeckRef: a natural-language
// instruction, or a recipe (RecipeRef: the store ref of its YAML;
// RecipePath: its file name, for errors and its asset directory).
type Request struct {
	DeckRef     string
	Instruction string
	RecipeRef   string
	RecipePath  string
	// Policy is tau and T (zero fields take policy.Default).
	Policy policy.Config
	// MaxAgentTurns caps model rounds over the whole task (0 = 35).
	MaxAgentTurns int
	// VQ also runs the visual-quality judge on the changed slides (reported
	// only).
	VQ bool
	// KeepDiffText stores each iteration's diff text in the record.
	KeepDiffText bool
}

// Run executes the loop and returns its record. The error is non-nil only
// when the edit could not run at all (no model, unreadable snapshot, the
// first act failing); the record is returned in every case, with Final set
// to the best snapshot reached.
func Run(ctx context.Context, s *Steps, req Request) (*Record, error) {
	start := time.Now()
	cfg := req.Policy.WithDefaults()
	maxTurns := req.MaxAgentTurns
	if maxTurns <= 0 {
		maxTurns = agent.DefaultMaxTurns
	}
	rec := &Record{Instruction: req.Instruction, Origin: req.DeckRef, Final: req.DeckRef, Policy: cfg}
	defer func() {
		rec.Usage = llm.Sum(rec.Calls())
		rec.DurationMS = time.Since(start).Milliseconds()
	}()
	fail := func(err error) (*Record, error) {
		rec.Outcome, rec.Error = "failed", err.Error()
		if rec.Reason == "" {
			rec.Reason = err.Error()
		}
		return rec, err
	}
	hasModel := s.LLM.HasModel(llm.RoleAgent)
	// agentInstr is what the agent works on after the first iteration and
	// what the judge scores: the instruction, or a recipe's instruction
	// steps (empty for a pure recipe: no judge, one iteration).
	agentInstr := req.Instruction
	var rcp *recipe.Recipe
	if req.RecipeRef != "" {
		r, err := s.loadRecipe(ctx, req.RecipeRef, req.RecipePath)
		if err != nil {
			return fail(err)
		}
		rcp, rec.Recipe = r, r.Name
		if agentInstr == "" && hasModel {
			agentInstr = strings.Join(recipeInstructions(r), "\n")
		}
	} else if !hasModel {
		_, err := s.LLM.Model(llm.RoleAgent)
		return fail(fmt.Errorf("a natural-language edit needs a model: %w", err))
	} else if strings.TrimSpace(req.Instruction) == "" {
		return fail(errors.New("no instruction and no recipe: nothing to do"))
	}

	t0 := time.Now()
	var rt RouteOutput
	if agentInstr == "" {
		rt.Decision = route.Decision{Mode: route.Off, Source: "recipe", Reason: "a recipe compiles to tool calls; no agent step"}
	} else {
		var err error
		rt, err = s.Route(ctx, RouteInput{DeckRef: req.DeckRef, Instruction: agentInstr})
		if err != nil {
			rec.Route = RouteRecord{Decision: rt.Decision, LLM: rt.LLM, DurationMS: ms(time.Since(t0)), Cached: rt.Cached}
			return fail(fmt.Errorf("route: %w", err))
		}
	}
	rec.Route = RouteRecord{Decision: rt.Decision, LLM: rt.LLM, DurationMS: ms(time.Since(t0)), Cached: rt.Cached}

	var hist []policy.Iteration
	base, feedback := req.DeckRef, ""
	for n := 1; n <= cfg.MaxIterations; n++ {
		act := ActInput{DeckRef: base, Instruction: agentInstr, Feedback: feedback, Route: rt.Decision, MaxTurns: maxTurns - rec.AgentTurns}
		if n == 1 && req.RecipeRef != "" {
			act.RecipeRef, act.RecipePath = req.RecipeRef, req.RecipePath
		}
		it, err := iterate(ctx, s, req, act, agentInstr)
		it.N = n
		rec.AgentTurns += it.Turns
		if err != nil {
			it.Errors = append(it.Errors, err.Error())
			if n == 1 && len(it.ToolCalls) == 0 {
				rec.Iterations = append(rec.Iterations, it)
				return fail(err)
			}
			if it.Snapshot == "" {
				// Nothing to judge: stop with what earlier iterations reached.
				rec.Iterations = append(rec.Iterations, it)
				rec.Outcome, rec.Reason = "failed", fmt.Sprintf("iteration %d: %v", n, err)
				if len(hist) > 0 {
					rec.Outcome = "interrupted"
					rec.Reason += "; keeping the best earlier iteration"
				}
				break
			}
		}
		hist = append(hist, policy.Iteration{N: n, Snapshot: it.Snapshot, Score: it.Score,
			GatePassed: it.GatePassed, Critique: it.Critique, NewViolations: it.NewViolations})
		it.Decision = policy.Next(cfg, req.DeckRef, hist)
		rec.Iterations = append(rec.Iterations, it)
		if it.Decision.Action == policy.Stop {
			rec.Reason = it.Decision.Reason
			var why string
			rec.Outcome, why = policy.Outcome(cfg, req.DeckRef, hist, rcp != nil && agentInstr == "")
			if why != "" {
				rec.Reason = why
			}
			break
		}
		if agentInstr == "" {
			// A pure recipe is deterministic: another iteration would
			// compile the same calls.
			rec.Reason = it.Decision.Reason
			break
		}
		if rec.AgentTurns >= maxTurns {
			rec.Outcome, rec.Reason = "turn_cap", fmt.Sprintf("agent turn budget of %d spent", maxTurns)
			break
		}
		base, feedback = it.Decision.Base, it.Decision.Feedback
	}

	sel := policy.Select(hist)
	if sel >= 0 {
		rec.Final, rec.Selected = hist[sel].Snapshot, hist[sel].N
	} else {
		rec.Final, rec.Selected = req.DeckRef, 0
		if len(hist) > 0 && rec.Outcome != "failed" && rec.Outcome != "interrupted" {
			rec.Outcome = "gate_blocked"
			rec.Reason = "every iteration added geometry violations; the original deck stands"
		}
	}
	if rec.Outcome == "" {
		rec.Outcome = "budget"
	}
	if rcp != nil && len(rcp.Expect) > 0 {
		if err := checkExpectations(ctx, s, rcp, rec); err != nil {
			return fail(err)
		}
	}
	return rec, nil
}

// checkExpectations evaluates the recipe's expectations on the final deck;
// any failure makes the outcome expectation_failed (with no model the
// expectations are the judge).
func checkExpectations(ctx context.Context, s *Steps, r *recipe.Recipe, rec *Record) error {
	final, err := store.GetDeck(ctx, s.Store, rec.Final)
	if err != nil {
		return fmt.Errorf("final snapshot: %w", err)
	}
	gate := recipe.GateResult{}
	if rec.Selected > 0 {
		it := rec.Iterations[rec.Selected-1]
		gate = recipe.GateResult{Checked: it.Rendered && s.Renderer != nil, NewViolations: it.NewViolations}
	}
	rec.Checks = recipe.Check(r, final, gate)
	// A gate block, a failed or an interrupted edit stays the outcome (the
	// original or an earlier iteration stands, so the expectations
	// naturally fail, and calling that an expectation failure would hide
	// the error); the failed checks are still recorded.
	kept := rec.Outcome == "gate_blocked" || rec.Outcome == "failed" || rec.Outcome == "interrupted"
	if len(rec.Checks) > 0 && !kept {
		rec.Outcome, rec.Reason = "expectation_failed", rec.Checks[0].String()
	} else if len(rec.Checks) == 0 && len(r.Expect) > 0 {
		rec.Reason += policy.ExpectationsHold(len(r.Expect))
	}
	return nil
}

func recipeInstructions(r *recipe.Recipe) []string {
	var out []string
	for _, st := range r.Steps {
		if st.Instruction != "" {
			out = append(out, st.Instruction)
		}
	}
	return out
}

// iterate runs act, apply, diff, render, gate and judge once.
func iterate(ctx context.Context, s *Steps, req Request, in ActInput, judgeInstr string) (IterationRecord, error) {
	it := IterationRecord{Base: in.DeckRef, Feedback: in.Feedback}
	t0 := time.Now()
	finish := func(err error) (IterationRecord, error) {
		it.Usage = llm.Sum(it.LLM)
		it.Timings.Total = ms(time.Since(t0))
		return it, err
	}

	t := time.Now()
	act, err := s.Act(ctx, in)
	it.Warnings = act.Warnings
	it.Timings.Act = ms(time.Since(t))
	it.Mode, it.ContextBytes, it.Turns, it.ActStopped = act.Mode, act.Context, act.Turns, act.Stopped
	it.ToolCalls, it.ToolErrors, it.LLM = act.Calls, act.Errors, append(it.LLM, act.LLM...)
	if err != nil {
		return finish(fmt.Errorf("act: %w", err))
	}

	t = time.Now()
	ap, err := s.Apply(ctx, ApplyInput{DeckRef: in.DeckRef, Calls: act.Calls, AssetDir: act.AssetDir})
	it.Timings.Apply = ms(time.Since(t))
	if err != nil {
		return finish(fmt.Errorf("apply: %w", err))
	}
	if ap.DeckRef != act.DeckRef {
		return finish(fmt.Errorf("apply: replaying the agent's %d calls gave snapshot %s, the agent's working copy was %s (a tool is not deterministic)", len(act.Calls), ap.DeckRef, act.DeckRef))
	}
	it.Snapshot = ap.DeckRef

	t = time.Now()
	df, err := s.Diff(ctx, DiffInput{OriginRef: req.DeckRef, DeckRef: it.Snapshot})
	it.Timings.Diff = ms(time.Since(t))
	if err != nil {
		return finish(fmt.Errorf("diff: %w", err))
	}
	it.DiffDistinct, it.DiffEmpty, it.TouchesVisual, it.ChangedSlides = df.Distinct, df.Empty, df.TouchesVisual, df.ChangedSlides
	if req.KeepDiffText {
		it.DiffText = df.Text
	}

	// Render the touched slides of the current state and of the origin;
	// the gate compares their violations (ReDeck: no new ones).
	t = time.Now()
	var images []SlideImage
	if s.Renderer == nil {
		it.GatePassed = true
		it.Errors = append(it.Errors, "not rendered: no renderer configured, the geometry gate was not evaluated")
	} else if !df.Empty {
		var ids []string
		if !df.AllSlides {
			ids = df.ChangedSlides
		}
		cur, err := s.Render(ctx, RenderInput{DeckRef: it.Snapshot, SlideIDs: ids, Images: df.TouchesVisual || req.VQ})
		if err != nil {
			return finish(fmt.Errorf("render: %w", err))
		}
		orig, err := s.Render(ctx, RenderInput{DeckRef: req.DeckRef, SlideIDs: ids})
		if err != nil {
			return finish(fmt.Errorf("render origin: %w", err))
		}
		g := judge.Gate(cur.Violations, orig.Violations)
		it.Rendered, it.Violations, it.GatePassed, it.NewViolations = true, len(cur.Violations), g.Passed, g.New
		images = cur.Images
	} else {
		it.Rendered, it.GatePassed = true, true // nothing changed, nothing new
	}
	it.Timings.Render = ms(time.Since(t))

	t = time.Now()
	jo, err := s.Judge(ctx, JudgeInput{Instruction: judgeInstr, DiffText: df.Text, Images: images,
		TouchesVisual: df.TouchesVisual, VQ: req.VQ})
	it.Timings.Judge = ms(time.Since(t))
	it.LLM = append(it.LLM, jo.IF.Calls...)
	if jo.VQ != nil {
		it.LLM = append(it.LLM, jo.VQ.Calls...)
		it.VQ, it.VQReason = jo.VQ.Score, jo.VQ.Reason
	}
	it.JudgeSkipped = jo.Skipped
	it.Score, it.Critique = jo.IF.Score, jo.IF.Reason
	it.JudgeMissing, it.JudgeProblem = jo.IF.Missing, jo.IF.Problem
	if err != nil {
		// A judge outage leaves the score missing; the loop goes on.
		it.JudgeMissing = true
		it.Errors = append(it.Errors, err.Error())
		if errors.Is(err, context.Canceled) {
			return finish(err)
		}
	}
	return finish(nil)
}
