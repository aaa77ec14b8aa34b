package processtest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/acecanvas/ace/internal/mcpserver"
	"github.com/acecanvas/ace/internal/mcpserver/mcptest"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/shareddecks"
)

// strayProbe marks one ace command: every process it starts inherits
// ACE_STRAY_PROBE=<marker> in its environment (Chromium passes its
// environment to every helper), so /proc finds them whatever their
// parent, process group or session.
type strayProbe struct {
	marker string
	mu     sync.Mutex
	peak   int            // most marked processes besides ace seen at once while it ran
	kinds  map[int]string // what each marked process seen was (procKind)
	ace    int            // ace's pid, not counted
	stop   chan struct{}
	done   chan struct{}
}

func newStrayProbe(t *testing.T) *strayProbe {
	t.Helper()
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return &strayProbe{marker: "ACE_STRAY_PROBE=" + hex.EncodeToString(b)}
}

func (s *strayProbe) env() []string { return []string{s.marker} }

// markedProc is a process carrying the probe's marker.
type markedProc struct {
	pid, ppid int
	state     string // /proc/PID/stat's state: R, S, D, Z, ...
	cmdline   string
}

func (m markedProc) String() string {
	return fmt.Sprintf("pid %d (parent %d, state %s): %s", m.pid, m.ppid, m.state, m.cmdline)
}

// marked lists the live (not zombie) processes whose environment holds
// the marker, ace's own pid excluded. A zombie has no environment to read
// (and has ended); a process of another user is unreadable and cannot be
// ours.
func (s *strayProbe) marked() []markedProc {
	ents, _ := os.ReadDir("/proc")
	self := os.Getpid()
	var out []markedProc
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self || pid == s.ace {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !bytes.Contains(env, []byte("\x00"+s.marker+"\x00")) && !bytes.HasPrefix(env, []byte(s.marker+"\x00")) {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// "pid (comm) S ppid ...": comm may hold spaces and parentheses.
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(f) < 2 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		cmd, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		line := strings.TrimSpace(string(bytes.ReplaceAll(cmd, []byte{0}, []byte{' '})))
		if len(line) > 160 {
			line = line[:160] + "..."
		}
		out = append(out, markedProc{pid: pid, ppid: ppid, state: f[0], cmdline: line})
	}
	return out
}

// watch samples the marked processes every 100 ms while ace (pid) runs,
// keeping the peak, until stopWatch.
func (s *strayProbe) watch(pid int) {
	s.ace = pid
	s.kinds = map[int]string{}
	s.stop, s.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(s.done)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			ps := s.marked()
			s.mu.Lock()
			s.peak = max(s.peak, len(ps))
			for _, p := range ps {
				s.kinds[p.pid] = procKind(p.cmdline)
			}
			s.mu.Unlock()
			select {
			case <-s.stop:
				return
			case <-tick.C:
			}
		}
	}()
}

func (s *strayProbe) stopWatch() {
	if s.stop != nil {
		close(s.stop)
		<-s.done
		s.stop = nil
	}
}

// waitBrowsers waits (up to timeout) until ace runs at least one marked
// process: Chromium started.
func (s *strayProbe) waitBrowsers(t *testing.T, timeout time.Duration) {
	t.Helper()
	for end := time.Now().Add(timeout); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		s.mu.Lock()
		n := s.peak
		s.mu.Unlock()
		if n > 0 {
			return
		}
	}
	t.Fatalf("no Chromium process carried %s within %v", s.marker, timeout)
}

// check runs after ace exited: every marked process must end within
// strayGrace (a process killed a moment ago may still be on its way out).
// It fails naming each survivor, and, when wantBrowsers, when no marked
// process was seen while ace ran (the command did not start Chromium, or
// the probe does not see it: the check would prove nothing).
func (s *strayProbe) check(t *testing.T, what string, wantBrowsers bool) {
	t.Helper()
	s.stopWatch()
	var left []markedProc
	for end := time.Now().Add(strayGrace); ; time.Sleep(50 * time.Millisecond) {
		if left = s.marked(); len(left) == 0 || time.Now().After(end) {
			break
		}
	}
	t.Logf("%s: %d processes besides ace at the peak while it ran, %d left after it exited", what, s.peak, len(left))
	if wantBrowsers && s.peak == 0 {
		t.Errorf("%s: no Chromium process seen while ace ran: the check proves nothing", what)
	}
	for _, p := range left {
		t.Errorf("%s: still running %v after ace exited: %v", what, strayGrace, p)
	}
	for _, p := range left {
		_ = syscall.Kill(p.pid, syscall.SIGKILL) // leave nothing to the next test
	}
	if n, names := reapAdopted(s.ace, s.kinds); n > 0 {
		t.Logf("%s: %d ended processes were orphaned (reparented to this test, their subreaper, and reaped here): %s", what, n, names)
	}
}

