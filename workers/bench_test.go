package workers

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/runner"
	"github.com/acecanvas/ace/internal/store"
)

// BenchmarkOrchestrationOverhead runs the same scripted three-iteration
// edit (runner-rollback.yaml on a generated 6-slide deck) in process
// (runner.Run) and as an EditWorkflow on the embedded stack, and reports
// the milliseconds per loop iteration of each and their ratio. The
// difference is what durability costs: activity scheduling, payloads,
// history writes to SQLite.
func BenchmarkOrchestrationOverhead(b *testing.B) {
	if shared.err != nil {
		b.Fatal(shared.err)
	}
	conn := shared.conn
	ctx := context.Background()
	d, blobs := deckgen.Generate(deckgen.Options{Slides: 6, Seed: 1})
	if err := store.PutBlobs(ctx, conn.Store, blobs); err != nil {
		b.Fatal(err)
	}
	origin, err := store.PutDeck(ctx, conn.Store, d)
	if err != nil {
		b.Fatal(err)
	}
	const instruction = "Give slide 2 a shorter title that names the quarter."
	var inProc, durable time.Duration
	iterations, activities, locals := 0, 0, 0
	for b.Loop() {
		steps := &runner.Steps{Store: conn.Store, LLM: scripted(b, "runner-rollback.yaml"), Renderer: shared.acts.Steps.Renderer}
		t0 := time.Now()
		rec, err := runner.Run(ctx, steps, editloop.Request{DeckRef: origin, Instruction: instruction, Policy: policy.Config{}})
		if err != nil {
			b.Fatal(err)
		}
		inProc += time.Since(t0)
		c := scripted(b, "runner-rollback.yaml")
		t0 = time.Now()
		res, id := runWorkflow(b, c, origin, instruction)
		durable += time.Since(t0)
		if res.FinalSnapshot != rec.Final {
			b.Fatalf("workflow and runner disagree: %s vs %s", res.FinalSnapshot, rec.Final)
		}
		iterations += len(rec.Iterations)
		a, l := countActivities(b, id)
		activities += a
		locals += l
	}
	b.ReportMetric(float64(inProc.Milliseconds())/float64(iterations), "ms/iter-inprocess")
	b.ReportMetric(float64(durable.Milliseconds())/float64(iterations), "ms/iter-workflow")
	b.ReportMetric(float64(durable)/float64(inProc), "workflow/inprocess")
	// What durability costs per step: the extra wall time over the steps
	// the workflow ran (activities and local activities alike).
	b.ReportMetric(float64((durable-inProc).Milliseconds())/float64(activities+locals), "ms/activity-overhead")
	b.ReportMetric(float64(activities)/float64(b.N), "activities/edit")
	b.ReportMetric(float64(locals)/float64(b.N), "local-activities/edit")
}

// BenchmarkBatchThroughput publishes a batch of the three generated
// Northwind decks with the rebrand recipe and follows it to the end, with
// one worker set (the shared one) and with a second worker set on the same
// stack (its own Temporal client and Chromium pool), both inside this test
// process. Reports decks/min. Throughput with separate `ace worker`
// processes is processtest.BenchmarkBatchThroughputProcesses.
func BenchmarkBatchThroughput(b *testing.B) {
	if shared.err != nil {
		b.Fatal(shared.err)
	}
	root := repoRootTB(b)
	decks, _ := filepath.Glob(filepath.Join(root, "testdata", "decks", "*.pptx"))
	recipePath := filepath.Join(root, "testdata", "recipes", "rebrand.yaml")
	recipe, err := os.ReadFile(recipePath)
	if err != nil {
		b.Fatal(err)
	}
	for _, sets := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", sets), func(b *testing.B) {
			conn := shared.conn
			ctx := context.Background()
			if sets == 2 {
				extra, err := Connect(ctx, conn.Config)
				if err != nil {
					b.Fatal(err)
				}
				defer extra.Close()
				acts, closeSteps, err := NewActivities(ctx, extra, AllQueues, 2)
				if err != nil {
					b.Fatal(err)
				}
				defer closeSteps()
				ws, err := StartWorkers(extra.Temporal, AllQueues, acts, WorkerOptions{})
				if err != nil {
					b.Fatal(err)
				}
				defer StopWorkers(ws)
			}
			n := 0
			var elapsed time.Duration
			for b.Loop() {
				batch := fmt.Sprintf("bench%d", time.Now().UnixNano())
				_, jobs, err := PrepareJobs(ctx, conn.Store, batch, decks, Edit{RecipePath: recipePath, RecipeData: recipe})
				if err != nil {
					b.Fatal(err)
				}
				t0 := time.Now()
				if err := Submit(ctx, conn.JS, batch, jobs); err != nil {
					b.Fatal(err)
				}
				keys := make([]string, len(jobs))
				for i, j := range jobs {
					keys[i] = j.Key
				}
				fctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
				st, err := Follow(fctx, conn.JS, batch, keys, nil)
				cancel()
				if err != nil {
					b.Fatal(err)
				}
				if done, failed, _, _ := st.Counts(); done != len(jobs) || failed != 0 {
					b.Fatalf("%d done, %d failed of %d", done, failed, len(jobs))
				}
				elapsed += time.Since(t0)
				n += len(jobs)
			}
			b.ReportMetric(float64(n)/elapsed.Minutes(), "decks/min")
		})
	}
}

// countActivities counts the activities and local activities (markers) in
// a finished workflow's history.
func countActivities(b *testing.B, id string) (activities, locals int) {
	it := shared.conn.Temporal.GetWorkflowHistory(context.Background(), id, "", false, 0)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			b.Fatal(err)
		}
		switch ev.GetEventType() {
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
			activities++
		case enumspb.EVENT_TYPE_MARKER_RECORDED:
			locals++
		}
	}
	return activities, locals
}
