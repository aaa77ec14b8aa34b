package editloop

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/critic"
	"github.com/acecanvas/ace/internal/observe"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/render"
)

// working is the agent's working copy: the deck and the calls that give
// it from the iteration's base.
type working struct {
	deck, calls string
}

// agentSteps is an iteration's step loop (ReDeck §3.1-3.2, one edit, one
// observation): a model turn, its deck calls applied to the working copy,
// an observation of what changed in the layout handed back with the
// calls' results, until the agent submits and the gate passes (no
// violation the iteration's start did not have) or the turn budget ends.
// undo_step restores the working copy before the last step that changed
// it; check_layout observes without a change; an answer without calls is
// a submit. start is where the working copy begins: base, or a recipe's
// compiled deck (with its calls) that the agent continues.
func (l *loop) agentSteps(it *IterationRecord, base string, start working, x string, fb *policy.Feedback, assetDir string) (working, error) {
	s, rec := l.s, l.rec
	cur := start
	var undo []working
	var session, note string
	var results []agent.Result
	// last is the latest observation and the working copy it measured:
	// a submit right after a step reuses it.
	var last *observe.Observation
	var lastDeck string
	since := func(t time.Time) int64 { return s.Now().Sub(t).Milliseconds() }
	// observed is the current step's observation time (ms).
	var observed int64
	observeNow := func(prev string, slides []string, title string) (observe.Observation, error) {
		if slides == nil && last != nil && lastDeck == cur.deck && prev == cur.deck {
			return *last, nil
		}
		t := s.Now()
		o, err := s.Observe(ObserveInput{BaselineRef: base, PrevRef: prev, DeckRef: cur.deck, Slides: slides, Title: title, Waived: l.waived()})
		d := since(t)
		it.Timings.Observe += d
		observed += d
		if err != nil {
			return o, fmt.Errorf("observe: %w", err)
		}
		o.Text += l.criticStep(it.N, o)
		if slides == nil {
			last, lastDeck = &o, cur.deck
		}
		return o, nil
	}
	for {
		switch {
		case rec.AgentTurns+it.Turns >= l.req.MaxTurns():
			it.ActStopped = "turn_cap"
			return cur, nil
		case it.Turns >= l.req.Steps():
			it.ActStopped = "step_budget"
			return cur, nil
		}
		in := TurnInput{SessionRef: session, Results: results, Note: note}
		if session == "" {
			in.DeckRef, in.Instruction, in.Route, in.Feedback = start.deck, x, rec.Route.Decision, fb
			if sk := rec.Route.Skills; sk != nil {
				in.SkillsRef, in.Starred = sk.SetRef, sk.Starred
			}
		}
		t0 := s.Now()
		observed = 0
		t, err := s.AgentTurn(in)
		it.LLM = append(it.LLM, t.LLM...)
		if err != nil {
			return cur, fmt.Errorf("agent turn %d: %w", it.Turns+1, err)
		}
		if session == "" {
			it.Mode, it.ContextBytes, it.ContextNote = t.Mode, t.ContextBytes, t.ContextNote
		}
		session, results, note = t.SessionRef, nil, ""
		it.Turns++
		step := StepRecord{Turn: it.Turns, Text: t.Round.Text, StartedUnixMS: t0.UnixMilli()}
		step.Timings.Agent = since(t0)
		for _, c := range t.Round.Calls {
			step.Tools = append(step.Tools, c.Tool)
			step.Calls = append(step.Calls, ShortCall(c.Tool, []byte(c.Args)))
		}
		record := func(o observe.Observation) {
			observed1(&step, o)
			step.ObservationBytes += len(o.Text)
			step.Issues = append(step.Issues, l.stepChanges...)
			l.stepChanges = nil
		}

		if deckCalls(t.Round) > 0 {
			prev := cur
			ta := s.Now()
			r, err := s.ApplyRound(RoundInput{BaseRef: base, CallsRef: cur.calls, DeckRef: cur.deck, Round: t.Round, AssetDir: assetDir,
				SkillsRef: rec.Route.skillsRef()})
			step.Timings.Apply = since(ta)
			if err != nil {
				return cur, fmt.Errorf("apply turn %d: %w", it.Turns, err)
			}
			results = r.Results
			it.ToolErrors = append(it.ToolErrors, r.Errors...)
			step.Applied, step.Errors, step.Changed = len(r.Results)-len(r.Errors), len(r.Errors), r.Changed
			step.Skills = r.Loaded
			if r.Changed {
				undo = append(undo, prev)
				cur = working{deck: r.DeckRef, calls: r.CallsRef}
			}
			if r.Changed && !l.req.NoObservations {
				o, err := observeNow(prev.deck, nil, "After this step")
				if err != nil {
					return cur, err
				}
				record(o)
				results[len(results)-1].Content += "\n\n" + o.Text
			}
		}

		submitted := false
		for _, c := range t.Round.Calls {
			if !agent.IsStepTool(c.Tool) {
				continue
			}
			var content string
			switch c.Tool {
			case agent.ToolUndoStep:
				if len(undo) == 0 {
					content = "Nothing to undo: the deck is as it was when this iteration began."
					break
				}
				prev := cur
				cur, undo = undo[len(undo)-1], undo[:len(undo)-1]
				step.Undone = true
				if l.req.NoObservations {
					content = "Undone; the deck is back to the state before that step. " + ObservationsOff
					break
				}
				o, err := observeNow(prev.deck, nil, "Undone; the deck is back to the state before that step")
				if err != nil {
					return cur, err
				}
				record(o)
				content = o.Text
			case agent.ToolCheckLayout:
				if l.req.NoObservations {
					content = ObservationsOff
					break
				}
				var args struct {
					Slides []string `json:"slides"`
				}
				_ = json.Unmarshal([]byte(c.Args), &args)
				o, err := observeNow(cur.deck, args.Slides, "Layout check")
				if err != nil {
					return cur, err
				}
				record(o)
				content = o.Text
			case agent.ToolSubmit:
				var args struct {
					Summary string `json:"summary"`
				}
				_ = json.Unmarshal([]byte(c.Args), &args)
				it.Account = accountOf(args.Summary, t.Round.Text)
				tg, before := s.Now(), observed
				ok, text, err := l.submit(it, &step, base, cur.deck, x, func() (observe.Observation, error) { return observeNow(cur.deck, nil, "Submit") })
				step.Timings.Gate += since(tg)
				observed = before // the gate's own observation counts as the gate's
				if err != nil {
					return cur, err
				}
				submitted, content = ok, text
			}
			results = append(results, agent.Result{ID: c.ID, Content: content})
		}
		if len(t.Round.Calls) == 0 {
			// An answer without calls means the agent is done: a submit.
			it.Account = accountOf("", t.Round.Text)
			tg, before := s.Now(), observed
			ok, text, err := l.submit(it, &step, base, cur.deck, x, func() (observe.Observation, error) { return observeNow(cur.deck, nil, "Submit") })
			step.Timings.Gate += since(tg)
			observed = before
			if err != nil {
				return cur, err
			}
			submitted = ok
			if !ok {
				note = "You answered without calls, which hands in the edit. " + text
			}
		}
		step.Timings.Observe, step.Timings.Total = observed, since(t0)
		it.Steps = append(it.Steps, step)
		if submitted {
			it.ActStopped = "submitted"
			return cur, nil
		}
	}
}

