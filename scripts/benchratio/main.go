// Command benchratio prints each benchmark figure of a `go test -bench` run
// beside its baseline and the ratio between them, so `make bench` says not
// only how fast something is but how that compares with the recorded
// baseline (testdata/bench/baseline.txt, recorded on the project machine).
//
// Usage: benchratio -baseline FILE < current.txt
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

func parse(r io.Reader) (figures, []string) {
	out := figures{}
	var order []string
	pkg := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
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
	return out, order
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
	flag.Parse()
	cur, order := parse(os.Stdin)
	var base figures
	if f, err := os.Open(*basePath); err == nil {
		base, _ = parse(f)
		f.Close()
	} else {
		fmt.Fprintf(os.Stderr, "benchratio: no baseline at %s: ratios omitted\n", *basePath)
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
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
					ratio = fmt.Sprintf("%.2fx", v/b)
				}
			}
			fmt.Fprintf(w, "%-58s %-14s %14.4g %14s %8s\n", name, u, v, bs, ratio)
		}
	}
}
