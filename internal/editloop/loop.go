package editloop

import (
	"errors"
	"fmt"
	"strings"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/critic"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/recipe"
	"github.com/acecanvas/ace/internal/route"
)

// Request is one edit of snapshot DeckRef: a natural-language instruction,
// or a recipe (RecipeRef: the store ref of its YAML; RecipePath: its file
// name, for errors and its asset directory).
type Request struct {
	DeckRef     string `json:"deckRef"`
	Instruction string `json:"instruction,omitempty"`
	RecipeRef   string `json:"recipeRef,omitempty"`
	RecipePath  string `json:"recipePath,omitempty"`
	// Policy is tau and T (zero fields take policy.Default).
	Policy policy.Config `json:"policy"`
	// MaxAgentTurns caps model rounds over the whole edit (0 =
	// agent.DefaultMaxTurns, the paper's 35).
	MaxAgentTurns int `json:"maxAgentTurns,omitempty"`
	// MaxSteps caps the agent's steps (model turns) in one iteration
	// before its result goes to the gate as it stands (0 = DefaultMaxSteps).
	MaxSteps int `json:"maxSteps,omitempty"`
	// VQ also runs the visual-quality judge on the changed slides
	// (reported, never a stopping signal).
	VQ bool `json:"vq,omitempty"`
	// ExportFormat is pptx, json, or empty for the origin's format.
	ExportFormat string `json:"exportFormat,omitempty"`
	// ContextMode, when set, fixes the CARE context mode instead of
	// routing (an ablation, ACE §5.4: FULL is "CARE off", OFF gives the
	// agent no context and leaves it to the get_* tools). The target
	// slides still come from the heuristic router H; no router model is
	// called. Empty: CARE decides (ACE §3.2).
	ContextMode route.Mode `json:"contextMode,omitempty"`
	// NoObservations turns the step observations off (ReDeck §3.1
	// ablation): after a step the agent gets its calls' results only, no
	// render of what changed, and undo_step and check_layout say that
	// observations are off. The submit gate still renders and refuses new
	// violations: it is the hard gate, not feedback.
	NoObservations bool `json:"noObservations,omitempty"`
	// Skills turns on the skill bank (Designer-RSI, issue 19): Route
	// retrieves the skills matching the instruction (internal/retrieval),
	// the agent sees the catalog with them starred and can read any with
	// load_skill, and the edit's turn record is written to the bank at the
	// end (Steps.RecordTurn).
	Skills bool `json:"skills,omitempty"`
}

// DefaultMaxSteps is the agent's step budget per iteration: enough for an
// edit, a few fixes from the observations, an undo and a submit. ReDeck
// gives only a whole-task cap (150 model calls, §B1); 12 steps times T = 3
// iterations stays within ACE's 35 turns per edit.
const DefaultMaxSteps = 12

// Steps is the request's per-iteration step budget with its default.
func (r Request) Steps() int {
	if r.MaxSteps <= 0 {
		return DefaultMaxSteps
	}
	return r.MaxSteps
}

// MaxTurns is the request's agent-turn budget with its default.
func (r Request) MaxTurns() int {
	if r.MaxAgentTurns <= 0 {
		return agent.DefaultMaxTurns
	}
	return r.MaxAgentTurns
}

// ErrCanceled marks a step error as a cancellation (Ctrl-C, the
// workflow's cancel signal): the loop stops at once with outcome canceled
// and keeps nothing.
var ErrCanceled = errors.New("edit canceled")

// Run is the edit loop (ACE Algorithm 1; DESIGN.md §4):
//
//	route once
//	for t in 1..T: act, apply, diff, render + gate, judge, then
//	    policy.Next: stop, continue with the critique, or roll back
//	keep policy.Select's iteration (strict peak; gate failures never win)
//	check the recipe's expectations on it, export it
//
// Every rule lives in internal/policy; Run only sequences the steps and
// records them. It is deterministic given the steps' results (no clock but
// Steps.Now, no map iteration, no goroutines), so a Temporal workflow can
// run it. resume, when not nil, is the record of an earlier run of the
// same request (continue-as-new); Run goes on from its last decision.
//
// The record is returned in every case. The error is non-nil when the
// outcome is failed or canceled (the error that caused it), or when
// Steps.Iterated returned one (returned as is, the record so far intact).
// A step failing after at least one iteration passed the gate is not an
// error: the outcome is interrupted and the best earlier iteration is kept.
func Run(s Steps, req Request, resume *Record) (*Record, error) {
	l := &loop{s: s, req: req, cfg: req.Policy.WithDefaults(), asked: map[string]bool{}}
	return l.run(resume)
}

