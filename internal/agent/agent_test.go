package agent_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/route"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/tools"
)

func newAgent(t *testing.T, script string) (*agent.Agent, *llmtest.Server) {
	t.Helper()
	sc, err := llmtest.ParseScript([]byte(script), t.Name()+".yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t, sc)
	c, err := llm.New(srv.Config("agent-m", "judge-m"))
	if err != nil {
		t.Fatal(err)
	}
	return &agent.Agent{LLM: c, Tools: agent.NewRegistry(tools.Options{})}, srv
}

func deck(seed uint64, n int) *scenegraph.Deck {
	d, _ := deckgen.Generate(deckgen.Options{Slides: n, Seed: seed})
	return d
}

func TestPrefixDependsOnlyOnTheMode(t *testing.T) {
	a := agent.Messages(agent.Input{Deck: deck(1, 6), Mode: agent.ModeMicro, Context: `{"slides":[1]}`, Instruction: "one"})
	b := agent.Messages(agent.Input{Deck: deck(2, 40), Mode: agent.ModeMicro, Context: `{"slides":[2]}`, Instruction: "two", Feedback: &policy.Feedback{Iteration: 1, Base: 1, Critique: "fix it"}})
	if a[0].Content != b[0].Content {
		t.Fatal("the system message differs between decks and iterations of the same mode")
	}
	if a[0].Content != agent.Prefix(agent.ModeMicro) {
		t.Fatal("the system message is not the prefix")
	}
	seen := map[string]string{}
	for _, m := range []string{agent.ModeMicro, agent.ModeMacro, agent.ModeSystemic, agent.ModeFull, agent.ModeOff} {
		p := agent.Prefix(m)
		if prev, dup := seen[p]; dup {
			t.Fatalf("modes %s and %s share a prefix", prev, m)
		}
		seen[p] = m
		for _, must := range []string{"batch_execute", "create_slide", "parentId", "reorder_slides", "stale"} {
			if !strings.Contains(p, must) {
				t.Errorf("prefix for %s does not mention %q", m, must)
			}
		}
	}
	if !strings.Contains(b[1].Content, "fix it") || !strings.Contains(b[1].Content, "two") || !strings.Contains(b[1].Content, "40 slide(s)") {
		t.Fatalf("user message %q", b[1].Content)
	}
}

func TestEveryToolNamedInThePromptExists(t *testing.T) {
	reg := tools.Registry()
	for _, name := range []string{"batch_execute", "create_frame", "create_text", "set_fill_color", "create_slide", "reorder_slides",
		"move_node", "resize_node", "replace_color", "set_text_font", "set_text_range_style", "focus_slide", "get_all_slides",
		"get_node_info_by_types", "get_text_node_info", "export_slide_image"} {
		if !strings.Contains(agent.Prefix(agent.ModeFull)+agent.Prefix(agent.ModeOff)+agent.Prefix(agent.ModeSystemic)+agent.Prefix(agent.ModeMicro), name) {
			t.Errorf("%s is not in any prompt (list out of date)", name)
		}
		if _, ok := reg.Get(name); !ok {
			t.Errorf("the prompt names %s, which the registry does not have", name)
		}
	}
}

// drive runs turns and applies their deck calls, as the step loop does
// (without observations), until a submit, an answer without calls, or
// max turns; it returns the working copy and every call applied.
func drive(t *testing.T, a *agent.Agent, in agent.Input, max int) (*scenegraph.Deck, agent.RoundResult, []agent.Round) {
	t.Helper()
	ses := agent.NewSession(in)
	cur := agent.RoundResult{Deck: in.Deck}
	var rounds []agent.Round
	var results []agent.Result
	for i := 0; i < max; i++ {
		r, _, err := a.Turn(context.Background(), ses, results, "")
		if err != nil {
			t.Fatal(err)
		}
		rounds = append(rounds, r)
		next := agent.ApplyRound(a.Tools, in.Deck, cur.Calls, cur.Deck, r)
		next.Errors = append(cur.Errors, next.Errors...)
		cur, results = next, next.Results
		done := len(r.Calls) == 0
		for _, c := range r.Calls {
			if c.Tool == agent.ToolSubmit {
				done = true
			} else if agent.IsStepTool(c.Tool) {
				results = append(results, agent.Result{ID: c.ID, Content: "ok"})
			}
		}
		if done {
			break
		}
	}
	return cur.Deck, cur, rounds
}

func TestAReadResultGoesBackToTheModel(t *testing.T) {
	a, srv := newAgent(t, `
steps:
  - tool_calls: [{name: get_all_slides, arguments: {}}]
  - tool_calls: [{name: set_text_content, arguments: {nodeId: s2-t5, text: "Pricing, revisited"}}]
  - tool_calls: [{name: submit}]
`)
	d, out, rounds := drive(t, a, agent.Input{Deck: deck(1, 6), Mode: agent.ModeOff, Instruction: "Retitle slide 2."}, 5)
	if len(rounds) != 3 || len(out.Calls) != 2 {
		t.Fatalf("rounds %d calls %d", len(rounds), len(out.Calls))
	}
	second := srv.Requests()[1].Chat.Messages
	last := second[len(second)-1]
	if last.Role != "tool" || !strings.Contains(last.Content, "slide-2") || last.ToolCallID == "" {
		t.Fatalf("the read result did not go back to the model: %+v", last)
	}
	if n := scenegraph.NewIndex(d).Node("s2-t5"); n.Characters != "Pricing, revisited" {
		t.Fatalf("title %q", n.Characters)
	}
}

func TestANewSlideIDGoesBackToTheModel(t *testing.T) {
	d := deck(1, 6)
	newID := d.Clone().NewID(scenegraph.NewIndex(d)) // what create_slide will hand out
	a, srv := newAgent(t, `
steps:
  - tool_calls: [{name: create_slide, arguments: {name: Appendix}}]
  - tool_calls: [{name: create_text, arguments: {parentId: "`+newID+`", x: 64, y: 64, width: 600, text: "Appendix"}}]
  - tool_calls: [{name: submit}]
`)
	got, out, rounds := drive(t, a, agent.Input{Deck: d, Mode: agent.ModeMacro, Context: "{}", Instruction: "Add an appendix slide with a title."}, 5)
	if len(rounds) != 3 || len(out.Errors) != 0 {
		t.Fatalf("rounds %d errors %+v", len(rounds), out.Errors)
	}
	msgs := srv.Requests()[1].Chat.Messages
	if !strings.Contains(msgs[len(msgs)-1].Content, newID) {
		t.Fatalf("the new slide id %s was not returned to the model: %s", newID, msgs[len(msgs)-1].Content)
	}
	s, _ := got.SlideByID(newID)
	if s == nil || len(s.Children) == 0 {
		t.Fatal("the new slide was left blank")
	}
}

// Unknown tools, malformed arguments and failing calls are left out and
// their errors go back to the model as their results, one per call.
func TestFailedCallsAreToldToTheModel(t *testing.T) {
	a, srv := newAgent(t, `
steps:
  - tool_calls:
      - {name: beautify, arguments: {}}
      - {name: set_fill_color, raw_arguments: '{"nodeId": "s2-t5"'}
      - {name: set_text_content, arguments: {nodeId: no-such-node, text: "x"}}
  - tool_calls: [{name: submit}]
`)
	d := deck(1, 3)
	got, out, _ := drive(t, a, agent.Input{Deck: d, Mode: agent.ModeFull, Context: "{}", Instruction: "x"}, 3)
	kinds := []string{}
	for _, e := range out.Errors {
		kinds = append(kinds, e.Kind)
	}
	if strings.Join(kinds, ",") != "unknown_tool,malformed_arguments,stale_id" || len(out.Calls) != 0 || out.Changed {
		t.Fatalf("errors %v, %d calls applied, changed %v", kinds, len(out.Calls), out.Changed)
	}
	h1, _ := scenegraph.Hash(d)
	h2, _ := scenegraph.Hash(got)
	if h1 != h2 {
		t.Fatal("failed calls changed the deck")
	}
	var tool []string
	for _, m := range srv.Requests()[1].Chat.Messages {
		if m.Role == "tool" {
			tool = append(tool, m.Content)
		}
	}
	if len(tool) != 3 || !strings.Contains(tool[0], "unknown tool") || !strings.Contains(tool[1], "not a valid JSON object") {
		t.Fatalf("tool results %q", tool)
	}
}

// The step tools are offered after the deck tools, and ApplyRound leaves
// them to the loop: they change nothing and get no result from it.
func TestStepToolsAreOfferedAndLeftToTheLoop(t *testing.T) {
	a, srv := newAgent(t, `
steps:
  - tool_calls: [{name: check_layout}, {name: undo_step}, {name: submit, arguments: {summary: "nothing to do"}}]
`)
	_, out, rounds := drive(t, a, agent.Input{Deck: deck(1, 3), Mode: agent.ModeFull, Context: "{}", Instruction: "x"}, 1)
	if len(rounds[0].Calls) != 3 || len(out.Results) != 0 || len(out.Calls) != 0 || out.Changed {
		t.Fatalf("round %+v, results %+v", rounds[0], out.Results)
	}
	var offered []string
	for _, tl := range srv.Requests()[0].Chat.Tools {
		offered = append(offered, tl.Function.Name)
	}
	n := len(offered)
	if n < 4 || strings.Join(offered[n-3:], ",") != "submit,undo_step,check_layout" {
		t.Fatalf("the last tools offered are %v", offered[max(0, n-3):])
	}
}

func TestTextOnlyAnswerAppliesNothing(t *testing.T) {
	a, _ := newAgent(t, `
steps:
  - text: I cannot find a slide 9 in this deck.
`)
	d := deck(1, 3)
	got, out, rounds := drive(t, a, agent.Input{Deck: d, Mode: agent.ModeFull, Context: "{}", Instruction: "Edit slide 9."}, 3)
	if len(rounds) != 1 || len(rounds[0].Calls) != 0 || len(out.Calls) != 0 || got != d || !strings.Contains(rounds[0].Text, "slide 9") {
		t.Fatalf("%+v", rounds)
	}
}

func TestBatchExecuteWithSymbolicSlideID(t *testing.T) {
	a, _ := newAgent(t, `
steps:
  - tool_calls:
      - name: batch_execute
        arguments:
          operations:
            - {command: create_slide, params: {name: Summary}, as: s}
            - {command: create_text, params: {parentId: "$s", x: 64, y: 64, width: 800, text: "Summary"}}
  - tool_calls: [{name: submit}]
`)
	got, out, _ := drive(t, a, agent.Input{Deck: deck(1, 3), Mode: agent.ModeMacro, Context: "{}", Instruction: "Add a summary slide."}, 3)
	if len(got.Slides) != 4 || len(got.Slides[3].Children) == 0 || len(out.Errors) != 0 {
		t.Fatalf("slides %d, errors %+v", len(got.Slides), out.Errors)
	}
}

func TestToolCallsWithoutIDsStillPairWithTheirResults(t *testing.T) {
	a, srv := newAgent(t, `
steps:
  - raw_body: '{"id":"x","object":"chat.completion","created":1,"model":"agent-m","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":"","tool_calls":[{"type":"function","function":{"name":"get_all_slides","arguments":"{}"}}]}}]}'
  - text: done
`)
	drive(t, a, agent.Input{Deck: deck(1, 3), Mode: agent.ModeOff, Instruction: "look"}, 3)
	msgs := srv.Requests()[1].Chat.Messages
	asst, tool := msgs[len(msgs)-2], msgs[len(msgs)-1]
	if asst.ToolCalls[0].ID == "" || tool.ToolCallID != asst.ToolCalls[0].ID {
		t.Fatalf("ids: call %q result %q", asst.ToolCalls[0].ID, tool.ToolCallID)
	}
}

// OpenAI's prompt cache serves only prefixes of at least 1,024 tokens; the
// stable part (tools first, then the system message) must clear that.
func TestStablePrefixIsCacheable(t *testing.T) {
	b, err := json.Marshal(agent.NewRegistry(tools.Options{}).Functions())
	if err != nil {
		t.Fatal(err)
	}
	toolsTok, err := route.CountTokens(string(b), "o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{agent.ModeMicro, agent.ModeMacro, agent.ModeSystemic, agent.ModeFull, agent.ModeOff} {
		sys, err := route.CountTokens(agent.Prefix(m), "o200k_base")
		if err != nil {
			t.Fatal(err)
		}
		if sys+toolsTok < 1024 {
			t.Errorf("%s: stable prefix is %d tokens, below the 1,024 a provider caches", m, sys+toolsTok)
		}
		t.Logf("%s: system %d tokens + tools %d tokens (o200k)", m, sys, toolsTok)
	}
}

// focus_slide's effect lasts across the separate calls of a round, as it
// does when the Apply step replays them as one batch.
func TestFocusCarriesAcrossCalls(t *testing.T) {
	a, _ := newAgent(t, `
steps:
  - tool_calls:
      - {name: focus_slide, arguments: {slideId: slide-3}}
      - {name: create_text, arguments: {x: 64, y: 600, width: 500, text: "Source: internal survey"}}
  - text: done
`)
	d := deck(1, 4)
	got, out, _ := drive(t, a, agent.Input{Deck: d, Mode: agent.ModeMacro, Context: "{}", Instruction: "Add a source line to slide 3."}, 3)
	if len(out.Errors) != 0 {
		t.Fatalf("%+v", out.Errors)
	}
	s, _ := got.SlideByID("slide-3")
	found := false
	s.Walk(func(n, _ *scenegraph.Node, _ int) bool {
		found = found || n.Characters == "Source: internal survey"
		return true
	})
	if !found {
		t.Fatal("the text did not land on the focused slide")
	}
	// Replaying the applied calls as one batch gives the same deck.
	replay, _, err := tools.Apply(d, agent.ToolCalls(out.Calls), tools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h1, _ := scenegraph.Hash(replay)
	h2, _ := scenegraph.Hash(got)
	if h1 != h2 {
		t.Fatal("the working copy and the replay differ")
	}
}
