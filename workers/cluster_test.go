package workers

import (
	"context"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/cache"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
	"github.com/acecanvas/ace/workers/embedded"
)

// TestBatchAgainstLocalServices runs a batch the cluster way: a separate
// Temporal server (standing in for a Temporal dev server), the machine's
// NATS JetStream at 127.0.0.1:4222 and Redis at 127.0.0.1:6379, reached by
// address exactly as in a deployment. Only the addresses differ from the
// embedded default; the code path is the same.
func TestBatchAgainstLocalServices(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:4222", "127.0.0.1:6379"} {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			t.Skipf("no local service at %s (scripts/setup starts NATS and Redis)", addr)
		}
		c.Close()
	}
	dir := t.TempDir()
	lock, err := embedded.LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock()
	temporal, err := embedded.StartTemporal(filepath.Join(dir, "temporal"))
	if err != nil {
		t.Fatal(err)
	}
	defer temporal.Stop()

	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	conn, err := Connect(ctx, Config{TemporalAddress: temporal.HostPort(), Namespace: embedded.Namespace,
		NATSURL: "nats://127.0.0.1:4222", Redis: cache.RedisConfig{URL: "redis://127.0.0.1:6379/0"}, DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if conn.Stack != nil {
		t.Fatal("addresses were given, yet an embedded stack started")
	}
	acts, closeSteps, err := NewActivities(ctx, conn, AllQueues, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer closeSteps()
	if st := acts.Steps.Cache.Stats(); st.Backend != "redis" || st.Errors != 0 {
		t.Fatalf("llm workers' route cache with ACE_REDIS_URL set: %+v, want the local Redis", st)
	}
	ws, err := StartWorkers(conn.Temporal, AllQueues, acts, WorkerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer StopWorkers(ws)
	dctx, stop := context.WithCancel(ctx)
	defer stop()
	go Dispatch(dctx, conn)

	deck := filepath.Join(repoRoot(t), "testdata", "decks", "northwind-customer-briefing.pptx")
	batch := "cluster" + time.Now().Format("150405.000000")
	batch = acev1.Token(batch)
	_, jobs, err := PrepareJobs(ctx, conn.Store, batch, []string{deck}, recipeEdit(t, "title-normalize.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := Submit(ctx, conn.JS, batch, jobs); err != nil {
		t.Fatal(err)
	}
	st, err := Follow(ctx, conn.JS, batch, []string{jobs[0].Key}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := st.Decks[jobs[0].Key].Result
	if res == nil || res.Status != acev1.EditStatus_EDIT_STATUS_OK || res.ExportRef == "" {
		t.Fatalf("result %+v", res)
	}
	if ok, err := conn.Store.Has(ctx, res.ExportRef); err != nil || !ok {
		t.Errorf("exported deck %s not in the shared store: %v", res.ExportRef, err)
	}
}