type loop struct {
	s   Steps
	req Request
	cfg policy.Config
	rec *Record
	// asked are the violation keys the critic was asked to waive.
	asked map[string]bool
	// stepChanges are the ledger changes of the current step's
	// observations, for its StepRecord.
	stepChanges []critic.Change
}

func (l *loop) run(resume *Record) (*Record, error) {
	s, req := l.s, l.req
	if resume != nil {
		l.rec = resume
	} else {
		l.rec = &Record{Instruction: req.Instruction, Origin: req.DeckRef, Final: req.DeckRef, Policy: l.cfg,
			StartedUnixMS: s.Now().UnixMilli()}
		if err := l.route(); err != nil {
			return l.end(err)
		}
	}
	rec := l.rec
	x := rec.Route.AgentInstruction // what the agent works on and the judge scores
	if strings.TrimSpace(x) != "" && rec.Ledger == nil {
		rec.Ledger = &critic.Ledger{}
	}
	var stepErr error
	for len(rec.Iterations) < l.cfg.MaxIterations {
		base, fb := req.DeckRef, (*policy.Feedback)(nil)
		if n := len(rec.Iterations); n > 0 {
			d := rec.Iterations[n-1].Decision
			base, fb = d.Base, d.Feedback
		}
		it, err := l.iterate(len(rec.Iterations)+1, base, fb, x)
		rec.AgentTurns += it.Turns
		if err != nil {
			it.Error = err.Error()
			rec.Iterations = append(rec.Iterations, it)
			if errors.Is(err, ErrCanceled) {
				return l.end(err)
			}
			stepErr = err
			break
		}
		d := policy.Next(l.cfg, req.DeckRef, append(rec.history(), iterationOf(it)))
		if d.Feedback != nil && rec.Ledger != nil {
			d.Feedback.Issues = critic.Feedback(nil, rec.Ledger, "")
		}
		switch {
		case d.Action == policy.Stop:
			out, why := policy.StopOutcome(l.cfg, req.DeckRef, append(rec.history(), iterationOf(it)), x == "" && req.RecipeRef != "")
			rec.Outcome, rec.Reason = out, d.Reason
			if why != "" {
				rec.Reason = why
			}
		case x == "":
			// A pure recipe compiles the same calls again: one iteration.
			d = policy.Decision{Action: policy.Stop, Reason: d.Reason}
			rec.Reason = d.Reason
		case rec.AgentTurns >= req.MaxTurns():
			d = policy.Decision{Action: policy.Stop, Reason: fmt.Sprintf("agent turn budget of %d spent", req.MaxTurns())}
			rec.Outcome, rec.Reason = policy.TurnCap, d.Reason
		}
		it.Decision = &d
		rec.Iterations = append(rec.Iterations, it)
		if err := s.Iterated(rec); err != nil {
			if errors.Is(err, ErrCanceled) {
				return l.end(err)
			}
			return rec, err
		}
		if d.Action == policy.Stop {
			break
		}
	}
	return l.finish(stepErr)
}

// route runs the Route step and records it.
func (l *loop) route() error {
	t0 := l.s.Now()
	out, err := l.s.Route(RouteInput{DeckRef: l.req.DeckRef, Instruction: l.req.Instruction,
		RecipeRef: l.req.RecipeRef, RecipePath: l.req.RecipePath, Mode: l.req.ContextMode, Skills: l.req.Skills})
	rec := l.rec
	rec.Route = RouteRecord{Decision: out.Decision, AgentInstruction: out.AgentInstruction, LLM: out.LLM,
		DurationMS: l.s.Now().Sub(t0).Milliseconds(), Cached: out.Cached, Skills: out.Skills}
	rec.Recipe, rec.Expectations, rec.Gate = out.Recipe, out.Expectations, out.Gate
	rec.Warnings = out.Warnings
	if err != nil {
		return fmt.Errorf("route: %w", err)
	}
	return nil
}

