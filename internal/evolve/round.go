package evolve

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/acecanvas/ace/internal/skills"
)

// Plan is what one evolve round will try (Designer-RSI §3, App. E): the
// skills to deepen, the coverage entries to mint from, the skills to
// deprecate.
type Plan struct {
	Round string `json:"round"`
	// Rewrite are stable skills selected to deepen (Select), most failing
	// first, minus those the round already decided.
	Rewrite []string `json:"rewrite,omitempty"`
	// Mint are ripe coverage entries (Ripe), minus those decided.
	Mint []skills.CoverageEntry `json:"mint,omitempty"`
	// Deprecate are stable skills the deprecation rule retires.
	Deprecate []string `json:"deprecate,omitempty"`
}

// DeprecateAfter: a stable skill is deprecated once this many of its
// rewrites in a row were refused by the gate (ConsecutiveGateRejects >=
// 3: targeted edits and then a major rewrite all failed) while its
// quality EMA on the current version is below skills.NeutralEMA (it
// fails more than it succeeds). The paper retires skills through an
// optional exploration cycle (§3.2 "delete") without giving a rule; this
// is ACE's stand-in, decided from counters the bank already keeps.
const DeprecateAfter = 3

// Deprecated reports whether st meets the deprecation rule.
func Deprecated(st skills.Stats) bool {
	return st.ConsecutiveGateRejects >= DeprecateAfter && st.QualityEMA < skills.NeutralEMA
}

