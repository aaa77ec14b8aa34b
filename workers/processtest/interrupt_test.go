package processtest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/shareddecks"
)

// interrupt sends SIGINT to p's process group, as Ctrl-C in a terminal
// does (Chromium included), and returns its exit code and stderr lines
// up to the exit.
func interrupt(t *testing.T, p *proc) (int, []string) {
	t.Helper()
	if err := syscall.Kill(-p.cmd.Process.Pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	var err error
	select {
	case err = <-p.done:
	case <-time.After(3 * time.Minute):
		t.Fatal("ace did not stop within 3 minutes of SIGINT")
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for {
		select {
		case l := <-p.stderr.lines:
			lines = append(lines, l)
		default:
			return code, lines
		}
	}
}

// exitOf waits for p and returns its exit code.
func exitOf(t *testing.T, p *proc, timeout time.Duration) int {
	t.Helper()
	select {
	case err := <-p.done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(timeout):
		t.Fatalf("ace did not finish in %v", timeout)
	}
	return -1
}

func lineWith(lines []string, s string) string {
	for _, l := range lines {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

// Ctrl-C during `ace batch` (the embedded default) once decks are running
// exits 130 with one line naming the batch and saying the same command
// resumes it; the same command then finishes every deck, each edited once
// (one workflow run and one result per deck).
func TestBatchInterruptedExits130AndTheSameCommandResumes(t *testing.T) {
	decks := shareddecks.PPTX(t)
	data, out := t.TempDir(), t.TempDir()
	args := append([]string{"batch", "--recipe", "testdata/recipes/rebrand.yaml", "-o", out}, decks...)
	first := start(t, data, args...)
	for {
		// "batch: 0/6 done 0 failed 1 running 5 queued, ETA ?"
		if l := first.waitLine(t, "batch: ", 5*time.Minute); !strings.Contains(l, " 0 running") {
			break
		}
	}
	code, lines := interrupt(t, first)
	msg := lineWith(lines, "interrupted (SIGINT, Ctrl-C)")
	t.Logf("exit %d: %s", code, msg)
	if code != 130 || !strings.HasPrefix(msg, "ace: batch b") || !strings.Contains(msg, "run the same command again to resume") {
		t.Fatalf("exit %d, want 130 with one line naming the batch and how to resume; stderr:\n%s", code, strings.Join(lines, "\n"))
	}

	second := start(t, data, args...)
	if code := exitOf(t, second, 10*time.Minute); code != 0 && code != 3 {
		t.Fatalf("the same command: exit %d", code)
	}
	sum := readSummary(t, out)
	if sum.Decks != len(decks) || sum.Done != len(decks) || !strings.Contains(msg, "batch "+sum.Batch+" interrupted") {
		t.Fatalf("summary after the rerun: %+v (the interrupted batch: %s)", sum, msg)
	}
	eachDeckOnce(t, data, sum)
}

// Ctrl-C during `ace edit` exits 130 with one line saying nothing was
// written and that the same command redoes the edit; it does.
func TestEditInterruptedExits130AndWritesNothing(t *testing.T) {
	deck := shareddecks.PPTXFile(t, "career-tips.pptx")
	out := filepath.Join(t.TempDir(), "edited.pptx")
	args := []string{"edit", deck, "--recipe", "testdata/recipes/rebrand.yaml", "-o", out}
	p := start(t, t.TempDir(), args...)
	p.waitLine(t, "ace edit: ", 3*time.Minute)
	code, lines := interrupt(t, p)
	msg := lineWith(lines, "interrupted (SIGINT, Ctrl-C)")
	t.Logf("exit %d: %s", code, msg)
	if code != 130 || msg != "ace: edit of "+deck+" interrupted (SIGINT, Ctrl-C): nothing written (the original stands); run the same command again to redo the edit" {
		t.Fatalf("exit %d, want 130 and one line; stderr:\n%s", code, strings.Join(lines, "\n"))
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("an interrupted edit wrote its output")
	}
	again := start(t, t.TempDir(), args...)
	if code := exitOf(t, again, 5*time.Minute); code != 0 && code != 3 {
		t.Fatalf("the same command: exit %d", code)
	}
	if st, err := os.Stat(out); err != nil || st.Size() == 0 {
		t.Fatalf("the rerun wrote no deck: %v", err)
	}
}
