package processtest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/shareddecks"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
	"github.com/acecanvas/ace/workers"
)

// BenchmarkBatchVsEditLoop is issue 22's side-by-side: `ace batch` (the
// embedded stack started and stopped by the command, the HTML report
// included) against a shell-style loop of `ace edit` over the same six
// real decks with the rebrand recipe, the built binary both times, in
// interleaved rounds (ACE_BENCH_ROUNDS, default 3: batch, loop, batch,
// loop ...; each batch on a fresh ACE_DATA_DIR, so nothing is reused
// across rounds). It reports the medians of
//   - batch-decks/min and loop-decks/min, and batch-vs-loop (their ratio;
//     goal >= 1.0);
//   - report-% : the report phase's share of the batch's wall time, from
//     summary.json's write to report.html's (goal <= 10);
//   - render-x : the render steps' cost in the workflows (each Render
//     activity from started to completed less its wait for a browser tab,
//     from the Temporal histories read afterwards from the batch's data
//     directory; its waits in the task queue and for a tab are logged
//     beside it) over the in-process
//     render of the same decks (`ace edit --record`: the iterations'
//     render timings), summed over the six decks (goal <= 1.2);
//   - load1: the 1-minute load average at the start of the rounds (the
//     machine is shared: figures taken at a load above the core count
//     compare the two under contention).
//
// Each round's figures are logged (go test -v shows them).
func BenchmarkBatchVsEditLoop(b *testing.B) {
	bin := ace(b)
	root := repoRoot(b)
	decks := shareddecks.PPTX(b)
	recipe := filepath.Join(root, "testdata", "recipes", "rebrand.yaml")
	rounds := 3
	if v, err := strconv.Atoi(os.Getenv("ACE_BENCH_ROUNDS")); err == nil && v > 0 {
		rounds = v
	}
	env := append(os.Environ(), "ACE_TEMPORAL_ADDRESS=", "ACE_NATS_URL=", "ACE_REDIS_URL=",
		"OPENAI_BASE_URL=", "OPENAI_API_KEY=", "ACE_AGENT_MODEL=")
	runAce := func(tb testing.TB, data string, args ...string) time.Duration {
		tb.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = root
		cmd.Env = append(slices.Clone(env), "ACE_DATA_DIR="+data)
		t0 := time.Now()
		out, err := cmd.CombinedOutput()
		d := time.Since(t0)
		if err != nil {
			tb.Fatalf("ace %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return d
	}
	var batchPM, loopPM, ratio, reportPct, renderX []float64
	load := loadAverage()
	for b.Loop() {
		for r := range rounds {
			tmp := b.TempDir()
			// The batch: the whole command, stack start to shutdown.
			data, out := filepath.Join(tmp, "data"), filepath.Join(tmp, "out")
			bd := runAce(b, data, append([]string{"batch", "--recipe", recipe, "-o", out}, decks...)...)
			rep := reportPhase(b, out)
			// The loop: one in-process edit per deck.
			ldata, lout := filepath.Join(tmp, "ldata"), filepath.Join(tmp, "lout")
			if err := os.MkdirAll(lout, 0o755); err != nil {
				b.Fatal(err)
			}
			var ld time.Duration
			var inProcess time.Duration
			for _, d := range decks {
				name := filepath.Base(d)
				rec := filepath.Join(lout, name+".record.json")
				ld += runAce(b, ldata, "edit", d, "--recipe", recipe, "-o", filepath.Join(lout, name), "--record", rec)
				inProcess += recordRender(b, rec)
			}
			wf := workflowRenders(b, data, out)
			n := float64(len(decks))
			batchPM = append(batchPM, n/bd.Minutes())
			loopPM = append(loopPM, n/ld.Minutes())
			ratio = append(ratio, ld.Seconds()/bd.Seconds())
			reportPct = append(reportPct, 100*rep.Seconds()/bd.Seconds())
			if inProcess > 0 {
				renderX = append(renderX, wf.Render.Seconds()/inProcess.Seconds())
			}
			b.Logf("round %d (load %s): batch %.1f s (report %.1f s, %.0f%%), loop %.1f s, %.2fx; render in workflows %.2f s (%.2f s waiting for a render slot or tab besides), in process %.2f s; report pictures in workflows %.2f s (%d slides)",
				r+1, loadAverage(), bd.Seconds(), rep.Seconds(), 100*rep.Seconds()/bd.Seconds(), ld.Seconds(), ld.Seconds()/bd.Seconds(),
				wf.Render.Seconds(), wf.Waited.Seconds(), inProcess.Seconds(), wf.Picture.Seconds(), wf.Pictured)
		}
	}
	b.ReportMetric(median(batchPM), "batch-decks/min")
	b.ReportMetric(median(loopPM), "loop-decks/min")
	b.ReportMetric(median(ratio), "batch-vs-loop")
	b.ReportMetric(median(reportPct), "report-%")
	if len(renderX) > 0 {
		b.ReportMetric(median(renderX), "render-x")
	}
	if l, err := strconv.ParseFloat(strings.Fields(load + " 0")[0], 64); err == nil {
		b.ReportMetric(l, "load1")
	}
}

// reportPhase is how long `ace batch` took to write its HTML report: from
// summary.json and summary.txt (written just before) to report.html.
func reportPhase(tb testing.TB, out string) time.Duration {
	tb.Helper()
	mtime := func(name string) time.Time {
		st, err := os.Stat(filepath.Join(out, name))
		if err != nil {
			tb.Fatal(err)
		}
		return st.ModTime()
	}
	from := mtime("summary.json")
	if t := mtime("summary.txt"); t.After(from) {
		from = t
	}
	return mtime("report.html").Sub(from)
}

// recordRender sums the iterations' render timings of an `ace edit
// --record` file.
func recordRender(tb testing.TB, path string) time.Duration {
	tb.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var rec struct {
		Iterations []struct {
			Timings struct {
				Render int64 `json:"render"`
			} `json:"timingsMs"`
		} `json:"iterations"`
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	var ms int64
	for _, it := range rec.Iterations {
		ms += it.Timings.Render
	}
	return time.Duration(ms) * time.Millisecond
}

// workflowSteps is what the Render and Picture activities of a batch's
// EditWorkflows took (workflowRenders).
type workflowSteps struct {
	// Render is the Render activities' execution, started to completed,
	// less the time their renders waited for a browser tab other work held
	// (RenderOutput.Stalled: the six decks' tools measure text with the
	// worker's browsers too): what rendering cost.
	Render time.Duration
	// Waited is that wait plus their time in the render task queue,
	// scheduled to started (six decks share the worker's two render
	// slots): what the worker's capacity added.
	Waited time.Duration
	// Picture is the Picture activities' execution less their waits for
	// a tab, and Pictured the slides they rendered: the report's pictures,
	// made on the render workers as each deck finished.
	Picture  time.Duration
	Pictured int
}

// workflowRenders sums, over the decks of the batch whose summary is in
// out, the Render and Picture activities of their EditWorkflow histories,
// read from the embedded stack of the batch's data directory.
func workflowRenders(tb testing.TB, data, out string) workflowSteps {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var sum workers.Summary
	if err := json.Unmarshal(raw, &sum); err != nil {
		tb.Fatal(err)
	}
	ctx := context.Background()
	conn, err := workers.Connect(ctx, workers.Config{Namespace: "default", DataDir: data})
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close()
	dc := workers.DataConverter(nil)
	var ws workflowSteps
	n := 0
	for _, row := range sum.Rows {
		name := map[int64]string{}
		scheduled := map[int64]time.Time{}
		started := map[int64]time.Time{}
		hist := conn.Temporal.GetWorkflowHistory(ctx, acev1.JobID(sum.Batch, row.Deck), "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for hist.HasNext() {
			ev, err := hist.Next()
			if err != nil {
				tb.Fatalf("history of %s: %v", row.Deck, err)
			}
			at := ev.GetEventTime().AsTime()
			if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil {
				name[ev.GetEventId()] = a.GetActivityType().GetName()
				scheduled[ev.GetEventId()] = at
			}
			if a := ev.GetActivityTaskStartedEventAttributes(); a != nil {
				started[a.GetScheduledEventId()] = at
			}
			a := ev.GetActivityTaskCompletedEventAttributes()
			if a == nil {
				continue
			}
			id := a.GetScheduledEventId()
			switch name[id] {
			case "Render":
				var res editloop.RenderOutput
				if err := dc.FromPayloads(a.GetResult(), &res); err != nil {
					tb.Fatalf("Render result of %s: %v", row.Deck, err)
				}
				ws.Render += at.Sub(started[id]) - res.Stalled
				ws.Waited += started[id].Sub(scheduled[id]) + res.Stalled
				n++
			case "Picture":
				var res editloop.PictureOutput
				if err := dc.FromPayloads(a.GetResult(), &res); err != nil {
					tb.Fatalf("Picture result of %s: %v", row.Deck, err)
				}
				ws.Picture += at.Sub(started[id]) - res.Stalled
				ws.Pictured += res.Rendered
			}
		}
	}
	if n == 0 {
		tb.Fatal(fmt.Sprintf("no Render activity in the histories of batch %s", sum.Batch))
	}
	return ws
}

// loadAverage is /proc/loadavg's three figures.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
