package evolve

import (
	"errors"
	"fmt"
	"time"

	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/skills"
)

// Steps are an evolve round's steps. Runner implements them with direct
// calls (`ace skills evolve` in process, tests); workflows.EvolveWorkflow
// implements them with activities. RunRound is the one orchestration both
// run, so a round in a workflow does exactly what a round in process does.
// Inputs and outputs are small values (ids, names, store refs), never
// whole banks or decks, so workflow payloads stay small; every step is
// idempotent for its round id.
type Steps interface {
	// Ungraded lists the ids of the records without a grade.
	Ungraded() ([]string, error)
	// GradeRecord grades one record and stores the grade (Grade); a
	// record the grader could not grade is given up, not an error.
	GradeRecord(id string) (StepResult, error)
	// Widen pools the uncovered subtasks of the records graded after
	// since (ms since 1970).
	Widen(since int64) (WidenResult, error)
	// Plan bins the records into stats (Bin) and plans round id
	// (MakePlan); unless dryRun it records the round's start.
	Plan(in PlanInput) (Plan, error)
	// Propose deepens a skill (Deepen) or mints a coverage entry (Mint),
	// freezes the gate's two arms into the store, and picks the replay
	// set; an invalid proposal is given up (Proposal nil).
	Propose(in ProposeInput) (ProposeResult, error)
	// Replay re-runs one record under one arm and returns the kept deck.
	Replay(in ReplayInput) (string, error)
	// JudgePair judges one record's two replays both ways (JudgePair).
	JudgePair(in JudgePairInput) (JudgePairResult, error)
	// Apply carries out a gate outcome (Apply).
	Apply(round string, o Outcome) (skills.RoundDecision, error)
	// Deprecate retires a skill (Deprecate).
	Deprecate(round, name string, atUnixMS int64) (skills.RoundDecision, error)
	// Finish marks round id finished at atUnixMS.
	Finish(round string, atUnixMS int64) error
	// Now is the round's clock: the wall clock in process, workflow.Now
	// in a workflow (deterministic on replay).
	Now() time.Time
}

// StepResult is what a step that may give up did.
type StepResult struct {
	// GaveUp says what the step skipped and why (empty: nothing).
	GaveUp string     `json:"gaveUp,omitempty"`
	Calls  []llm.Call `json:"calls,omitempty"`
}

// WidenResult is Widen's output.
type WidenResult struct {
	Pooled int        `json:"pooled"`
	GaveUp []string   `json:"gaveUp,omitempty"`
	Calls  []llm.Call `json:"calls,omitempty"`
}

// PlanInput asks for round Round's plan.
type PlanInput struct {
	Round  string `json:"round"`
	Since  int64  `json:"since"`
	Graded int    `json:"graded"`
	DryRun bool   `json:"dryRun,omitempty"`
	// AtUnixMS is the round's start (the orchestration's clock).
	AtUnixMS int64 `json:"atUnixMs"`
}

// ProposeInput names one planned proposal: a rewrite of Skill, or a mint
// from Entry.
type ProposeInput struct {
	Round string                `json:"round"`
	Skill string                `json:"skill,omitempty"`
	Entry *skills.CoverageEntry `json:"entry,omitempty"`
}

// ProposeResult is a proposal ready for the gate: the proposal, its two
// arms' skill sets frozen in the store (retrieval.EncodeSet; "" is no
// skill at all) and the ids of the records to replay.
type ProposeResult struct {
	Proposal    *Proposal  `json:"proposal,omitempty"`
	ProposalSet string     `json:"proposalSet,omitempty"`
	BaselineSet string     `json:"baselineSet,omitempty"`
	Replay      []string   `json:"replay,omitempty"`
	GaveUp      string     `json:"gaveUp,omitempty"`
	Calls       []llm.Call `json:"calls,omitempty"`
}

// ReplayInput is one replay: record RecordID under the arm whose skill
// set is SetRef ("" runs with skills off).
type ReplayInput struct {
	Round    string `json:"round"`
	RecordID string `json:"recordId"`
	Arm      string `json:"arm"`
	SetRef   string `json:"setRef,omitempty"`
}

// JudgePairInput is one record's two replays to judge.
type JudgePairInput struct {
	RecordID    string `json:"recordId"`
	ProposalRef string `json:"proposalRef"`
	BaselineRef string `json:"baselineRef"`
}

// JudgePairResult is one record's gate record.
type JudgePairResult struct {
	Record skills.GateRecord `json:"record"`
	Calls  []llm.Call        `json:"calls,omitempty"`
}

