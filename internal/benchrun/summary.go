package benchrun

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/pairedstats"
	"github.com/acecanvas/ace/internal/policy"
)

// Metric is a per-run measure the summary compares.
type Metric struct {
	// Name is the key in summary.json and the table: IF, VQ, checks,
	// SCR, time_s, cost_usd.
	Name string
	// LowerIsBetter marks time and cost: a positive difference (b minus
	// a) is b's loss there.
	LowerIsBetter bool
	// Of is the run's value, nil when it has none.
	Of func(Row) *float64
	// Optional metrics are compared only when some run has a value (the
	// out-of-loop judge's IF, when one was asked for).
	Optional bool
}

// Metrics are the measures of ACE §5.4 and ReDeck, in table order: IF and
// VQ (0-5), the share of checks passed and SCR (0-1), the loop's wall
// time (s) and cost (USD).
var Metrics = []Metric{
	{Name: "IF", Of: func(r Row) *float64 { return r.IF }},
	{Name: "VQ", Of: func(r Row) *float64 { return r.VQ }},
	{Name: "IF_rejudged", Of: func(r Row) *float64 { return r.IFRejudged }, Optional: true},
	{Name: "checks", Of: func(r Row) *float64 { return r.ChecksShare }},
	{Name: "SCR", Of: func(r Row) *float64 { return r.SCR }},
	{Name: "time_s", LowerIsBetter: true, Of: func(r Row) *float64 { return ranOnly(r, r.WallS) }},
	{Name: "cost_usd", LowerIsBetter: true, Of: func(r Row) *float64 { return ranOnly(r, r.CostUSD) }},
}

// ranOnly is v for a run the loop finished, nil for one that failed
// (its time and cost say nothing of the arm).
func ranOnly(r Row, v float64) *float64 {
	if r.Outcome == policy.Failed || r.Outcome == "" {
		return nil
	}
	return &v
}

// ArmSummary is one arm's means over its runs (the ACE paper's main
// table): each metric's mean over the runs that have it, with the count.
type ArmSummary struct {
	Arm         string   `json:"arm"`
	Description string   `json:"description"`
	Notes       []string `json:"notes,omitempty"`
	Runs        int      `json:"runs"`
	Failed      int      `json:"failed"`
	ChecksAll   int      `json:"checksAll"`
	// Unpriced counts model calls whose model has no price (ACE_PRICES):
	// the arm's cost leaves them out.
	Unpriced int                `json:"unpriced,omitempty"`
	Means    map[string]float64 `json:"means"`
	Counts   map[string]int     `json:"counts"`
}

// Paired is one metric compared between two arms on the same tasks and
// seeds: Result from pairedstats.Compare (b minus a), and Dropped, the
// pairs left out because a side had no value.
type Paired struct {
	A             string             `json:"a"`
	B             string             `json:"b"`
	Metric        string             `json:"metric"`
	LowerIsBetter bool               `json:"lowerIsBetter,omitempty"`
	Dropped       int                `json:"dropped"`
	Result        pairedstats.Result `json:"result"`
	// Error is why the comparison has no result (no pair left).
	Error string `json:"error,omitempty"`
}

// Summary is summary.json: the arms' means and each later arm compared
// with the first.
type Summary struct {
	Suite  string       `json:"suite"`
	Tasks  int          `json:"tasks"`
	Seeds  int          `json:"seeds"`
	Arms   []ArmSummary `json:"arms"`
	Paired []Paired     `json:"paired"`
}

// BootstrapSeed seeds the bootstrap of every comparison, so a summary
// is the same for the same rows.
const BootstrapSeed = 1

