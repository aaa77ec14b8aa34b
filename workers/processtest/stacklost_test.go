package processtest

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/acecanvas/ace/internal/shareddecks"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
	"github.com/acecanvas/ace/workers"
)

// sharedDecks returns the paths of the named real decks (base names
// without .pptx).
func sharedDecks(t *testing.T, names ...string) []string {
	t.Helper()
	var out []string
	for _, n := range names {
		out = append(out, shareddecks.PPTXFile(t, n+".pptx"))
	}
	return out
}

// untilRunning waits for a progress line of p with a deck running
// ("batch: 0/3 done 0 failed 2 running 1 queued, ETA ?").
func untilRunning(t *testing.T, p *proc, timeout time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		l := p.waitLine(t, "batch: ", time.Until(deadline))
		if strings.Contains(l, " running") && !strings.Contains(l, " 0 running") {
			return l
		}
	}
}

// onceEach checks that every deck of the batch in out's summary has one
// result event and one completed workflow run, read from the stack of
// data (started by this test process: every ace process has exited).
func onceEach(t *testing.T, data, out string, decks int) workers.Summary {
	t.Helper()
	sum := readSummary(t, out)
	if sum.Decks != decks || sum.Done != decks || sum.Failed != 0 {
		t.Fatalf("summary: %d decks, %d done, %d failed: %+v", sum.Decks, sum.Done, sum.Failed, sum.Rows)
	}
	eachDeckOnce(t, data, sum)
	return sum
}