// iterate runs act, apply, diff, render with the gate, and judge once. The
// record is filled as far as the steps got; the error names the step that
// failed.
func (l *loop) iterate(n int, base string, fb *policy.Feedback, x string) (it IterationRecord, err error) {
	s, req := l.s, l.req
	it = IterationRecord{N: n, Base: base, Feedback: fb}
	// An instruction is acted on by the agent and judged; a pure recipe
	// is judged by its expectations.
	instructed := strings.TrimSpace(x) != ""
	t0 := s.Now()
	defer func() {
		it.Usage = llm.Sum(it.LLM)
		it.Timings.Total = s.Now().Sub(t0).Milliseconds()
	}()
	lap := func(into *int64) func() {
		t := s.Now()
		return func() { *into = s.Now().Sub(t).Milliseconds() }
	}

	// The working copy: a recipe's first iteration starts from its
	// compiled calls; the agent's step loop continues from there.
	start := working{deck: base}
	var assetDir string
	done := lap(&it.Timings.Act)
	if n == 1 && req.RecipeRef != "" {
		act, err := s.Act(ActInput{DeckRef: base, RecipeRef: req.RecipeRef, RecipePath: req.RecipePath})
		it.ToolCalls, it.CallsRef, it.Warnings, it.ActStopped = act.Calls, act.CallsRef, act.Warnings, "recipe"
		if err != nil {
			done()
			return it, fmt.Errorf("act: %w", err)
		}
		start, assetDir = working{deck: act.DeckRef, calls: act.CallsRef}, act.AssetDir
	}
	final := start
	if instructed {
		var err error
		final, err = l.agentSteps(&it, base, start, x, fb, assetDir)
		if err != nil {
			done()
			return it, err
		}
		it.CallsRef = final.calls
	}
	done()

	done = lap(&it.Timings.Apply)
	ap, err := s.Apply(ApplyInput{DeckRef: base, CallsRef: final.calls, AssetDir: assetDir, Expect: final.deck})
	done()
	if err != nil {
		return it, fmt.Errorf("apply: %w", err)
	}
	it.Snapshot, it.ToolCalls = ap.DeckRef, ap.Applied

	done = lap(&it.Timings.Diff)
	df, err := s.Diff(DiffInput{OriginRef: req.DeckRef, DeckRef: it.Snapshot, Targets: l.rec.Route.Decision.TargetSlides})
	done()
	if err != nil {
		return it, fmt.Errorf("diff: %w", err)
	}
	it.DiffDistinct, it.DiffEmpty, it.DiffTextRef = df.Distinct, df.Empty, df.TextRef
	it.TouchesVisual, it.ChangedSlides = df.TouchesVisual, df.ChangedSlides

	// Render the touched slides of the new state and of the origin; the
	// gate compares their violations (ReDeck: no new ones).
	var ren RenderOutput
	if df.Empty {
		it.Rendered, it.GatePassed = true, true // nothing changed, nothing new
	} else {
		ids := df.ChangedSlides
		if df.AllSlides {
			ids = nil
		}
		// A recipe's per-slide gate judges the compiled steps slide by
		// slide (the agent's steps have their own gate on submit).
		perSlide := l.rec.Gate == recipe.GatePerSlide && !instructed
		// Pictures only for the judge and the critic, who look at them
		// when the edit changed what is drawn (or VQ is asked for); a
		// pure recipe is judged by its expectations, so its slides are
		// measured without them (the report's pictures are the Picture
		// step's).
		done = lap(&it.Timings.Render)
		ren, err = s.Render(RenderInput{DeckRef: it.Snapshot, OriginRef: req.DeckRef, SlideIDs: ids,
			Images: instructed && (df.TouchesVisual || req.VQ), Waived: l.waived(), PerSlide: perSlide})
		done()
		if err != nil {
			return it, fmt.Errorf("render: %w", err)
		}
		if ren.NotRendered {
			it.GatePassed = true
			it.Notes = append(it.Notes, "not rendered: no renderer configured, the geometry gate was not evaluated")
		} else {
			it.Rendered, it.Violations, it.GatePassed, it.NewViolations = true, ren.Violations, ren.GatePassed, ren.NewViolations
			it.Blocked, it.Measured = ren.Blocked, ren.Measured
		}
		if ren.DeckRef != "" && ren.DeckRef != it.Snapshot {
			// The per-slide gate put slides back: the iteration keeps
			// that snapshot, and its diff is the origin against it.
			it.Attempt, it.Snapshot, it.Reverted = it.Snapshot, ren.DeckRef, ren.Reverted
			done = lap(&it.Timings.Diff)
			t := it.Timings.Diff
			df, err = s.Diff(DiffInput{OriginRef: req.DeckRef, DeckRef: it.Snapshot, Targets: l.rec.Route.Decision.TargetSlides})
			done()
			it.Timings.Diff += t
			if err != nil {
				return it, fmt.Errorf("diff after the per-slide revert: %w", err)
			}
			it.DiffDistinct, it.DiffEmpty, it.DiffTextRef = df.Distinct, df.Empty, df.TextRef
			it.TouchesVisual, it.ChangedSlides = df.TouchesVisual, df.ChangedSlides
		}
	}

	if !instructed {
		it.JudgeSkipped = true // a pure recipe: its expectations judge it
		return it, nil
	}
	done = lap(&it.Timings.Judge)
	jo, err := s.Judge(JudgeInput{Instruction: x, DiffTextRef: df.TextRef, Images: ren.Images,
		TouchesVisual: df.TouchesVisual, VQ: req.VQ, Account: it.Account})
	done()
	it.LLM = append(it.LLM, jo.IF.Calls...)
	if jo.VQ != nil {
		it.LLM = append(it.LLM, jo.VQ.Calls...)
		it.VQ, it.VQReason = jo.VQ.Score, jo.VQ.Reason
	}
	if err != nil {
		return it, fmt.Errorf("judge: %w", err)
	}
	it.JudgeSkipped = jo.Skipped
	it.Score, it.Critique = jo.IF.Score, jo.IF.Reason
	it.JudgeMissing, it.JudgeProblem = jo.IF.Missing, jo.IF.Problem
	if jo.IF.Missing && jo.IF.Problem != "" {
		// A judge outage leaves the score missing; the loop goes on.
		it.Notes = append(it.Notes, "judge: "+jo.IF.Problem)
	}

	// The critic's turn: scheduled checks on the changed slides, the
	// render's geometry, the ledger updated (ReDeck §3.3).
	done = lap(&it.Timings.Critic)
	co, err := s.Critique(CritiqueInput{Turn: n, Instruction: x, Account: it.Account, DiffTextRef: df.TextRef, StartRef: base, DeckRef: it.Snapshot,
		Ledger: *l.rec.Ledger, Rendered: ren.Rendered, Violations: ren.Current, Baseline: ren.Origin, Images: ren.Images})
	done()
	it.LLM = append(it.LLM, co.Report.Calls...)
	if err != nil {
		return it, fmt.Errorf("critic: %w", err)
	}
	*l.rec.Ledger = co.Ledger
	rep := co.Report
	rep.Calls = nil // counted in it.LLM
	it.Critic = &rep
	return it, nil
}

