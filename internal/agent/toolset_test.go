package agent_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/route"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/tools"
)

// maxToolListTokens is issue 17 item 10's bound on the tool list one
// agent request carries (o200k).
const maxToolListTokens = 12000

func toolListTokens(t *testing.T, ts []openai.Tool) int {
	t.Helper()
	js, err := json.Marshal(ts)
	if err != nil {
		t.Fatal(err)
	}
	n, err := route.CountTokens(string(js), route.O200K)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func offeredNames(ts []openai.Tool) []string {
	var out []string
	for _, tl := range ts {
		out = append(out, tl.Function.Name)
	}
	return out
}

func findTool(ts []openai.Tool, name string) *openai.FunctionDefinition {
	for _, tl := range ts {
		if tl.Function.Name == name {
			return tl.Function
		}
	}
	return nil
}

// In every mode, for a plain instruction and for one that cues every
// optional tool group, the first request's tool list stays within 12k
// tokens, and every registered tool is either offered or named in
// load_tools' description, so none is out of the model's reach.
func TestFirstRequestToolListIsBoundedAndNamesEveryTool(t *testing.T) {
	const everyCue = "Turn the table and the chart into a process diagram with a picture, a formula, auto-layout padding and underlined bullets, translated into French."
	reg := tools.Registry()
	for _, mode := range []string{agent.ModeMicro, agent.ModeMacro, agent.ModeSystemic, agent.ModeFull, agent.ModeOff} {
		for _, instr := range []string{"Make the title bold.", everyCue} {
			a, srv := newAgent(t, "steps:\n  - text: done\n")
			ses := agent.NewSession(agent.Input{Deck: deck(1, 3), Mode: mode, Context: "{}", Instruction: instr})
			if _, _, err := a.Turn(context.Background(), ses, nil, ""); err != nil {
				t.Fatal(err)
			}
			ts := srv.Requests()[0].Chat.Tools
			n := toolListTokens(t, ts)
			t.Logf("%s, %q: %d functions, %d tokens", mode, instr, len(ts), n)
			if n > maxToolListTokens {
				t.Errorf("%s, %q: tool list %d tokens, above %d", mode, instr, n, maxToolListTokens)
			}
			load := findTool(ts, agent.ToolLoadTools)
			if load == nil {
				t.Fatalf("%s: no load_tools offered: %v", mode, offeredNames(ts))
			}
			for _, name := range reg.Names() {
				if findTool(ts, name) == nil && !strings.Contains(load.Description, "\n- "+name+": ") {
					t.Errorf("%s, %q: %s is neither offered nor named by load_tools", mode, instr, name)
				}
			}
		}
	}
}

// The scoped set follows the task: a table edit offers the table tools up
// front, a plain text edit does not (they are loadable).
func TestScopedToolsFollowTheTask(t *testing.T) {
	plain := agent.ScopedTools(agent.Input{Mode: agent.ModeMicro, Context: `{"slides":[]}`, Instruction: "Make the title bold."})
	table := agent.ScopedTools(agent.Input{Mode: agent.ModeMicro, Context: `{"slides":[{"kids":[{"id":"s1/4","t":"TABLE"}]}]}`, Instruction: "Make the header bold."})
	theme := agent.ScopedTools(agent.Input{Mode: agent.ModeSystemic, Context: "{}", Instruction: "Use Georgia everywhere."})
	has := func(ns []string, n string) bool {
		for _, x := range ns {
			if x == n {
				return true
			}
		}
		return false
	}
	if has(plain, "set_table_cells") || !has(table, "set_table_cells") || !has(plain, "set_text_font") {
		t.Errorf("table tools: plain %v, with a table in the context %v", has(plain, "set_table_cells"), has(table, "set_table_cells"))
	}
	if has(plain, "set_theme_fonts") || !has(theme, "set_theme_fonts") {
		t.Errorf("theme tools: MICRO %v, SYSTEMIC %v", has(plain, "set_theme_fonts"), has(theme, "set_theme_fonts"))
	}
	for _, instr := range []string{"Translate slides 1-3 into German.", "Fix the typos on slide 4.", "Proofread the agenda.", "Put the subtitle in Spanish."} {
		if !has(agent.ScopedTools(agent.Input{Mode: agent.ModeMicro, Context: "{}", Instruction: instr}), "rewrite_text") {
			t.Errorf("%q does not offer rewrite_text", instr)
		}
	}
	if has(plain, "rewrite_text") {
		t.Error("a plain restyle offers rewrite_text")
	}
}

// load_tools adds a tool's full schema to the next request, the loaded
// tool's call applies, and an unknown name is an error the model reads.
func TestLoadToolsBringsTheSchemaAndTheCallApplies(t *testing.T) {
	a, srv := newAgent(t, `
steps:
  - tool_calls: [{name: load_tools, arguments: {tools: [set_corner_radius, beautify]}}]
  - tool_calls: [{name: load_tools, arguments: {tools: [set_corner_radius]}}]
  - tool_calls: [{name: set_corner_radius, arguments: {nodeId: s2-t5, radius: 12}}]
  - tool_calls: [{name: submit}]
`)
	d := deck(1, 3)
	got, out, rounds := drive(t, a, agent.Input{Deck: d, Mode: agent.ModeMicro, Context: "{}", Instruction: "Round the corners of the title on slide 2."}, 5)
	if len(rounds) != 4 {
		t.Fatalf("%d rounds", len(rounds))
	}
	reqs := srv.Requests()
	if findTool(reqs[0].Chat.Tools, "set_corner_radius") != nil {
		t.Fatal("set_corner_radius was offered up front; pick a tool outside the scoped set")
	}
	if len(out.Errors) != 1 || !strings.Contains(out.Errors[0].Message, "beautify") {
		t.Fatalf("errors %+v: want one naming the unknown tool", out.Errors)
	}
	// A failed load_tools call still asked for the tool; what the model
	// asked for is offered from the next request on.
	for i := 1; i < 4; i++ {
		f := findTool(reqs[i].Chat.Tools, "set_corner_radius")
		if f == nil {
			t.Fatalf("request %d does not offer the loaded tool: %v", i+1, offeredNames(reqs[i].Chat.Tools))
		}
		want, _ := tools.Registry().Get("set_corner_radius")
		got, _ := json.Marshal(f.Parameters)
		var norm any
		_ = json.Unmarshal(want.Parameters(), &norm)
		wantJS, _ := json.Marshal(norm)
		if f.Description != want.Description || string(got) != string(wantJS) {
			t.Fatalf("request %d: the loaded schema is not the registry's", i+1)
		}
	}
	msgs := reqs[2].Chat.Messages
	if last := msgs[len(msgs)-1]; last.Role != "tool" || !strings.Contains(last.Content, `"loaded":["set_corner_radius"]`) {
		t.Fatalf("load_tools result %q", last.Content)
	}
	if len(out.Calls) != 1 || out.Calls[0].Tool != "set_corner_radius" {
		t.Fatalf("applied %+v: load_tools must not be an applied call", out.Calls)
	}
	n := scenegraph.NewIndex(got).Node("s2-t5")
	if n == nil || n.CornerRadius != 12 {
		t.Fatalf("corner radius not applied: %+v", n)
	}
}

// A call to a registered tool that was not offered applies all the same,
// and the tool is offered from then on.
func TestACallToAToolNotOfferedApplies(t *testing.T) {
	a, srv := newAgent(t, `
steps:
  - tool_calls: [{name: set_corner_radius, arguments: {nodeId: s2-t5, radius: 8}}]
  - tool_calls: [{name: submit}]
`)
	got, out, _ := drive(t, a, agent.Input{Deck: deck(1, 3), Mode: agent.ModeMicro, Context: "{}", Instruction: "Round the title's corners on slide 2."}, 3)
	if len(out.Errors) != 0 || len(out.Calls) != 1 {
		t.Fatalf("errors %+v calls %+v", out.Errors, out.Calls)
	}
	if n := scenegraph.NewIndex(got).Node("s2-t5"); n.CornerRadius != 8 {
		t.Fatalf("radius %v", n.CornerRadius)
	}
	reqs := srv.Requests()
	if findTool(reqs[0].Chat.Tools, "set_corner_radius") != nil || findTool(reqs[1].Chat.Tools, "set_corner_radius") == nil {
		t.Fatal("set_corner_radius: want not offered first, offered after the model called it")
	}
}
