package evolve_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/evolve"
	"github.com/acecanvas/ace/internal/skills"
)

func gr(id string, w, l, t int) skills.GateRecord {
	return skills.GateRecord{RecordID: id, Wins: w, Losses: l, Ties: t}
}

func TestDecide(t *testing.T) {
	for _, c := range []struct {
		name    string
		records []skills.GateRecord
		accept  bool
		reason  string
	}{
		{"wins one, loses none", []skills.GateRecord{gr("r1", 2, 0, 0), gr("r2", 0, 0, 2), gr("r3", 1, 1, 0), gr("r4", 0, 0, 2)}, true, "improved 1 of 4"},
		{"one win and a tie is an improvement", []skills.GateRecord{gr("r1", 1, 0, 1)}, true, "r1 (r 0.75)"},
		{"regresses one record", []skills.GateRecord{gr("r1", 2, 0, 0), gr("r2", 2, 0, 0), gr("r3", 0, 2, 0)}, false, "regressed on 1 of 3 records: [r3 (r 0.00)]"},
		{"a loss and a tie is a regression", []skills.GateRecord{gr("r1", 2, 0, 0), gr("r2", 0, 1, 1)}, false, "regressed"},
		{"all ties", []skills.GateRecord{gr("r1", 0, 0, 2), gr("r2", 1, 1, 0), gr("r3", 0, 0, 2)}, false, "all 3 records tied"},
		{"nothing replayed", nil, false, "no record was replayed"},
	} {
		d := evolve.Decide(c.records)
		if d.Accepted() != c.accept || !strings.Contains(d.Reason, c.reason) {
			t.Errorf("%s: %+v, want accept=%v and a reason with %q", c.name, d, c.accept, c.reason)
		}
	}
}

func TestClassifyBand(t *testing.T) {
	for r, want := range map[float64]evolve.RecordVerdict{
		0: evolve.Regression, 0.25: evolve.Regression, 0.39: evolve.Regression, 0.4: evolve.Tie,
		0.5: evolve.Tie, 0.6: evolve.Tie, 0.61: evolve.Improvement, 0.75: evolve.Improvement, 1: evolve.Improvement,
	} {
		if got := evolve.Classify(r); got != want {
			t.Errorf("Classify(%v) = %s, want %s", r, got, want)
		}
	}
}

func graded(id string, s float64, starred ...string) skills.TurnRecord {
	r := skills.TurnRecord{ID: id, Instruction: "instruction " + id, Grade: &skills.Grade{S: s, Success: skills.Succeeded(s)}}
	for _, n := range starred {
		r.Retrieved = append(r.Retrieved, skills.Scored{Name: n, Starred: true})
	}
	r.Covered = len(starred) > 0
	return r
}

func TestRewriteReplaySetTakesTwoHighAndTwoLow(t *testing.T) {
	var recs []skills.TurnRecord
	for i, s := range []float64{0.9, 0.2, 0.5, 0.7, 0.1, 0.95, 0.3} {
		recs = append(recs, graded(fmt.Sprintf("r%d", i), s, "table-cell-edits"))
	}
	recs = append(recs, graded("other", 0.99, "chart-data"), skills.TurnRecord{ID: "ungraded",
		Retrieved: []skills.Scored{{Name: "table-cell-edits", Starred: true}}})
	var got []string
	for _, r := range evolve.RewriteReplaySet(recs, "table-cell-edits") {
		got = append(got, r.ID)
	}
	if strings.Join(got, " ") != "r5 r0 r1 r4" {
		t.Errorf("replay set %v, want the two best (r5 0.95, r0 0.9) then the two worst (r1 0.2, r4 0.1)", got)
	}
}
