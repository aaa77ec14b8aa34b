// Command benchratio prints each benchmark figure of a `go test -bench` run
// beside its baseline and the ratio between them, so `make bench` says not
// only how fast something is but how that compares with the recorded
// baseline (testdata/bench/baseline.txt, recorded on the project machine).
//
// Ratios compare like with like only: a baseline recorded at another
// -benchtime (its "# benchtime:" header line, written by scripts/bench) is
// not compared at all, and when this run or the baseline ran on a loaded
// machine every ratio is marked with "*" and a line says why: on a 2-core
// machine a parallel build doubles most figures. A run is loaded when
// others loaded the machine, not when the benchmarks did (the batch
// benchmarks alone drive the 1-minute load to about 5 on 2 cores):
//
//   - "# busy-start:", the machine's average busy cores over the 5 s before
//     the run (scripts/benchcpu -settle), is above -max-load (0.5) times
//     its "# cores:" (1.0 on 2 cores): the machine was busy when the run
//     began. A file without it (written before it was recorded) is judged
//     by "# load1-start:", the 1-minute load average then, which also
//     still counts the minute before: a run started within two minutes of
//     another was judged loaded by it; or
//   - "# other-cpu:", the average busy cores of every process outside the
//     run over the run (scripts/benchcpu: /proc/stat less the run's own
//     process tree), is above -max-other (0.25) times its cores (half a
//     core on 2): others took a share the parallel benchmarks would have
//     used.
//
// A file written before scripts/bench recorded those two (the committed
// baseline of 2026-11-30 among them) is judged by the old rule: its
// "# load1-max:", the highest 1-minute load average sampled during the
// run, above -max-load times its cores; a file with none of the three is
// not judged.
//
// With -costs FILE it also writes the per-step costs of the run as JSON
// (costs.go), the input of the scaling simulation cmd/acesim.
//
// Usage: benchratio -baseline FILE [-max-load 0.5] [-max-other 0.25] [-costs FILE] < current.txt
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
)

type figures map[string]map[string]float64 // benchmark -> unit -> value

// runInfo is what scripts/bench writes above the go test output: the
// -benchtime, the machine's cores, its busy cores just before the run,
// the 1-minute load average before the run and at most during it, and the
// average busy cores of other processes and of the run itself over the
// run (each < 0: not recorded).
type runInfo struct {
	benchtime  string
	recorded   string
	cores      int
	load1Max   float64
	load1Start float64
	busyStart  float64
	otherCPU   float64
	ownCPU     float64
}

func newRunInfo() runInfo {
	return runInfo{load1Max: -1, busyStart: -1, load1Start: -1, otherCPU: -1, ownCPU: -1}
}

// loaded judges the run by the rule of the package comment: by its start
// load (above maxLoad per core) and others' CPU (above maxOther per core)
// when it recorded them, else by its highest load (above maxLoad per
// core). why says which figure decided, "" when the run was not loaded.
func (r runInfo) loaded(maxLoad, maxOther float64) (bool, string) {
	if r.cores <= 0 {
		return false, ""
	}
	n := float64(r.cores)
	switch {
	case r.busyStart >= 0 && r.otherCPU >= 0:
		if r.busyStart > maxLoad*n {
			return true, fmt.Sprintf("%.2f cores busy just before the run, above %.2g x %d cores", r.busyStart, maxLoad, r.cores)
		}
		if r.otherCPU > maxOther*n {
			return true, fmt.Sprintf("other processes used %.2f cores on average, above %.2g x %d cores", r.otherCPU, maxOther, r.cores)
		}
	case r.load1Start >= 0 && r.otherCPU >= 0:
		if r.load1Start > maxLoad*n {
			return true, fmt.Sprintf("1-minute load %.2f at start, above %.2g x %d cores", r.load1Start, maxLoad, r.cores)
		}
		if r.otherCPU > maxOther*n {
			return true, fmt.Sprintf("other processes used %.2f cores on average, above %.2g x %d cores", r.otherCPU, maxOther, r.cores)
		}
	case r.load1Max >= 0:
		if r.load1Max > maxLoad*n {
			return true, fmt.Sprintf("1-minute load at most %.2f, above %.2g x %d cores (an older run: its own load counted too)", r.load1Max, maxLoad, r.cores)
		}
	}
	return false, ""
}

func (r runInfo) String() string {
	s := "benchtime " + orUnknown(r.benchtime)
	if r.load1Start >= 0 && r.otherCPU >= 0 {
		s += fmt.Sprintf(", %d cores: ", r.cores)
		if r.busyStart >= 0 {
			s += fmt.Sprintf("%.2f cores busy just before the run, ", r.busyStart)
		}
		s += fmt.Sprintf("1-minute load %.2f at start, other processes %.2f cores on average", r.load1Start, r.otherCPU)
		if r.ownCPU >= 0 {
			s += fmt.Sprintf(", this run %.2f", r.ownCPU)
		}
		if r.load1Max >= 0 {
			s += fmt.Sprintf(", 1-minute load at most %.2f (the run's own included)", r.load1Max)
		}
		return s
	}
	if r.load1Max < 0 {
		return s + ", load not recorded"
	}
	return s + fmt.Sprintf(", 1-minute load at most %.2f on %d cores (others' CPU not recorded)", r.load1Max, r.cores)
}

