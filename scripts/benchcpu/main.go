//go:build linux

// Command benchcpu runs a command (make bench runs `go test -bench` under
// it; scripts/bench) and measures how much CPU the rest of the machine
// used meanwhile, so a benchmark run can be judged by the load others put
// on the machine and not by the load it causes itself.
//
// Others' CPU is the machine's busy CPU time over the run (the "cpu" line
// of /proc/stat: user, nice, system, irq, softirq and steal, in USER_HZ
// ticks; proc(5)) less the CPU time of the command's own process tree.
// The tree's time is the rusage of every descendant reaped (getrusage(2)
// RUSAGE_CHILDREN) plus benchcpu's own: benchcpu makes itself the child
// subreaper of the tree (prctl(2) PR_SET_CHILD_SUBREAPER) so that
// processes whose parent exits first are reparented to it and their time
// still counts. Chromium needs this: it double-forks its zygotes, whose
// renderers would otherwise be reaped by init and their CPU (about a third
// of a render benchmark's) counted as others'. Descendants still running
// -grace after the command ends are named on stderr, their CPU so far
// (/proc/PID/stat) counted as the tree's, and left running. Servers
// outside the tree that benchmarks talk to (the machine's shared Redis and
// NATS) count as others'.
//
// Before the command starts it samples the machine's busy CPU for -settle
// (5 s): what was running when the run began, as busy cores now, where
// the 1-minute load average still holds a minute-old history (after a
// heavy run it stays above 1 on 2 cores for about two minutes).
//
// It writes four header lines for current.txt (read by
// scripts/benchratio) to -o:
//
//	# busy-start: 0.04    the machine's average busy cores over -settle before the command
//	# load1-start: 0.31   1-minute load average before the command started (/proc/loadavg)
//	# other-cpu: 0.05     others' busy CPU over the run / wall seconds: average busy cores, >= 0
//	# own-cpu: 1.62       the command's tree's CPU / wall seconds: average busy cores
//
// and exits with the command's exit status.
//
// Usage: benchcpu -o FILE [-hz 100] [-grace 10s] [-settle 5s] -- command [args...]
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// prSetChildSubreaper is PR_SET_CHILD_SUBREAPER of prctl(2) (Linux >= 3.4).
const prSetChildSubreaper = 36

func main() {
	out := flag.String("o", "", "write the load1-start, other-cpu and own-cpu header lines to this file")
	hz := flag.Int("hz", 100, "USER_HZ, the ticks per second of /proc/stat and /proc/PID/stat (getconf CLK_TCK)")
	grace := flag.Duration("grace", 10*time.Second, "how long to reap descendants still running after the command ends")
	settle := flag.Duration("settle", 5*time.Second, "how long to sample the machine's busy CPU before the command starts (busy-start)")
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: benchcpu -o FILE [-hz 100] [-grace 10s] [-settle 5s] -- command [args...]")
		os.Exit(2)
	}
	code, err := run(*out, *hz, *grace, *settle, flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchcpu:", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

// run runs args as described in the package comment and returns its exit
// code.
func run(out string, hz int, grace, settle time.Duration, args []string) (int, error) {
	busyStart, err := busyOver(hz, settle)
	if err != nil {
		return 1, err
	}
	f, own, wall, code, err := measure(hz, grace, args)
	f.busyStart = busyStart
	if err != nil {
		return code, err
	}
	if err := os.WriteFile(out, []byte(f.header()), 0o644); err != nil {
		return code, fmt.Errorf("-o %s: %w", out, err)
	}
	fmt.Fprintf(os.Stderr, "benchcpu: %.1f s; %.2f cores busy in the %s before it (1-minute load average %.2f); CPU of other processes %.2f cores on average, of this run %.2f cores (%.1f s)\n",
		wall, f.busyStart, settle, f.load1Start, f.otherCPU, f.ownCPU, own)
	return code, nil
}

// measure runs args under this process as subreaper and returns the
// figures, the CPU seconds of the command's tree, the wall seconds and
// the command's exit code.
func measure(hz int, grace time.Duration, args []string) (f figures, own, wall float64, code int, err error) {
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); e != 0 {
		return f, 0, 0, 1, fmt.Errorf("prctl(PR_SET_CHILD_SUBREAPER): %v: the command's orphaned descendants could not be counted", e)
	}
	load, err := load1()
	if err != nil {
		return f, 0, 0, 1, err
	}
	busy0, err := busyTicks()
	if err != nil {
		return f, 0, 0, 1, err
	}
	cpu0 := rusageSeconds(syscall.RUSAGE_CHILDREN) + rusageSeconds(syscall.RUSAGE_SELF)
	t0 := time.Now()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM) // a terminal's ^C reaches the command's group too
	if err := cmd.Start(); err != nil {
		return f, 0, 0, 1, fmt.Errorf("starting %s: %w", args[0], err)
	}
	go func() {
		for s := range sigs {
			cmd.Process.Signal(s)
		}
	}()
	code, left := reap(cmd.Process.Pid, grace)
	wall = time.Since(t0).Seconds()
	signal.Stop(sigs)
	close(sigs)
	busy1, err := busyTicks()
	if err != nil {
		return f, 0, wall, code, err
	}
	own = rusageSeconds(syscall.RUSAGE_CHILDREN) + rusageSeconds(syscall.RUSAGE_SELF) - cpu0
	if len(left) > 0 {
		var names []string
		for _, p := range left {
			names = append(names, fmt.Sprintf("%d (%s)", p.pid, p.comm))
			own += float64(p.ticks) / float64(hz)
		}
		fmt.Fprintf(os.Stderr, "benchcpu: %d processes of the run still running %s after it ended, left running (their CPU so far counted as the run's): %s\n",
			len(left), grace, strings.Join(names, ", "))
	}
	return figuresOf(load, float64(busy1-busy0)/float64(hz), own, wall), own, wall, code, nil
}

