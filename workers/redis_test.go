package workers

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/cache"
	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/store"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
)

// TestRedisStoppedMidEditOnlyLosesTheSharedLimiter runs a scripted
// three-iteration edit whose model client is rate limited through a Redis
// server this test starts, and kills that Redis after the first model call:
// the limiter falls back to in-process buckets and the edit completes with
// the same result as without Redis.
func TestRedisStoppedMidEditOnlyLosesTheSharedLimiter(t *testing.T) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redis-server not installed (scripts/setup installs it on the project machines)")
	}
	conn := stack(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	redis := exec.Command(bin, "--port", fmt.Sprint(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--dir", t.TempDir())
	if err := redis.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { redis.Process.Kill(); redis.Wait() }()
	for range 50 {
		if c, err := net.Dial("tcp", fmt.Sprint("127.0.0.1:", port)); err == nil {
			c.Close()
			break
		}
		time.Sleep(50 * time.Millisecond)
	}

	srv := llmtest.Load(t, filepath.Join(repoRootTB(t), "testdata", "scripts", "runner-rollback.yaml"))
	cfg := srv.Config("agent-m", "judge-m")
	cfg.RouterModel = "router-m"
	ctx := context.Background()
	lim := cache.NewLimiter(ctx, fmt.Sprintf("redis://127.0.0.1:%d/0", port), "llm:test", cache.Rate{RequestsPerMin: 6000, TokensPerMin: 10_000_000})
	defer lim.Close()
	if !lim.Shared() {
		t.Fatal("the limiter did not reach the test's Redis")
	}
	cfg.Limiter = lim
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	d, blobs := deckgen.Generate(deckgen.Options{Slides: 6, Seed: 1})
	if err := store.PutBlobs(ctx, conn.Store, blobs); err != nil {
		t.Fatal(err)
	}
	origin, err := store.PutDeck(ctx, conn.Store, d)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for len(srv.Requests()) == 0 {
			time.Sleep(10 * time.Millisecond)
		}
		redis.Process.Kill() // stop Redis after the first model call
	}()
	res, _ := runWorkflow(t, c, origin, "Give slide 2 a shorter title that names the quarter.")
	if res.Status != acev1.EditStatus_EDIT_STATUS_NOT_MET || len(res.Iterations) != 3 || res.Selected != 1 {
		t.Fatalf("with Redis stopped: status %v, %d iterations, selected %d (%s)", res.Status, len(res.Iterations), res.Selected+1, res.Reason)
	}
	if lim.Errors() == 0 {
		t.Error("no Redis error was counted: the limiter never noticed Redis had stopped")
	}
}
