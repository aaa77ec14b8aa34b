package evolve

import (
	"sort"

	"github.com/acecanvas/ace/internal/skills"
)

// EMARate is the weight of the newest outcome in a skill's quality EMA:
// ema = (1-EMARate)*ema + EMARate*outcome, outcome 1 for a success and 0
// for a failure (Designer-RSI App. E keeps the EMA for observability
// and leaves its rate unspecified; 0.2 weighs about the last ten
// records).
const EMARate = 0.2

// RoundEvery is how many newly graded records make an evolve round due
// (Designer-RSI App. E: a round fires after 50 new graded records).
const RoundEvery = 50

// MinFails is m, the failure count that selects a skill for deepening,
// and MaxSelected the most skills deepened in one round (App. E).
const (
	MinFails    = 2
	MaxSelected = 50
)

// Bin recomputes every skill's counters from the graded records
// (Designer-RSI App. E binning), so binning the same records twice gives
// the same stats (a re-run activity cannot double-count):
//
//   - a record succeeds iff its S >= 0.6 (Grade.Success);
//   - its outcome is charged to every skill it starred, unweighted;
//   - Fails, Successes and QualityEMA count only records that starred the
//     skill's current version (versions[name]; a record naming version 0
//     counts for any version), so an accepted rewrite starts them afresh
//     (Fails 0, EMA 0.5), and the EMA folds outcomes oldest first
//     (StartedUnixMS, then id) from skills.NeutralEMA at rate EMARate;
//   - Retrieved counts every record that starred the skill, any version;
//   - GradedSince counts those graded after sinceMS (the last round's
//     start; 0 for none);
//   - ConsecutiveGateRejects is kept from prev (the gate owns it).
//
// Skills in versions with no record keep neutral counters; skills only in
// prev keep their reject count. Ungraded records are skipped.
func Bin(records []skills.TurnRecord, versions map[string]int, prev map[string]skills.Stats, sinceMS int64) map[string]skills.Stats {
	out := map[string]skills.Stats{}
	get := func(name string) skills.Stats {
		st, ok := out[name]
		if !ok {
			st = skills.NewStats(name)
			st.ConsecutiveGateRejects = prev[name].ConsecutiveGateRejects
		}
		return st
	}
	for name := range versions {
		out[name] = get(name)
	}
	for name := range prev {
		out[name] = get(name)
	}
	sorted := make([]skills.TurnRecord, 0, len(records))
	for _, r := range records {
		if r.Grade != nil {
			sorted = append(sorted, r)
		}
	}
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].StartedUnixMS != sorted[j].StartedUnixMS {
			return sorted[i].StartedUnixMS < sorted[j].StartedUnixMS
		}
		return sorted[i].ID < sorted[j].ID
	})
	for _, r := range sorted {
		seen := map[string]bool{}
		for _, sc := range r.Retrieved {
			if !sc.Starred || seen[sc.Name] {
				continue
			}
			seen[sc.Name] = true
			st := get(sc.Name)
			st.Retrieved++
			if r.Grade.GradedUnixMS > sinceMS {
				st.GradedSince++
			}
			if v, ok := versions[sc.Name]; !ok || sc.Version == 0 || sc.Version == v {
				outcome := 0.0
				if r.Grade.Success {
					st.Successes++
					outcome = 1
				} else {
					st.Fails++
				}
				st.QualityEMA = (1-EMARate)*st.QualityEMA + EMARate*outcome
			}
			out[sc.Name] = st
		}
	}
	return out
}

// RoundDue reports whether at least RoundEvery records were graded after
// sinceMS (the last round's start), and how many were.
func RoundDue(records []skills.TurnRecord, sinceMS int64) (bool, int) {
	n := 0
	for _, r := range records {
		if r.Grade != nil && r.Grade.GradedUnixMS > sinceMS {
			n++
		}
	}
	return n >= RoundEvery, n
}

// Select picks the skills to deepen (Designer-RSI App. E): every skill
// with Fails >= MinFails, most failing first (ties by name), at most
// MaxSelected. Success counts are not consulted.
func Select(stats map[string]skills.Stats) []string {
	var out []skills.Stats
	for _, st := range stats {
		if st.Fails >= MinFails {
			out = append(out, st)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Fails != out[j].Fails {
			return out[i].Fails > out[j].Fails
		}
		return out[i].Name < out[j].Name
	})
	names := make([]string, 0, min(len(out), MaxSelected))
	for i := 0; i < len(out) && i < MaxSelected; i++ {
		names = append(names, out[i].Name)
	}
	return names
}