// eachDeckOnce checks that every deck of the batch has exactly one result
// event and one workflow run, completed.
func eachDeckOnce(t *testing.T, data string, sum workers.Summary) {
	t.Helper()
	conn, err := workers.Connect(context.Background(), workers.Config{Namespace: "default", DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	counts := results(t, conn.JS, sum.Batch)
	for _, r := range sum.Rows {
		if counts[r.Deck] != 1 {
			t.Errorf("deck %s: %d results", r.Deck, counts[r.Deck])
		}
		if st := runs(t, conn.Temporal, acev1.JobID(sum.Batch, r.Deck)); len(st) != 1 || st[0] != enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED {
			t.Errorf("deck %s: workflow runs %v", r.Deck, st)
		}
	}
}

var tookOver = regexp.MustCompile(`stack in ACE_DATA_DIR=.* stopped: its owner, ace pid (\d+), exited .*this process took the stack over`)

// The reported hang: `ace batch` attached to the stack `ace dev` owns
// (it starts no workers of its own) and `ace dev` is stopped with Ctrl-C
// mid-batch. The batch notices once dev's lock is released, starts the
// stack itself from the same data directory, runs the workers, and every
// deck finishes with one result and one workflow run.
func TestAttachedBatchTakesOverWhenAceDevStops(t *testing.T) {
	data, out := t.TempDir(), t.TempDir()
	dev := start(t, data, "dev")
	waitStack(t, data)
	args := append([]string{"batch", "--recipe", "testdata/recipes/legal-footer.yaml", "-o", out},
		sharedDecks(t, "default_template", "career-tips", "blockchain-pitch")...)
	b := start(t, data, args...)
	t.Logf("attached batch: %s", untilRunning(t, b, 5*time.Minute))

	stopped := time.Now()
	code, _ := interrupt(t, dev)
	devGone := time.Since(stopped)
	l := b.waitLine(t, "took the stack over", 30*time.Second)
	took := time.Since(stopped)
	t.Logf("ace dev exit %d after %v; the batch took over %v after the SIGINT: %s", code, devGone.Round(time.Millisecond), took.Round(time.Millisecond), l)
	if m := tookOver.FindStringSubmatch(l); m == nil || m[1] != strconv.Itoa(dev.cmd.Process.Pid) {
		t.Errorf("the takeover line does not name ace dev's pid %d: %s", dev.cmd.Process.Pid, l)
	}
	if took-devGone > 10*time.Second {
		t.Errorf("the batch took over %v after ace dev exited", took-devGone)
	}
	if code := exitOf(t, b, 5*time.Minute); code != 0 {
		t.Fatalf("the attached batch: exit %d", code)
	}
	t.Logf("the batch finished %v after the SIGINT", time.Since(stopped).Round(time.Second))
	onceEach(t, data, out, 3)
}

// The same with a first `ace batch` as the owner: a second batch on the
// same ACE_DATA_DIR attaches to it, the first is interrupted (exit 130)
// while the second's decks run, the second takes the stack over and
// finishes, and the first's same command then resumes and finishes too;
// every deck of both batches ran once.
func TestSecondBatchTakesOverWhenTheOwningBatchIsInterrupted(t *testing.T) {
	data, out1, out2 := t.TempDir(), t.TempDir(), t.TempDir()
	args1 := []string{"batch", "--recipe", "testdata/recipes/rebrand.yaml", "-o", out1,
		"testdata/decks/northwind-qbr.pptx", "testdata/decks/northwind-strategy.pptx"}
	first := start(t, data, args1...)
	waitStack(t, data)
	first.waitLine(t, "ace batch status", 3*time.Minute)
	args2 := append([]string{"batch", "--recipe", "testdata/recipes/legal-footer.yaml", "-o", out2},
		sharedDecks(t, "default_template", "career-tips", "blockchain-pitch")...)
	second := start(t, data, args2...)
	t.Logf("second batch: %s", untilRunning(t, second, 5*time.Minute))

	stopped := time.Now()
	code, lines := interrupt(t, first)
	if code != 130 {
		t.Fatalf("the owning batch: exit %d, want 130; stderr:\n%s", code, strings.Join(lines, "\n"))
	}
	l := second.waitLine(t, "took the stack over", 30*time.Second)
	t.Logf("took over %v after the SIGINT: %s", time.Since(stopped).Round(time.Millisecond), l)
	if code := exitOf(t, second, 5*time.Minute); code != 0 {
		t.Fatalf("the second batch: exit %d", code)
	}
	onceEach(t, data, out2, 3)

	again := start(t, data, args1...)
	if code := exitOf(t, again, 5*time.Minute); code != 0 && code != 3 {
		t.Fatalf("the first batch's same command: exit %d", code)
	}
	onceEach(t, data, out1, 2)
}

// With --no-workers the batch may not run the decks itself: when the
// `ace dev` it relied on stops, it exits 4 within seconds with one line
// naming dev's pid and saying the same command resumes; it does (without
// --no-workers), each deck edited once.
func TestNoWorkersBatchExits4WhenItsStackStops(t *testing.T) {
	data, out := t.TempDir(), t.TempDir()
	dev := start(t, data, "dev")
	waitStack(t, data)
	decks := sharedDecks(t, "default_template", "career-tips", "blockchain-pitch")
	args := append([]string{"batch", "--recipe", "testdata/recipes/legal-footer.yaml", "-o", out}, decks...)
	b := start(t, data, append(append([]string{}, args...), "--no-workers")...)
	untilRunning(t, b, 5*time.Minute)

	if code, _ := interrupt(t, dev); code != 0 {
		t.Logf("ace dev: exit %d", code)
	}
	exited := time.Now()
	code := exitOf(t, b, 30*time.Second)
	var lines []string
	for len(b.stderr.lines) > 0 {
		lines = append(lines, <-b.stderr.lines)
	}
	msg := lineWith(lines, "could not carry on")
	t.Logf("exit %d %v after ace dev: %s", code, time.Since(exited).Round(time.Millisecond), msg)
	if code != 4 || !strings.Contains(msg, "ace pid "+strconv.Itoa(dev.cmd.Process.Pid)+", exited") ||
		!strings.Contains(msg, "run the same command again to resume") {
		t.Fatalf("exit %d, want 4 with one line naming ace dev's pid and how to resume; stderr:\n%s", code, strings.Join(lines, "\n"))
	}
	again := start(t, data, args...)
	if code := exitOf(t, again, 5*time.Minute); code != 0 {
		t.Fatalf("the same command without --no-workers: exit %d", code)
	}
	onceEach(t, data, out, 3)
}
