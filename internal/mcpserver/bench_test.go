package mcpserver_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/mcpserver"
	"github.com/acecanvas/ace/internal/mcpserver/mcptest"
	"github.com/acecanvas/ace/internal/shareddecks"
)

// Tool-call latency over MCP (streamable HTTP in process, the SDK's
// client; issue 21), on a real deck (career-tips, 37 slides), measured at
// the client from request to result:
//   - edit: a one-node edit (set_text_content on slide 1's first text),
//     alternating two texts so every call changes the deck and stores a
//     snapshot;
//   - render_slide: slide 1 at scale 1, PNG and violations, after one
//     warm-up call that starts Chromium.
//
// Each iteration makes a fixed number of calls (callsPerIteration), so
// that `make bench` at its one-iteration BENCHTIME still measures a
// distribution; each sub-benchmark reports the median and p95 of all its
// calls in ms.
func BenchmarkMCPToolCall(b *testing.B) {
	const callsPerIteration = 40
	w := mcptest.NewWorkspace(b, shareddecks.PPTXFile(b, "career-tips.pptx"))
	srv := newServer(b, w.Root)
	cs := connectHTTP(b, srv)
	ctx := context.Background()
	mcptest.MustCall(b, ctx, cs, mcpserver.ToolOpenDeck, map[string]any{"path": w.Deck})
	id, text := mcptest.FirstText(b, w.Root+"/"+w.Deck, 0)
	mcptest.MustCall(b, ctx, cs, mcpserver.ToolRenderSlide, map[string]any{"slide": "1"}) // starts Chromium

	run := func(b *testing.B, call func(i int)) {
		var lat []time.Duration
		i := 0
		for b.Loop() {
			for range callsPerIteration {
				start := time.Now()
				call(i)
				lat = append(lat, time.Since(start))
				i++
			}
		}
		slices.Sort(lat)
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "ms/call-median")
		b.ReportMetric(float64(lat[(len(lat)*95)/100].Microseconds())/1000, "ms/call-p95")
	}
	b.Run("edit", func(b *testing.B) {
		run(b, func(i int) {
			mcptest.MustCall(b, ctx, cs, "set_text_content", map[string]any{"nodeId": id, "text": fmt.Sprintf("%s (%d)", text, i%2)})
		})
	})
	b.Run("render_slide", func(b *testing.B) {
		run(b, func(int) {
			mcptest.MustCall(b, ctx, cs, mcpserver.ToolRenderSlide, map[string]any{"slide": "1"})
		})
	})
}
