package evolve

import (
	"fmt"
	"sort"

	"github.com/acecanvas/ace/internal/judge"
	"github.com/acecanvas/ace/internal/skills"
)

// TieBand is delta, the half-width of the tie band around r = 0.5
// (Designer-RSI App. F; the paper leaves its size unspecified). With
// both judging orders of one record pair a record's r is 0, 0.25, 0.5,
// 0.75 or 1, so 0.1 makes one split vote (a win and a tie, r 0.75) an
// improvement and a win against a loss (r 0.5) a tie.
const TieBand = 0.1

// RecordVerdict is one replayed record's class under the tie band.
type RecordVerdict string

// Record verdicts (App. F).
const (
	Improvement RecordVerdict = "improvement" // r > 0.5 + TieBand
	Regression  RecordVerdict = "regression"  // r < 0.5 - TieBand
	Tie         RecordVerdict = "tie"
)

// Classify places a win rate r in [0,1] against the tie band: an
// improvement when r > 0.6, a regression when r < 0.4, else a tie
// (Designer-RSI App. F).
func Classify(r float64) RecordVerdict {
	switch {
	case r > 0.5+TieBand:
		return Improvement
	case r < 0.5-TieBand:
		return Regression
	}
	return Tie
}

// GateRecordOf is a replayed record's gate entry from the proposal's
// pairwise tally against the baseline: R = (wins + ties/2) / (wins +
// losses + ties) (skills.WinRate; a missing verdict is a tie).
func GateRecordOf(rec skills.TurnRecord, t judge.PairwiseTally) skills.GateRecord {
	return skills.GateRecord{RecordID: rec.ID, Instruction: rec.Instruction,
		Wins: t.Wins, Losses: t.Losses, Ties: t.Ties, R: skills.WinRate(t.Wins, t.Losses, t.Ties)}
}

// Decision is the replay gate's decision over a replay set.
type Decision struct {
	Verdict skills.GateVerdict
	// Improvements, Regressions and Ties count the records by class.
	Improvements, Regressions, Ties int
	// Reason is one line saying why, naming the records that decided it.
	Reason string
}

// Accepted reports whether the proposal ships.
func (d Decision) Accepted() bool { return d.Verdict == skills.GateAccept }

// Decide is the replay gate's rule (Designer-RSI §3.3 Eq. 1, App. F
// Eq. 5): each record's r is recomputed from its counts (skills.WinRate)
// and classified (Classify); the proposal is accepted iff no record is a
// regression and at least one is an improvement. A regression is never
// traded for a gain, all ties reject, and an empty replay set rejects
// (nothing was measured).
func Decide(records []skills.GateRecord) Decision {
	var d Decision
	var won, lost []string
	for _, g := range records {
		r := skills.WinRate(g.Wins, g.Losses, g.Ties)
		switch Classify(r) {
		case Improvement:
			d.Improvements++
			won = append(won, fmt.Sprintf("%s (r %.2f)", g.RecordID, r))
		case Regression:
			d.Regressions++
			lost = append(lost, fmt.Sprintf("%s (r %.2f)", g.RecordID, r))
		default:
			d.Ties++
		}
	}
	d.Verdict = skills.GateReject
	switch {
	case len(records) == 0:
		d.Reason = "no record was replayed, so nothing was measured"
	case d.Regressions > 0:
		d.Reason = fmt.Sprintf("regressed on %d of %d records: %v", d.Regressions, len(records), lost)
	case d.Improvements == 0:
		d.Reason = fmt.Sprintf("all %d records tied (r within 0.5 +- %.1f): no measured gain", len(records), TieBand)
	default:
		d.Verdict = skills.GateAccept
		d.Reason = fmt.Sprintf("improved %d of %d records with no regression: %v", d.Improvements, len(records), won)
	}
	return d
}

// ReplaySetSize is how many records a gate replays: 2 well-scoring and 2
// poorly-scoring for a rewrite, up to 4 of the cluster for a mint
// (Designer-RSI App. F; the mint count is unspecified there).
const ReplaySetSize = 4

// RewriteReplaySet picks the replay set for a rewrite of skill
// (Designer-RSI App. F): among graded records that starred it, the 2
// highest-scoring and the 2 lowest-scoring (S, ties broken by id), with
// no record twice; fewer when fewer exist.
func RewriteReplaySet(records []skills.TurnRecord, skill string) []skills.TurnRecord {
	var pool []skills.TurnRecord
	for _, r := range records {
		if r.Grade != nil && starred(r, skill) {
			pool = append(pool, r)
		}
	}
	sort.SliceStable(pool, func(i, j int) bool {
		if pool[i].Grade.S != pool[j].Grade.S {
			return pool[i].Grade.S > pool[j].Grade.S
		}
		return pool[i].ID < pool[j].ID
	})
	if len(pool) <= ReplaySetSize {
		return pool
	}
	half := ReplaySetSize / 2
	return append(append([]skills.TurnRecord(nil), pool[:half]...), pool[len(pool)-half:]...)
}

// MintReplaySet picks a mint's replay set: the cluster's records
// (the coverage entry's, in pool order) up to ReplaySetSize, unstratified
// (Designer-RSI App. F).
func MintReplaySet(records []skills.TurnRecord, entry skills.CoverageEntry) []skills.TurnRecord {
	byID := map[string]skills.TurnRecord{}
	for _, r := range records {
		byID[r.ID] = r
	}
	var out []skills.TurnRecord
	for _, id := range entry.Records {
		if r, ok := byID[id]; ok && len(out) < ReplaySetSize {
			out = append(out, r)
		}
	}
	return out
}

// starred reports whether rec starred skill (retrieved it, App. E).
func starred(rec skills.TurnRecord, skill string) bool {
	for _, s := range rec.Retrieved {
		if s.Starred && s.Name == skill {
			return true
		}
	}
	return false
}
