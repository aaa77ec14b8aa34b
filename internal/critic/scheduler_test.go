package critic

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// seed opens one issue per check on the given slide at turn 1.
func seed(t *testing.T, slides []string, at map[string]string) *Ledger {
	t.Helper()
	var l Ledger
	var runs []Run
	for _, chk := range []string{"C07.1", "N03.2", "V01.1", "V02.3", "V03.1", "V06.2", "F02.2"} {
		if s, ok := at[chk]; ok {
			runs = append(runs, Run{Check: chk, Slides: []string{s}, Failed: []Finding{fail(chk, s, "seeded")}})
		}
	}
	if _, err := l.Apply(Default(), Result{Turn: 1, Slides: slides, Runs: runs}); err != nil {
		t.Fatal(err)
	}
	return &l
}

// TestMandatoryReChecksComeFirstAndBreakTheBudget: every active issue on a
// modified slide gets its own check, even soft ones whose groups the
// turn's edits do not make relevant and even beyond MaxChecks; then no
// other check is added.
func TestMandatoryReChecksComeFirstAndBreakTheBudget(t *testing.T) {
	slides := []string{"s1", "s2", "s3"}
	l := seed(t, slides, map[string]string{"N03.2": "s2", "V01.1": "s2", "V02.3": "s2", "V03.1": "s3", "V06.2": "s2", "F02.2": "s2"})
	p := Schedule(Default(), l, ScheduleInput{Turn: 2, Slides: slides, Edits: Edits{Slides: []string{"s2"}, Aspects: []Aspect{AspectText}}})
	if got := strings.Join(p.Mandatory(), " "); got != "F02.2 N03.2 V01.1 V02.3 V06.2" {
		t.Fatalf("mandatory %s", got)
	}
	// V03.1's issue is on s3, which the turn did not modify: not
	// mandatory, but ranked (+1 as a soft issue) against the rest; the
	// budget is already full with the five mandatory checks.
	if got := strings.Join(p.Checks(), " "); got != "F02.2 N03.2 V01.1 V02.3 V06.2" {
		t.Fatalf("picks %s", got)
	}
	seven := seed(t, slides, map[string]string{"C07.1": "s2", "N03.2": "s2", "V01.1": "s2", "V02.3": "s2", "V03.1": "s2", "V06.2": "s2", "F02.2": "s2"})
	p = Schedule(Default(), seven, ScheduleInput{Turn: 2, Slides: slides, Edits: Edits{Slides: []string{"s2"}}})
	if len(p.Picks) != 7 || len(p.Mandatory()) != 7 || len(p.Calls) != 7 {
		t.Fatalf("seven active issues on a modified slide need seven re-checks, got %v in %d calls", p.Checks(), len(p.Calls))
	}
	for _, c := range p.Calls {
		if c.Deck || !slices.Equal(c.Slides, []string{"s2"}) {
			t.Fatalf("call %+v should examine s2", c)
		}
	}
}

// TestIssuesOnUntouchedSlidesAreNotMandatory: an active issue on a slide
// the turn did not modify is a candidate (hard +3), not a must.
func TestIssuesOnUntouchedSlidesAreNotMandatory(t *testing.T) {
	slides := []string{"s1", "s2"}
	l := seed(t, slides, map[string]string{"C07.1": "s1"})
	p := Schedule(Default(), l, ScheduleInput{Turn: 2, Slides: slides, Edits: Edits{Slides: []string{"s2"}, Aspects: []Aspect{AspectColor}}})
	if len(p.Mandatory()) != 0 {
		t.Fatalf("mandatory %v", p.Mandatory())
	}
	var c07 *Pick
	for i := range p.Picks {
		if p.Picks[i].Check == "C07.1" {
			c07 = &p.Picks[i]
		}
	}
	// C07 weight 2 + 3 for the hard issue on s1.
	if c07 == nil || c07.Score != 5 || !strings.Contains(c07.Why, "I1 (open) on unmodified slide s1") {
		t.Fatalf("C07.1 pick %+v in %v", c07, p.Checks())
	}
	// The call examines the modified slide and the issue's slide.
	for _, c := range p.Calls {
		if c.Group == "C07" && !slices.Equal(c.Slides, []string{"s1", "s2"}) {
			t.Fatalf("C07 call %+v", c)
		}
	}
}

// TestBudgetWithoutAspects: an edit that touched nothing still gets
// MinChecks checks, from the groups asked of every edit.
func TestBudgetWithoutAspects(t *testing.T) {
	p := Schedule(Default(), &Ledger{}, ScheduleInput{Turn: 1, Slides: []string{"s1"}})
	if got := strings.Join(p.Checks(), " "); got != "C01.1 C01.2 C01.3 C07.1" {
		t.Fatalf("picks %s", got)
	}
	if got := fmt.Sprint(len(p.Calls), p.Calls[1].Deck); got != "2 true" {
		t.Fatalf("calls %+v: a slide-scope call with nothing modified examines the whole deck", p.Calls)
	}
}

// TestQuietChecksGiveWayToOthers: a check that ran without raising an
// issue loses rank in the next turns, so the critic does not ask the same
// question of an unchanged answer every turn.
func TestQuietChecksGiveWayToOthers(t *testing.T) {
	in := ScheduleInput{Turn: 1, Slides: []string{"s1"}, Edits: Edits{Slides: []string{"s1"}, Aspects: []Aspect{AspectChart}}}
	p1 := Schedule(Default(), &Ledger{}, in)
	l := &Ledger{Turns: []TurnLog{{Turn: 1, Checks: p1.Checks()}}}
	in.Turn = 2
	p2 := Schedule(Default(), l, in)
	if slices.Equal(p1.Checks(), p2.Checks()) {
		t.Fatalf("turn 2 repeats turn 1's quiet checks: %v", p2.Checks())
	}
	// A skipped check (its call failed) did not run and keeps its rank.
	l.Turns[0].Skipped = p1.Checks()
	if p3 := Schedule(Default(), l, in); !slices.Equal(p1.Checks(), p3.Checks()) {
		t.Fatalf("skipped checks were penalised: %v vs %v", p3.Checks(), p1.Checks())
	}
}

// TestScheduleIsDeterministic runs the same schedule many times: map
// iteration order must not leak into picks, reasons or scopes.
func TestScheduleIsDeterministic(t *testing.T) {
	slides := []string{"s1", "s2", "s3"}
	l := seed(t, slides, map[string]string{"N03.2": "s2", "V03.1": "s3", "C07.1": "s1"})
	l.Issues[1].Status, l.Issues[1].Regressions = StatusResolved, 2
	in := ScheduleInput{Turn: 3, Slides: slides, Edits: Edits{Slides: []string{"s3", "s2"}, Aspects: []Aspect{AspectText, AspectTable, AspectColor}}}
	first, _ := json.Marshal(Schedule(Default(), l, in))
	for i := 0; i < 50; i++ {
		again, _ := json.Marshal(Schedule(Default(), l, in))
		if string(again) != string(first) {
			t.Fatalf("run %d differs:\n%s\n%s", i, first, again)
		}
	}
}
