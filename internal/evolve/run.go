package evolve

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/acecanvas/ace/internal/diff"
	"github.com/acecanvas/ace/internal/judge"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/retrieval"
	"github.com/acecanvas/ace/internal/skills"
	"github.com/acecanvas/ace/internal/store"
)

// Runner runs a whole evolve round in process (`ace skills evolve`
// without a cluster, and the tests): the same functions the evolve
// workflow's activities call, in the workflow's order.
type Runner struct {
	Bank Bank
	// LLM serves every role: the grader, reflector, distiller and
	// pairwise judge (judge role) and the subtask extractor (router).
	LLM *llm.Client
	// Store holds the records' decks and the replays'.
	Store    store.Store
	Replayer Replayer
	// Tools are the tool names a SKILL.md may use
	// (tools.Registry().Names()).
	Tools []string
	// Evidence gives the grader a record's evidence; nil is
	// DiffEvidence over Store.
	Evidence func(ctx context.Context, rec skills.TurnRecord) (Evidence, error)
	// Since is the previous round's start (ms since 1970; 0: none): the
	// records graded after it are this round's new ones (GradedSince,
	// widening).
	Since int64
	Now   func() time.Time
	Log   Logf
	// Calls collects every model call of the round.
	Calls []llm.Call
}

// Report is what a round did.
type Report struct {
	Plan      Plan                   `json:"plan"`
	Graded    int                    `json:"graded"`
	Pooled    int                    `json:"pooled"`
	Decisions []skills.RoundDecision `json:"decisions,omitempty"`
	// GaveUp lists proposals or records the round skipped, with why.
	GaveUp []string `json:"gaveUp,omitempty"`
	// Calls are the round's model calls, every role.
	Calls []llm.Call `json:"calls,omitempty"`
}

// DiffEvidence is a record's evidence from the store: the JsonDiff of its
// origin to its kept deck with the origin's snapshot (what the IF judge
// read), or the origin's snapshot when nothing was kept, and the agent's
// account. The check and violation texts are not in a turn record, so
// they stay empty. A deck the store lacks is an error wrapping
// store.ErrNotFound.
func DiffEvidence(st store.Store) func(ctx context.Context, rec skills.TurnRecord) (Evidence, error) {
	return func(ctx context.Context, rec skills.TurnRecord) (Evidence, error) {
		ev := Evidence{Account: rec.Account}
		o, err := store.GetDeck(ctx, st, rec.DeckRef)
		if err != nil {
			return ev, fmt.Errorf("record %s: origin deck: %w", rec.ID, err)
		}
		if rec.FinalRef == "" || rec.FinalRef == rec.DeckRef {
			// Nothing kept: the origin's snapshot lets the grader check a
			// claim that the deck already had, or lacks, what was asked.
			ev.Diff = "No edit was kept; the deck is the original:\n" + diff.Snapshot(o, diff.SnapshotBudget)
			return ev, nil
		}
		f, err := store.GetDeck(ctx, st, rec.FinalRef)
		if err != nil {
			return ev, fmt.Errorf("record %s: kept deck: %w", rec.ID, err)
		}
		ev.Diff = diff.Compute(o, f).Text(o)
		return ev, nil
	}
}

func (r *Runner) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

func (r *Runner) gaveUp(rep *Report, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	rep.GaveUp = append(rep.GaveUp, msg)
	r.Log.printf("evolve: %s", msg)
}

// Run runs round id in process: RunRound over the Runner's own steps
// (Runner.Steps). The round's model calls are added to r.Calls.
func (r *Runner) Run(ctx context.Context, id string, dryRun bool) (Report, error) {
	rep, err := RunRound(r.Steps(ctx), RoundInput{Round: id, Since: r.Since, DryRun: dryRun})
	r.Calls = append(r.Calls, rep.Calls...)
	return rep, err
}

// Steps are r's steps bound to ctx: the in-process Steps, and what each
// activity of the evolve workflow calls.
func (r *Runner) Steps(ctx context.Context) Steps { return runnerSteps{r: r, ctx: ctx} }

// runnerSteps implements Steps with direct calls.
type runnerSteps struct {
	r   *Runner
	ctx context.Context
}

func (s runnerSteps) Now() time.Time { return s.r.now() }

func (s runnerSteps) Ungraded() ([]string, error) {
	records, err := s.r.Bank.Records(s.ctx)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, rec := range records {
		if rec.Grade == nil {
			ids = append(ids, rec.ID)
		}
	}
	return ids, nil
}

