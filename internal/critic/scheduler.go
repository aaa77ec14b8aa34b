package critic

import (
	"fmt"
	"slices"
	"strings"
)

// The scheduler's budget: ReDeck App. M picks 3-5 atomic checks per turn;
// running every check every turn made the critic raise new style findings
// each turn and the repairs break layout (App. Q: 23.5% vs 8.2%
// regressions). The budget counts model checks. Geometric checks are read
// from the renderer's violations on every rendered slide at no model cost
// (spec C.5: "run cheap deterministic B_geom checks on every step").
const (
	MinChecks = 3
	MaxChecks = 5
)

// Ranking weights (ours; the paper names the signals, "recent edits,
// regression history and the need to recheck resolved issues", but not
// their weights). A check's score is its group's weight, plus scoreAspect
// when the group's on list names an aspect the turn touched, minus
// scorePosition per place after the group's first check (the first
// checks are the broad ones), plus the issue terms below, minus
// penaltyQuiet per earlier turn in which the check ran and it has never
// raised an issue. When filling the budget a check whose group has no
// pick yet costs costNewCall more (one more model call).
const (
	scoreAspect        = 3
	scorePosition      = 2
	scoreResolvedAgain = 6 // a resolved issue of the check sits on a modified slide
	scoreRegression    = 3 // per past regression of the check's issues
	scoreActiveHard    = 3 // per active hard issue on a slide the turn did not modify
	scoreActiveSoft    = 1 // per active soft issue on a slide the turn did not modify
	penaltyQuiet       = 3
	costNewCall        = 1
)

// ScheduleInput is what the scheduler sees of a turn.
type ScheduleInput struct {
	Turn int `json:"turn"`
	// Slides are the current deck's slide ids in order.
	Slides []string `json:"slides"`
	// Edits are the slides this turn modified and the aspects it touched.
	Edits Edits `json:"edits"`
}

// Pick is one selected check.
type Pick struct {
	Check string `json:"check"`
	// Mandatory: it re-checks an active issue on a modified slide
	// (ReDeck App. M: every such issue gets a check from its group).
	Mandatory bool   `json:"mandatory,omitempty"`
	Score     int    `json:"score"`
	Why       string `json:"why"`
}

// GroupCall is one model call: the picked checks of one group and what
// they examine.
type GroupCall struct {
	Group  string   `json:"group"`
	Checks []string `json:"checks"`
	// Deck: the checks examine the whole deck; otherwise Slides.
	Deck   bool     `json:"deck,omitempty"`
	Slides []string `json:"slides,omitempty"`
}

// Plan is a turn's schedule.
type Plan struct {
	Turn  int         `json:"turn"`
	Picks []Pick      `json:"picks"`
	Calls []GroupCall `json:"calls"`
}

// Checks lists the picked check ids in pick order.
func (p Plan) Checks() []string {
	out := make([]string, len(p.Picks))
	for i, pk := range p.Picks {
		out[i] = pk.Check
	}
	return out
}

// Mandatory lists the mandatory picks' check ids.
func (p Plan) Mandatory() []string {
	var out []string
	for _, pk := range p.Picks {
		if pk.Mandatory {
			out = append(out, pk.Check)
		}
	}
	return out
}

type candidate struct {
	check     string
	group     string
	order     int
	score     int
	mandatory bool
	why       []string
}

