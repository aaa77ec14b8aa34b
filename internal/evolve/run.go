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
}

// DiffEvidence is a record's evidence from the store: the JsonDiff of its
// origin to its kept deck with the origin's snapshot (what the IF judge
// read). The agent's account and the check and violation texts are not
// in a turn record, so they stay empty.
func DiffEvidence(st store.Store) func(ctx context.Context, rec skills.TurnRecord) (Evidence, error) {
	return func(ctx context.Context, rec skills.TurnRecord) (Evidence, error) {
		if rec.FinalRef == "" || rec.FinalRef == rec.DeckRef {
			return Evidence{}, nil
		}
		o, err := store.GetDeck(ctx, st, rec.DeckRef)
		if err != nil {
			return Evidence{}, fmt.Errorf("record %s: origin deck: %w", rec.ID, err)
		}
		f, err := store.GetDeck(ctx, st, rec.FinalRef)
		if err != nil {
			return Evidence{}, fmt.Errorf("record %s: kept deck: %w", rec.ID, err)
		}
		return Evidence{Diff: diff.Compute(o, f).Text(o)}, nil
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

// Run runs round id: grade the ungraded records, widen (subtasks of the
// newly graded ones into the coverage pool), bin, plan, then unless
// dryRun deepen and mint each planned proposal through the replay gate
// and apply the decisions, and deprecate. Re-running a round with the
// same id after a crash redoes only what its log does not hold.
func (r *Runner) Run(ctx context.Context, id string, dryRun bool) (Report, error) {
	var rep Report
	records, err := r.Bank.Records(ctx)
	if err != nil {
		return rep, err
	}
	evidence := r.Evidence
	if evidence == nil {
		evidence = DiffEvidence(r.Store)
	}
	for i, rec := range records {
		if rec.Grade != nil {
			continue
		}
		ev, err := evidence(ctx, rec)
		if err != nil {
			return rep, err
		}
		g, cs, err := Grade(ctx, r.LLM, rec, ev)
		r.Calls = append(r.Calls, cs...)
		if errors.Is(err, ErrNoGrade) {
			r.gaveUp(&rep, "%v", err)
			continue
		}
		if err != nil {
			return rep, err
		}
		rec.Grade = &g
		if err := r.Bank.PutRecord(ctx, rec); err != nil {
			return rep, err
		}
		records[i] = rec
		rep.Graded++
	}
	bank, err := r.Bank.List(ctx)
	if err != nil {
		return rep, err
	}
	if rep.Pooled, err = r.widen(ctx, &rep, records, bank); err != nil {
		return rep, err
	}
	stats, err := r.bin(ctx, records, bank)
	if err != nil {
		return rep, err
	}
	if rep.Plan, err = MakePlan(ctx, r.Bank, id, stats); err != nil {
		return rep, err
	}
	rl, err := roundLog(ctx, r.Bank, id)
	if err != nil {
		return rep, err
	}
	if rl.StartedUnixMS == 0 {
		rl.StartedUnixMS = r.now().UnixMilli()
	}
	rl.Graded, rl.Selected = rep.Graded, rep.Plan.Rewrite
	if dryRun {
		return rep, nil
	}
	if err := r.Bank.PutRound(ctx, rl); err != nil {
		return rep, err
	}
	offered := stableOf(bank)
	j := &judge.Judge{LLM: r.LLM}
	for _, name := range rep.Plan.Rewrite {
		cur, err := r.Bank.Get(ctx, name)
		if err != nil {
			return rep, err
		}
		p, cs, err := Deepen(ctx, r.LLM, cur, stats[name], records, bank, r.Tools)
		r.Calls = append(r.Calls, cs...)
		if err != nil {
			if errors.Is(err, ErrInvalidProposal) {
				r.gaveUp(&rep, "%v", err)
				continue
			}
			return rep, err
		}
		if err := r.gate(ctx, &rep, j, id, p, RewriteReplaySet(records, name), offered); err != nil {
			return rep, err
		}
	}
	for _, e := range rep.Plan.Mint {
		p, cs, err := Mint(ctx, r.LLM, e, records, bank, r.Tools)
		r.Calls = append(r.Calls, cs...)
		if err != nil {
			if errors.Is(err, ErrInvalidProposal) {
				r.gaveUp(&rep, "%v", err)
				continue
			}
			return rep, err
		}
		if err := r.gate(ctx, &rep, j, id, p, MintReplaySet(records, e), offered); err != nil {
			return rep, err
		}
	}
	for _, name := range rep.Plan.Deprecate {
		d, err := Deprecate(ctx, r.Bank, id, name, r.now().UnixMilli())
		if err != nil {
			return rep, err
		}
		rep.Decisions = append(rep.Decisions, d)
	}
	if rl, err = roundLog(ctx, r.Bank, id); err != nil {
		return rep, err
	}
	rl.FinishedUnixMS = r.now().UnixMilli()
	return rep, r.Bank.PutRound(ctx, rl)
}

// gate replays, judges, decides and applies one proposal. A proposal
// with no record to replay is given up (nothing to measure).
func (r *Runner) gate(ctx context.Context, rep *Report, j *judge.Judge, id string, p Proposal, replay []skills.TurnRecord, offered []skills.Skill) error {
	if len(replay) == 0 {
		r.gaveUp(rep, "%s %s: no graded record to replay", p.Kind, p.Skill.Name)
		return nil
	}
	recs, cs, err := RunGate(ctx, r.Replayer, j, r.Store, p, replay, offered)
	r.Calls = append(r.Calls, cs...)
	if err != nil {
		return fmt.Errorf("%s %s: %w", p.Kind, p.Skill.Name, err)
	}
	d, err := Apply(ctx, r.Bank, id, Outcome{Proposal: p, Records: recs, Decision: Decide(recs), AtUnixMS: r.now().UnixMilli()})
	if err != nil {
		return err
	}
	rep.Decisions = append(rep.Decisions, d)
	return nil
}

// widen pools the uncovered subtasks of the records graded after Since.
func (r *Runner) widen(ctx context.Context, rep *Report, records []skills.TurnRecord, bank []skills.Skill) (int, error) {
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
		if rec.Grade == nil || rec.Grade.GradedUnixMS <= r.Since {
			continue
		}
		subs, cs, err := Subtasks(ctx, r.LLM, rec, known)
		r.Calls = append(r.Calls, cs...)
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
func (r *Runner) bin(ctx context.Context, records []skills.TurnRecord, bank []skills.Skill) (map[string]skills.Stats, error) {
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
	stats := Bin(records, versions, prev, r.Since)
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
