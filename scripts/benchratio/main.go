// Command benchratio prints each benchmark figure of a `go test -bench` run
// beside its baseline and the ratio between them, so `make bench` says not
// only how fast something is but how that compares with the recorded
// baseline (testdata/bench/baseline.txt, recorded on the project machine).
//
// Ratios compare like with like only: a baseline recorded at another
// -benchtime (its "# benchtime:" header line, written by scripts/bench) is
// not compared at all, and when this run or the baseline ran on a loaded
// machine (its "# load1-max:" header, the highest 1-minute load average
// sampled during the run, above -max-load times its "# cores:") every
// ratio is marked with "*" and a line says why: on a 2-core machine a
// parallel build doubles most figures.
//
// With -costs FILE it also writes the per-step costs of the run as JSON
// (costs.go), the input of the scaling simulation cmd/acesim.
//
// Usage: benchratio -baseline FILE [-max-load 0.5] [-costs FILE] < current.txt
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
// -benchtime, the machine's cores and the highest 1-minute load average
// seen during the run (load < 0: not recorded).
type runInfo struct {
	benchtime string
	recorded  string
	cores     int
	load      float64
}

// loaded reports whether the run's load exceeds maxLoad per core.
func (r runInfo) loaded(maxLoad float64) bool {
	return r.load >= 0 && r.cores > 0 && r.load > maxLoad*float64(r.cores)
}

func (r runInfo) String() string {
	if r.load < 0 {
		return fmt.Sprintf("benchtime %s, load not recorded", orUnknown(r.benchtime))
	}
	return fmt.Sprintf("benchtime %s, 1-minute load at most %.2f on %d cores", orUnknown(r.benchtime), r.load, r.cores)
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
	info := runInfo{load: -1}
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
				if x, err := strconv.ParseFloat(v, 64); err == nil {
					info.load = x
				}
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
	maxLoad := flag.Float64("max-load", 0.5, "a run whose 1-minute load average exceeded this many times its cores is loaded: its ratios are marked")
	flag.Parse()
	cur, order, curInfo := parseRun(os.Stdin)
	var base figures
	baseInfo := runInfo{load: -1}
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
	fmt.Fprintf(w, "this run: %s\nbaseline: %s\n", curInfo, baseInfo)
	if base != nil && curInfo.benchtime != baseInfo.benchtime {
		fmt.Fprintf(w, "NOT COMPARED: this run's benchtime is %s, the baseline's %s; run BENCHTIME=%s make bench (or record a baseline at %s)\n",
			orUnknown(curInfo.benchtime), orUnknown(baseInfo.benchtime), orUnknown(baseInfo.benchtime), orUnknown(curInfo.benchtime))
		base = nil
	}
	mark := ""
	if base != nil && (curInfo.loaded(*maxLoad) || baseInfo.loaded(*maxLoad)) {
		mark = "*"
		fmt.Fprintf(w, "* every ratio below: this run or the baseline ran on a loaded machine (1-minute load above %.2g x cores), so a ratio measures the machine as much as ACE\n", *maxLoad)
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
