package runner_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/runner"
	"github.com/acecanvas/ace/internal/skills"
)

func runnerRun(f *fixture, req editloop.Request) (*editloop.Record, error) {
	return runner.Run(context.Background(), f.steps, req)
}

// memBank is a skill bank in memory: its skills all offered, its records
// kept.
type memBank struct {
	mu      sync.Mutex
	skills  []skills.Skill
	records []skills.TurnRecord
}

func (b *memBank) Offered(context.Context) ([]skills.Skill, error) { return b.skills, nil }

func (b *memBank) PutRecord(_ context.Context, r skills.TurnRecord) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.records = append(b.records, r)
	return nil
}

func testSkill(t *testing.T, name, desc, tools string) skills.Skill {
	t.Helper()
	s, err := skills.Parse([]byte("---\nname: " + name + "\ndescription: " + desc + "\ntool_sequence: [" + tools + "]\nstatus: stable\nversion: 1\n---\n\n" +
		"## When to use\nx\n\n## Clarify before starting\nx\n\n## Steps\n1. " + strings.Split(tools, ",")[0] + " first.\n\n## Tips\nx\n\n## Error handling\nx\n"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// An edit with skills on, in process over real HTTP: Route distils the
// instruction and stars the matching skill, the agent's first request
// carries the catalog in its user message and offers load_skill, the
// agent reads the skill (answered from the frozen set) and edits, and the
// edit's turn record lands in the bank.
func TestAnEditWithSkillsRetrievesLoadsAndRecords(t *testing.T) {
	f := setup(t, "runner-skills.yaml", 1, 6, nil)
	bank := &memBank{skills: []skills.Skill{
		testSkill(t, "text-typography", "rename a slide title, make a title bold, change the font or font size of text, set line spacing, fix text that overflows its box", "set_text_content, set_text_font"),
		testSkill(t, "chart-data-and-type", "update chart data, change the values of a chart series, switch a bar chart to a line chart, change chart type", "get_chart_data, update_chart_data"),
	}}
	f.steps.Skills = bank
	rec := f.runWith(t, editloop.Request{Instruction: "Rename the title on slide 2 to 'Pricing experiments and results'.", Skills: true})
	if rec.Outcome != "stopped" || text(f.final(t, rec), "s2-t5") != "Pricing experiments and results" {
		t.Fatalf("the edit did not apply: %s", dump(rec))
	}
	sk := rec.Route.Skills
	if sk == nil || !slices.Equal(sk.Operations, []string{"rename slide title"}) || !slices.Equal(sk.Starred, []string{"text-typography"}) ||
		!sk.Covered || sk.SetRef == "" || sk.Fallback != "" {
		t.Fatalf("route skills %s", dump(sk))
	}
	if !slices.ContainsFunc(rec.Route.LLM, func(c llm.Call) bool { return c.Purpose == "distil" }) {
		t.Fatalf("the distil call is not in the route's calls: %s", dump(rec.Route.LLM))
	}
	reqs := f.srv.RequestsFor("agent-m")
	first := reqs[0].Chat
	if !strings.Contains(first.Messages[1].Content, "- * text-typography: ") || !strings.Contains(first.Messages[1].Content, "- chart-data-and-type: ") {
		t.Fatalf("the user message lacks the catalog:\n%s", first.Messages[1].Content)
	}
	if first.Messages[0].Content != agent.Prefix(rec.Iterations[0].Mode) || strings.Contains(first.Messages[0].Content, "text-typography") {
		t.Fatal("the catalog leaked into the system prefix")
	}
	if !slices.ContainsFunc(first.Tools, func(tl openai.Tool) bool { return tl.Function.Name == agent.ToolLoadSkill }) {
		t.Fatal("load_skill not offered")
	}
	second := reqs[1].Chat.Messages
	var loaded string
	for _, m := range second {
		if m.Role == "tool" && strings.HasPrefix(m.Content, "---\nname: text-typography") {
			loaded = m.Content
		}
	}
	if !strings.Contains(loaded, "## Steps\n1. set_text_content first.") {
		t.Fatalf("the agent did not get the skill's SKILL.md: %s", dump(second))
	}
	if got := rec.Iterations[0].Steps[0].Skills; !slices.Equal(got, []string{"text-typography"}) {
		t.Fatalf("step skills %v", got)
	}
	if len(bank.records) != 1 || rec.TurnRecord != bank.records[0].ID {
		t.Fatalf("%d records; the edit says %q (%s)", len(bank.records), rec.TurnRecord, rec.TurnRecordError)
	}
	tr := bank.records[0]
	if !tr.SkillsOn || !tr.Covered || !slices.Equal(tr.Loaded, []string{"text-typography"}) || len(tr.Retrieved) != 2 ||
		!slices.Equal(tr.Tools, []skills.ToolUse{{Tool: "set_text_content", OK: true}}) || tr.IF == nil || *tr.IF != 4 || tr.FinalRef != rec.Final {
		t.Fatalf("turn record %s", dump(tr))
	}
}

// Skills on without a bank fails at Route, saying what is missing.
func TestSkillsWithoutABankIsAClearError(t *testing.T) {
	f := setup(t, "runner-stop-at-4.yaml", 1, 6, nil)
	rec, err := runnerRun(f, editloop.Request{DeckRef: f.origin, Instruction: "Rename the title on slide 2.", Skills: true})
	if err == nil || !strings.Contains(err.Error(), "no skill bank is configured") || rec.Outcome != "failed" {
		t.Fatalf("err %v outcome %s", err, rec.Outcome)
	}
}