// finish keeps policy.Select's iteration, names the outcome, checks the
// recipe's expectations on the kept deck and exports it. stepErr is the
// step failure that ended the loop early, if any.
func (l *loop) finish(stepErr error) (*Record, error) {
	s, req, rec := l.s, l.req, l.rec
	hist := rec.history()
	if sel := policy.Select(hist); sel >= 0 {
		rec.Final, rec.Selected = hist[sel].Snapshot, hist[sel].N
	} else {
		rec.Final, rec.Selected = req.DeckRef, 0
	}
	last := rec.Iterations[len(rec.Iterations)-1]
	switch {
	case stepErr != nil && rec.Selected == 0:
		return l.end(fmt.Errorf("iteration %d: %w", last.N, stepErr))
	case stepErr != nil:
		rec.Outcome = policy.Interrupted
		rec.Reason = fmt.Sprintf("iteration %d failed (%v); kept iteration %d, the best earlier one that passed the gate",
			last.N, stepErr, rec.Selected)
	case rec.Selected == 0:
		rec.Outcome = policy.GateBlocked
		rec.Reason = "every iteration added geometry violations; the original deck stands"
	case rec.Outcome == "":
		rec.Outcome = policy.Budget
	}
	if kept := rec.Kept(); kept != nil {
		rec.Reverted = kept.Reverted
		if kept.Measured != "" {
			// Export what the gate checked: text and frames at the size
			// the renderer drew them, not the tools' estimates.
			rec.Final = kept.Measured
		}
	}

	if req.RecipeRef != "" && rec.Expectations > 0 {
		gate := recipe.GateResult{Checked: true, Origin: true}
		if kept := rec.Kept(); kept != nil {
			gate = recipe.GateResult{Checked: kept.Rendered, NewViolations: kept.NewViolations}
		}
		chk, err := s.Check(CheckInput{RecipeRef: req.RecipeRef, RecipePath: req.RecipePath, DeckRef: rec.Final, Gate: gate})
		if err != nil {
			return l.end(fmt.Errorf("check expectations: %w", err))
		}
		rec.Checks, rec.ChecksOnOrigin = chk.Failures, gate.Origin
		switch {
		case len(chk.Failures) > 0 && rec.Outcome != policy.GateBlocked && rec.Outcome != policy.Interrupted:
			// A gate block or an interruption stays the outcome: the
			// original or an earlier iteration stands, so the
			// expectations naturally fail, and calling that an
			// expectation failure would hide why; the failed checks are
			// still recorded.
			rec.Outcome, rec.Reason = policy.ExpectationFailed, chk.Failures[0].String()
		case len(chk.Failures) == 0:
			rec.Reason += policy.ExpectationsHold(chk.Expectations)
		}
		if gate.Origin {
			rec.Reason += "; the expectations were checked on the original deck (no iteration was kept)"
		}
	}

	ex, err := s.Export(ExportInput{DeckRef: rec.Final, Format: req.ExportFormat})
	if err != nil {
		return l.end(fmt.Errorf("export: %w", err))
	}
	rec.Export = ex
	return l.end(nil)
}