// ObservationsOff is what undo_step and check_layout answer when the
// request turned the step observations off (Request.NoObservations).
const ObservationsOff = "Layout observations are off in this run: no render of the deck is reported until you submit, when the layout gate checks it."

// submit runs the gate on the working copy: the observation against the
// iteration's start must show no new violation. New hard violations the
// instruction itself requires pass when the critic waives them (Waive:
// the critic quotes the instruction's words; each violation is asked
// about once per edit). It returns whether the gate passed and the text
// the agent gets when it did not.
func (l *loop) submit(it *IterationRecord, step *StepRecord, base, deck, x string, gate func() (observe.Observation, error)) (bool, string, error) {
	o, err := gate()
	if err != nil {
		return false, "", err
	}
	if !o.Passed {
		if err := l.waive(it, base, deck, x, &o); err != nil {
			return false, "", err
		}
	}
	passed := o.Passed
	step.Submit, step.Waived = &passed, o.Waived
	observed1(step, o)
	if passed {
		return true, "", nil
	}
	text := fmt.Sprintf("Submit refused by the layout gate: %d violation(s) that the deck did not have when this iteration began. Fix them, or undo_step, then submit again.\n\n%s", len(o.New), o.Text)
	step.ObservationBytes += len(text)
	return false, text, nil
}

