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
	"github.com/acecanvas/ace/internal/skills"
)

// TestSkillsEvolveDryRunGradesWhatEditRecorded: ace edit --skills
// records an edit (its decks kept in the local store), then ace skills
// evolve --dry-run, in process on the same folder bank, grades it from
// its decks' JsonDiff through the scripted grader, pools its subtask and
// plans; the bank's skills stay as they were.
func TestSkillsEvolveDryRunGradesWhatEditRecorded(t *testing.T) {
	srv := llmtest.Load(t, filepath.Join("..", "..", "testdata", "scripts", "runner-skills.yaml"))
	for k, v := range map[string]string{"OPENAI_BASE_URL": srv.URL(), "OPENAI_API_KEY": "test", "ACE_AGENT_MODEL": "agent-m",
		"ACE_JUDGE_MODEL": "judge-m", "ACE_ROUTER_MODEL": "router-m", "ACE_NATS_URL": "", "ACE_TEMPORAL_ADDRESS": "", "ACE_DATA_DIR": t.TempDir()} {
		t.Setenv(k, v)
	}
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
	var stdout, stderr bytes.Buffer
	if err := runEdit(context.Background(), &stdout, &stderr, in, editFlags{
		instruction: "Rename the title on slide 2 to 'Pricing experiments and results'.",
		out:         filepath.Join(dir, "out.json"), tau: 4, iterations: 3, maxTurns: 35, noRender: true, skills: true,
	}); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}

	grader, err := llmtest.ParseScript([]byte(`
steps:
  - model: judge-m
    text: '{"requirements": [{"text": "slide 2 title reads Pricing experiments and results", "label": "met"}], "aesthetic": 7}'
  - model: router-m
    text: '{"subtasks": [{"label": "retitle-slide", "subtask": "Change a slide title."}]}'
`), t.Name())
	if err != nil {
		t.Fatal(err)
	}
	gsrv := llmtest.NewServer(t, grader)
	t.Setenv("OPENAI_BASE_URL", gsrv.URL())
	code, out, errOut := runSkillsCLI(t, "evolve", "--dry-run", "--round", "dry-1")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s (server: %v)", code, out, errOut, gsrv.Errors())
	}
	if !strings.Contains(out, "round dry-1: 1 record(s) graded") || !strings.Contains(out, "dry run: no proposal was made") {
		t.Fatalf("evolve --dry-run printed:\n%s\n%s", out, errOut)
	}
	if n := len(gsrv.Requests()); n != 2 {
		t.Errorf("%d model calls, want the grader's and the subtask extractor's", n)
	}
	if !strings.Contains(gsrv.Requests()[0].Chat.Messages[1].Content, "Pricing experiments and results") {
		t.Error("the grader was not shown the edit's diff")
	}
	ctx := context.Background()
	bank, err := skills.Open(ctx, skills.DirObjects(filepath.Join(os.Getenv("ACE_DATA_DIR"), "skills")))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := bank.Records(ctx)
	if err != nil || len(recs) != 1 || recs[0].Grade == nil || !recs[0].Grade.Success {
		t.Fatalf("records %+v (%v): want the edit graded a success", recs, err)
	}
	for _, s := range mustList(t, bank) {
		if s.Version != 1 {
			t.Errorf("a dry run changed %s to v%d", s.Name, s.Version)
		}
	}
}

func mustList(t *testing.T, b *skills.Bank) []skills.Skill {
	t.Helper()
	l, err := b.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return l
}