func (s runnerSteps) record(id string) (skills.TurnRecord, []skills.TurnRecord, error) {
	records, err := s.r.Bank.Records(s.ctx)
	if err != nil {
		return skills.TurnRecord{}, nil, err
	}
	for _, rec := range records {
		if rec.ID == id {
			return rec, records, nil
		}
	}
	return skills.TurnRecord{}, records, fmt.Errorf("record %s: %w", id, errNoRecord)
}

func (s runnerSteps) GradeRecord(id string) (StepResult, error) {
	var out StepResult
	rec, _, err := s.record(id)
	if err != nil || rec.Grade != nil {
		return out, err
	}
	evidence := s.r.Evidence
	if evidence == nil {
		evidence = DiffEvidence(s.r.Store)
	}
	ev, err := evidence(s.ctx, rec)
	if errors.Is(err, store.ErrNotFound) {
		// The edit ran on a store this round cannot read (an in-memory
		// one): it can be neither graded nor replayed.
		out.GaveUp = fmt.Sprintf("record %s: its decks are not in this store (%v)", rec.ID, err)
		s.r.Log.printf("evolve: %s", out.GaveUp)
		return out, nil
	}
	if err != nil {
		return out, err
	}
	g, cs, err := Grade(s.ctx, s.r.LLM, rec, ev)
	out.Calls = cs
	if errors.Is(err, ErrNoGrade) {
		out.GaveUp = err.Error()
		s.r.Log.printf("evolve: %s", out.GaveUp)
		return out, nil
	}
	if err != nil {
		return out, err
	}
	rec.Grade = &g
	return out, s.r.Bank.PutRecord(s.ctx, rec)
}

// read returns the bank's turn records and its skills (current versions).
func (s runnerSteps) read() ([]skills.TurnRecord, []skills.Skill, error) {
	records, err := s.r.Bank.Records(s.ctx)
	if err != nil {
		return nil, nil, err
	}
	bank, err := s.r.Bank.List(s.ctx)
	return records, bank, err
}

func (s runnerSteps) Widen(since int64) (WidenResult, error) {
	var out WidenResult
	records, bank, err := s.read()
	if err != nil {
		return out, err
	}
	var rep Report
	out.Pooled, err = s.r.widen(s.ctx, &rep, records, bank, since)
	out.GaveUp, out.Calls = rep.GaveUp, rep.Calls
	return out, err
}

func (s runnerSteps) Plan(in PlanInput) (Plan, error) {
	records, bank, err := s.read()
	if err != nil {
		return Plan{}, err
	}
	stats, err := s.r.bin(s.ctx, records, bank, in.Since)
	if err != nil {
		return Plan{}, err
	}
	p, err := MakePlan(s.ctx, s.r.Bank, in.Round, stats)
	if err != nil || in.DryRun {
		return p, err
	}
	rl, err := roundLog(s.ctx, s.r.Bank, in.Round)
	if err != nil {
		return p, err
	}
	if rl.StartedUnixMS == 0 {
		rl.StartedUnixMS, rl.Graded, rl.Selected = in.AtUnixMS, in.Graded, p.Rewrite
	}
	return p, s.r.Bank.PutRound(s.ctx, rl)
}

func (s runnerSteps) Propose(in ProposeInput) (ProposeResult, error) {
	var out ProposeResult
	records, bank, err := s.read()
	if err != nil {
		return out, err
	}
	var p Proposal
	var cs []llm.Call
	var replay []skills.TurnRecord
	if in.Entry != nil {
		p, cs, err = Mint(s.ctx, s.r.LLM, *in.Entry, records, bank, s.r.Tools)
		replay = MintReplaySet(records, *in.Entry)
	} else {
		var cur skills.Skill
		var st skills.Stats
		if cur, err = s.r.Bank.Get(s.ctx, in.Skill); err != nil {
			return out, err
		}
		if st, err = s.r.Bank.Stats(s.ctx, in.Skill); err != nil {
			return out, err
		}
		p, cs, err = Deepen(s.ctx, s.r.LLM, cur, st, records, bank, s.r.Tools)
		replay = RewriteReplaySet(records, in.Skill)
	}
	out.Calls = cs
	if errors.Is(err, ErrInvalidProposal) {
		out.GaveUp = err.Error()
		s.r.Log.printf("evolve: %s", out.GaveUp)
		return out, nil
	}
	if err != nil {
		return out, err
	}
	pa, ba := Arms(p, stableOf(bank))
	if out.ProposalSet, err = s.freeze(pa); err != nil {
		return out, err
	}
	if out.BaselineSet, err = s.freeze(ba); err != nil {
		return out, err
	}
	out.Proposal = &p
	for _, rec := range replay {
		// A record whose origin deck is gone cannot be replayed; the gate
		// measures the others.
		if ok, err := s.r.Store.Has(s.ctx, rec.DeckRef); err != nil {
			return out, err
		} else if ok {
			out.Replay = append(out.Replay, rec.ID)
		}
	}
	return out, nil
}