// procKind names a process by its program and Chromium's --type=.
func procKind(cmdline string) string {
	f := strings.Fields(cmdline)
	if len(f) == 0 {
		return "?"
	}
	kind := filepath.Base(f[0])
	for _, a := range f[1:] {
		if t, ok := strings.CutPrefix(a, "--type="); ok {
			kind += " --type=" + t
		}
	}
	return kind
}

// prSetChildSubreaper is PR_SET_CHILD_SUBREAPER of linux/prctl.h.
const prSetChildSubreaper = 36

// becomeSubreaper makes this test process the reaper of its orphaned
// descendants until the test ends: a helper whose parent ended before it
// is reparented here, not to PID 1, and reapAdopted counts it. Where ace
// runs as PID 1 (a container without an init) nothing would reap those.
func becomeSubreaper(t *testing.T) {
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); e != 0 {
		t.Logf("PR_SET_CHILD_SUBREAPER: %v: orphaned processes go to PID 1 and are not counted", e)
		return
	}
	t.Cleanup(func() {
		syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 0, 0)
		reapAdopted(0, nil)
	})
}

// reapAdopted reaps the ended processes reparented to this test (its
// children that are zombies, ace's own pid aside) and returns how many,
// with what they were (kinds, from the probe's samples, else the
// kernel's name of the process).
func reapAdopted(ace int, kinds map[int]string) (int, string) {
	ents, _ := os.ReadDir("/proc")
	self := os.Getpid()
	n, names := 0, map[string]int{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == ace {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		i, j := bytes.IndexByte(stat, '('), bytes.LastIndexByte(stat, ')')
		f := strings.Fields(string(stat[j+1:]))
		if i < 0 || len(f) < 2 || f[0] != "Z" || f[1] != strconv.Itoa(self) {
			continue
		}
		var ws syscall.WaitStatus
		if got, _ := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil); got == pid {
			n++
			kind := kinds[pid]
			if kind == "" {
				kind = string(stat[i+1 : j])
			}
			names[kind]++
		}
	}
	var parts []string
	for name, k := range names {
		parts = append(parts, fmt.Sprintf("%d %s", k, name))
	}
	sort.Strings(parts)
	return n, strings.Join(parts, ", ")
}

// strayGrace is how long processes ace started may take to end once it
// exited: the kernel's SIGKILL of the browser (Pdeathsig) and its helpers
// noticing their parent's end take milliseconds.
const strayGrace = 3 * time.Second

// runProbed runs ace with the probe's marker to its end (within
// timeout) and returns its exit code.
func runProbed(t *testing.T, s *strayProbe, data string, timeout time.Duration, args ...string) int {
	t.Helper()
	p := startWith(t, data, s.env(), args...)
	s.watch(p.cmd.Process.Pid)
	return exitOf(t, p, timeout)
}