// describe is String with the judgement: loaded and why, or not.
func (r runInfo) describe(maxLoad, maxOther float64) string {
	if l, why := r.loaded(maxLoad, maxOther); l {
		return r.String() + "; LOADED: " + why
	}
	if r.load1Max < 0 && (r.load1Start < 0 || r.otherCPU < 0) {
		return r.String()
	}
	return r.String() + "; not loaded"
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func parse(r io.Reader) (figures, []string) {
	f, order, _ := parseRun(r)
	return f, order
}

func parseRun(r io.Reader) (figures, []string, runInfo) {
	info := newRunInfo()
	out := figures{}
	var order []string
	pkg := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if h, ok := strings.CutPrefix(line, "# "); ok {
			k, v, _ := strings.Cut(h, ":")
			v = strings.TrimSpace(v)
			switch k {
			case "benchtime":
				info.benchtime = v
			case "recorded":
				info.recorded = v
			case "cores":
				info.cores, _ = strconv.Atoi(v)
			case "load1-max":
				info.load1Max = parseLoad(v)
			case "load1-start":
				info.load1Start = parseLoad(v)
			case "busy-start":
				info.busyStart = parseLoad(v)
			case "other-cpu":
				info.otherCPU = parseLoad(v)
			case "own-cpu":
				info.ownCPU = parseLoad(v)
			}
			continue
		}
		if p, ok := strings.CutPrefix(line, "pkg: "); ok {
			pkg = p[strings.LastIndex(p, "/")+1:]
			continue
		}
		if !strings.HasPrefix(line, "Benchmark") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 4 {
			continue
		}
		name := pkg + "." + trimProcs(f[0])
		if _, seen := out[name]; !seen {
			out[name] = map[string]float64{}
			order = append(order, name)
		}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			out[name][f[i+1]] = v // a later run of the same benchmark wins
		}
	}
	return out, order, info
}

// parseLoad reads a load or CPU header value; -1 (not recorded) when it
// is not a number >= 0.
func parseLoad(v string) float64 {
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || x < 0 {
		return -1
	}
	return x
}

func trimProcs(s string) string {
	if i := strings.LastIndex(s, "-"); i > 0 {
		if _, err := strconv.Atoi(s[i+1:]); err == nil {
			return s[:i]
		}
	}
	return s
}

func main() {
	basePath := flag.String("baseline", "testdata/bench/baseline.txt", "baseline benchmark output")
	costsPath := flag.String("costs", "", "also write the per-step costs the scaling simulation reads (cmd/acesim) as JSON to this file")
	maxLoad := flag.Float64("max-load", 0.5, "a run whose 1-minute load average at start (older runs: at most during the run) exceeded this many times its cores is loaded: its ratios are marked")
	maxOther := flag.Float64("max-other", 0.25, "a run during which other processes used more than this many times its cores on average is loaded: its ratios are marked")
	flag.Parse()
	cur, order, curInfo := parseRun(os.Stdin)
	var base figures
	baseInfo := newRunInfo()
	if f, err := os.Open(*basePath); err == nil {
		base, _, baseInfo = parseRun(f)
		f.Close()
	} else {
		fmt.Fprintf(os.Stderr, "benchratio: no baseline at %s: ratios omitted\n", *basePath)
	}
	if *costsPath != "" {
		if err := writeCosts(*costsPath, costsFrom(cur, curInfo)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	fmt.Fprintf(w, "this run: %s\nbaseline: %s\n", curInfo.describe(*maxLoad, *maxOther), baseInfo.describe(*maxLoad, *maxOther))
	if base != nil && curInfo.benchtime != baseInfo.benchtime {
		fmt.Fprintf(w, "NOT COMPARED: this run's benchtime is %s, the baseline's %s; run BENCHTIME=%s make bench (or record a baseline at %s)\n",
			orUnknown(curInfo.benchtime), orUnknown(baseInfo.benchtime), orUnknown(baseInfo.benchtime), orUnknown(curInfo.benchtime))
		base = nil
	}
	mark := ""
	curLoaded, _ := curInfo.loaded(*maxLoad, *maxOther)
	baseLoaded, _ := baseInfo.loaded(*maxLoad, *maxOther)
	if base != nil && (curLoaded || baseLoaded) {
		mark = "*"
		fmt.Fprintln(w, "* every ratio below: this run or the baseline ran on a loaded machine (see above), so a ratio measures the machine as much as ACE")
	}
	fmt.Fprintf(w, "%-58s %-14s %14s %14s %8s\n", "benchmark", "unit", "now", "baseline", "now/base")
	for _, name := range order {
		units := make([]string, 0, len(cur[name]))
		for u := range cur[name] {
			units = append(units, u)
		}
		sort.Strings(units)
		for _, u := range units {
			v := cur[name][u]
			b, ok := base[name][u]
			ratio, bs := "new", "-"
			if ok {
				bs = fmt.Sprintf("%.4g", b)
				if b != 0 {
					ratio = fmt.Sprintf("%.2fx%s", v/b, mark)
				}
			}
			fmt.Fprintf(w, "%-58s %-14s %14.4g %14s %8s\n", name, u, v, bs, ratio)
		}
	}
}
