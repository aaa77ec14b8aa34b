// Package processtest runs ACE's durability acceptance tests with real
// processes: the ace binary is built once, workers and batches run as
// child processes, and they are killed with SIGKILL mid-work.
package processtest

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/proto"

	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/runner"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
	"github.com/acecanvas/ace/workers"
	"github.com/acecanvas/ace/workflows"
)

var (
	aceDir   string
	aceOnce  sync.Once
	aceBin   string
	aceBuild error
)

func TestMain(m *testing.M) {
	flag.Parse()
	// Every child's embedded stack on free ports and without the Web UI:
	// tests run side by side (and beside a developer's `ace dev` on the
	// default ports).
	for _, kv := range [][2]string{{"ACE_TEMPORAL_PORT", "0"}, {"ACE_NATS_PORT", "0"}, {"ACE_TEMPORAL_UI_PORT", "off"}} {
		os.Setenv(kv[0], kv[1])
	}
	aceDir, _ = os.MkdirTemp("", "ace-processtest-")
	code := m.Run()
	os.RemoveAll(aceDir)
	os.Exit(code)
}

// ace builds the ace binary once per test binary, on first use (a run
// that selects none of these tests or benchmarks builds nothing).
func ace(tb testing.TB) string {
	tb.Helper()
	aceOnce.Do(func() {
		bin := filepath.Join(aceDir, "ace")
		build := exec.Command("go", "build", "-o", bin, "./cmd/ace")
		build.Dir = repoRoot(tb)
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if aceBuild = build.Run(); aceBuild == nil {
			aceBin = bin
		}
	})
	if aceBuild != nil {
		tb.Fatalf("build ace: %v", aceBuild)
	}
	return aceBin
}

func repoRoot(t testing.TB) string {
	dir, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		dir = filepath.Dir(dir)
	}
}

// proc is a child process in its own process group, so SIGKILL reaches
// the Chromium processes it started too.
type proc struct {
	cmd    *exec.Cmd
	stderr *lineBuf
	done   chan error
}

type lineBuf struct {
	lines chan string
	all   strings.Builder
}

func start(t testing.TB, dataDir string, args ...string) *proc {
	t.Helper()
	return startWith(t, dataDir, nil, args...)
}

