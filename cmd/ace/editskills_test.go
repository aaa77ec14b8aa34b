package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/scenegraph"

	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/retrieval"
	"github.com/acecanvas/ace/internal/skills"
	"github.com/acecanvas/ace/internal/store"
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

// ace edit --skills, end to end over the scripted server: the bank is
// opened in ACE_DATA_DIR (seeded on first use), the distil call runs,
// the summary and the report name the skills, and the turn record is in
// the bank's folder.
func TestEditWithSkillsUsesAndRecordsTheBank(t *testing.T) {
	srv := llmtest.Load(t, filepath.Join("..", "..", "testdata", "scripts", "runner-skills.yaml"))
	t.Setenv("OPENAI_BASE_URL", srv.URL())
	t.Setenv("OPENAI_API_KEY", "test")
	t.Setenv("ACE_AGENT_MODEL", "agent-m")
	t.Setenv("ACE_JUDGE_MODEL", "judge-m")
	t.Setenv("ACE_ROUTER_MODEL", "router-m")
	t.Setenv("ACE_NATS_URL", "")
	data := t.TempDir()
	t.Setenv("ACE_DATA_DIR", data)
	dir := t.TempDir()
	d, _ := deckgen.Generate(deckgen.Options{Slides: 6, Seed: 1})
	b, err := scenegraph.Encode(d)
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "deck.json")
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "report.html")
	var stdout, stderr bytes.Buffer
	err = runEdit(context.Background(), &stdout, &stderr, in, editFlags{
		instruction: "Rename the title on slide 2 to 'Pricing experiments and results'.",
		out:         filepath.Join(dir, "out.json"), reportPath: page, tau: 4, iterations: 3, maxTurns: 35, noRender: true, skills: true,
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	got := stdout.String()
	if !strings.Contains(got, `skills: operations ["rename slide title"]`) || !strings.Contains(got, "written to the skill bank") {
		t.Fatalf("summary lacks the skills:\n%s", got)
	}
	ctx := context.Background()
	bank, err := skills.Open(ctx, skills.DirObjects(filepath.Join(data, "skills")))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := bank.Records(ctx)
	if err != nil || len(recs) != 1 || !recs[0].SkillsOn || recs[0].Instruction == "" || !strings.Contains(got, recs[0].ID) {
		t.Fatalf("bank records %+v (%v)", recs, err)
	}
	// ace skills evolve replays the record later: its decks are kept in
	// the local store, not in the edit's memory.
	local, err := store.NewFS(filepath.Join(data, "store"))
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{recs[0].DeckRef, recs[0].FinalRef} {
		if ok, err := local.Has(ctx, ref); !ok || err != nil {
			t.Errorf("deck %s of the record is not in %s/store (%v)", ref, data, err)
		}
	}
	html, err := os.ReadFile(page)
	if err != nil || !strings.Contains(string(html), "<h2>Skills</h2>") {
		t.Fatalf("the report lacks the Skills section (%v)", err)
	}
}
