package agent_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/retrieval"
	"github.com/acecanvas/ace/internal/skills"
)

const tableSkill = `---
name: table-cell-edits
description: change a value in a table cell, fill in a table row, update numbers in a table, correct a figure in a grid, edit table text, add a row or a column to a table, delete a table row, sort table rows by a column
tool_sequence: [get_page_structure, set_table_cells]
status: stable
version: 2
---

## When to use
A request changes what a table holds.

## Clarify before starting
Which table, when the slide has several.

## Steps
1. get_page_structure on the slide to find the TABLE node.
2. set_table_cells with the cells' new text.

## Tips
Cells keep their run style when only the text changes.

## Error handling
| Situation | Action |
|---|---|
| stale cell id | read the table again |
`

// A session with a catalog: the catalog is in the user message before
// the instruction, the system prefix is the same as without skills,
// load_skill is offered and answered from the frozen set with the
// skill's SKILL.md; an unknown name is an error the model can correct.
func TestLoadSkillAnswersFromTheFrozenSet(t *testing.T) {
	s, err := skills.Parse([]byte(tableSkill))
	if err != nil {
		t.Fatal(err)
	}
	set, err := retrieval.DecodeSet(retrieval.EncodeSet([]skills.Skill{s}))
	if err != nil {
		t.Fatal(err)
	}
	catalog := retrieval.Catalog(set.Skills, []string{s.Name}, 0)
	a, srv := newAgent(t, `
steps:
  - tool_calls: [{name: load_skill, arguments: {name: table-cell-edits}}, {name: load_skill, arguments: {name: chart-edits}}]
  - tool_calls: [{name: submit, arguments: {summary: nothing to do}}]
`)
	in := agent.Input{Deck: deck(1, 3), Mode: agent.ModeMicro, Context: "{}", Instruction: "Set the Q3 cell to 12.", Skills: catalog}
	ses := agent.NewSession(in)
	r, _, err := a.Turn(context.Background(), ses, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	rr := agent.ApplyRoundSkills(a.Tools, in.Deck, nil, in.Deck, r, set)
	if len(rr.Results) != 2 || rr.Results[0].Content != string(s.Format()) || rr.Changed || len(rr.Calls) != 0 {
		t.Fatalf("round result %+v: want the SKILL.md, no deck change, no applied call", rr)
	}
	if !slices.Equal(rr.Loaded, []string{"table-cell-edits"}) || len(rr.Errors) != 1 ||
		!strings.Contains(rr.Errors[0].Message, `no skill named "chart-edits"`) {
		t.Fatalf("loaded %v, errors %+v", rr.Loaded, rr.Errors)
	}
	if _, _, err := a.Turn(context.Background(), ses, rr.Results, ""); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	first := reqs[0].Chat
	if first.Messages[0].Content != agent.Prefix(agent.ModeMicro) {
		t.Fatal("the catalog changed the system prefix")
	}
	user := first.Messages[1].Content
	ci, ii := strings.Index(user, "- * table-cell-edits: "), strings.Index(user, "# Instruction")
	if ci < 0 || ii < ci {
		t.Fatalf("the user message lacks the catalog before the instruction:\n%s", user)
	}
	if findTool(first.Tools, agent.ToolLoadSkill) == nil {
		t.Fatal("load_skill is not offered with a catalog")
	}
	if second := reqs[1].Chat.Messages; !strings.Contains(second[len(second)-2].Content, "## Steps\n1. get_page_structure") {
		t.Fatalf("the model did not get the skill's body: %q", second[len(second)-2].Content)
	}

	// Without skills: no catalog, no load_skill, the same prefix; a
	// load_skill call anyway is answered with an error.
	b, srv2 := newAgent(t, "steps:\n  - tool_calls: [{name: load_skill, arguments: {name: table-cell-edits}}]\n")
	plain := agent.Input{Deck: in.Deck, Mode: in.Mode, Context: in.Context, Instruction: in.Instruction}
	r2, _, err := b.Turn(context.Background(), agent.NewSession(plain), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	req := srv2.Requests()[0].Chat
	if findTool(req.Tools, agent.ToolLoadSkill) != nil || strings.Contains(req.Messages[1].Content, "# Skills") ||
		req.Messages[0].Content != first.Messages[0].Content {
		t.Fatal("an edit without skills sees load_skill, a catalog or another prefix")
	}
	if rr := agent.ApplyRound(b.Tools, in.Deck, nil, in.Deck, r2); len(rr.Errors) != 1 || !strings.Contains(rr.Errors[0].Message, "without skills") {
		t.Fatalf("load_skill without skills: %+v", rr.Errors)
	}
}
