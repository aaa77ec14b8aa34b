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
	// Feedback is the next instruction: the critique verbatim plus the new
	// violations (WrapCritique); empty on Stop.
	Feedback string `json:"feedback,omitempty"`
	Reason   string `json:"reason"`
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
	feedback := WrapCritique(cur.Critique, cur.NewViolations)
	best := bestBefore(hist[:len(hist)-1])
	switch {
	case !cur.GatePassed && best >= 0:
		return Decision{Action: Rollback, Base: hist[best].Snapshot, Feedback: feedback,
			Reason: fmt.Sprintf("iteration %d added geometry violations; back to iteration %d", cur.N, hist[best].N)}
	case !cur.GatePassed:
		return Decision{Action: Rollback, Base: origin, Feedback: feedback,
			Reason: fmt.Sprintf("iteration %d added geometry violations; back to the origin", cur.N)}
	case best >= 0 && score(hist[best]) > score(cur):
		return Decision{Action: Rollback, Base: hist[best].Snapshot, Feedback: feedback,
			Reason: fmt.Sprintf("IF fell from %.1f to %.1f; back to iteration %d", score(hist[best]), score(cur), hist[best].N)}
	}
	return Decision{Action: Continue, Base: cur.Snapshot, Feedback: feedback,
		Reason: fmt.Sprintf("IF %s < tau %.1f; continue with the critique", fmtScore(cur.Score), cfg.Tau)}
}

// Outcome names why the loop stopped when Next said Stop, in the words the
// runner, the workflow, the CLI and the reports share: "applied" (a recipe
// without instruction steps changed the deck and the gate passed),
// "unchanged" (such a recipe matched nothing in this deck), "no_judge"
// (no model judged), "budget" (T spent below tau) or "stopped" (IF >= tau
// with the gate passed). reason is "" when Next's reason says it already.
func Outcome(cfg Config, origin string, hist []Iteration, pureRecipe bool) (outcome, reason string) {
	cfg = cfg.WithDefaults()
	cur := hist[len(hist)-1]
	switch {
	case cur.Score == nil && pureRecipe && cur.Snapshot == origin:
		return "unchanged", "the recipe changed nothing in this deck: no step matched"
	case cur.Score == nil && pureRecipe:
		return "applied", "recipe applied; the geometry gate passed"
	case cur.Score == nil:
		return "no_judge", ""
	case len(hist) >= cfg.MaxIterations && !(cur.GatePassed && *cur.Score >= cfg.Tau):
		return "budget", ""
	}
	return "stopped", ""
}

// ExpectationsHold is the reason's tail when a recipe's n expectations
// all hold: "; the expectation holds" or "; all n expectations hold".
func ExpectationsHold(n int) string {
	if n == 1 {
		return "; the expectation holds"
	}
	return fmt.Sprintf("; all %d expectations hold", n)
}

// Kept reports whether an outcome counts as the edit doing what was asked
// (EditStatus OK): applied, unchanged, no_judge, stopped.
func Kept(outcome string) bool {
	switch outcome {
	case "applied", "unchanged", "no_judge", "stopped":
		return true
	}
	return false
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

// WrapCritique builds the next instruction: the judge's critique verbatim,
// then the geometry violations the last iteration introduced (ACE §3.3: the
// critique is forwarded verbatim; ReDeck: violations as text observations).
func WrapCritique(critique string, newViolations []string) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(critique))
	if len(newViolations) > 0 {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("The last edit introduced layout problems that must be fixed:\n")
		for _, v := range newViolations {
			b.WriteString("- ")
			b.WriteString(v)
			b.WriteString("\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
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
