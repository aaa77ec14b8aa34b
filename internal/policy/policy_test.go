package policy

import (
	"strings"
	"testing"
)

func sc(v float64) *float64 { return &v }

func TestNextStopsAtTauWhenGatePasses(t *testing.T) {
	d := Next(Default, "o", []Iteration{{N: 1, Snapshot: "a", Score: sc(4), GatePassed: true}})
	if d.Action != Stop {
		t.Fatalf("want stop, got %+v", d)
	}
}

func TestNextContinuesBelowTauWithCritiqueVerbatim(t *testing.T) {
	crit := "The footer overlaps the chart on slide 2; move it down."
	d := Next(Default, "o", []Iteration{{N: 1, Snapshot: "a", Score: sc(3), GatePassed: true, Critique: crit}})
	if d.Action != Continue || d.Base != "a" || d.Feedback != crit {
		t.Fatalf("want continue from a with the critique verbatim, got %+v", d)
	}
}

func TestNextDoesNotStopOnHighScoreWhenGateFails(t *testing.T) {
	d := Next(Default, "o", []Iteration{{N: 1, Snapshot: "a", Score: sc(5), GatePassed: false, NewViolations: []string{"text_overflow on n3"}}})
	if d.Action != Rollback || d.Base != "o" {
		t.Fatalf("want rollback to origin, got %+v", d)
	}
	if want := "text_overflow on n3"; !strings.Contains(d.Feedback, want) {
		t.Fatalf("feedback %q lacks %q", d.Feedback, want)
	}
}

func TestNextRollsBackWhenScoreDeclines(t *testing.T) {
	h := []Iteration{
		{N: 1, Snapshot: "a", Score: sc(2), GatePassed: true},
		{N: 2, Snapshot: "b", Score: sc(1), GatePassed: true},
	}
	d := Next(Default, "o", h)
	if d.Action != Rollback || d.Base != "a" {
		t.Fatalf("want rollback to a, got %+v", d)
	}
}

func TestNextStopsWhenBudgetSpent(t *testing.T) {
	h := []Iteration{
		{N: 1, Snapshot: "a", Score: sc(2), GatePassed: true},
		{N: 2, Snapshot: "b", Score: sc(3), GatePassed: true},
		{N: 3, Snapshot: "c", Score: sc(3), GatePassed: true},
	}
	if d := Next(Default, "o", h); d.Action != Stop {
		t.Fatalf("want stop after T=3, got %+v", d)
	}
}

func TestNextWithoutJudgeStopsOnGate(t *testing.T) {
	if d := Next(Default, "o", []Iteration{{N: 1, Snapshot: "a", GatePassed: true}}); d.Action != Stop {
		t.Fatalf("want stop, got %+v", d)
	}
}

func TestSelectStrictPeak(t *testing.T) {
	cases := []struct {
		name string
		hist []Iteration
		want int
	}{
		{"keeps the last when scores rise", []Iteration{{Score: sc(2), GatePassed: true}, {Score: sc(3), GatePassed: true}, {Score: sc(4), GatePassed: true}}, 2},
		{"keeps the last on a tie", []Iteration{{Score: sc(3), GatePassed: true}, {Score: sc(3), GatePassed: true}}, 1},
		{"returns iteration 2 when iteration 3 declines", []Iteration{{Score: sc(2), GatePassed: true}, {Score: sc(4), GatePassed: true}, {Score: sc(3), GatePassed: true}}, 1},
		{"never returns a gate failure whatever its score", []Iteration{{Score: sc(2), GatePassed: true}, {Score: sc(5), GatePassed: false}}, 0},
		{"origin when every iteration failed the gate", []Iteration{{Score: sc(5), GatePassed: false}}, -1},
		{"last passing without a judge", []Iteration{{GatePassed: true}, {GatePassed: true}}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Select(c.hist); got != c.want {
				t.Fatalf("Select = %d, want %d", got, c.want)
			}
		})
	}
}

func TestOutcomeNamesWhyTheLoopStopped(t *testing.T) {
	cfg := Config{}.WithDefaults()
	for _, c := range []struct {
		name   string
		hist   []Iteration
		recipe bool
		want   string
		reason bool
	}{
		{"recipe changed the deck", []Iteration{{N: 1, Snapshot: "s1", GatePassed: true}}, true, "applied", true},
		{"recipe matched nothing", []Iteration{{N: 1, Snapshot: "d0", GatePassed: true}}, true, "unchanged", true},
		{"no judge", []Iteration{{N: 1, Snapshot: "s1", GatePassed: true}}, false, "no_judge", false},
		{"tau reached", []Iteration{{N: 1, Snapshot: "s1", GatePassed: true, Score: sc(4.5)}}, false, "stopped", false},
		{"budget", []Iteration{{N: 1, Score: sc(2)}, {N: 2, Score: sc(3)}, {N: 3, Score: sc(3)}}, false, "budget", false},
	} {
		got, why := Outcome(cfg, "d0", c.hist, c.recipe)
		if got != c.want || (why != "") != c.reason {
			t.Errorf("%s: Outcome = %q, %q", c.name, got, why)
		}
		if Kept(got) != (got != "budget") {
			t.Errorf("%s: Kept(%q) = %v", c.name, got, Kept(got))
		}
	}
}
