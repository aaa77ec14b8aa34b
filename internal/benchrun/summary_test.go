package benchrun

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/pairedstats"
)

func f(v float64) *float64 { return &v }

// rows of two arms over three tasks and two seeds, b's listed in another
// order than a's, with a's IF missing on one run.
func summaryRows() []Row {
	var rows []Row
	ifA := map[string][2]*float64{"t1": {f(3), f(4)}, "t2": {f(2), nil}, "t3": {f(5), f(1)}}
	ifB := map[string][2]*float64{"t1": {f(4), f(4)}, "t2": {f(5), f(3)}, "t3": {f(5), f(3)}}
	for _, task := range []string{"t1", "t2", "t3"} {
		for s := 1; s <= 2; s++ {
			rows = append(rows, Row{Task: task, Seed: s, Arm: "a", Outcome: "stopped", IF: ifA[task][s-1],
				ChecksShare: f(0.5), ChecksAll: false, WallS: 10, CostUSD: 0.02})
		}
	}
	for _, task := range []string{"t3", "t2", "t1"} {
		for s := 2; s >= 1; s-- {
			rows = append(rows, Row{Task: task, Seed: s, Arm: "b", Outcome: "stopped", IF: ifB[task][s-1],
				ChecksShare: f(1), ChecksAll: true, WallS: 12, CostUSD: 0.01})
		}
	}
	return rows
}

func TestSummarizePairsRunsByTaskAndSeed(t *testing.T) {
	s := Summarize("suite", 3, 2, []Arm{{Name: "a"}, {Name: "b"}}, llm.Config{}, summaryRows())
	if len(s.Arms) != 2 || s.Arms[0].Runs != 6 || s.Arms[1].ChecksAll != 6 {
		t.Fatalf("arms %+v", s.Arms)
	}
	// a's IF mean is over the five runs that have one: 15/5.
	if got := s.Arms[0].Means["IF"]; got != 3 || s.Arms[0].Counts["IF"] != 5 {
		t.Fatalf("a's IF mean %v over %d", got, s.Arms[0].Counts["IF"])
	}
	byMetric := map[string]Paired{}
	for _, p := range s.Paired {
		byMetric[p.Metric] = p
	}
	// IF pairs in task, seed order (t1/1, t1/2, t2/1, t3/1, t3/2), t2/2
	// dropped for a's missing score.
	p := byMetric["IF"]
	want, err := pairedstats.Compare([]float64{3, 4, 2, 5, 1}, []float64{4, 4, 5, 5, 3}, pairedstats.Options{Metric: "IF", Seed: BootstrapSeed})
	if err != nil {
		t.Fatal(err)
	}
	if p.Dropped != 1 || !reflect.DeepEqual(p.Result, want) {
		t.Fatalf("IF: dropped %d, %+v, want %+v", p.Dropped, p.Result, want)
	}
	if math.Abs(p.Result.MeanDiff-1.2) > 1e-12 || p.Result.Wins != 3 || p.Result.Ties != 2 || p.Result.Losses != 0 {
		t.Fatalf("IF diff %v W/T/L %d/%d/%d", p.Result.MeanDiff, p.Result.Wins, p.Result.Ties, p.Result.Losses)
	}
	// Checks: b passes all, a half: +0.5 on six pairs, every one a win.
	c := byMetric["checks"]
	if c.Result.N != 6 || math.Abs(c.Result.MeanDiff-0.5) > 1e-12 || c.Result.Wins != 6 {
		t.Fatalf("checks %+v", c.Result)
	}
	// Time is lower-is-better: b is 2 s slower on every pair.
	tm := byMetric["time_s"]
	if !tm.LowerIsBetter || math.Abs(tm.Result.MeanDiff-2) > 1e-12 || tm.Result.Wins != 6 {
		t.Fatalf("time %+v", tm)
	}
	// VQ and SCR were never measured: no pair, an error, not a number.
	if byMetric["VQ"].Error == "" || byMetric["SCR"].Dropped != 6 {
		t.Fatalf("VQ %+v SCR %+v", byMetric["VQ"], byMetric["SCR"])
	}
	var b strings.Builder
	s.WriteTable(&b)
	// In the table, time's wins are b's losses: 0 better, 6 worse.
	if !strings.Contains(b.String(), "b vs a  time_s") || !strings.Contains(b.String(), "0/0/6") {
		t.Fatalf("table:\n%s", b.String())
	}
}

func TestAFailedRunHasNoTimeOrCost(t *testing.T) {
	r := Row{Outcome: "failed", WallS: 3, CostUSD: 1}
	for _, m := range Metrics {
		if v := m.Of(r); v != nil && (m.Name == "time_s" || m.Name == "cost_usd") {
			t.Fatalf("%s of a failed run is %v", m.Name, *v)
		}
	}
}
