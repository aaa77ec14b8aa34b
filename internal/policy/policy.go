// Package policy is the self-correction loop's decision rule, as pure
// functions: after each iteration, stop, continue from the new state, or roll
// back to the best earlier one; at the end, pick the iteration to return.
//
// Source: ACE Algorithm 1 and §3.3 (stop when IF >= tau = 4 or after T = 3
// iterations; the critique is forwarded verbatim; strict-peak rollback keeps
// the last iteration unless the judge's own score declined), and the
// baseline-relative hard gate of ReDeck (new geometry violations == 0; an
// iteration that fails it is never returned).
//
// Both the in-process runner and the Temporal workflow call these functions,
// so the policy lives in one place. No I/O, no clocks, no randomness.
package policy

import (
	"fmt"
	"strings"
)

// Config holds the loop's two knobs.
type Config struct {
	// Tau is the IF score (0..5) at or above which the loop stops.
	Tau float64 `json:"tau"`
	// MaxIterations is T, the iteration budget.
	MaxIterations int `json:"maxIterations"`
}

// Default is the paper's setting: tau = 4, T = 3 (ACE §3.3, App. L: tau sits
// on a plateau from 3.5; ~65% of the gain arrives by T = 2).
var Default = Config{Tau: 4, MaxIterations: 3}

// WithDefaults fills zero fields from Default.
func (c Config) WithDefaults() Config {
	if c.Tau == 0 {
		c.Tau = Default.Tau
	}
	if c.MaxIterations <= 0 {
		c.MaxIterations = Default.MaxIterations
	}
	return c
}

// Iteration is what the loop records after one act-apply-render-diff-judge
// turn.
type Iteration struct {
	N        int    `json:"n"`        // 1-based
	Snapshot string `json:"snapshot"` // store ref of the state after this iteration
	// Score is the IF judge's score 0..5; nil when no judge ran (no model
	// configured) or its answer was missing after the retry.
	Score *float64 `json:"score,omitempty"`
	// GatePassed is the hard geometry gate: no violation beyond the origin's.
	GatePassed bool `json:"gatePassed"`
	// Critique is the judge's reason, forwarded verbatim.
	Critique string `json:"critique,omitempty"`
	// NewViolations are one-line descriptions of violations the origin did
	// not have (empty when the gate passed).
	NewViolations []string `json:"newViolations,omitempty"`
	// Reverted is how many slides a recipe's per-slide gate put back as
	// they were in the iteration's base because they added violations
	// (recipe key gate: per_slide); the gate then judged the rest.
	Reverted int `json:"reverted,omitempty"`
}

// Action is what the loop does next.
type Action string

const (
	Stop     Action = "stop"
	Continue Action = "continue"
	Rollback Action = "rollback" // continue, but from the best earlier state
)

// Decision says what to do after the latest iteration.
type Decision struct {
	Action Action `json:"action"`
	// Base is the snapshot the next iteration starts from (the latest one on
	// Continue, the best earlier one or the origin on Rollback); empty on Stop.
	Base string `json:"base,omitempty"`
	// Feedback is what the next iteration is told about this one; nil on
	// Stop.
	Feedback *Feedback `json:"feedback,omitempty"`
	Reason   string    `json:"reason"`
}

// Feedback is what the loop tells the agent about the iteration it just
// judged, so the next prompt says truthfully which deck the agent now
// sees: its own kept edit after a continue, or, after a rollback, an
// earlier state with the judged edit undone and why (ACE §3.3 forwards the
// critique verbatim; after a rollback that critique is of an attempt that
// is no longer in the deck, so it is labelled as such).
type Feedback struct {
	// Iteration is the 1-based iteration the feedback is about.
	Iteration int `json:"iteration"`
	// Undone is set when that iteration's edit was rolled back.
	Undone bool `json:"undone,omitempty"`
	// Base is the iteration whose result the next deck is: Iteration after
	// a continue, an earlier one or 0 (the original deck) after a rollback.
	Base int `json:"base"`
	// NewViolations are the geometry violations the judged iteration added
	// (kind, slide, node ids, boxes; one line each): why it was undone
	// when the gate failed.
	NewViolations []string `json:"newViolations,omitempty"`
	// ScoreFrom and ScoreTo are set when the iteration was undone because
	// the IF score fell from Base's ScoreFrom to ScoreTo.
	ScoreFrom *float64 `json:"scoreFrom,omitempty"`
	ScoreTo   *float64 `json:"scoreTo,omitempty"`
	// Critique is the IF judge's critique of the judged iteration,
	// verbatim (empty when no judge ran).
	Critique string `json:"critique,omitempty"`
	// Issues are the critic's open issues after the judged iteration, as
	// text for the agent (critic.Feedback; empty without a critic turn).
	Issues string `json:"issues,omitempty"`
}

