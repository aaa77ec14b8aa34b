package evolve_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/evolve"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/skills"
)

// TestGradeReadsTheEvidenceAndScores: the grader is shown the
// instruction, the judge's score and critique, the agent's account, the
// diff, the blocked gate with its violations and the failed checks; its
// labels give completeness, VQ/5 replaces its aesthetic, S = 0.7c + 0.3a.
func TestGradeReadsTheEvidenceAndScores(t *testing.T) {
	w := scripted(t, []llmtest.Step{
		text("```json\n" + `{"requirements": [
			{"text": "Slide 2's title reads Q3 results", "label": "met"},
			{"text": "The chart shows revenue by region", "label": "partial", "reason": "two regions missing"},
			{"text": "Nothing else changes", "label": "not_met", "reason": "the subtitle was deleted"}],
		 "aesthetic": 9}` + "\n```"),
	})
	ifScore, vq := 3.0, 4.0
	rec := skills.TurnRecord{ID: "g1", Instruction: "Retitle slide 2 to Q3 results and chart revenue by region.",
		DeckRef: "d0", FinalRef: "d1", Outcome: "gate_blocked", IF: &ifScore, VQ: &vq, FailedChecks: 1,
		Critique: "The chart lacks EMEA and APAC."}
	ev := evolve.Evidence{Diff: "JsonDiff: 2 distinct edit(s)\n  Modified TEXT \"Title\" [s2/3]: characters", Account: "Retitled and added the chart.",
		FailedChecks: []string{"chart has 4 series"}, NewViolations: []string{"text_overflow on slide s2 (s2/3)"}}
	g, calls, err := evolve.Grade(context.Background(), w.client, rec, ev)
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 1 || len(g.Requirements) != 3 || g.Requirements[1].Label != skills.OutcomePartial {
		t.Fatalf("grade %+v, %d calls", g, len(calls))
	}
	if math.Abs(g.Completeness-0.5) > 1e-9 || math.Abs(g.Aesthetic-0.8) > 1e-9 || math.Abs(g.S-(0.7*0.5+0.3*0.8)) > 1e-9 || g.Success {
		t.Errorf("completeness %v aesthetic %v S %v success %v; want 0.5, 0.8 (VQ 4/5), 0.59, failure", g.Completeness, g.Aesthetic, g.S, g.Success)
	}
	req := w.srv.Requests()[0].Chat
	if req.Model != "judge-m" {
		t.Errorf("graded by %s, want the judge model", req.Model)
	}
	user := req.Messages[1].Content
	for _, want := range []string{rec.Instruction, "gate_blocked", "LAYOUT GATE: blocked", "text_overflow on slide s2", "FAILED CHECKS: 1",
		"chart has 4 series", "3 of 5", rec.Critique, ev.Account, "Modified TEXT \"Title\""} {
		if !strings.Contains(user, want) {
			t.Errorf("the grader was not shown %q:\n%s", want, user)
		}
	}
}

// TestGradeWithoutVQUsesTheGradersAestheticAndGivesUpAfterARetry.
func TestGradeWithoutVQUsesTheGradersAestheticAndGivesUpAfterARetry(t *testing.T) {
	w := scripted(t, []llmtest.Step{
		text(`{"requirements": [{"text": "a", "label": "met"}, {"text": "b", "label": "met"}, {"text": "c", "label": "met"}], "aesthetic": 6}`),
		text(`{"requirements": [{"text": "a", "label": "partial"}], "aesthetic": 6}`),
		text(`{"requirements": [{"text": "a", "label": "done"}], "aesthetic": 6}`),
	})
	g, _, err := evolve.Grade(context.Background(), w.client, skills.TurnRecord{ID: "g2", Instruction: "Bold the titles.", GatePassed: true}, evolve.Evidence{})
	if err != nil || g.Aesthetic != 0.6 || math.Abs(g.S-0.88) > 1e-9 || !g.Success {
		t.Fatalf("grade %+v, %v; want aesthetic 0.6, S 0.88, success", g, err)
	}
	_, calls, err := evolve.Grade(context.Background(), w.client, skills.TurnRecord{ID: "g3", Instruction: "Bold the titles."}, evolve.Evidence{})
	if !errors.Is(err, evolve.ErrNoGrade) || len(calls) != 2 || !strings.Contains(err.Error(), `"done"`) {
		t.Fatalf("err %v after %d calls; want ErrNoGrade naming the bad label after 2", err, len(calls))
	}
}

func TestParseGradeRejects(t *testing.T) {
	for in, want := range map[string]string{
		`{"requirements": [], "aesthetic": 5}`:                                  "0 requirements",
		`{"requirements": [{"text": "a", "label": "partial"}], "aesthetic": 5}`: "gives no reason",
		`{"requirements": [{"text": "", "label": "met"}], "aesthetic": 5}`:      "has no text",
		`{"requirements": [{"text": "a", "label": "met"}], "aesthetic": 11}`:    "not an integer 1-10",
		`{"requirements": [{"text": "a", "label": "met"}], "aesthetic": 6.5}`:   "not an integer 1-10",
		`{"requirements": [{"text": "a", "label": "met"}]}`:                     "not an integer 1-10",
		`no`: "not the JSON object",
	} {
		if _, err := evolve.ParseGrade(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one with %q", in, err, want)
		}
	}
}

func FuzzParseGrade(f *testing.F) {
	f.Add(`{"requirements": [{"text": "a", "label": "met"}], "aesthetic": 7}`)
	f.Add(`{"requirements": [{"text": "a", "label": "NOT_MET", "reason": "r"}], "aesthetic": 1}`)
	f.Fuzz(func(t *testing.T, s string) {
		a, err := evolve.ParseGrade(s)
		if err != nil {
			return
		}
		if len(a.Requirements) < 1 || len(a.Requirements) > 10 || a.Aesthetic < 1 || a.Aesthetic > 10 {
			t.Fatalf("accepted %+v", a)
		}
		for _, r := range a.Requirements {
			if !r.Label.Valid() || r.Text == "" || (r.Label != skills.OutcomeMet && r.Reason == "") {
				t.Fatalf("accepted requirement %+v", r)
			}
		}
	})
}