// end totals the record; a non-nil err makes the outcome failed (or
// canceled) with nothing kept.
func (l *loop) end(err error) (*Record, error) {
	rec := l.rec
	if err != nil {
		rec.Outcome, rec.Error = policy.Failed, err.Error()
		if errors.Is(err, ErrCanceled) {
			rec.Outcome = policy.Canceled
		}
		rec.Reason = err.Error()
		rec.Final, rec.Selected, rec.Export = l.req.DeckRef, 0, ExportOutput{}
	}
	rec.Usage = llm.Sum(rec.Calls())
	rec.DurationMS = l.s.Now().UnixMilli() - rec.StartedUnixMS
	if l.req.Skills && rec.Route.Skills != nil && !errors.Is(err, ErrCanceled) {
		// The recorder (Designer-RSI App. C.4): one record per edit for
		// the evolve loop. Losing it loses a training signal, not the
		// edit, so a failure is noted in the record, not returned.
		tr := TurnRecordOf(rec, l.req)
		if out, rerr := l.s.RecordTurn(RecordTurnInput{Record: tr}); rerr != nil {
			rec.TurnRecordError = rerr.Error()
		} else {
			rec.TurnRecord = out.ID
		}
	}
	return rec, err
}

// iterationOf is the policy's view of one completed iteration.
func iterationOf(it IterationRecord) policy.Iteration {
	return policy.Iteration{N: it.N, Snapshot: it.Snapshot, Score: it.Score, GatePassed: it.GatePassed,
		Critique: it.Critique, NewViolations: it.NewViolations, Reverted: len(it.Reverted)}
}