// startWith is start with env added after the defaults (a model server's
// address, say).
func startWith(t testing.TB, dataDir string, env []string, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(ace(t), args...)
	cmd.Dir = repoRoot(t)
	cmd.Env = append(os.Environ(), "ACE_DATA_DIR="+dataDir, "ACE_TEMPORAL_ADDRESS=", "ACE_NATS_URL=", "ACE_REDIS_URL=",
		"OPENAI_BASE_URL=", "OPENAI_API_KEY=", "ACE_AGENT_MODEL=")
	cmd.Env = append(cmd.Env, env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	pipe, _ := cmd.StderrPipe()
	cmd.Stdout = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{cmd: cmd, stderr: &lineBuf{lines: make(chan string, 1024)}, done: make(chan error, 1)}
	go func() {
		sc := bufio.NewScanner(pipe)
		sc.Split(scanCRLF)
		for sc.Scan() {
			select {
			case p.stderr.lines <- sc.Text():
			default:
			}
		}
		p.done <- cmd.Wait()
	}()
	t.Cleanup(func() { p.kill() })
	return p
}

func scanCRLF(data []byte, atEOF bool) (int, []byte, error) {
	for i, b := range data {
		if b == '\n' || b == '\r' {
			return i + 1, data[:i], nil
		}
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

// kill sends SIGKILL to the process group.
func (p *proc) kill() {
	if p.cmd.Process != nil {
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	}
}

// waitLine waits for a stderr line containing s.
func (p *proc) waitLine(t testing.TB, s string, timeout time.Duration) string {
	t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case l := <-p.stderr.lines:
			if strings.Contains(l, s) {
				return l
			}
		case <-deadline:
			t.Fatalf("no %q from ace after %v", s, timeout)
		}
	}
}

func waitStack(t *testing.T, dataDir string) {
	t.Helper()
	for range 1800 {
		if _, err := os.Stat(filepath.Join(dataDir, "stack.json")); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("the embedded stack did not come up")
}

// results counts result events per deck key of a batch.
func results(t *testing.T, js jetstream.JetStream, batch string) map[string]int {
	t.Helper()
	cons, err := js.OrderedConsumer(context.Background(), acev1.StreamEvents, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{acev1.EventSubject(batch, "*")}})
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for {
		msg, err := cons.Next(jetstream.FetchMaxWait(time.Second))
		if err != nil {
			return n
		}
		var ev acev1.Progress
		if proto.Unmarshal(msg.Data(), &ev) == nil && ev.Result != nil {
			n[ev.DeckKey]++
		}
	}
}

func runs(t *testing.T, c client.Client, id string) []enumspb.WorkflowExecutionStatus {
	t.Helper()
	resp, err := c.ListWorkflow(context.Background(), &workflowservice.ListWorkflowExecutionsRequest{
		Query: fmt.Sprintf("WorkflowId = '%s'", id)})
	if err != nil {
		t.Fatal(err)
	}
	var out []enumspb.WorkflowExecutionStatus
	for _, e := range resp.Executions {
		out = append(out, e.Status)
	}
	return out
}

// TestEmbeddedBatchSurvivesKillAndRerun kills `ace batch` (embedded
// default) with SIGKILL after its first deck finished, reruns the same
// command, and checks every deck completed exactly once: one workflow run
// and one result per deck, and a summary covering all decks.
func TestEmbeddedBatchSurvivesKillAndRerun(t *testing.T) {
	root := repoRoot(t)
	data, out := t.TempDir(), t.TempDir()
	args := []string{"batch", "--recipe", "testdata/recipes/rebrand.yaml",
		"testdata/decks/northwind-qbr.pptx", "testdata/decks/northwind-strategy.pptx",
		"testdata/decks/northwind-customer-briefing.pptx", "-o", out}
	first := start(t, data, args...)
	first.waitLine(t, "1/3 done", 8*time.Minute)
	first.kill()
	<-first.done

	second := start(t, data, args...)
	select {
	case err := <-second.done:
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() != 3 || err != nil && !ok {
			t.Fatalf("rerun: %v", err)
		}
	case <-time.After(10 * time.Minute):
		t.Fatal("rerun did not finish")
	}
	sum := readSummary(t, out)
	if sum.Decks != 3 || sum.Done != 3 {
		t.Fatalf("summary after rerun: %+v", sum)
	}
	eachDeckOnce(t, data, sum)
	for _, r := range sum.Rows {
		if _, err := os.Stat(r.Output); err != nil {
			t.Errorf("deck %s: %v", r.Deck, err)
		}
	}
	_ = root
}

// renderInFlight starts the stack with edit, llm and diff workers in one
// process and a render worker in another, submits the rebrand of
// northwind-qbr as the batch named batch, and returns once the edit's
// workflow reports the render step: the context (cancelled and the
// connection closed at the end of the test), the data directory, the render
// worker and the batch's jobs.
func renderInFlight(t *testing.T, batch string) (context.Context, *workers.Conn, string, *proc, string, []workers.Job) {
	t.Helper()
	data := t.TempDir()
	main := start(t, data, "worker", "--queues", "edit,llm,diff", "--dispatch")
	waitStack(t, data)
	main.waitLine(t, "ace worker:", 3*time.Minute)
	// A drain long enough for a render on a loaded machine (a Chromium
	// start and the slides can take over the 30 s default): the drain
	// test checks that in-flight work finishes, not how fast it does.
	renderer := start(t, data, "worker", "--queues", "render", "--drain", "4m")
	renderer.waitLine(t, "ace worker:", 3*time.Minute)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	t.Cleanup(cancel)
	conn, err := workers.Connect(ctx, workers.Config{Namespace: "default", DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	root := repoRoot(t)
	recipePath := filepath.Join(root, "testdata", "recipes", "rebrand.yaml")
	recipeData, _ := os.ReadFile(recipePath)
	batch, jobs, err := workers.PrepareJobs(ctx, conn.Store, batch, []string{filepath.Join(root, "testdata", "decks", "northwind-qbr.pptx")},
		workers.Edit{RecipePath: recipePath, RecipeData: recipeData})
	if err != nil {
		t.Fatal(err)
	}
	if err := workers.Submit(ctx, conn.JS, batch, jobs); err != nil {
		t.Fatal(err)
	}
	for {
		if ctx.Err() != nil {
			t.Fatal("the edit never reached the render step")
		}
		v, err := conn.Temporal.QueryWorkflow(ctx, jobs[0].Request.JobId, "", workflows.QueryProgress)
		var p workflows.Progress
		if err == nil && v.Get(&p) == nil && p.Phase == "render" {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	return ctx, conn, data, renderer, batch, jobs
}

// TestRenderWorkerKilledMidRender starts the stack with edit, llm and diff
// workers in one process and a render worker in another, starts an edit,
// kills the render worker with SIGKILL while Render runs, starts a new
// render worker, and checks the edit completes with the same final
// snapshot as an uninterrupted in-process run and exactly one result.
func TestRenderWorkerKilledMidRender(t *testing.T) {
	ctx, conn, data, renderer, batch, jobs := renderInFlight(t, "crash")
	id := jobs[0].Request.JobId
	renderer.kill()
	<-renderer.done
	start(t, data, "worker", "--queues", "render").waitLine(t, "ace worker:", 3*time.Minute)

	st, err := workers.Follow(ctx, conn.JS, batch, []string{jobs[0].Key}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := st.Decks[jobs[0].Key].Result
	if res == nil || res.Status != acev1.EditStatus_EDIT_STATUS_OK || len(res.FailedChecks) > 0 {
		t.Fatalf("result after the crash: %+v", res)
	}
	pool, err := render.NewPool(ctx, render.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	recipeRef := jobs[0].Request.RecipeRef
	rec, err := runner.Run(ctx, &runner.Steps{Store: conn.Store, Renderer: pool},
		editloop.Request{DeckRef: jobs[0].Request.DeckRef, RecipeRef: recipeRef, RecipePath: jobs[0].Request.RecipePath})
	if err != nil {
		t.Fatal(err)
	}
	if res.FinalSnapshot != rec.Final {
		t.Errorf("final snapshot after the crash %s, uninterrupted run %s", res.FinalSnapshot, rec.Final)
	}
	time.Sleep(2 * time.Second)
	if n := results(t, conn.JS, batch)[jobs[0].Key]; n != 1 {
		t.Errorf("%d results published", n)
	}
	hist := conn.Temporal.GetWorkflowHistory(ctx, id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	renderAttempts := 0
	for hist.HasNext() {
		ev, err := hist.Next()
		if err != nil {
			t.Fatal(err)
		}
		if a := ev.GetActivityTaskStartedEventAttributes(); a != nil && a.Attempt > 1 {
			renderAttempts++
		}
	}
	if renderAttempts == 0 {
		t.Error("no activity was retried: the kill did not interrupt the render")
	}
}

// TestRenderWorkerDrainsOnSIGTERM stops the only render worker with SIGTERM
// while Render runs: the worker stops polling but finishes the render
// before it exits, so the edit completes with no render worker left and
// the render ran exactly once.
func TestRenderWorkerDrainsOnSIGTERM(t *testing.T) {
	ctx, conn, data, renderer, batch, jobs := renderInFlight(t, "drain")
	id := jobs[0].Request.JobId
	if err := renderer.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	renderer.waitLine(t, "draining", time.Minute)
	select {
	case <-renderer.done:
	case <-time.After(5 * time.Minute):
		t.Fatal("the render worker did not exit within its 4 min drain")
	}
	// The edit may need the render queue again after the drained render
	// (the rebrand's contrast fix reads rendered pixels); a replacement
	// worker serves it. A render the drain abandoned would show below as
	// an activity attempt above 1.
	start(t, data, "worker", "--queues", "render").waitLine(t, "ace worker:", 3*time.Minute)
	fctx, fcancel := context.WithTimeout(ctx, 5*time.Minute)
	defer fcancel()
	st, err := workers.Follow(fctx, conn.JS, batch, []string{jobs[0].Key}, nil)
	if err != nil {
		t.Fatalf("the edit did not finish after the render worker drained: %v", err)
	}
	if res := st.Decks[jobs[0].Key].Result; res == nil || res.Status != acev1.EditStatus_EDIT_STATUS_OK {
		t.Fatalf("result %+v", res)
	}
	hist := conn.Temporal.GetWorkflowHistory(ctx, id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	scheduled := map[int64]string{}
	for hist.HasNext() {
		ev, err := hist.Next()
		if err != nil {
			t.Fatal(err)
		}
		if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil {
			scheduled[ev.GetEventId()] = a.GetActivityType().GetName()
		}
		if a := ev.GetActivityTaskStartedEventAttributes(); a != nil && a.Attempt > 1 {
			t.Errorf("activity %s needed attempt %d (last failure: %v): the drain abandoned it",
				scheduled[a.GetScheduledEventId()], a.Attempt, a.GetLastFailure())
		}
	}
}