// RoundInput starts a round.
type RoundInput struct {
	// Round is the round's id (the workflow id in a cluster).
	Round string `json:"round"`
	// Since is the previous round's start (ms since 1970; 0: none).
	Since int64 `json:"since"`
	// DryRun grades, widens and plans, and changes no skill.
	DryRun bool `json:"dryRun,omitempty"`
}

// RunRound runs round in.Round on s: grade the ungraded records, widen,
// bin and plan, then unless in.DryRun put each planned rewrite and mint
// through the replay gate (propose, replay both arms record by record,
// judge each pair, decide, apply), deprecate, and finish. Re-running it
// with the same round id after a crash redoes only what the round's log
// does not hold (Apply, Deprecate and Plan read it). An error is a step
// that failed after its retries; the round can be run again.
func RunRound(s Steps, in RoundInput) (Report, error) {
	var rep Report
	ids, err := s.Ungraded()
	if err != nil {
		return rep, err
	}
	for _, id := range ids {
		r, err := s.GradeRecord(id)
		if err != nil {
			return rep, err
		}
		rep.Calls = append(rep.Calls, r.Calls...)
		if r.GaveUp != "" {
			rep.GaveUp = append(rep.GaveUp, r.GaveUp)
			continue
		}
		rep.Graded++
	}
	w, err := s.Widen(in.Since)
	if err != nil {
		return rep, err
	}
	rep.Pooled, rep.GaveUp, rep.Calls = w.Pooled, append(rep.GaveUp, w.GaveUp...), append(rep.Calls, w.Calls...)
	if rep.Plan, err = s.Plan(PlanInput{Round: in.Round, Since: in.Since, Graded: rep.Graded, DryRun: in.DryRun,
		AtUnixMS: s.Now().UnixMilli()}); err != nil {
		return rep, err
	}
	if in.DryRun {
		return rep, nil
	}
	var proposals []ProposeInput
	for _, name := range rep.Plan.Rewrite {
		proposals = append(proposals, ProposeInput{Round: in.Round, Skill: name})
	}
	for i := range rep.Plan.Mint {
		proposals = append(proposals, ProposeInput{Round: in.Round, Entry: &rep.Plan.Mint[i]})
	}
	for _, pin := range proposals {
		p, err := s.Propose(pin)
		if err != nil {
			return rep, err
		}
		rep.Calls = append(rep.Calls, p.Calls...)
		if p.Proposal == nil {
			rep.GaveUp = append(rep.GaveUp, p.GaveUp)
			continue
		}
		if len(p.Replay) == 0 {
			rep.GaveUp = append(rep.GaveUp, fmt.Sprintf("%s %s: no graded record to replay", p.Proposal.Kind, p.Proposal.Skill.Name))
			continue
		}
		var recs []skills.GateRecord
		for _, id := range p.Replay {
			a, err := s.Replay(ReplayInput{Round: in.Round, RecordID: id, Arm: ArmProposal, SetRef: p.ProposalSet})
			if err != nil {
				return rep, fmt.Errorf("%s %s: replay record %s, proposal arm: %w", p.Proposal.Kind, p.Proposal.Skill.Name, id, err)
			}
			b, err := s.Replay(ReplayInput{Round: in.Round, RecordID: id, Arm: ArmBaseline, SetRef: p.BaselineSet})
			if err != nil {
				return rep, fmt.Errorf("%s %s: replay record %s, baseline arm: %w", p.Proposal.Kind, p.Proposal.Skill.Name, id, err)
			}
			j, err := s.JudgePair(JudgePairInput{RecordID: id, ProposalRef: a, BaselineRef: b})
			rep.Calls = append(rep.Calls, j.Calls...)
			if err != nil {
				return rep, fmt.Errorf("%s %s: %w", p.Proposal.Kind, p.Proposal.Skill.Name, err)
			}
			recs = append(recs, j.Record)
		}
		d, err := s.Apply(in.Round, Outcome{Proposal: *p.Proposal, Records: recs, Decision: Decide(recs), AtUnixMS: s.Now().UnixMilli()})
		if err != nil {
			return rep, err
		}
		rep.Decisions = append(rep.Decisions, d)
	}
	for _, name := range rep.Plan.Deprecate {
		d, err := s.Deprecate(in.Round, name, s.Now().UnixMilli())
		if err != nil {
			return rep, err
		}
		rep.Decisions = append(rep.Decisions, d)
	}
	return rep, s.Finish(in.Round, s.Now().UnixMilli())
}

// errNoRecord is a step asked for a record the bank does not hold.
var errNoRecord = errors.New("no such turn record in the skill bank")
