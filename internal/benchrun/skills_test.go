package benchrun_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/bench"
	"github.com/acecanvas/ace/internal/benchrun"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/skills"
	"github.com/acecanvas/ace/internal/store"
)

// skillOps are the operations the scripted distiller answers per task.
var skillOps = map[string]string{
	"qbr-table-cell":       `{"operations": ["edit table cell value"]}`,
	"career-title-rewrite": `{"operations": ["rewrite slide title"]}`,
}

// Issue 19 acceptance: skills on and off as two bench arms against the
// scripted server, the harness pairs them (the plumbing, not a quality
// claim). Both arms solve each task with the same scripted calls and the
// same judge; only the skills arm distils, sees the catalog of the real
// seed bank (a skills.Bank on a folder, seeded on Open) and writes a turn
// record per edit.
func TestSkillsOnAndOffArmsArePaired(t *testing.T) {
	suite := shippedSuite(t)
	var tasks []*bench.Task
	for _, task := range suite.Tasks {
		if _, ok := skillOps[task.ID]; ok {
			tasks = append(tasks, task)
		}
	}
	if len(tasks) != len(skillOps) {
		t.Fatalf("the shipped suite lacks some of %v", skillOps)
	}
	sc := benchScript(t, tasks)
	var distil []llmtest.Step
	for _, task := range tasks {
		distil = append(distil, llmtest.Step{Model: "router-m", Forever: true, WhenLast: task.Instruction, Text: skillOps[task.ID]})
	}
	sc.Steps = append(distil, sc.Steps...)
	srv := llmtest.NewServer(t, sc)
	ctx := context.Background()
	bank, err := skills.Open(ctx, skills.DirObjects(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	on, off := true, false
	arms := make([]benchrun.Arm, 2)
	for i, sk := range []*bool{&off, &on} {
		name := map[bool]string{false: "plain", true: "skills"}[*sk]
		if arms[i], err = benchrun.Resolve(bench.Arm{Name: name, AgentModel: "agent-solve", JudgeModel: "judge-m", RouterModel: "router-m",
			ContextMode: "full", Skills: sk}); err != nil {
			t.Fatal(err)
		}
	}
	if arms[0].Skills || !arms[1].Skills || len(arms[1].Notes) != 0 || !strings.HasSuffix(arms[1].Describe(srv.Config("", "")), "skills on") {
		t.Fatalf("resolved arms %+v", arms)
	}
	keep := store.NewMemory()
	h := &benchrun.Harness{Tasks: tasks, Arms: arms, Seeds: 1, LLM: srv.Config("", ""), Pool: pool, Skills: bank, Keep: keep}
	rows, _, err := h.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if errs := srv.Errors(); len(errs) > 0 {
		t.Fatalf("the script could not answer: %v", errs)
	}
	for _, r := range rows {
		if r.Error != "" || r.Outcome != policy.Stopped || !r.ChecksAll {
			t.Fatalf("%s/%s: %s", r.Task, r.Arm, dump(r))
		}
		if (r.Arm == "skills") != (r.SkillsCovered != nil) {
			t.Fatalf("%s/%s: skills fields %v %v", r.Task, r.Arm, r.SkillsStarred, r.SkillsCovered)
		}
		if r.Task == "qbr-table-cell" && r.Arm == "skills" && !slices.ContainsFunc(r.SkillsStarred, func(n string) bool { return strings.Contains(n, "table") }) {
			t.Fatalf("the table task starred %v: want a table skill", r.SkillsStarred)
		}
	}
	// The distiller was asked once per skills run, never for the plain
	// arm; the catalog reached exactly the skills arm's first turns.
	if n := len(srv.RequestsFor("router-m")); n != len(tasks) {
		t.Fatalf("router asked %d times, want %d (the skills arm's distil calls)", n, len(tasks))
	}
	withCatalog := 0
	for _, r := range srv.RequestsFor("agent-solve") {
		if len(r.Chat.Messages) == 2 && strings.Contains(r.Chat.Messages[1].Content, "\n# Skills\n") {
			withCatalog++
		}
	}
	if withCatalog != len(tasks) {
		t.Fatalf("%d first turns had the catalog, want %d", withCatalog, len(tasks))
	}
	recs, err := bank.Records(ctx)
	if err != nil || len(recs) != len(tasks) {
		t.Fatalf("%d turn records (%v), want one per skills run", len(recs), err)
	}
	for _, tr := range recs {
		if !tr.SkillsOn || tr.Instruction == "" || len(tr.Retrieved) == 0 || len(tr.Tools) == 0 {
			t.Fatalf("turn record %s", dump(tr))
		}
		// The evolve round can read the recorded origin.
		if _, err := store.GetDeck(ctx, keep, tr.DeckRef); err != nil {
			t.Fatalf("the recorded origin %s was not kept: %v", tr.DeckRef, err)
		}
	}
	// The paired comparison of the two arms, task by task.
	sum := benchrun.Summarize("core", len(tasks), 1, h.Arms, h.LLM, rows)
	found := false
	for _, p := range sum.Paired {
		if p.Metric == "IF" {
			found = true
			if p.Result.N != len(tasks) || p.Result.Ties != len(tasks) {
				t.Fatalf("IF paired %+v: want %d tied pairs", p.Result, len(tasks))
			}
		}
	}
	if !found {
		t.Fatalf("no paired IF comparison: %+v", sum.Paired)
	}
	var table strings.Builder
	sum.WriteTable(&table)
	if !strings.Contains(table.String(), "skills vs plain") {
		t.Fatalf("the table does not pair the arms:\n%s", table.String())
	}
	t.Log("\n" + table.String())
	page, err := benchrun.WritePage(benchrun.Page(sum, tasks, rows, nil, time.Now(), time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(page), "skills starred: ") + strings.Count(string(page), "skills: coverage gap"); n != len(tasks) {
		t.Fatalf("the report names the skills of %d runs, want %d", n, len(tasks))
	}
}
