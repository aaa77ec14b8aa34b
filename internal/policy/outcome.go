package policy

import (
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
)

// Outcome is why an edit ended, in the one vocabulary `ace edit`, `ace
// batch`, the HTML reports, summary.json and the published EditResult
// share. Each outcome has exactly one status, exit code, report badge and
// wording (the methods below); nothing else maps outcomes.
type Outcome string

const (
	// Stopped: the IF judge scored the kept iteration at or above tau and
	// the geometry gate passed (ACE Algorithm 1's stop).
	Stopped Outcome = "stopped"
	// Applied: a recipe without instruction steps changed the deck and the
	// gate passed (no judge: the recipe's expectations are its verdict).
	Applied Outcome = "applied"
	// PartlyApplied: a recipe with the per-slide gate (gate: per_slide)
	// changed the deck, and the slides whose edit added geometry
	// violations were put back as they were in the original; the other
	// slides keep the edit. The reverted slides are listed with their
	// violations (Record.Reverted).
	PartlyApplied Outcome = "partly_applied"
	// Unchanged: a recipe matched nothing in the deck; the deck stands as
	// it was, which is what was asked.
	Unchanged Outcome = "unchanged"
	// NoJudge: no judge model scored the edit; the gate passed and the
	// edit is kept.
	NoJudge Outcome = "no_judge"
	// Budget: T iterations ran and none reached tau; the best iteration
	// that passed the gate is kept.
	Budget Outcome = "budget"
	// TurnCap: the agent's turn budget over the whole edit ran out before
	// the loop could stop; the best iteration so far is kept.
	TurnCap Outcome = "turn_cap"
	// Interrupted: a later iteration's step failed after its retries; the
	// best earlier iteration that passed the gate is kept.
	Interrupted Outcome = "interrupted"
	// GateBlocked: every iteration added geometry violations (with the
	// per-slide gate: every slide the recipe changed did); the original
	// deck stands.
	GateBlocked Outcome = "gate_blocked"
	// ExpectationFailed: a recipe expectation does not hold on the kept
	// deck.
	ExpectationFailed Outcome = "expectation_failed"
	// Failed: the edit could not run (bad input, no model, a step failing
	// before any iteration passed the gate); nothing is kept.
	Failed Outcome = "failed"
	// Canceled: the edit was canceled (Ctrl-C, the workflow's cancel
	// signal); nothing is kept.
	Canceled Outcome = "canceled"
)

// Outcomes lists every outcome, in the order the README's table gives them.
var Outcomes = []Outcome{Stopped, Applied, PartlyApplied, Unchanged, NoJudge, Budget, TurnCap, Interrupted,
	GateBlocked, ExpectationFailed, Failed, Canceled}

// Exit codes of `ace edit` and `ace batch` (README: exit codes).
const (
	ExitOK          = 0
	ExitFailure     = 1
	ExitBadInput    = 2
	ExitNotMet      = 3
	ExitInterrupted = 130
)

// Met reports whether the edit did what was asked: stopped, applied,
// unchanged and no_judge. Every other outcome ran short or failed.
func (o Outcome) Met() bool {
	switch o {
	case Stopped, Applied, Unchanged, NoJudge:
		return true
	}
	return false
}

// KeepsEdit reports whether the outcome keeps an edited iteration when one
// passed the gate (everything but failed and canceled): the deck written
// is the selected iteration's, which for gate_blocked and unchanged is
// the original.
func (o Outcome) KeepsEdit() bool { return o != Failed && o != Canceled && o != "" }

// Status is the EditResult status published for the outcome: OK when met,
// NOT_MET when the edit ran short (the kept deck is still exported),
// FAILED and CANCELED when nothing is kept.
func (o Outcome) Status() acev1.EditStatus {
	switch {
	case o.Met():
		return acev1.EditStatus_EDIT_STATUS_OK
	case o == Canceled:
		return acev1.EditStatus_EDIT_STATUS_CANCELED
	case o == Failed || o == "":
		return acev1.EditStatus_EDIT_STATUS_FAILED
	}
	return acev1.EditStatus_EDIT_STATUS_NOT_MET
}

// ExitCode is the process exit code for one edit with this outcome; a
// batch exits with the worst of its decks' codes (ExitFailure over
// ExitNotMet over ExitOK).
func (o Outcome) ExitCode() int {
	switch {
	case o.Met():
		return ExitOK
	case o == Canceled:
		return ExitInterrupted
	case o == Failed || o == "":
		return ExitFailure
	}
	return ExitNotMet
}

// Badge is the report's badge class: "ok" (met), "warn" (ran short, a
// deck is still written) or "bad" (failed or canceled).
func (o Outcome) Badge() string {
	switch o.Status() {
	case acev1.EditStatus_EDIT_STATUS_OK:
		return "ok"
	case acev1.EditStatus_EDIT_STATUS_NOT_MET:
		return "warn"
	}
	return "bad"
}

// Wording is the outcome in a few words for tables and summaries.
func (o Outcome) Wording() string {
	switch o {
	case Stopped:
		return "done: judged at or above tau"
	case Applied:
		return "recipe applied"
	case PartlyApplied:
		return "recipe applied; some slides reverted"
	case Unchanged:
		return "nothing to change"
	case NoJudge:
		return "applied, not judged"
	case Budget:
		return "iterations spent below tau; best kept"
	case TurnCap:
		return "agent turns spent; best kept"
	case Interrupted:
		return "a later step failed; best earlier kept"
	case GateBlocked:
		return "blocked by the geometry gate; original kept"
	case ExpectationFailed:
		return "an expectation does not hold"
	case Failed:
		return "failed; nothing written"
	case Canceled:
		return "canceled; nothing written"
	}
	return string(o)
}

// ParseOutcome reads an outcome from its wire form (EditResult.outcome,
// summary.json). An empty or unknown string is returned as is with ok
// false.
func ParseOutcome(s string) (Outcome, bool) {
	for _, o := range Outcomes {
		if string(o) == s {
			return o, true
		}
	}
	return Outcome(s), false
}

// BatchExitCode is a batch's exit code from its decks' outcomes: ExitFailure
// when any deck failed or was canceled (an empty outcome is a deck that
// failed before the loop ran), else ExitNotMet when any ran short, else
// ExitOK.
func BatchExitCode(outcomes []Outcome) int {
	code := ExitOK
	for _, o := range outcomes {
		switch o.ExitCode() {
		case ExitFailure, ExitInterrupted:
			return ExitFailure
		case ExitNotMet:
			code = ExitNotMet
		}
	}
	return code
}
