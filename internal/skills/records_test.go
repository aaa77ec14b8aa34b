package skills

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestScoreAndSuccessAtTau(t *testing.T) {
	cases := []struct {
		c, a, s float64
		success bool
	}{
		{1, 1, 1, true},
		{0, 0, 0, false},
		{0.6, 0.6, 0.6, true}, // exactly tau, despite float rounding
		{0.5, 0.8, 0.59, false},
		{4.0 / 7, 0.7, 0.61, true},
		{1, 0, 0.7, true},
		{0, 1, 0.3, false},
	}
	for _, c := range cases {
		s := Score(c.c, c.a)
		if d := s - c.s; d > 1e-12 || d < -1e-12 {
			t.Errorf("Score(%v, %v) = %v, want %v", c.c, c.a, s, c.s)
		}
		if got := Succeeded(s); got != c.success {
			t.Errorf("Succeeded(Score(%v, %v) = %v) = %v, want %v", c.c, c.a, s, got, c.success)
		}
	}
}

func TestNewGradeFromLabels(t *testing.T) {
	reqs := []Requirement{
		{Text: "the table has a total row", Label: OutcomeMet},
		{Text: "totals are bold", Label: OutcomePartial, Reason: "only the label cell is bold"},
		{Text: "the slide title mentions Q3", Label: OutcomeNotMet, Reason: "title unchanged"},
		{Text: "numbers right-aligned", Label: OutcomeMet},
	}
	g := NewGrade(reqs, 0.8, 42)
	if g.Completeness != 0.625 || g.S != Score(0.625, 0.8) || !g.Success {
		t.Fatalf("grade %+v", g)
	}
	if g2 := NewGrade(reqs[1:3], 0.8, 42); g2.Completeness != 0.25 || g2.Success {
		t.Fatalf("grade of partial+not_met %+v", g2)
	}
	if Completeness(nil) != 0 || Outcome("maybe").Valid() || Outcome("maybe").Value() != 0 {
		t.Fatal("empty or unknown labels must count 0")
	}
	b, err := json.Marshal(TurnRecord{ID: "e1", Grade: &g, StartedUnixMS: 7})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"startedUnixMs":7`, `"gradedUnixMs":42`, `"label":"partial"`, `"completeness":0.625`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("record JSON lacks %s: %s", want, b)
		}
	}
}

func TestWinRateAndKeys(t *testing.T) {
	if WinRate(2, 0, 0) != 1 || WinRate(1, 1, 0) != 0.5 || WinRate(0, 1, 1) != 0.25 || WinRate(0, 0, 0) != 0.5 {
		t.Fatal("WinRate")
	}
	for _, k := range []string{"skill/table-cell-edits/v3", "record/abc.def", "coverage/add-row", "round/r-1", "stats/x"} {
		if !ValidKey(k) {
			t.Errorf("ValidKey(%q) = false", k)
		}
	}
	for _, k := range []string{"", "skill/", "/skill", "skill//x", "skill/../x", "skill/.x", "skill/x.", "a.b/c", "skill/a b", "skill/é"} {
		if ValidKey(k) {
			t.Errorf("ValidKey(%q) = true", k)
		}
	}
}