// figures are what benchcpu reports: the busy cores and the 1-minute load
// average at the start, and others' and the run's average busy cores over
// the run.
type figures struct {
	busyStart, load1Start, otherCPU, ownCPU float64
}

// busyOver is the machine's average busy cores (busyTicks) over d, from
// now; 0 for d <= 0.
func busyOver(hz int, d time.Duration) (float64, error) {
	if d <= 0 {
		return 0, nil
	}
	b0, err := busyTicks()
	if err != nil {
		return 0, err
	}
	t0 := time.Now()
	time.Sleep(d)
	b1, err := busyTicks()
	if err != nil {
		return 0, err
	}
	return float64(b1-b0) / float64(hz) / time.Since(t0).Seconds(), nil
}

// figuresOf turns the machine's busy and the tree's CPU seconds over wall
// seconds into average busy cores. Others' share is clamped at 0: the
// kernel counts /proc/stat by ticks and rusage more finely, so on an idle
// machine the difference can fall a little below zero.
func figuresOf(load1, busySec, ownSec, wallSec float64) figures {
	if wallSec <= 0 {
		wallSec = 1e-9
	}
	return figures{load1Start: load1, otherCPU: max(0, (busySec-ownSec)/wallSec), ownCPU: ownSec / wallSec}
}

func (f figures) header() string {
	return fmt.Sprintf("# busy-start: %.2f\n# load1-start: %.2f\n# other-cpu: %.2f\n# own-cpu: %.2f\n", f.busyStart, f.load1Start, f.otherCPU, f.ownCPU)
}

// leftover is a descendant still running after the grace period.
type leftover struct {
	pid   int
	comm  string
	ticks int64 // utime + stime so far
}

// reap waits for every descendant (the command and the orphans reparented
// to this subreaper) until none is left, or until grace has passed since
// the command itself ended; it returns the command's exit code and the
// descendants still running.
func reap(main int, grace time.Duration) (int, []leftover) {
	code := -1
	var deadline time.Time
	for {
		var ws syscall.WaitStatus
		flags := 0
		if code >= 0 {
			flags = syscall.WNOHANG
		}
		pid, err := syscall.Wait4(-1, &ws, flags, nil)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case err != nil: // ECHILD: no descendant left
			return code, nil
		case pid == main:
			code = exitCode(ws)
			deadline = time.Now().Add(grace)
		case pid == 0: // WNOHANG, some still running
			if time.Now().After(deadline) {
				return code, children()
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}

func exitCode(ws syscall.WaitStatus) int {
	if ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}

// children lists this process's children from /proc/PID/stat.
func children() []leftover {
	self := os.Getpid()
	ents, _ := os.ReadDir("/proc")
	var out []leftover
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		comm, ppid, ticks, ok := parsePidStat(string(b))
		if ok && ppid == self {
			out = append(out, leftover{pid, comm, ticks})
		}
	}
	return out
}

// parsePidStat reads the command name, parent pid and utime+stime (ticks)
// from one /proc/PID/stat line (proc(5): fields 2, 4, 14 and 15; the name
// is in parentheses and may hold spaces).
func parsePidStat(s string) (comm string, ppid int, ticks int64, ok bool) {
	i, j := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if i < 0 || j < i {
		return "", 0, 0, false
	}
	f := strings.Fields(s[j+1:]) // f[0] is field 3, the state
	if len(f) < 13 {
		return "", 0, 0, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	ut, err2 := strconv.ParseInt(f[11], 10, 64)
	st, err3 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return "", 0, 0, false
	}
	return s[i+1 : j], ppid, ut + st, true
}

func rusageSeconds(who int) float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

func load1() (float64, error) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0, fmt.Errorf("/proc/loadavg is empty")
	}
	return strconv.ParseFloat(f[0], 64)
}

func busyTicks() (int64, error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, err
	}
	return parseBusy(string(b))
}

// parseBusy sums the busy fields of the aggregate "cpu" line of /proc/stat
// (proc(5): user, nice, system, irq, softirq, steal; guest time is already
// inside user), in USER_HZ ticks. Idle and iowait are not busy.
func parseBusy(stat string) (int64, error) {
	for _, line := range strings.Split(stat, "\n") {
		f := strings.Fields(line)
		if len(f) < 9 || f[0] != "cpu" {
			continue
		}
		var sum int64
		for _, i := range []int{1, 2, 3, 6, 7, 8} {
			v, err := strconv.ParseInt(f[i], 10, 64)
			if err != nil {
				return 0, fmt.Errorf("/proc/stat cpu line field %d %q: %w", i+1, f[i], err)
			}
			sum += v
		}
		return sum, nil
	}
	return 0, fmt.Errorf("/proc/stat has no aggregate cpu line with 8 figures")
}