// Next decides after the last entry of hist. origin is the snapshot the edit
// started from, used when no iteration so far is worth continuing from.
// hist must not be empty.
func Next(cfg Config, origin string, hist []Iteration) Decision {
	cfg = cfg.WithDefaults()
	cur := hist[len(hist)-1]
	switch {
	case cur.GatePassed && cur.Score != nil && *cur.Score >= cfg.Tau:
		return Decision{Action: Stop, Reason: fmt.Sprintf("IF %.1f >= tau %.1f and the geometry gate passed", *cur.Score, cfg.Tau)}
	case cur.Score == nil && cur.GatePassed:
		return Decision{Action: Stop, Reason: "no judge score; the geometry gate passed"}
	case len(hist) >= cfg.MaxIterations:
		return Decision{Action: Stop, Reason: fmt.Sprintf("iteration budget T=%d spent", cfg.MaxIterations)}
	}
	fb := &Feedback{Iteration: cur.N, Critique: strings.TrimSpace(cur.Critique)}
	best := bestBefore(hist[:len(hist)-1])
	switch {
	case !cur.GatePassed:
		fb.Undone, fb.NewViolations = true, cur.NewViolations
		if best >= 0 {
			fb.Base = hist[best].N
			return Decision{Action: Rollback, Base: hist[best].Snapshot, Feedback: fb,
				Reason: fmt.Sprintf("iteration %d added geometry violations; back to iteration %d", cur.N, hist[best].N)}
		}
		return Decision{Action: Rollback, Base: origin, Feedback: fb,
			Reason: fmt.Sprintf("iteration %d added geometry violations; back to the origin", cur.N)}
	case best >= 0 && score(hist[best]) > score(cur):
		fb.Undone, fb.Base, fb.ScoreFrom, fb.ScoreTo = true, hist[best].N, hist[best].Score, cur.Score
		return Decision{Action: Rollback, Base: hist[best].Snapshot, Feedback: fb,
			Reason: fmt.Sprintf("IF fell from %.1f to %s; back to iteration %d", score(hist[best]), fmtScore(cur.Score), hist[best].N)}
	}
	fb.Base = cur.N
	return Decision{Action: Continue, Base: cur.Snapshot, Feedback: fb,
		Reason: fmt.Sprintf("IF %s < tau %.1f; continue with the critique", fmtScore(cur.Score), cfg.Tau)}
}

// StopOutcome names why the loop stopped when Next said Stop: Unchanged
// (a recipe without instruction steps matched nothing in this deck),
// Applied (such a recipe changed the deck; the gate passed), PartlyApplied
// (it changed the deck, but its per-slide gate reverted some slides),
// GateBlocked (its per-slide gate reverted every slide it changed), NoJudge (no
// model judged), Budget (T spent below tau) or Stopped (IF >= tau with the
// gate passed). reason is "" when Next's reason says it already.
func StopOutcome(cfg Config, origin string, hist []Iteration, pureRecipe bool) (outcome Outcome, reason string) {
	cfg = cfg.WithDefaults()
	cur := hist[len(hist)-1]
	switch {
	case cur.Score == nil && pureRecipe && cur.Reverted > 0 && cur.Snapshot == origin:
		return GateBlocked, fmt.Sprintf("every slide the recipe changed added geometry violations; the per-slide gate reverted %s, the original deck stands", slidesWord(cur.Reverted))
	case cur.Score == nil && pureRecipe && cur.Reverted > 0:
		return PartlyApplied, fmt.Sprintf("recipe applied; the per-slide gate reverted %s that added geometry violations, the other slides keep the edit", slidesWord(cur.Reverted))
	case cur.Score == nil && pureRecipe && cur.Snapshot == origin:
		return Unchanged, "the recipe changed nothing in this deck: no step matched"
	case cur.Score == nil && pureRecipe:
		return Applied, "recipe applied; the geometry gate passed"
	case cur.Score == nil:
		return NoJudge, ""
	case len(hist) >= cfg.MaxIterations && !(cur.GatePassed && *cur.Score >= cfg.Tau):
		return Budget, ""
	}
	return Stopped, ""
}

// slidesWord is "1 slide" or "n slides".
func slidesWord(n int) string {
	if n == 1 {
		return "1 slide"
	}
	return fmt.Sprintf("%d slides", n)
}

// ExpectationsHold is the reason's tail when a recipe's n expectations
// all hold: "; the expectation holds" or "; all n expectations hold".
func ExpectationsHold(n int) string {
	if n == 1 {
		return "; the expectation holds"
	}
	return fmt.Sprintf("; all %d expectations hold", n)
}

// Select is strict-peak selection: among iterations that passed the gate,
// keep the last one unless the judge's score declined from an earlier peak,
// then return that peak (ties go to the later iteration). It returns the
// index into hist, or -1 when no iteration passed the gate (the origin
// stands).
func Select(hist []Iteration) int {
	last, best := -1, -1
	for i, it := range hist {
		if !it.GatePassed {
			continue
		}
		last = i
		if best < 0 || score(it) >= score(hist[best]) {
			best = i
		}
	}
	if last < 0 {
		return -1
	}
	if score(hist[last]) < score(hist[best]) {
		return best
	}
	return last
}

func bestBefore(hist []Iteration) int {
	best := -1
	for i, it := range hist {
		if it.GatePassed && (best < 0 || score(it) >= score(hist[best])) {
			best = i
		}
	}
	return best
}

// score treats a missing score as -1, below every real one.
func score(it Iteration) float64 {
	if it.Score == nil {
		return -1
	}
	return *it.Score
}

func fmtScore(s *float64) string {
	if s == nil {
		return "missing"
	}
	return fmt.Sprintf("%.1f", *s)
}