// Schedule picks the turn's model checks (ReDeck §3.3, App. M):
//  1. every active issue on a modified slide (a deck-level issue when any
//     slide was modified) is re-checked by its own check: mandatory, even
//     beyond MaxChecks;
//  2. the budget is filled up to MaxChecks with the best-scored checks
//     whose group the turn's aspects make relevant or that have issues,
//     while their score after the new-call cost is above zero, and always
//     up to MinChecks;
//  3. ties go to a check whose group is already picked (no new call), then
//     to library order.
//
// Picks of one group become one GroupCall; a slide-scope call examines the
// modified slides and the slides of the picked checks' active issues, in
// deck order (the whole deck when that is empty). It is a pure function of
// its inputs.
func Schedule(lib *Library, l *Ledger, in ScheduleInput) Plan {
	present := map[string]bool{}
	for _, s := range in.Slides {
		present[s] = true
	}
	modified := map[string]bool{}
	for _, s := range in.Edits.Slides {
		if present[s] {
			modified[s] = true
		}
	}
	onModified := func(is *Issue) bool {
		if is.Slide == "" {
			return len(modified) > 0
		}
		return modified[is.Slide]
	}
	cands := map[string]*candidate{}
	get := func(check string) *candidate {
		c, ok := cands[check]
		if !ok {
			chk, g, _ := lib.Check(check)
			c = &candidate{check: check, group: g.ID, order: lib.order(check)}
			idx := lib.checkAt[chk.ID]
			c.score = g.Weight - scorePosition*idx
			specific := false
			for _, a := range g.On {
				if slices.Contains(in.Edits.Aspects, a) {
					specific = true
				}
			}
			if specific {
				c.score += scoreAspect
			}
			cands[check] = c
		}
		return c
	}
	hasIssue := map[string]bool{}
	resolvedAgain := map[string]bool{}
	for i := range l.Issues {
		is := &l.Issues[i]
		_, g, ok := lib.Check(is.Check)
		if !ok || g.Geometric() {
			continue
		}
		hasIssue[is.Check] = true
		if is.Status == StatusDropped || is.Slide != "" && !present[is.Slide] {
			continue
		}
		c := get(is.Check)
		if is.Regressions > 0 {
			c.score += scoreRegression * is.Regressions
			c.why = append(c.why, fmt.Sprintf("%s regressed %d time(s)", is.ID, is.Regressions))
		}
		switch {
		case is.Status.Active() && onModified(is):
			c.mandatory = true
			c.why = append(c.why, fmt.Sprintf("re-checks %s (%s) on %s", is.ID, is.Status, modifiedName(is.Slide)))
		case is.Status.Active():
			if is.Hard {
				c.score += scoreActiveHard
			} else {
				c.score += scoreActiveSoft
			}
			c.why = append(c.why, fmt.Sprintf("%s (%s) on unmodified slide %s", is.ID, is.Status, is.Slide))
		case is.Status == StatusResolved && onModified(is) && !resolvedAgain[is.Check]:
			resolvedAgain[is.Check] = true
			c.score += scoreResolvedAgain
			c.why = append(c.why, fmt.Sprintf("resolved %s sits on %s", is.ID, modifiedName(is.Slide)))
		}
	}
	runs := map[string]int{}
	for _, t := range l.Turns {
		if t.Turn >= in.Turn {
			continue
		}
		for _, c := range t.Checks {
			if !slices.Contains(t.Skipped, c) {
				runs[c]++
			}
		}
	}
	for gi := range lib.Groups {
		g := &lib.Groups[gi]
		if g.Geometric() {
			continue
		}
		var hit []string
		every := false
		for _, a := range g.On {
			if a == AspectAny {
				every = true
			} else if slices.Contains(in.Edits.Aspects, a) {
				hit = append(hit, string(a))
			}
		}
		why := "asked of every edit"
		if len(hit) > 0 {
			why = "edit touched " + strings.Join(hit, ", ")
		}
		if !every && len(hit) == 0 {
			continue // not relevant to this turn; checks with issues are already candidates
		}
		for _, chk := range g.Checks {
			c := get(chk.ID)
			c.why = append(c.why, why)
		}
	}
	for id, c := range cands {
		if !hasIssue[id] && runs[id] > 0 {
			c.score -= penaltyQuiet * runs[id]
			c.why = append(c.why, fmt.Sprintf("ran %d turn(s) without an issue", runs[id]))
		}
	}
	all := make([]*candidate, 0, len(cands))
	for _, c := range cands {
		all = append(all, c)
	}
	slices.SortFunc(all, func(a, b *candidate) int { return a.order - b.order })

	var picked []*candidate
	groups := map[string]bool{}
	take := func(c *candidate) {
		picked = append(picked, c)
		groups[c.group] = true
	}
	for _, c := range all {
		if c.mandatory {
			take(c)
		}
	}
	for len(picked) < MaxChecks {
		var best *candidate
		bestEff := 0
		for _, c := range all {
			if c.mandatory || slices.Contains(picked, c) {
				continue
			}
			eff := c.score
			if !groups[c.group] {
				eff -= costNewCall
			}
			if best == nil || eff > bestEff || eff == bestEff && groups[c.group] && !groups[best.group] {
				best, bestEff = c, eff
			}
		}
		if best == nil || bestEff <= 0 && len(picked) >= MinChecks {
			break
		}
		take(best)
	}

	plan := Plan{Turn: in.Turn}
	for _, c := range picked {
		plan.Picks = append(plan.Picks, Pick{Check: c.check, Mandatory: c.mandatory, Score: c.score, Why: strings.Join(c.why, "; ")})
	}
	for gi := range lib.Groups {
		g := &lib.Groups[gi]
		var checks []string
		for _, c := range picked {
			if c.group == g.ID {
				checks = append(checks, c.check)
			}
		}
		if len(checks) == 0 {
			continue
		}
		slices.SortFunc(checks, func(a, b string) int { return lib.order(a) - lib.order(b) })
		call := GroupCall{Group: g.ID, Checks: checks}
		if g.Scope == ScopeDeck {
			call.Deck = true
		} else {
			want := map[string]bool{}
			for s := range modified {
				want[s] = true
			}
			for i := range l.Issues {
				is := &l.Issues[i]
				if is.Status.Active() && is.Slide != "" && present[is.Slide] && slices.Contains(checks, is.Check) {
					want[is.Slide] = true
				}
			}
			for _, s := range in.Slides {
				if want[s] {
					call.Slides = append(call.Slides, s)
				}
			}
			call.Deck = len(call.Slides) == 0
		}
		plan.Calls = append(plan.Calls, call)
	}
	return plan
}

// modifiedName names the modified place of an issue that a re-check
// targets.
func modifiedName(slide string) string {
	if slide == "" {
		return "the deck (slides were modified)"
	}
	return "modified slide " + slide
}

// slideName names an issue's place for the agent and the record: "slide
// s3", or "the deck" for a deck-level issue.
func slideName(id string) string {
	if id == "" {
		return "the deck"
	}
	return "slide " + id
}
