package policy

import (
	"strings"
	"testing"

	acev1 "github.com/acecanvas/ace/proto/ace/v1"
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
	if d.Action != Continue || d.Base != "a" || d.Feedback.Critique != crit || d.Feedback.Undone || d.Feedback.Base != 1 {
		t.Fatalf("want continue from a with the critique verbatim, got %+v", d)
	}
}

func TestNextDoesNotStopOnHighScoreWhenGateFails(t *testing.T) {
	d := Next(Default, "o", []Iteration{{N: 1, Snapshot: "a", Score: sc(5), GatePassed: false, NewViolations: []string{"text_overflow on n3"}}})
	if d.Action != Rollback || d.Base != "o" {
		t.Fatalf("want rollback to origin, got %+v", d)
	}
	if fb := d.Feedback; !fb.Undone || fb.Base != 0 || len(fb.NewViolations) != 1 || !strings.Contains(fb.NewViolations[0], "text_overflow on n3") {
		t.Fatalf("feedback %+v does not say the edit was undone for text_overflow on n3", fb)
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
		want   Outcome
		reason bool
	}{
		{"recipe changed the deck", []Iteration{{N: 1, Snapshot: "s1", GatePassed: true}}, true, "applied", true},
		{"recipe matched nothing", []Iteration{{N: 1, Snapshot: "d0", GatePassed: true}}, true, "unchanged", true},
		{"no judge", []Iteration{{N: 1, Snapshot: "s1", GatePassed: true}}, false, "no_judge", false},
		{"tau reached", []Iteration{{N: 1, Snapshot: "s1", GatePassed: true, Score: sc(4.5)}}, false, "stopped", false},
		{"budget", []Iteration{{N: 1, Score: sc(2)}, {N: 2, Score: sc(3)}, {N: 3, Score: sc(3)}}, false, "budget", false},
	} {
		got, why := StopOutcome(cfg, "d0", c.hist, c.recipe)
		if got != c.want || (why != "") != c.reason {
			t.Errorf("%s: StopOutcome = %q, %q", c.name, got, why)
		}
		if got.Met() != (got != Budget) {
			t.Errorf("%s: %q.Met() = %v", c.name, got, got.Met())
		}
	}
}

func TestNextSaysWhyAnIterationWasUndone(t *testing.T) {
	h := []Iteration{
		{N: 1, Snapshot: "a", Score: sc(3), GatePassed: true, Critique: "good start"},
		{N: 2, Snapshot: "b", Score: sc(2), GatePassed: true, Critique: "slide 7 now reads well"},
	}
	d := Next(Default, "o", h)
	fb := d.Feedback
	if d.Action != Rollback || d.Base != "a" || !fb.Undone || fb.Iteration != 2 || fb.Base != 1 ||
		*fb.ScoreFrom != 3 || *fb.ScoreTo != 2 || fb.Critique != "slide 7 now reads well" || len(fb.NewViolations) != 0 {
		t.Fatalf("want a rollback to iteration 1 saying IF fell from 3 to 2, got %+v %+v", d, fb)
	}
	h[1] = Iteration{N: 2, Snapshot: "b", Score: sc(5), GatePassed: false, NewViolations: []string{"overlap on s2"}}
	d = Next(Default, "o", h)
	if fb := d.Feedback; d.Action != Rollback || d.Base != "a" || fb.Base != 1 || fb.ScoreFrom != nil || fb.NewViolations[0] != "overlap on s2" {
		t.Fatalf("want a rollback to iteration 1 for the new violation, got %+v %+v", d, fb)
	}
}