// TestNoStrayChromium runs every ace command that starts Chromium, to its
// end and stopped by SIGINT or SIGTERM, and checks that no process it
// started outlives it (issue 22): each command's processes are found by a
// marker in their environment, wherever they were reparented.
//
// Commands not run here: ace bench and ace skills evolve need a model
// endpoint; they hold their pool as ace edit does (render.NewPool, then
// deferred Close, onInterrupt). ace dev starts the same workers as ace
// worker (startLocalWorkers).
func TestNoStrayChromium(t *testing.T) {
	if _, err := render.FindChromium(""); err != nil {
		msg := "no Chromium to check for stray processes: " + err.Error()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	small := shareddecks.PPTXFile(t, "table-report.pptx")
	large := shareddecks.PPTXFile(t, "career-tips.pptx") // 37 slides: seconds to render
	recipe := "testdata/recipes/rebrand.yaml"
	becomeSubreaper(t)

	// The probe itself: a process carrying the marker that outlives its
	// parent, in its own session as Chromium's crash handler runs, is
	// found and named.
	t.Run("probe finds a survivor", func(t *testing.T) {
		s := newStrayProbe(t)
		sleep := exec.Command("sleep", "60")
		sleep.Env = append(os.Environ(), s.marker)
		sleep.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := sleep.Start(); err != nil {
			t.Fatal(err)
		}
		defer sleep.Wait()
		defer sleep.Process.Kill()
		found := s.marked()
		if len(found) != 1 || found[0].pid != sleep.Process.Pid || !strings.HasPrefix(found[0].cmdline, "sleep 60") {
			t.Fatalf("the probe found %v, want the one sleep (pid %d)", found, sleep.Process.Pid)
		}
	})

	t.Run("render", func(t *testing.T) {
		s := newStrayProbe(t)
		if code := runProbed(t, s, t.TempDir(), 2*time.Minute, "render", small, "-o", t.TempDir()); code != 0 {
			t.Fatalf("ace render: exit %d", code)
		}
		s.check(t, "ace render", true)
	})

	t.Run("edit", func(t *testing.T) {
		s := newStrayProbe(t)
		out := filepath.Join(t.TempDir(), "edited.pptx")
		if code := runProbed(t, s, t.TempDir(), 2*time.Minute, "edit", small, "--recipe", recipe, "-o", out); code != 0 && code != 3 {
			t.Fatalf("ace edit: exit %d", code)
		}
		s.check(t, "ace edit", true)
	})

	// The embedded stack runs the workers (their pool) in the batch's
	// process; ace report then reads that stack's batch.
	t.Run("batch and report", func(t *testing.T) {
		s := newStrayProbe(t)
		data, out := t.TempDir(), t.TempDir()
		p := startWith(t, data, s.env(), "batch", "--recipe", recipe, "-o", out, small)
		s.watch(p.cmd.Process.Pid)
		if code := exitOf(t, p, 3*time.Minute); code != 0 && code != 3 {
			t.Fatalf("ace batch: exit %d", code)
		}
		s.check(t, "ace batch", true)

		// The report reads the pictures the render steps kept: it may
		// start no browser at all, and then only ace is checked.
		r := newStrayProbe(t)
		if code := runProbed(t, r, data, 2*time.Minute, "report", readSummary(t, out).Batch, "-o", t.TempDir()); code != 0 {
			t.Fatalf("ace report: exit %d", code)
		}
		r.check(t, "ace report", false)
	})

	t.Run("mcp render_slide", func(t *testing.T) {
		s := newStrayProbe(t)
		w := mcptest.NewWorkspace(t, small)
		cmd := exec.Command(ace(t), "mcp", "--root", w.Root)
		cmd.Env = append(os.Environ(), "ACE_DATA_DIR="+t.TempDir(), s.marker)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "ace-processtest", Version: "1"}, nil).
			Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		s.watch(cmd.Process.Pid)
		mcptest.MustCall(t, ctx, cs, mcpserver.ToolOpenDeck, map[string]any{"path": w.Deck})
		mcptest.MustCall(t, ctx, cs, mcpserver.ToolRenderSlide, map[string]any{"slide": "1", "scale": 0.5})
		// The client goes away as a desktop agent does: stdin closes.
		if err := cs.Close(); err != nil {
			t.Logf("closing the session: %v", err)
		}
		if cmd.ProcessState == nil {
			t.Fatal("ace mcp still runs after the session closed")
		}
		s.check(t, "ace mcp", true)
	})

	// A signal to ace's pid only, as kill(1), systemd's main-process
	// stop or docker stop send it (Ctrl-C in a terminal reaches the
	// browsers too, an easier case): whatever ace does with it, its
	// browsers must end with it.
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run("render "+sigName(sig), func(t *testing.T) {
			s := newStrayProbe(t)
			p := startWith(t, t.TempDir(), s.env(), "render", large, "-o", t.TempDir())
			s.watch(p.cmd.Process.Pid)
			p.waitLine(t, "render: slides ", 2*time.Minute)
			s.waitBrowsers(t, 30*time.Second)
			if err := p.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			code := exitCode(t, p, time.Minute)
			var lines []string
			for len(p.stderr.lines) > 0 {
				lines = append(lines, <-p.stderr.lines)
			}
			msg := lineWith(lines, "interrupted (")
			t.Logf("ace render stopped by %s: exit %d: %s", sigName(sig), code, msg)
			if code == 0 {
				t.Fatalf("ace render finished before the %s (exit 0): the deck renders too fast to interrupt", sigName(sig))
			}
			// ace caught the signal and closed its browsers itself.
			if code != 128+int(sig) || !strings.HasPrefix(msg, "ace: render of "+large+" interrupted") {
				t.Errorf("exit %d, want %d and one line saying the render was interrupted; stderr:\n%s", code, 128+int(sig), strings.Join(lines, "\n"))
			}
			s.check(t, "ace render stopped by "+sigName(sig), true)
		})
	}

	// A render worker's pool starts with the worker; SIGTERM drains it.
	t.Run("worker SIGTERM", func(t *testing.T) {
		s := newStrayProbe(t)
		p := startWith(t, t.TempDir(), s.env(), "worker", "--queues", "render", "--drain", "5s")
		s.watch(p.cmd.Process.Pid)
		p.waitLine(t, "ace worker:", 2*time.Minute)
		s.waitBrowsers(t, 30*time.Second)
		if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		code := exitCode(t, p, time.Minute)
		t.Logf("ace worker stopped by SIGTERM: exit %d", code)
		s.check(t, "ace worker stopped by SIGTERM", true)
	})
}

func sigName(sig syscall.Signal) string {
	if sig == syscall.SIGINT {
		return "SIGINT"
	}
	return "SIGTERM"
}

// exitCode waits for p and returns its exit code, 128+N when a signal N
// ended it (the shell's convention).
func exitCode(t *testing.T, p *proc, timeout time.Duration) int {
	t.Helper()
	select {
	case err := <-p.done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				return 128 + int(ws.Signal())
			}
			return ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(timeout):
		t.Fatalf("ace did not stop within %v", timeout)
	}
	return -1
}
