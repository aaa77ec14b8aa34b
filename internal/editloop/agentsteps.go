package editloop

import (
	"encoding/json"
	"fmt"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/observe"
	"github.com/acecanvas/ace/internal/policy"
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
	observeNow := func(prev string, slides []string, title string) (observe.Observation, error) {
		if slides == nil && last != nil && lastDeck == cur.deck && prev == cur.deck {
			return *last, nil
		}
		t := s.Now()
		o, err := s.Observe(ObserveInput{BaselineRef: base, PrevRef: prev, DeckRef: cur.deck, Slides: slides, Title: title})
		it.Timings.Observe += s.Now().Sub(t).Milliseconds()
		if err != nil {
			return o, fmt.Errorf("observe: %w", err)
		}
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
		}
		t, err := s.AgentTurn(in)
		it.LLM = append(it.LLM, t.LLM...)
		if err != nil {
			return cur, fmt.Errorf("agent turn %d: %w", it.Turns+1, err)
		}
		if session == "" {
			it.Mode, it.ContextBytes = t.Mode, t.ContextBytes
		}
		session, results, note = t.SessionRef, nil, ""
		it.Turns++
		step := StepRecord{Turn: it.Turns, Text: t.Round.Text}
		for _, c := range t.Round.Calls {
			step.Tools = append(step.Tools, c.Tool)
		}
		record := func(o observe.Observation) {
			d := o.DeltaViol
			step.DeltaViol, step.New, step.Resolved = &d, o.New, len(o.Resolved)
			step.ObservationBytes += len(o.Text)
		}

		if deckCalls(t.Round) > 0 {
			prev := cur
			r, err := s.ApplyRound(RoundInput{BaseRef: base, CallsRef: cur.calls, DeckRef: cur.deck, Round: t.Round, AssetDir: assetDir})
			if err != nil {
				return cur, fmt.Errorf("apply turn %d: %w", it.Turns, err)
			}
			results = r.Results
			it.ToolErrors = append(it.ToolErrors, r.Errors...)
			step.Applied, step.Errors, step.Changed = len(r.Results)-len(r.Errors), len(r.Errors), r.Changed
			if r.Changed {
				undo = append(undo, prev)
				cur = working{deck: r.DeckRef, calls: r.CallsRef}
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
				o, err := observeNow(prev.deck, nil, "Undone; the deck is back to the state before that step")
				if err != nil {
					return cur, err
				}
				record(o)
				content = o.Text
			case agent.ToolCheckLayout:
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
				ok, text, err := submit(&step, func() (observe.Observation, error) { return observeNow(cur.deck, nil, "Submit") })
				if err != nil {
					return cur, err
				}
				submitted, content = ok, text
			}
			results = append(results, agent.Result{ID: c.ID, Content: content})
		}
		if len(t.Round.Calls) == 0 {
			// An answer without calls means the agent is done: a submit.
			ok, text, err := submit(&step, func() (observe.Observation, error) { return observeNow(cur.deck, nil, "Submit") })
			if err != nil {
				return cur, err
			}
			submitted = ok
			if !ok {
				note = "You answered without calls, which hands in the edit. " + text
			}
		}
		it.Steps = append(it.Steps, step)
		if submitted {
			it.ActStopped = "submitted"
			return cur, nil
		}
	}
}

// submit runs the gate on the working copy: the observation against the
// iteration's start must show no new violation. It returns whether the
// gate passed and the text the agent gets when it did not.
func submit(step *StepRecord, gate func() (observe.Observation, error)) (bool, string, error) {
	o, err := gate()
	if err != nil {
		return false, "", err
	}
	passed := o.Passed
	step.Submit = &passed
	d := o.DeltaViol
	step.DeltaViol, step.New, step.Resolved = &d, o.New, len(o.Resolved)
	if passed {
		return true, "", nil
	}
	text := fmt.Sprintf("Submit refused by the layout gate: %d violation(s) that the deck did not have when this iteration began. Fix them, or undo_step, then submit again.\n\n%s", len(o.New), o.Text)
	step.ObservationBytes += len(text)
	return false, text, nil
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
