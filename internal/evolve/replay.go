package evolve

import (
	"context"
	"errors"
	"fmt"

	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/judge"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/runner"
	"github.com/acecanvas/ace/internal/skills"
	"github.com/acecanvas/ace/internal/store"
)

// Arm is one side of a replay: the skill set the edit is offered, fixed
// for the replay (retrieval still picks among them). No skills is the
// edit with skills off.
type Arm struct {
	Name   string         `json:"name"` // "proposal" or "baseline"
	Skills []skills.Skill `json:"skills,omitempty"`
}

// Arm names.
const (
	ArmProposal = "proposal"
	ArmBaseline = "baseline"
)

// Arms are a proposal's two replay arms (Designer-RSI §3.3, App. F),
// identical but for the skill under test:
//
//   - rewrite: the offered bank with the proposed version in place of the
//     incumbent, against the offered bank as it is (V2 vs V1);
//   - mint: the candidate alone (as stable), against no skill at all
//     (skills off): the paper's "agent with no skill retrieved".
func Arms(p Proposal, offered []skills.Skill) (proposal, baseline Arm) {
	proposal, baseline = Arm{Name: ArmProposal}, Arm{Name: ArmBaseline}
	if p.Kind == skills.ChangeMint {
		s := p.Skill
		s.Status = skills.StatusStable
		proposal.Skills = []skills.Skill{s}
		return proposal, baseline
	}
	for _, s := range offered {
		baseline.Skills = append(baseline.Skills, s)
		if s.Name == p.Skill.Name {
			s = p.Skill
		}
		proposal.Skills = append(proposal.Skills, s)
	}
	return proposal, baseline
}

// Replayer re-runs one turn record's instruction on its origin deck
// (rec.DeckRef) under an arm, fresh, and returns the kept deck's snapshot
// ref in the store the gate reads. The workflow runs each replay as an
// activity; LoopReplayer runs the edit loop in process. A replay that
// cannot run (the loop failed, a model outage) is an error, never a
// result: the gate must not count an outage as a loss.
type Replayer interface {
	Replay(ctx context.Context, rec skills.TurnRecord, arm Arm) (finalRef string, err error)
}

// JudgePair judges one replayed record (Designer-RSI App. F): two
// identical kept decks are two ties with no model call; otherwise the
// proposal arm's kept deck against the baseline's, both against the
// origin, with judge.PairwiseBothOrders, as a gate record. Decks are read
// from st.
func JudgePair(ctx context.Context, j *judge.Judge, st store.Store, rec skills.TurnRecord, proposalRef, baselineRef string) (skills.GateRecord, []llm.Call, error) {
	if proposalRef == baselineRef {
		// Both arms kept the same deck (the same snapshot hash): nothing
		// for a judge to prefer, so the record is two ties without a call
		// (a relay tryout paid four calls to compare two no-ops).
		return GateRecordOf(rec, judge.PairwiseTally{Ties: 2}), nil, nil
	}
	origin, err := store.GetDeck(ctx, st, rec.DeckRef)
	if err != nil {
		return skills.GateRecord{}, nil, fmt.Errorf("record %s: origin deck: %w", rec.ID, err)
	}
	a, err := store.GetDeck(ctx, st, proposalRef)
	if err != nil {
		return skills.GateRecord{}, nil, fmt.Errorf("record %s: proposal arm's deck: %w", rec.ID, err)
	}
	b, err := store.GetDeck(ctx, st, baselineRef)
	if err != nil {
		return skills.GateRecord{}, nil, fmt.Errorf("record %s: baseline arm's deck: %w", rec.ID, err)
	}
	t, err := j.PairwiseBothOrders(ctx, judge.PairwiseDecks(rec.Instruction, origin, a, b))
	if err != nil {
		return skills.GateRecord{}, t.Calls(), fmt.Errorf("record %s: %w", rec.ID, err)
	}
	return GateRecordOf(rec, t), t.Calls(), nil
}

// RunGate replays every record of the replay set under both arms, fresh
// and in the same round (proposal first, then baseline, record by
// record), and judges each pair (JudgePair). Any replay or judge error
// ends it: a gate that did not measure every record decides nothing.
func RunGate(ctx context.Context, r Replayer, j *judge.Judge, st store.Store, p Proposal, replay []skills.TurnRecord, offered []skills.Skill) ([]skills.GateRecord, []llm.Call, error) {
	pa, ba := Arms(p, offered)
	var out []skills.GateRecord
	var calls []llm.Call
	for _, rec := range replay {
		refs := [2]string{}
		for i, arm := range []Arm{pa, ba} {
			ref, err := r.Replay(ctx, rec, arm)
			if err != nil {
				return out, calls, fmt.Errorf("replay record %s, %s arm: %w", rec.ID, arm.Name, err)
			}
			refs[i] = ref
		}
		g, cs, err := JudgePair(ctx, j, st, rec, refs[0], refs[1])
		calls = append(calls, cs...)
		if err != nil {
			return out, calls, err
		}
		out = append(out, g)
	}
	return out, calls, nil
}

// LoopReplayer replays through the edit loop in process (runner.Run), the
// path `ace edit` and `ace bench` take, with the arm's fixed skill set
// (useSkills). Replays write no turn records.
type LoopReplayer struct {
	// Store holds the origin decks; the replays' decks go there too.
	Store    store.Store
	LLM      *llm.Client
	Renderer runner.Renderer
	// Policy is tau and T for the replays (zero: policy.Default).
	Policy policy.Config
}

// Replay runs rec's instruction on rec.DeckRef under arm and returns the
// kept snapshot (the origin when the loop kept nothing). A loop that ends
// failed or canceled is an error.
func (l LoopReplayer) Replay(ctx context.Context, rec skills.TurnRecord, arm Arm) (string, error) {
	req := editloop.Request{DeckRef: rec.DeckRef, Instruction: rec.Instruction, Policy: l.Policy.WithDefaults()}
	steps := &runner.Steps{Store: l.Store, LLM: l.LLM, Renderer: l.Renderer}
	if err := useSkills(steps, &req, arm); err != nil {
		return "", err
	}
	out, err := runner.Run(ctx, steps, req)
	if err != nil {
		return "", fmt.Errorf("the edit loop: %w", err)
	}
	if out == nil || out.Final == "" {
		return "", errors.New("the edit loop returned no final deck")
	}
	return out.Final, nil
}

// useSkills puts a replay arm's fixed skill set into the edit loop:
// skills on (editloop.Request.Skills), and the arm's skills as the bank
// the Route step retrieves from (runner.Steps.Skills). Retrieval still
// distils and stars among them as for live traffic; the set is frozen
// into the store at route time like any edit's. An arm without skills
// runs with skills off.
func useSkills(steps *runner.Steps, req *editloop.Request, arm Arm) error {
	if len(arm.Skills) == 0 {
		return nil
	}
	steps.Skills, req.Skills = fixedSkills(arm.Skills), true
	return nil
}

// fixedSkills is a replay arm's skill set as the loop's skill bank: it
// offers exactly the arm's skills and keeps no turn record (a replay is
// a measurement, not traffic to learn from).
type fixedSkills []skills.Skill

func (f fixedSkills) Offered(context.Context) ([]skills.Skill, error) { return f, nil }

func (fixedSkills) PutRecord(context.Context, skills.TurnRecord) error { return nil }
