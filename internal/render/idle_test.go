package render

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestIdleBrowserStaysIdle: a warm pool waiting for work costs (next to)
// nothing. A render worker keeps its browsers for hours; a flag that made
// one of Chromium's helper processes die and restart in a loop (as
// --disable-crashpad-for-testing does to the network service of Chromium
// 156, about twice a second) burns a core per browser while idle and
// doubles the time of every render on a 2-core machine. Linux only: it
// reads the CPU time of this process's descendants from /proc.
func TestIdleBrowserStaysIdle(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	p := sharedPool(t)
	d, blobs := slide1080(t)
	if _, err := p.Render(context.Background(), d, blobs, Request{Images: true}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second) // the page settles
	before := descendants(t)
	const window = 3 * time.Second
	time.Sleep(window)
	after := descendants(t)
	var ticks int64
	var born []string
	for pid, a := range after {
		b, ok := before[pid]
		if !ok {
			born = append(born, a.comm)
		}
		ticks += a.ticks - b.ticks
	}
	cpu := time.Duration(ticks) * time.Second / 100 // USER_HZ
	t.Logf("browser processes: %d, CPU over %s idle: %s, started meanwhile: %v", len(after), window, cpu, born)
	// Measured idle: 40 ms and nothing started; with the network service
	// restarting, 840 ms and a process started (the dead ones' CPU time
	// is no longer counted, so both signals are checked).
	if cpu > 300*time.Millisecond || len(born) >= 2 {
		t.Errorf("an idle pool used %s of CPU in %s (want well under 0.3 s) and started %d processes meanwhile %v (a helper process restarting in a loop?)", cpu, window, len(born), born)
	}
}

type procCPU struct {
	comm  string
	ticks int64 // utime + stime, in USER_HZ ticks
}

// descendants is the CPU time of every live descendant of this process,
// by pid.
func descendants(t *testing.T) map[int]procCPU {
	t.Helper()
	parent := map[int]int{}
	stats := map[int]procCPU{}
	dirs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		pid, err := strconv.Atoi(filepath.Base(dir))
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, "stat"))
		if err != nil {
			continue // ended meanwhile
		}
		// pid (comm) state ppid ... utime(14) stime(15): comm may hold
		// spaces, so fields are counted after its closing parenthesis.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		comm := s[strings.IndexByte(s, '(')+1 : i]
		f := strings.Fields(s[i+1:])
		if len(f) < 13 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		ut, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		parent[pid] = ppid
		stats[pid] = procCPU{comm: comm, ticks: ut + st}
	}
	self := os.Getpid()
	out := map[int]procCPU{}
	for pid, s := range stats {
		for q, n := parent[pid], 0; q != 0 && n < 64; q, n = parent[q], n+1 {
			if q == self {
				out[pid] = s
				break
			}
		}
	}
	return out
}
