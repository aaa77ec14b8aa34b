package main

import (
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/retrieval"
	"github.com/acecanvas/ace/internal/skills"
)

// The edit summary names the starred skills with their scores and says
// which the agent read, a skill read without a star, and the turn record.
func TestEditSummaryNamesStarredAndLoadedSkills(t *testing.T) {
	rec := &editloop.Record{TurnRecord: "edit-0123456789abcdef",
		Route: editloop.RouteRecord{Skills: &retrieval.Result{Operations: []string{"edit table cell value"}, Covered: true,
			Starred: []string{"table-cell-edits", "chart-data-and-type"},
			Scored: []skills.Scored{{Name: "table-cell-edits", Version: 2, Score: 1, Starred: true},
				{Name: "chart-data-and-type", Version: 1, Score: 0.4, Starred: true}, {Name: "text-typography", Version: 1, Score: 0.1}}}},
		Iterations: []editloop.IterationRecord{{N: 1, Steps: []editloop.StepRecord{{Turn: 1, Skills: []string{"table-cell-edits", "text-typography"}}}}}}
	var b strings.Builder
	printSkills(&b, rec)
	want := `skills: operations ["edit table cell value"]
skills: starred table-cell-edits v2 1.00 (read), chart-data-and-type v1 0.40 (not read)
skills: also read text-typography
skills: turn record edit-0123456789abcdef written to the skill bank
`
	if b.String() != want {
		t.Fatalf("summary:\n%s\nwant:\n%s", b.String(), want)
	}
	r := reportSkills(rec)
	if r == nil || len(r.Starred) != 2 || !r.Starred[0].Loaded || r.Starred[1].Loaded || r.Offered != 3 || len(r.Loaded) != 2 {
		t.Fatalf("report skills %+v", r)
	}
	gap := &editloop.Record{Route: editloop.RouteRecord{Skills: &retrieval.Result{Operations: []string{"x"}, Scored: []skills.Scored{{Name: "a"}}}},
		TurnRecordError: "bank unreachable"}
	b.Reset()
	printSkills(&b, gap)
	if !strings.Contains(b.String(), "none of 1 starred (a coverage gap)") || !strings.Contains(b.String(), "not written: bank unreachable") {
		t.Fatalf("gap summary:\n%s", b.String())
	}
	b.Reset()
	printSkills(&b, &editloop.Record{})
	if b.Len() != 0 {
		t.Fatalf("an edit without skills printed %q", b.String())
	}
}
