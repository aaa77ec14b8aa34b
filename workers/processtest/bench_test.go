package processtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/acecanvas/ace/workers"
)

// benchDecks is the batch: the three Northwind decks of testdata/decks, each
// four times (twelve jobs, keys made unique by workers.PrepareJobs), so two
// worker processes have work to share for the whole run.
func benchDecks(tb testing.TB) []string {
	decks, _ := filepath.Glob(filepath.Join(repoRoot(tb), "testdata", "decks", "*.pptx"))
	if len(decks) != 3 {
		tb.Fatalf("want the three Northwind decks in testdata/decks, found %d", len(decks))
	}
	return append(append(decks, decks...), append(decks, decks...)...)
}

// BenchmarkBatchThroughputProcesses measures batch throughput with 1 and
// then 2 `ace worker --queues all` processes (the binary built once by ace),
// each with its own Temporal client, model client and Chromium pool. The
// benchmark process owns the embedded stack (Temporal on SQLite and NATS
// JetStream under a temporary ACE_DATA_DIR, listening on 127.0.0.1) and runs
// the dispatcher; the worker processes attach to the stack through its
// stack.json, as a second `ace` process on the same data directory does.
// processes=1 starts the first worker process, processes=2 adds a second
// one. Before each timed batch an untimed two-deck batch warms the new
// process (Chromium start, first workflow tasks). The batch is the rebrand
// recipe over benchDecks; decks/min counts decks from publishing the batch
// to its last result; the timed batch must have run in exactly that many
// worker processes (activity identities in the histories). processes=2 also reports its throughput relative to
// processes=1 (x-vs-1proc; 2 would be perfect scaling, on a 2-core machine
// the stack and both Chromium pools share the cores).
func BenchmarkBatchThroughputProcesses(b *testing.B) {
	ace(b) // build before anything is timed
	data := b.TempDir()
	ctx := context.Background()
	conn, err := workers.Connect(ctx, workers.Config{Namespace: "default", DataDir: data})
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	if conn.Stack == nil || !conn.Stack.Owned {
		b.Fatal("the benchmark process did not start the embedded stack")
	}
	dctx, stopDispatch := context.WithCancel(ctx)
	dispatched := make(chan struct{})
	go func() { defer close(dispatched); workers.Dispatch(dctx, conn) }()
	defer func() { stopDispatch(); <-dispatched }()

	root := repoRoot(b)
	recipePath := filepath.Join(root, "testdata", "recipes", "rebrand.yaml")
	recipe, err := os.ReadFile(recipePath)
	if err != nil {
		b.Fatal(err)
	}
	edit := workers.Edit{RecipePath: recipePath, RecipeData: recipe}
	decks := benchDecks(b)
	// runBatch runs one batch and returns its duration and the identities
	// of the worker processes that ran its activities (Temporal records the
	// polling client's identity, pid@host, on every started activity).
	runBatch := func(tb testing.TB, decks []string) (time.Duration, map[string]bool) {
		tb.Helper()
		batch := fmt.Sprintf("procbench%d", time.Now().UnixNano())
		_, jobs, err := workers.PrepareJobs(ctx, conn.Store, batch, decks, edit)
		if err != nil {
			tb.Fatal(err)
		}
		keys := make([]string, len(jobs))
		for i, j := range jobs {
			keys[i] = j.Key
		}
		t0 := time.Now()
		if err := workers.Submit(ctx, conn.JS, batch, jobs); err != nil {
			tb.Fatal(err)
		}
		fctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
		defer cancel()
		st, err := workers.Follow(fctx, conn.JS, batch, keys, nil)
		if err != nil {
			tb.Fatalf("batch %s: %v", batch, err)
		}
		if done, failed, _, _ := st.Counts(); done != len(jobs) || failed != 0 {
			tb.Fatalf("batch %s: %d done, %d failed of %d", batch, done, failed, len(jobs))
		}
		elapsed := time.Since(t0)
		ids := map[string]bool{}
		for _, j := range jobs {
			hist := conn.Temporal.GetWorkflowHistory(ctx, j.Request.JobId, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
			for hist.HasNext() {
				ev, err := hist.Next()
				if err != nil {
					tb.Fatal(err)
				}
				if a := ev.GetActivityTaskStartedEventAttributes(); a != nil {
					ids[a.Identity] = true
				}
			}
		}
		return elapsed, ids
	}

	perMin := map[int]float64{}
	for _, n := range []int{1, 2} {
		// Started on the parent so that the first process keeps running
		// through processes=2; both are killed when the benchmark ends.
		start(b, data, "worker", "--queues", "all").waitLine(b, "ace worker:", 3*time.Minute)
		b.Run(fmt.Sprintf("processes=%d", n), func(b *testing.B) {
			runBatch(b, decks[:2])
			var elapsed time.Duration
			count := 0
			for b.Loop() {
				d, ids := runBatch(b, decks)
				if len(ids) != n {
					b.Fatalf("activities ran in %d worker processes %v, want %d", len(ids), ids, n)
				}
				elapsed += d
				count += len(decks)
			}
			perMin[n] = float64(count) / elapsed.Minutes()
			b.ReportMetric(perMin[n], "decks/min")
			if n == 2 && perMin[1] > 0 {
				b.ReportMetric(perMin[2]/perMin[1], "x-vs-1proc")
			}
		})
	}
}
