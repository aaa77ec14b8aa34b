package main

import (
	"math"
	"strings"
	"testing"
)

// header is the top of a current.txt as scripts/bench writes it.
func header(lines ...string) string {
	return strings.Join(lines, "\n") + "\n" + `goos: linux
pkg: github.com/acecanvas/ace/internal/route
BenchmarkHeuristic-2   	       1	    289482 ns/op	   12000 B/op	     310 allocs/op
PASS
`
}

func TestParseRunReadsTheLoadHeaders(t *testing.T) {
	f, order, info := parseRun(strings.NewReader(header(
		"# benchtime: 1x", "# cores: 2", "# busy-start: 0.04", "# load1-start: 0.30", "# other-cpu: 0.05", "# own-cpu: 1.71", "# load1-max: 5.40",
		"# recorded: 2026-12-03 09:00 UTC, 6 min 10 s")))
	want := runInfo{benchtime: "1x", recorded: "2026-12-03 09:00 UTC, 6 min 10 s", cores: 2,
		load1Max: 5.4, busyStart: 0.04, load1Start: 0.3, otherCPU: 0.05, ownCPU: 1.71}
	if info != want {
		t.Errorf("parseRun info = %+v, want %+v", info, want)
	}
	if len(order) != 1 || f["route.BenchmarkHeuristic"]["ns/op"] != 289482 {
		t.Errorf("parseRun figures = %v (order %v), want route.BenchmarkHeuristic 289482 ns/op", f, order)
	}
}

func TestLoadedCountsOthersNotTheRunsOwnLoad(t *testing.T) {
	for _, c := range []struct {
		name    string
		headers []string
		loaded  bool
		why     string
	}{
		{"the run's own load only", []string{"# cores: 2", "# load1-max: 5.4", "# load1-start: 0.3", "# other-cpu: 0.05"}, false, ""},
		{"others used 1.2 cores", []string{"# cores: 2", "# load1-max: 5.4", "# load1-start: 0.3", "# other-cpu: 1.2"}, true, "other processes used 1.20 cores"},
		{"busy at start", []string{"# cores: 2", "# load1-max: 5.4", "# load1-start: 1.6", "# other-cpu: 0.05"}, true, "1-minute load 1.60 at start"},
		{"start load lingering from an earlier run, machine idle", []string{"# cores: 2", "# busy-start: 0.05", "# load1-start: 2.69", "# other-cpu: 0.13"}, false, ""},
		{"busy just before the run", []string{"# cores: 2", "# busy-start: 1.40", "# load1-start: 0.2", "# other-cpu: 0.13"}, true, "1.40 cores busy just before the run"},
		{"idle at start, others busy during", []string{"# cores: 2", "# busy-start: 0.05", "# load1-start: 0.2", "# other-cpu: 0.9"}, true, "other processes used 0.90 cores"},
		{"older run, loaded", []string{"# cores: 2", "# load1-max: 5.4"}, true, "1-minute load at most 5.40"},
		{"older run, quiet", []string{"# cores: 2", "# load1-max: 0.8"}, false, ""},
		{"nothing recorded", []string{"# cores: 2"}, false, ""},
	} {
		_, _, info := parseRun(strings.NewReader(header(c.headers...)))
		loaded, why := info.loaded(0.5, 0.25)
		if loaded != c.loaded || !strings.Contains(why, c.why) || (c.why == "") != (why == "") {
			t.Errorf("%s: loaded = %v (%q), want %v (%q)", c.name, loaded, why, c.loaded, c.why)
		}
	}
}

func TestDescribeGivesTheFiguresAndTheJudgement(t *testing.T) {
	_, _, info := parseRun(strings.NewReader(header("# benchtime: 1x", "# cores: 2", "# load1-start: 0.30", "# other-cpu: 1.20", "# own-cpu: 1.10", "# load1-max: 5.40")))
	got := info.describe(0.5, 0.25)
	for _, want := range []string{"load 0.30 at start", "other processes 1.20 cores", "this run 1.10", "at most 5.40", "LOADED: other processes used 1.20 cores"} {
		if !strings.Contains(got, want) {
			t.Errorf("describe = %q, want it to hold %q", got, want)
		}
	}
	_, _, old := parseRun(strings.NewReader(header("# benchtime: 1x", "# cores: 2")))
	if got := old.describe(0.5, 0.25); got != "benchtime 1x, load not recorded" {
		t.Errorf("describe of a run without load headers = %q", got)
	}
}

func TestCostsCarryTheLoadFigures(t *testing.T) {
	f, _, info := parseRun(strings.NewReader(header("# benchtime: 1x", "# cores: 2", "# load1-start: 0.30", "# other-cpu: 0.05", "# load1-max: 5.40")))
	c := costsFrom(f, info)
	if c.Load1Start != 0.3 || c.OtherCPU != 0.05 || c.Load1Max != 5.4 || c.Cores != 2 {
		t.Errorf("costs load figures = start %v, others %v, max %v, cores %d; want 0.3, 0.05, 5.4, 2", c.Load1Start, c.OtherCPU, c.Load1Max, c.Cores)
	}
	if math.Abs(c.RouteMS-0.289482) > 1e-12 {
		t.Errorf("route_ms = %v, want 0.289482", c.RouteMS)
	}
}
