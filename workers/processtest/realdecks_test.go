package processtest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/workers"
)

// run starts ace with exactly env added to the environment (addresses
// unset unless env sets them), feeding stdout and stderr lines to the
// proc's line channel.
func run(t *testing.T, env []string, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(ace(t), args...)
	cmd.Dir = repoRoot(t)
	cmd.Env = append(os.Environ(), "ACE_TEMPORAL_ADDRESS=", "ACE_NATS_URL=", "ACE_REDIS_URL=",
		"OPENAI_BASE_URL=", "OPENAI_API_KEY=", "ACE_AGENT_MODEL=")
	cmd.Env = append(cmd.Env, env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{cmd: cmd, stderr: &lineBuf{lines: make(chan string, 4096)}, done: make(chan error, 1)}
	pump := func(r interface{ Read([]byte) (int, error) }, done chan<- struct{}) {
		sc := bufio.NewScanner(r)
		sc.Split(scanCRLF)
		for sc.Scan() {
			select {
			case p.stderr.lines <- sc.Text():
			default:
			}
		}
		done <- struct{}{}
	}
	d1, d2 := make(chan struct{}), make(chan struct{})
	go pump(stdout, d1)
	go pump(stderr, d2)
	go func() { <-d1; <-d2; p.done <- cmd.Wait() }()
	t.Cleanup(func() { p.kill() })
	return p
}

// readSummary reads the summary.json ace batch wrote into out.
func readSummary(t *testing.T, out string) workers.Summary {
	t.Helper()
	var sum workers.Summary
	raw, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &sum); err != nil {
		t.Fatal(err)
	}
	return sum
}

// finished waits for a batch to exit and checks its summary and report:
// every deck done, one output and one report page each.
func finished(t *testing.T, p *proc, out string, decks int) {
	t.Helper()
	select {
	case err := <-p.done:
		if err != nil {
			t.Fatalf("ace batch: %v", err)
		}
	case <-time.After(15 * time.Minute):
		t.Fatal("ace batch did not finish in 15 minutes")
	}
	sum := readSummary(t, out)
	if sum.Decks != decks || sum.Done != decks || sum.Failed != 0 {
		t.Fatalf("summary: %d decks, %d done, %d failed: %+v", sum.Decks, sum.Done, sum.Failed, sum.Rows)
	}
	for _, r := range sum.Rows {
		if r.Status != "ok" {
			t.Errorf("deck %s: %s %s (%s)", r.Deck, r.Status, r.Outcome, r.Reason)
		}
		if st, err := os.Stat(r.Output); err != nil || st.Size() == 0 {
			t.Errorf("deck %s: no edited file (%v)", r.Deck, err)
		}
	}
	index, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatalf("no report: %v", err)
	}
	pages, _ := filepath.Glob(filepath.Join(out, "reports", "*.html"))
	if len(pages) != decks {
		t.Errorf("%d report pages for %d decks", len(pages), decks)
	}
	for _, r := range sum.Rows {
		if !strings.Contains(string(index), r.Deck) {
			t.Errorf("report index does not list %s", r.Deck)
		}
	}
}

// TestBatchOverTheRealDecks runs `ace batch` with the rebrand recipe over
// the six real decks twice, as a user would (ACE #8 acceptance): on the
// embedded default (no servers), and in the cluster shape: the machine's
// NATS JetStream and Redis, a Temporal development server in a separate
// process (`ace dev` with ACE_NATS_URL set embeds only Temporal and runs
// every worker and the dispatcher), and `ace batch --no-workers` reaching
// them by address. Both complete every deck with an edited file and a
// report page.
func TestBatchOverTheRealDecks(t *testing.T) {
	decks := shareddecks.PPTX(t)
	args := func(out, batch string) []string {
		a := []string{"batch", "--recipe", "testdata/recipes/rebrand.yaml", "-o", out, "--batch", batch}
		return append(a, decks...)
	}
	stamp := time.Now().Format("150405")

	t.Run("embedded", func(t *testing.T) {
		out := t.TempDir()
		p := run(t, []string{"ACE_DATA_DIR=" + t.TempDir()}, args(out, "real-emb-"+stamp)...)
		finished(t, p, out, len(decks))
	})

	t.Run("dev server and local services", func(t *testing.T) {
		for _, addr := range []string{"127.0.0.1:4222", "127.0.0.1:6379"} {
			c, err := net.DialTimeout("tcp", addr, time.Second)
			if err != nil {
				t.Fatalf("no local service at %s (scripts/setup starts NATS and Redis)", addr)
			}
			c.Close()
		}
		local := []string{"ACE_NATS_URL=nats://127.0.0.1:4222", "ACE_REDIS_URL=redis://127.0.0.1:6379/0"}
		dev := run(t, append([]string{"ACE_DATA_DIR=" + t.TempDir()}, local...), "dev")
		line := dev.waitLine(t, "ACE_TEMPORAL_ADDRESS=", 3*time.Minute)
		temporal := strings.TrimPrefix(strings.TrimSpace(line), "ACE_TEMPORAL_ADDRESS=")
		if temporal == "" {
			t.Fatalf("ace dev printed %q", line)
		}
		out := t.TempDir()
		env := append([]string{"ACE_DATA_DIR=" + t.TempDir(), "ACE_TEMPORAL_ADDRESS=" + temporal}, local...)
		// A fresh batch id: the local NATS keeps earlier runs' events.
		p := run(t, env, append(args(out, fmt.Sprintf("real-dev-%s-%d", stamp, os.Getpid())), "--no-workers")...)
		finished(t, p, out, len(decks))
		if err := syscall.Kill(-dev.cmd.Process.Pid, syscall.SIGTERM); err == nil {
			select {
			case <-dev.done:
			case <-time.After(time.Minute):
				t.Error("ace dev did not stop within a minute of SIGTERM")
			}
		}
	})
}