// MakePlan plans round id from the bank: stats binned afresh from the
// records (Bin), then Select over stable skills (a deprecated or
// candidate skill is never rewritten), Ripe coverage entries, and the
// deprecation rule. What the round's RoundLog already decided is left
// out, so planning again after a crash resumes the round.
func MakePlan(ctx context.Context, b Bank, id string, stats map[string]skills.Stats) (Plan, error) {
	p := Plan{Round: id}
	rl, err := roundLog(ctx, b, id)
	if err != nil {
		return p, err
	}
	bank, err := b.List(ctx)
	if err != nil {
		return p, err
	}
	stable := map[string]bool{}
	for _, s := range bank {
		stable[s.Name] = s.Status == skills.StatusStable
	}
	for _, name := range Select(stats) {
		if _, done := rl.Decided(name); !stable[name] || done || Deprecated(stats[name]) {
			continue
		}
		if v, err := committedIn(ctx, b, id, name); err != nil || v > 0 {
			if err != nil {
				return p, err
			}
			continue // committed before a crash kept the decision from the log
		}
		p.Rewrite = append(p.Rewrite, name)
	}
	pool, err := b.Coverage(ctx)
	if err != nil {
		return p, err
	}
	for _, e := range Ripe(pool, bank) {
		if _, done := rl.Decided(e.Label); !done {
			p.Mint = append(p.Mint, e)
		}
	}
	var names []string
	for name, st := range stats {
		if _, done := rl.Decided(name); stable[name] && !done && Deprecated(st) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	p.Deprecate = names
	return p, nil
}

// roundLog reads round id's log, a fresh one when there is none.
func roundLog(ctx context.Context, b Bank, id string) (skills.RoundLog, error) {
	rl, err := b.Round(ctx, id)
	if errors.Is(err, skills.ErrNotFound) {
		return skills.RoundLog{ID: id}, nil
	}
	return rl, err
}

// Outcome is one proposal's gate result, ready to apply.
type Outcome struct {
	Proposal Proposal            `json:"proposal"`
	Records  []skills.GateRecord `json:"records"`
	Decision Decision            `json:"decision"`
	// AtUnixMS is when the gate decided (the commit's and log's time;
	// fixed here so a retried Apply writes the same bytes).
	AtUnixMS int64 `json:"atUnixMs"`
}

// Apply carries out a gate outcome in round id, idempotently (a re-run
// after a crash at any point commits at most once and logs at most once):
//
//   - nothing when the round's log already holds a decision for the
//     skill;
//   - the gate log (Before/After SKILL.md texts, the records, the
//     verdict) appended unless the round already logged this skill;
//   - accepted: Bank.Commit of the proposal (a mint as stable v1), unless
//     the skill's history already has a change of this round; then its
//     stats reset (Fails and Successes 0, QualityEMA 0.5,
//     ConsecutiveGateRejects 0; Retrieved kept);
//   - an accepted mint also empties its coverage-pool entry (consumed);
//   - rejected: the bank unchanged; a rewrite's ConsecutiveGateRejects
//     set from the gate logs (ConsecutiveRejects), which counts this
//     rejection once however often Apply runs; a mint's pool entry
//     stays for a later round (Designer-RSI App. F);
//   - the decision added to the round's log.
func Apply(ctx context.Context, b Bank, id string, o Outcome) (skills.RoundDecision, error) {
	name := o.Proposal.Skill.Name
	rl, err := roundLog(ctx, b, id)
	if err != nil {
		return skills.RoundDecision{}, err
	}
	if d, ok := rl.Decided(name); ok {
		return d, nil
	}
	accepted := o.Decision.Accepted()
	dec := skills.RoundDecision{Skill: name, Kind: o.Proposal.Kind, Accepted: accepted, Reason: o.Decision.Reason}
	logs, err := b.GateLogs(ctx, id)
	if err != nil {
		return dec, err
	}
	if !slices.ContainsFunc(logs, func(g skills.GateLog) bool { return g.Skill == name }) {
		g := skills.GateLog{Round: id, Kind: o.Proposal.Kind, Skill: name, Records: o.Records,
			Accepted: accepted, Reason: o.Decision.Reason, After: string(o.Proposal.Skill.Format()), AtUnixMS: o.AtUnixMS}
		if o.Proposal.Before != nil {
			g.Before = string(o.Proposal.Before.Format())
		}
		if err := b.AppendGateLog(ctx, g); err != nil {
			return dec, fmt.Errorf("log the gate of %s: %w", name, err)
		}
	}
	st, err := b.Stats(ctx, name)
	if err != nil {
		return dec, err
	}
	if accepted {
		s := o.Proposal.Skill
		if o.Proposal.Kind == skills.ChangeMint {
			s.Status, s.Version = skills.StatusStable, 1
		}
		v, err := commitOnce(ctx, b, id, s, skills.Change{Name: name, Version: s.Version, Kind: o.Proposal.Kind,
			Reason: o.Decision.Reason, Round: id, AtUnixMS: o.AtUnixMS, Before: s.Version - 1, After: s.Version})
		if err != nil {
			return dec, err
		}
		dec.Version = v
		st = skills.Stats{Name: name, QualityEMA: skills.NeutralEMA, Retrieved: st.Retrieved}
	} else if o.Proposal.Kind != skills.ChangeMint {
		all, err := b.GateLogs(ctx, "")
		if err != nil {
			return dec, err
		}
		st.ConsecutiveGateRejects = ConsecutiveRejects(all, name)
	}
	if accepted || o.Proposal.Kind != skills.ChangeMint {
		if err := b.PutStats(ctx, st); err != nil {
			return dec, err
		}
	}
	if accepted && o.Proposal.Kind == skills.ChangeMint && o.Proposal.Label != "" {
		// The entry is consumed: its subtask has a skill now.
		if err := b.PutCoverage(ctx, skills.CoverageEntry{Label: o.Proposal.Label}); err != nil {
			return dec, err
		}
	}
	return dec, addDecision(ctx, b, id, dec)
}

// committedIn returns the version of skill name that round id
// committed, 0 when it committed none (or the skill does not exist).
func committedIn(ctx context.Context, b Bank, id, name string) (int, error) {
	hist, err := b.History(ctx, name)
	if err != nil && !errors.Is(err, skills.ErrNotFound) {
		return 0, err
	}
	for _, c := range hist {
		if c.Round == id {
			return c.Version, nil
		}
	}
	return 0, nil
}

// commitOnce commits s unless round id already committed a version of
// s.Name; it returns the version the round committed.
func commitOnce(ctx context.Context, b Bank, id string, s skills.Skill, ch skills.Change) (int, error) {
	if v, err := committedIn(ctx, b, id, s.Name); err != nil || v > 0 {
		return v, err
	}
	if err := b.Commit(ctx, s, ch); err != nil {
		return 0, fmt.Errorf("commit %s v%d: %w", s.Name, s.Version, err)
	}
	return s.Version, nil
}

// addDecision appends dec to round id's log (re-read, so decisions of
// other proposals written meanwhile are kept).
func addDecision(ctx context.Context, b Bank, id string, dec skills.RoundDecision) error {
	rl, err := roundLog(ctx, b, id)
	if err != nil {
		return err
	}
	if _, ok := rl.Decided(dec.Skill); ok {
		return nil
	}
	rl.Decisions = append(rl.Decisions, dec)
	return b.PutRound(ctx, rl)
}

// ConsecutiveRejects counts skill's rejected rewrite gate runs since its
// last accepted one (any kind), in time order (AtUnixMS, then round): the
// counter that drives escalation (EscalateAfter) and deprecation.
func ConsecutiveRejects(logs []skills.GateLog, skill string) int {
	var mine []skills.GateLog
	for _, g := range logs {
		if g.Skill == skill {
			mine = append(mine, g)
		}
	}
	sort.SliceStable(mine, func(i, j int) bool {
		if mine[i].AtUnixMS != mine[j].AtUnixMS {
			return mine[i].AtUnixMS < mine[j].AtUnixMS
		}
		return mine[i].Round < mine[j].Round
	})
	n := 0
	for _, g := range mine {
		switch {
		case g.Accepted:
			n = 0
		case g.Kind == skills.ChangeRewrite || g.Kind == skills.ChangeMajorRewrite:
			n++
		}
	}
	return n
}

// Deprecate retires skill name in round id: its current text committed
// again as version+1 with status deprecated (Change kind deprecate), so
// it is never offered and `ace skills revert` can restore it. Idempotent
// like Apply.
func Deprecate(ctx context.Context, b Bank, id, name string, atUnixMS int64) (skills.RoundDecision, error) {
	dec := skills.RoundDecision{Skill: name, Kind: skills.ChangeDeprecate, Accepted: true,
		Reason: fmt.Sprintf("%d rewrites in a row refused by the gate and quality below %.1f", DeprecateAfter, skills.NeutralEMA)}
	rl, err := roundLog(ctx, b, id)
	if err != nil {
		return dec, err
	}
	if d, ok := rl.Decided(name); ok {
		return d, nil
	}
	cur, err := b.Get(ctx, name)
	if err != nil {
		return dec, err
	}
	next := cur
	next.Version, next.Status = cur.Version+1, skills.StatusDeprecated
	v, err := commitOnce(ctx, b, id, next, skills.Change{Name: name, Version: next.Version, Kind: skills.ChangeDeprecate,
		Reason: dec.Reason, Round: id, AtUnixMS: atUnixMS, Before: cur.Version, After: next.Version})
	if err != nil {
		return dec, err
	}
	dec.Version = v
	return dec, addDecision(ctx, b, id, dec)
}

// Logf reports what a round gave up on (an invalid proposal, an
// ungradable record); nil discards.
type Logf func(format string, args ...any)

func (l Logf) printf(format string, args ...any) {
	if l != nil {
		l(format, args...)
	}
}
