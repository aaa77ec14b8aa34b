package workers

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/acecanvas/ace/internal/cache"
	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/store"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
)

// Every request of a model gets the same answer, so any number of decks can
// be edited in any order: slide 2's title is set, then (once the
// observation came back) submitted, and the judge gives 4 (stop).
const redisBatchScript = `
name: redis-batch
steps:
  - model: judge-m
    forever: true
    when_last: "CHECKS (group"
    pass_checks: true
  - model: router-m
    forever: true
    text: '{"mode": "MICRO_SPATIAL", "target_slides": [2], "reason": "one title on slide 2"}'
  - model: agent-m
    forever: true
    unless_last: "After this step"
    tool_calls:
      - name: set_text_content
        arguments: {nodeId: s2-t5, text: "Pricing experiments and results"}
  - model: agent-m
    forever: true
    when_last: "After this step"
    tool_calls: [{name: submit}]
  - model: judge-m
    forever: true
    text: '{"instruction_following_score": 4, "instruction_following_reason": "Done as asked."}'
`

// testRedis starts a redis-server owned by the test on a free port. The
// test stops its own server: the machine's shared Redis at 127.0.0.1:6379
// serves other tests running in parallel and must not be stopped.
func testRedis(t *testing.T) (url string, rdb *redis.Client, stop func()) {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redis-server not installed (scripts/setup installs it on the project machines)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	srv := exec.Command(bin, "--port", fmt.Sprint(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--dir", t.TempDir())
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			srv.Process.Kill()
			srv.Wait()
		}
	}
	t.Cleanup(stop)
	url = fmt.Sprintf("redis://127.0.0.1:%d/0", port)
	rdb = redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", port)})
	t.Cleanup(func() { rdb.Close() })
	for range 100 {
		if rdb.Ping(context.Background()).Err() == nil {
			return url, rdb, stop
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the test's redis-server did not answer")
	return
}

// keyspaceHits reads keyspace_hits from Redis's INFO stats: Redis's own
// count of GETs that found their key.
func keyspaceHits(t *testing.T, rdb *redis.Client) int {
	t.Helper()
	info, err := rdb.Info(context.Background(), "stats").Result()
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(strings.NewReader(info))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "keyspace_hits:"); ok {
			n, _ := strconv.Atoi(v)
			return n
		}
	}
	t.Fatal("INFO stats has no keyspace_hits")
	return 0
}

// TestRedisStoppedMidBatch runs a natural-language batch of four copies of
// one generated deck through ACE_JOBS, the dispatcher and EditWorkflow, with
// the llm workers' route cache and rate limiter on a Redis server the test
// owns (see testRedis: the shared 127.0.0.1:6379 is never stopped). Decks 1
// and 2 run one after the other with Redis up: deck 1 writes its routing
// decision and routed context to Redis (the keys are read back from Redis),
// deck 2 reads both from it (Redis's keyspace_hits grows, the router model
// is not called). Then Redis is killed and decks 3 and 4 join the same
// batch: they route through the model again (cache misses), the limiter
// falls back to its in-process buckets, and all four decks complete.
func TestRedisStoppedMidBatch(t *testing.T) {
	conn := stack(t)
	url, rdb, stopRedis := testRedis(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	script, err := llmtest.ParseScript([]byte(redisBatchScript), "redis-batch")
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t, script)
	cfg := srv.Config("agent-m", "judge-m")
	cfg.RouterModel = "router-m"
	lim := cache.NewLimiter(ctx, cache.RedisConfig{URL: url}, "llm:test", cache.Rate{RequestsPerMin: 6000, TokensPerMin: 10_000_000})
	defer lim.Close()
	if !lim.Shared() {
		t.Fatal("the limiter did not reach the test's Redis")
	}
	cfg.Limiter = lim
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rc := cache.New(ctx, cache.RedisConfig{URL: url})
	defer rc.Close()
	if rc.Stats().Backend != "redis" {
		t.Fatalf("cache.New(%s) gave %+v", url, rc.Stats())
	}
	prevLLM, prevCache := shared.acts.Steps.LLM, shared.acts.Steps.Cache
	shared.acts.Steps.LLM, shared.acts.Steps.Cache = c, rc
	defer func() { shared.acts.Steps.LLM, shared.acts.Steps.Cache = prevLLM, prevCache }()

	d, blobs := deckgen.Generate(deckgen.Options{Slides: 6, Seed: 1})
	if err := store.PutBlobs(ctx, conn.Store, blobs); err != nil {
		t.Fatal(err)
	}
	origin, err := store.PutDeck(ctx, conn.Store, d)
	if err != nil {
		t.Fatal(err)
	}
	batch := acev1.Token(fmt.Sprintf("redis%d", time.Now().UnixNano()))
	job := func(key string) Job {
		return Job{Key: key, Path: key + ".json", Request: &acev1.EditRequest{BatchId: batch, JobId: acev1.JobID(batch, key),
			DeckName: key + ".json", DeckRef: origin, Instruction: "Retitle slide 2 to name the pricing experiments.",
			ExportFormat: "json"}}
	}
	run := func(keys ...string) {
		t.Helper()
		var jobs []Job
		for _, k := range keys {
			jobs = append(jobs, job(k))
		}
		if err := Submit(ctx, conn.JS, batch, jobs); err != nil {
			t.Fatal(err)
		}
		if _, err := Follow(ctx, conn.JS, batch, keys, nil); err != nil {
			t.Fatalf("decks %v: %v", keys, err)
		}
	}
	routerCalls := func() int { return len(srv.RequestsFor("router-m")) }

	run("deck1")
	for _, pattern := range []string{"ace:route:llm:*", "ace:ctx:MICRO_SPATIAL:*"} {
		keys, err := rdb.Keys(ctx, pattern).Result()
		if err != nil || len(keys) != 1 {
			t.Fatalf("Redis keys %s after deck 1: %v (%v), want the one written by the edit", pattern, keys, err)
		}
	}
	hits0 := keyspaceHits(t, rdb)
	run("deck2")
	if hits := keyspaceHits(t, rdb) - hits0; hits < 2 {
		t.Fatalf("deck 2 made %d Redis cache hits, want its decision and its context", hits)
	}
	if n := routerCalls(); n != 1 {
		t.Fatalf("%d router calls after two decks, want 1 (deck 2 routed from Redis)", n)
	}
	stats := rc.Stats()
	if stats.Errors != 0 {
		t.Fatalf("cache errors before Redis stopped: %+v", stats)
	}

	stopRedis()
	run("deck3", "deck4")
	st, err := Follow(ctx, conn.JS, batch, []string{"deck1", "deck2", "deck3", "deck4"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if done, failed, _, _ := st.Counts(); done != 4 || failed != 0 {
		t.Fatalf("batch with Redis stopped: %d done, %d failed of 4", done, failed)
	}
	for k, ds := range st.Decks {
		if r := ds.Result; r == nil || r.Status != acev1.EditStatus_EDIT_STATUS_OK || r.FinalSnapshot == origin {
			t.Errorf("%s: result %+v", k, r)
		}
	}
	if n := routerCalls(); n != 3 {
		t.Errorf("%d router calls, want 3: decks 3 and 4 missed the stopped cache and routed through the model", n)
	}
	after := rc.Stats()
	if after.Errors == 0 || after.Hits != stats.Hits {
		t.Errorf("cache stats after the stop %+v (before %+v): want Redis errors and no new hit", after, stats)
	}
	if lim.Errors() == 0 {
		t.Error("the limiter never noticed Redis had stopped")
	}
}
