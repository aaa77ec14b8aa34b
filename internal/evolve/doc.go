// Package evolve is the skill bank's evolve loop (Designer-RSI §3, App.
// E, F; spec part A): pure logic and model calls, no Temporal, so the
// evolve workflow's activities, `ace skills evolve` in process and the
// tests call the same functions.
//
//   - Grade back-fills a turn record's grade: the instruction decomposed
//     into 3-10 requirements labelled met/partial/not_met with reasons,
//     an aesthetic score, S = 0.7 completeness + 0.3 aesthetic (App. D).
//   - Bin charges each graded failure (S < tau 0.6) to every starred
//     skill and keeps the quality EMA; Select picks the skills to deepen
//     (App. E).
//   - Deepen asks a reflector for a revised SKILL.md; Widen extracts each
//     record's subtasks, pools the uncovered ones by canonical label and
//     mints a candidate at k_min 3 (§3.1, §3.2).
//   - The replay gate re-runs both arms fresh (Replayer), judges each pair
//     in both orders (judge.PairwiseBothOrders) and Decide applies the
//     no-regression rule (§3.3, App. F Eq. 5).
//   - A Round commits accepted proposals (version+1, stats reset) and logs
//     rejected ones, idempotently by round id.
package evolve
