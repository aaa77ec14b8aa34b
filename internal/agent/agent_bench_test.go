package agent_test

import (
	"context"
	"testing"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/route"
	"github.com/acecanvas/ace/internal/tools"
)

// BenchmarkActRound is one agent turn on a 100-slide deck: prompt and 100
// tool definitions sent over loopback HTTP, one batch of three calls
// applied (agent.ApplyRound). It is the agent's overhead around the
// model's latency.
func BenchmarkActRound(b *testing.B) {
	srv := llmtest.NewServer(b, &llmtest.Script{Name: "bench", Steps: []llmtest.Step{{Forever: true, ToolCalls: []llmtest.ToolCall{
		{Name: "set_text_content", Arguments: map[string]any{"nodeId": "s2-t5", "text": "Benchmark title"}},
		{Name: "set_fill_color", Arguments: map[string]any{"nodeId": "s2-t5", "color": "#1F4E79"}},
		{Name: "move_node", Arguments: map[string]any{"nodeId": "s2-t5", "x": 80, "y": 40}},
	}}}})
	c, err := llm.New(srv.Config("agent-m", ""))
	if err != nil {
		b.Fatal(err)
	}
	d := deck(1, 100)
	dec := route.Heuristic("Retitle slide 2", d)
	ctxText, err := route.Context(d, dec)
	if err != nil {
		b.Fatal(err)
	}
	a := &agent.Agent{LLM: c, Tools: agent.NewRegistry(tools.Options{})}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		ses := agent.NewSession(agent.Input{Deck: d, Mode: string(dec.Mode), Context: ctxText, Instruction: "Retitle slide 2"})
		r, _, err := a.Turn(ctx, ses, nil, "")
		if err != nil {
			b.Fatal(err)
		}
		out := agent.ApplyRound(a.Tools, d, nil, d, r)
		if len(out.Calls) != 3 {
			b.Fatalf("%+v", out.Errors)
		}
	}
}
