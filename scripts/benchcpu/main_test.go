//go:build linux

package main

import (
	"math"
	"runtime"
	"testing"
	"time"
)

// A /proc/stat as the 2-core project machine writes it (proc(5)).
const procStat = `cpu  43510 120 9071 512306 1877 0 310 45 0 0
cpu0 21829 60 4585 256011 940 0 201 22 0 0
cpu1 21681 60 4486 256295 937 0 109 23 0 0
intr 1 2 3
ctxt 123456
`

func TestParseBusySumsTheBusyFieldsOfTheCPULine(t *testing.T) {
	got, err := parseBusy(procStat)
	if err != nil {
		t.Fatal(err)
	}
	// user+nice+system+irq+softirq+steal; idle 512306 and iowait 1877 left out.
	if want := int64(43510 + 120 + 9071 + 0 + 310 + 45); got != want {
		t.Errorf("parseBusy = %d, want %d", got, want)
	}
	if _, err := parseBusy("cpu0 1 2 3 4 5 6 7 8\n"); err == nil {
		t.Error("parseBusy of a /proc/stat without the aggregate cpu line: no error")
	}
}

func TestParsePidStatReadsANameWithSpacesAndParentheses(t *testing.T) {
	line := "4242 (Web Content (x)) S 17 4242 4242 0 -1 4194560 100 0 0 0 321 45 0 0 20 0 12 0 5000 0 0\n"
	comm, ppid, ticks, ok := parsePidStat(line)
	if !ok || comm != "Web Content (x)" || ppid != 17 || ticks != 366 {
		t.Errorf("parsePidStat = %q, %d, %d, %v; want \"Web Content (x)\", 17, 366, true", comm, ppid, ticks, ok)
	}
}

func TestFiguresOfClampsOthersAtZero(t *testing.T) {
	f := figuresOf(0.3, 99.5, 100, 50)
	if f.otherCPU != 0 || math.Abs(f.ownCPU-2) > 1e-9 || f.load1Start != 0.3 {
		t.Errorf("figuresOf(0.3, 99.5, 100, 50) = %+v, want others 0, own 2 cores", f)
	}
	f = figuresOf(1, 160, 100, 50)
	if math.Abs(f.otherCPU-1.2) > 1e-9 {
		t.Errorf("others over 50 s with 160 busy and 100 own CPU seconds = %.3f cores, want 1.2", f.otherCPU)
	}
}

// A CPU-bound process whose parent exits at once is reparented: without
// the subreaper its CPU would be init's and counted as others'. Chromium's
// zygotes are such processes.
func TestMeasureCountsOrphanedDescendantsAsTheRunsOwn(t *testing.T) {
	start := time.Now()
	_, own, wall, code, err := measure(100, 10*time.Second,
		[]string{"sh", "-c", `(timeout 1 sh -c 'while :; do :; done' &); exit 3`})
	if err != nil {
		t.Fatal(err)
	}
	if code != 3 {
		t.Errorf("exit code %d, want the command's 3", code)
	}
	// The orphan runs for 1 s: measure must have waited for it, and its
	// CPU (a whole core on a free machine, less when others load it) is
	// the run's.
	if wall < 0.9 || time.Since(start) < 900*time.Millisecond {
		t.Errorf("measure returned after %.2f s: it did not wait for the orphaned loop", wall)
	}
	if own < 0.25 {
		t.Errorf("the run's CPU %.2f s, want the orphaned loop's (about 1 s on a free core)", own)
	}
}

// busyOver sees a core kept busy while it samples (this test's own
// goroutine spinning): at least 0.7 cores of the machine's, at most all.
func TestBusyOverSeesABusyCore(t *testing.T) {
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
		}
	}()
	busy, err := busyOver(100, time.Second)
	close(stop)
	if err != nil {
		t.Fatal(err)
	}
	if busy < 0.7 || busy > float64(runtime.NumCPU())+0.1 {
		t.Errorf("busyOver with a spinning goroutine = %.2f cores, want 0.7 to %d", busy, runtime.NumCPU())
	}
}