// waive asks the critic about the new violations of o it was not asked
// about before; waived ones leave o.New, and o passes when none is left.
func (l *loop) waive(it *IterationRecord, base, deck, x string, o *observe.Observation) error {
	var ask []render.Violation
	for _, v := range o.NewViolations {
		if !l.asked[v.Key] {
			ask = append(ask, v)
		}
	}
	if len(ask) == 0 || strings.TrimSpace(x) == "" {
		return nil
	}
	for _, v := range ask {
		l.asked[v.Key] = true
	}
	out, err := l.s.Waive(WaiveInput{Instruction: x, BaselineRef: base, DeckRef: deck, Violations: ask, Ledger: *l.rec.Ledger})
	if err != nil {
		return fmt.Errorf("waive: %w", err)
	}
	*l.rec.Ledger = out.Ledger
	for _, dec := range out.Decisions {
		it.LLM = append(it.LLM, dec.Calls...)
		if dec.Waiver != nil {
			it.Waivers = append(it.Waivers, *dec.Waiver)
		} else if dec.Refusal != "" {
			it.Notes = append(it.Notes, "waiver refused: "+dec.Refusal)
		}
	}
	w := l.waived()
	var keep []render.Violation
	var keepText []string
	for i, v := range o.NewViolations {
		if _, ok := w[v.Key]; ok {
			o.Waived = append(o.Waived, o.New[i])
			continue
		}
		keep = append(keep, v)
		keepText = append(keepText, o.New[i])
	}
	o.NewViolations, o.New = keep, keepText
	o.Passed = len(keep) == 0
	return nil
}

// waived maps the violation keys the critic waived so far to the quote
// of the instruction that requires each.
func (l *loop) waived() map[string]string {
	if l.rec.Ledger == nil || len(l.rec.Ledger.Waivers) == 0 {
		return nil
	}
	m := map[string]string{}
	for _, w := range l.rec.Ledger.Waivers {
		m[w.Key] = w.Quote
	}
	return m
}

// criticStep applies the critic's geometric checks to the ledger after an
// observation (critic.Step: deterministic, no model call) and returns a
// line for the agent about issues the step regressed or resolved.
func (l *loop) criticStep(turn int, o observe.Observation) string {
	if l.rec.Ledger == nil || len(o.Slides) == 0 {
		return ""
	}
	slides := make([]critic.Slide, len(o.DeckSlides))
	for i, id := range o.DeckSlides {
		slides[i] = critic.Slide{ID: id}
	}
	changes, err := (&critic.Critic{}).Step(l.rec.Ledger, critic.TurnInput{Turn: turn, Slides: slides,
		Rendered: o.Slides, Violations: o.Violations, Baseline: o.Baseline})
	if err != nil {
		return ""
	}
	l.stepChanges = append(l.stepChanges, changes...)
	var b strings.Builder
	for _, c := range changes {
		switch c.To {
		case critic.StatusRegressed:
			fmt.Fprintf(&b, "\nCritic: issue %s (check %s on slide %s) REGRESSED: this step broke it again after it had been fixed; undo_step restores the state before this step.", c.Issue, c.Check, c.Slide)
		case critic.StatusResolved:
			fmt.Fprintf(&b, "\nCritic: issue %s (check %s on slide %s) is resolved.", c.Issue, c.Check, c.Slide)
		}
	}
	return b.String()
}

// observed1 records an observation's Delta viol, new and resolved
// violations on step (the step's last observation wins).
func observed1(step *StepRecord, o observe.Observation) {
	d := o.DeltaViol
	step.DeltaViol, step.New, step.Resolved = &d, o.New, len(o.Resolved)
	step.ByKind, step.ResolvedViolations = o.ByKind, o.Resolved
}

// ShortCallRunes caps a call's short form in StepRecord.Calls.
const ShortCallRunes = 120

// ShortCall is a tool call in short for the record and the report: the
// tool and its arguments as compact JSON, cut to ShortCallRunes runes
// with "…". Arguments that are not JSON are shown as they came.
func ShortCall(tool string, args []byte) string {
	a := strings.TrimSpace(string(args))
	var b bytes.Buffer
	if json.Compact(&b, []byte(a)) == nil {
		a = b.String()
	}
	if a == "" || a == "{}" || a == "null" {
		return tool
	}
	out := tool + " " + a
	if r := []rune(out); len(r) > ShortCallRunes {
		out = string(r[:ShortCallRunes-1]) + "…"
	}
	return out
}

// deckCalls counts a round's calls that are not step tools.
func deckCalls(r agent.Round) int {
	n := 0
	for _, c := range r.Calls {
		if !agent.IsStepTool(c.Tool) {
			n++
		}
	}
	return n
}

// MaxAccount bounds the agent's account the judge reads, in runes.
const MaxAccount = 600

// accountOf is the agent's account of a submit: its summary argument,
// else the text of its answer, whitespace folded and at most MaxAccount
// runes.
func accountOf(summary, text string) string {
	a := strings.Join(strings.Fields(summary), " ")
	if a == "" {
		a = strings.Join(strings.Fields(text), " ")
	}
	if r := []rune(a); len(r) > MaxAccount {
		a = string(r[:MaxAccount-1]) + "…"
	}
	return a
}