// Every outcome has one status, exit code, badge and wording, and the
// three agree: met is OK, exit 0 and "ok"; ran short is NOT_MET, exit 3
// and "warn"; failed and canceled keep nothing.
func TestEveryOutcomeHasOneMapping(t *testing.T) {
	want := map[Outcome]struct {
		status acev1.EditStatus
		exit   int
		badge  string
	}{
		Stopped:           {acev1.EditStatus_EDIT_STATUS_OK, 0, "ok"},
		Applied:           {acev1.EditStatus_EDIT_STATUS_OK, 0, "ok"},
		PartlyApplied:     {acev1.EditStatus_EDIT_STATUS_NOT_MET, 3, "warn"},
		Unchanged:         {acev1.EditStatus_EDIT_STATUS_OK, 0, "ok"},
		NoJudge:           {acev1.EditStatus_EDIT_STATUS_OK, 0, "ok"},
		Budget:            {acev1.EditStatus_EDIT_STATUS_NOT_MET, 3, "warn"},
		TurnCap:           {acev1.EditStatus_EDIT_STATUS_NOT_MET, 3, "warn"},
		Interrupted:       {acev1.EditStatus_EDIT_STATUS_NOT_MET, 3, "warn"},
		GateBlocked:       {acev1.EditStatus_EDIT_STATUS_NOT_MET, 3, "warn"},
		ExpectationFailed: {acev1.EditStatus_EDIT_STATUS_NOT_MET, 3, "warn"},
		Failed:            {acev1.EditStatus_EDIT_STATUS_FAILED, 1, "bad"},
		Canceled:          {acev1.EditStatus_EDIT_STATUS_CANCELED, 130, "bad"},
	}
	if len(Outcomes) != len(want) {
		t.Fatalf("%d outcomes listed, %d mapped here", len(Outcomes), len(want))
	}
	words := map[string]Outcome{}
	for _, o := range Outcomes {
		w, ok := want[o]
		if !ok {
			t.Fatalf("outcome %q has no row in this test", o)
		}
		if o.Status() != w.status || o.ExitCode() != w.exit || o.Badge() != w.badge {
			t.Errorf("%s: status %v exit %d badge %s, want %v %d %s", o, o.Status(), o.ExitCode(), o.Badge(), w.status, w.exit, w.badge)
		}
		if o.Met() != (w.exit == 0) || o.KeepsEdit() == (o == Failed || o == Canceled) {
			t.Errorf("%s: Met %v KeepsEdit %v", o, o.Met(), o.KeepsEdit())
		}
		if prev, dup := words[o.Wording()]; dup || o.Wording() == string(o) {
			t.Errorf("%s: wording %q is not its own (shared with %q)", o, o.Wording(), prev)
		}
		words[o.Wording()] = o
		if back, ok := ParseOutcome(string(o)); !ok || back != o {
			t.Errorf("%s does not parse back", o)
		}
	}
	if got := BatchExitCode([]Outcome{Stopped, Budget, Applied}); got != ExitNotMet {
		t.Errorf("a batch with a deck over budget exits %d", got)
	}
	if got := BatchExitCode([]Outcome{Stopped, Budget, ""}); got != ExitFailure {
		t.Errorf("a batch with a deck that never ran exits %d", got)
	}
	if got := BatchExitCode([]Outcome{Stopped, Unchanged}); got != ExitOK {
		t.Errorf("a batch of met decks exits %d", got)
	}
}

// A pure recipe whose per-slide gate reverted slides is partly_applied;
// when the reverts leave the origin, gate_blocked, never unchanged.
func TestStopOutcomeOfThePerSlideGate(t *testing.T) {
	for _, c := range []struct {
		it   Iteration
		want Outcome
		why  string
	}{
		{Iteration{N: 1, Snapshot: "s", GatePassed: true}, Applied, "the geometry gate passed"},
		{Iteration{N: 1, Snapshot: "s", GatePassed: true, Reverted: 2}, PartlyApplied, "reverted 2 slides"},
		{Iteration{N: 1, Snapshot: "o", GatePassed: true, Reverted: 1}, GateBlocked, "reverted 1 slide"},
		{Iteration{N: 1, Snapshot: "o", GatePassed: true}, Unchanged, "no step matched"},
	} {
		got, why := StopOutcome(Default, "o", []Iteration{c.it}, true)
		if got != c.want || !strings.Contains(why, c.why) {
			t.Errorf("%+v: %s %q, want %s with %q", c.it, got, why, c.want, c.why)
		}
	}
}
