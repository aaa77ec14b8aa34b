package evolve_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/acecanvas/ace/internal/evolve"
	"github.com/acecanvas/ace/internal/skills"
)

func rec(id string, start int64, success bool, star ...skills.Scored) skills.TurnRecord {
	s := 0.3
	if success {
		s = 0.9
	}
	return skills.TurnRecord{ID: id, StartedUnixMS: start, Retrieved: star, Covered: len(star) > 0,
		Grade: &skills.Grade{S: s, Success: success, GradedUnixMS: start * 10}}
}

func star(name string, v int) skills.Scored {
	return skills.Scored{Name: name, Version: v, Starred: true, Score: 0.5}
}

// TestBinChargesEveryStarredSkillOfTheCurrentVersion: a failure counts
// against each starred skill (not the unstarred), only records of the
// skill's current version count toward Fails and the EMA, which folds
// oldest first at rate 0.2 from 0.5; binning twice gives the same stats.
func TestBinChargesEveryStarredSkillOfTheCurrentVersion(t *testing.T) {
	records := []skills.TurnRecord{
		rec("c", 3, true, star("tables", 2)),
		rec("a", 1, false, star("tables", 2), star("charts", 1), skills.Scored{Name: "notes", Version: 1, Score: 0.1}),
		rec("b", 2, false, star("tables", 2)),
		rec("old", 0, false, star("tables", 1)),
		{ID: "ungraded", Retrieved: []skills.Scored{star("tables", 2)}},
	}
	versions := map[string]int{"tables": 2, "charts": 1, "notes": 1}
	prev := map[string]skills.Stats{"tables": {Name: "tables", ConsecutiveGateRejects: 1, Fails: 9}}
	got := evolve.Bin(records, versions, prev, 15)
	tables := got["tables"]
	wantEMA := 0.5
	for _, o := range []float64{0, 0, 1} { // a, b, c in time order
		wantEMA = 0.8*wantEMA + 0.2*o
	}
	if tables.Fails != 2 || tables.Successes != 1 || math.Abs(tables.QualityEMA-wantEMA) > 1e-12 ||
		tables.Retrieved != 4 || tables.GradedSince != 2 || tables.ConsecutiveGateRejects != 1 {
		t.Errorf("tables %+v, want fails 2, successes 1, EMA %.3f, retrieved 4, graded since 2, rejects kept 1", tables, wantEMA)
	}
	if c := got["charts"]; c.Fails != 1 || c.QualityEMA != 0.4 {
		t.Errorf("charts %+v", c)
	}
	if n := got["notes"]; n.Fails != 0 || n.Retrieved != 0 || n.QualityEMA != 0.5 {
		t.Errorf("an unstarred skill was charged: %+v", n)
	}
	again := evolve.Bin(records, versions, got, 15)
	if fmt.Sprint(again) != fmt.Sprint(got) {
		t.Errorf("binning twice differs:\n%v\n%v", got, again)
	}
}

func TestSelectMostFailingFirstCappedAt50(t *testing.T) {
	stats := map[string]skills.Stats{}
	for i := range 60 {
		n := fmt.Sprintf("s%02d", i)
		stats[n] = skills.Stats{Name: n, Fails: 2 + i%5, Successes: 100}
	}
	stats["one"] = skills.Stats{Name: "one", Fails: 1}
	got := evolve.Select(stats)
	if len(got) != 50 || got[0] != "s04" || got[1] != "s09" || slices.Contains(got, "one") {
		t.Fatalf("selected %d: %v", len(got), got)
	}
	for i := 1; i < len(got); i++ {
		if stats[got[i]].Fails > stats[got[i-1]].Fails {
			t.Fatalf("not most failing first at %d: %v", i, got)
		}
	}
}

func TestRoundDueAfter50NewGradedRecords(t *testing.T) {
	var records []skills.TurnRecord
	for i := range 60 {
		records = append(records, rec(fmt.Sprint(i), int64(i), true))
	}
	// GradedUnixMS is start*10, so after 99 come records 10..59.
	for since, want := range map[int64]int{99: 50, 100: 49, 89: 51} {
		due, n := evolve.RoundDue(records, since)
		if n != want || due != (want >= 50) {
			t.Errorf("since %d: due %v, %d new; want %d new", since, due, n, want)
		}
	}
}

func TestConsecutiveRejectsAndDeprecation(t *testing.T) {
	logs := []skills.GateLog{
		{Skill: "x", Kind: skills.ChangeRewrite, AtUnixMS: 1},
		{Skill: "x", Kind: skills.ChangeRewrite, Accepted: true, AtUnixMS: 2},
		{Skill: "x", Kind: skills.ChangeRewrite, AtUnixMS: 3},
		{Skill: "y", Kind: skills.ChangeRewrite, AtUnixMS: 4},
		{Skill: "x", Kind: skills.ChangeMajorRewrite, AtUnixMS: 5},
		{Skill: "x", Kind: skills.ChangeMint, AtUnixMS: 6},
	}
	if n := evolve.ConsecutiveRejects(logs, "x"); n != 2 {
		t.Errorf("x: %d consecutive rejects, want 2 (after its last accept; a mint log does not count)", n)
	}
	if evolve.Deprecated(skills.Stats{ConsecutiveGateRejects: 2, QualityEMA: 0.1}) ||
		evolve.Deprecated(skills.Stats{ConsecutiveGateRejects: 3, QualityEMA: 0.5}) ||
		!evolve.Deprecated(skills.Stats{ConsecutiveGateRejects: 3, QualityEMA: 0.4}) {
		t.Error("deprecation rule: 3 rejects in a row and EMA below 0.5")
	}
}