// freeze stores an arm's skill set (retrieval.EncodeSet); "" for an arm
// without skills.
func (s runnerSteps) freeze(a Arm) (string, error) {
	if len(a.Skills) == 0 {
		return "", nil
	}
	return s.r.Store.Put(s.ctx, retrieval.EncodeSet(a.Skills))
}

func (s runnerSteps) Replay(in ReplayInput) (string, error) {
	rec, _, err := s.record(in.RecordID)
	if err != nil {
		return "", err
	}
	arm := Arm{Name: in.Arm}
	if in.SetRef != "" {
		data, err := s.r.Store.Get(s.ctx, in.SetRef)
		if err != nil {
			return "", fmt.Errorf("replay arm %s: skill set: %w", in.Arm, err)
		}
		set, err := retrieval.DecodeSet(data)
		if err != nil {
			return "", fmt.Errorf("replay arm %s: %w", in.Arm, err)
		}
		arm.Skills = set.Skills
	}
	return s.r.Replayer.Replay(s.ctx, rec, arm)
}

func (s runnerSteps) JudgePair(in JudgePairInput) (JudgePairResult, error) {
	rec, _, err := s.record(in.RecordID)
	if err != nil {
		return JudgePairResult{}, err
	}
	g, cs, err := JudgePair(s.ctx, &judge.Judge{LLM: s.r.LLM}, s.r.Store, rec, in.ProposalRef, in.BaselineRef)
	return JudgePairResult{Record: g, Calls: cs}, err
}

func (s runnerSteps) Apply(round string, o Outcome) (skills.RoundDecision, error) {
	return Apply(s.ctx, s.r.Bank, round, o)
}

func (s runnerSteps) Deprecate(round, name string, atUnixMS int64) (skills.RoundDecision, error) {
	return Deprecate(s.ctx, s.r.Bank, round, name, atUnixMS)
}

func (s runnerSteps) Finish(round string, atUnixMS int64) error {
	rl, err := roundLog(s.ctx, s.r.Bank, round)
	if err != nil {
		return err
	}
	if rl.FinishedUnixMS != 0 {
		return nil
	}
	rl.FinishedUnixMS = atUnixMS
	return s.r.Bank.PutRound(s.ctx, rl)
}

// widen pools the uncovered subtasks of the records graded after since
// (ms since 1970); rep collects what it gave up and its model calls.
func (r *Runner) widen(ctx context.Context, rep *Report, records []skills.TurnRecord, bank []skills.Skill, since int64) (int, error) {
	pool, err := r.Bank.Coverage(ctx)
	if err != nil {
		return 0, err
	}
	var known []string
	for label := range pool {
		known = append(known, label)
	}
	sort.Strings(known)
	n := 0
	for _, rec := range records {
		if rec.Grade == nil || rec.Grade.GradedUnixMS <= since {
			continue
		}
		subs, cs, err := Subtasks(ctx, r.LLM, rec, known)
		rep.Calls = append(rep.Calls, cs...)
		if errors.Is(err, ErrNoSubtasks) {
			r.gaveUp(rep, "%v", err)
			continue
		}
		if err != nil {
			return n, err
		}
		for _, e := range Pool(pool, rec.ID, Uncovered(rec, subs, bank)) {
			if err := r.Bank.PutCoverage(ctx, e); err != nil {
				return n, err
			}
			if len(e.Records) == 1 {
				known = append(known, e.Label)
			}
			n++
		}
	}
	return n, nil
}

// bin recomputes and stores every skill's stats (Bin).
func (r *Runner) bin(ctx context.Context, records []skills.TurnRecord, bank []skills.Skill, since int64) (map[string]skills.Stats, error) {
	versions := map[string]int{}
	prev := map[string]skills.Stats{}
	for _, s := range bank {
		versions[s.Name] = s.Version
		st, err := r.Bank.Stats(ctx, s.Name)
		if err != nil {
			return nil, err
		}
		prev[s.Name] = st
	}
	stats := Bin(records, versions, prev, since)
	for _, s := range bank {
		if err := r.Bank.PutStats(ctx, stats[s.Name]); err != nil {
			return nil, err
		}
	}
	return stats, nil
}

// stableOf are the offered (stable) skills of bank.
func stableOf(bank []skills.Skill) []skills.Skill {
	var out []skills.Skill
	for _, s := range bank {
		if s.Offered() {
			out = append(out, s)
		}
	}
	return out
}