// Summarize computes the arms' means and compares every arm with the
// first (the baseline) on each metric, pairing runs by task and seed.
// base is the environment's model configuration, under which each arm
// is described.
func Summarize(suite string, tasks, seeds int, armList []Arm, base llm.Config, rows []Row) Summary {
	s := Summary{Suite: suite, Tasks: tasks, Seeds: seeds}
	arms := make([]string, len(armList))
	for i, a := range armList {
		arms[i] = a.Name
	}
	type key struct {
		task string
		seed int
	}
	byArm := map[string]map[key]Row{}
	var order []key
	seen := map[key]bool{}
	for _, r := range rows {
		if r.Arm == "" || r.Outcome == policy.Canceled {
			continue // a run that never started or was cut short: no measurement
		}
		if byArm[r.Arm] == nil {
			byArm[r.Arm] = map[key]Row{}
		}
		k := key{r.Task, r.Seed}
		byArm[r.Arm][k] = r
		if !seen[k] {
			seen[k] = true
			order = append(order, k)
		}
	}
	for i, a := range arms {
		as := ArmSummary{Arm: a, Description: armList[i].Describe(base), Notes: armList[i].Notes, Means: map[string]float64{}, Counts: map[string]int{}}
		for _, k := range order {
			r, ok := byArm[a][k]
			if !ok {
				continue
			}
			as.Runs++
			if r.Outcome == policy.Failed {
				as.Failed++
			}
			if r.ChecksAll {
				as.ChecksAll++
			}
			as.Unpriced += r.Unpriced
			for _, m := range Metrics {
				if v := m.Of(r); v != nil {
					as.Means[m.Name] += *v
					as.Counts[m.Name]++
				}
			}
		}
		for name, n := range as.Counts {
			as.Means[name] /= float64(n)
		}
		s.Arms = append(s.Arms, as)
	}
	for _, b := range arms[min(1, len(arms)):] {
		a := arms[0]
		for _, m := range Metrics {
			if m.Optional && !anyValue(m, rows) {
				continue
			}
			var xa, xb []*float64
			for _, k := range order {
				ra, okA := byArm[a][k]
				rb, okB := byArm[b][k]
				if !okA || !okB {
					continue
				}
				xa, xb = append(xa, m.Of(ra)), append(xb, m.Of(rb))
			}
			p := Paired{A: a, B: b, Metric: m.Name, LowerIsBetter: m.LowerIsBetter}
			ka, kb, dropped, err := pairedstats.Pairs(xa, xb)
			p.Dropped = dropped
			if err == nil {
				p.Result, err = pairedstats.Compare(ka, kb, pairedstats.Options{Metric: m.Name, Seed: BootstrapSeed})
			}
			if err != nil {
				p.Error = err.Error()
			}
			s.Paired = append(s.Paired, p)
		}
	}
	return s
}

// WriteTable prints the arms' means and the paired comparisons.
func (s Summary) WriteTable(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "arm\truns\tfailed\tIF\tVQ\tchecks\tall checks\tSCR\ttime s\tcost USD")
	for _, a := range s.Arms {
		mean := func(name, f string) string {
			if a.Counts[name] == 0 {
				return "-"
			}
			return fmt.Sprintf(f, a.Means[name])
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%d/%d\t%s\t%s\t%s\n", a.Arm, a.Runs, a.Failed,
			mean("IF", "%.2f"), mean("VQ", "%.2f"), mean("checks", "%.3f"), a.ChecksAll, a.Runs,
			mean("SCR", "%.3f"), mean("time_s", "%.1f"), CostText(a.Means["cost_usd"], a.Counts["cost_usd"] > 0, a.Unpriced))
	}
	tw.Flush()
	if len(s.Paired) == 0 {
		return
	}
	fmt.Fprintln(w, "paired (b - a, same task and seed):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  b vs a\tmetric\tn\tdropped\tmean a\tmean b\tdiff\t95% CI\tWilcoxon p\tW/T/L (b better/tie/worse)")
	for _, p := range s.Paired {
		if p.Error != "" {
			fmt.Fprintf(tw, "  %s vs %s\t%s\t0\t%d\t-\t-\t-\t-\t-\t%s\n", p.B, p.A, p.Metric, p.Dropped, p.Error)
			continue
		}
		r := p.Result
		better, worse := r.Wins, r.Losses
		if p.LowerIsBetter {
			better, worse = worse, better
		}
		fmt.Fprintf(tw, "  %s vs %s\t%s\t%d\t%d\t%.4g\t%.4g\t%+.4g\t[%+.4g, %+.4g]\t%.4g\t%d/%d/%d\n", p.B, p.A, p.Metric, r.N, p.Dropped,
			r.MeanA, r.MeanB, r.MeanDiff, r.CI95[0], r.CI95[1], r.Wilcoxon.P, better, r.Ties, worse)
	}
	tw.Flush()
}

// anyValue reports whether some row has a value of m.
func anyValue(m Metric, rows []Row) bool {
	for _, r := range rows {
		if m.Of(r) != nil {
			return true
		}
	}
	return false
}

// CostText shows a cost in USD and says when calls had no price: "0.0123",
// "0.0100 + 3 unpriced calls", or "unpriced (7 calls)" when nothing was
// priced (a $0.0000 would read as free). "–" when there is no cost.
func CostText(usd float64, known bool, unpriced int) string {
	switch {
	case !known:
		return "–"
	case unpriced > 0 && usd == 0:
		return fmt.Sprintf("unpriced (%d calls)", unpriced)
	case unpriced > 0:
		return fmt.Sprintf("%.4f + %d unpriced calls", usd, unpriced)
	}
	return fmt.Sprintf("%.4f", usd)
}
