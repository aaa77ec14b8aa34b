package pairedstats

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// MaxAbs bounds every input value: no benchmark metric comes near it, and
// below it every difference, sum and mean stays a finite float64.
const MaxAbs = 1e300

// Options tune Compare. The zero value is ready to use.
type Options struct {
	// Metric names the measure in errors and in Result.String ("IF", "VQ",
	// "checks", "SCR", "time_s", "cost_usd"). Optional.
	Metric string
	// Resamples is the bootstrap resample count; 0 means DefaultResamples.
	Resamples int
	// Seed seeds the bootstrap's PCG generator: the same inputs, Seed and
	// Resamples give the same CI95 on every run.
	Seed uint64
	// TieEps is the tie band in the metric's unit: a pair with
	// |b_i - a_i| <= TieEps is a tie and a zero difference for the signed-rank
	// test. 0 means only equal values tie.
	TieEps float64
}

// Result compares arm b with arm a over N paired runs. All means and the
// interval are in the metric's own unit; differences are b minus a, so a
// positive MeanDiff means b scored higher (for time and cost, that b was
// slower or dearer).
type Result struct {
	Metric string `json:"metric,omitempty"`
	// N is the number of pairs compared.
	N int `json:"n"`
	// MeanA and MeanB are the arms' means over the N pairs.
	MeanA float64 `json:"mean_a"`
	MeanB float64 `json:"mean_b"`
	// MeanDiff is the mean of b_i - a_i (equal to MeanB - MeanA up to
	// rounding).
	MeanDiff float64 `json:"mean_diff"`
	// CI95 is the percentile-bootstrap 95% interval [lo, hi] of MeanDiff.
	CI95 [2]float64 `json:"ci95"`
	// Wilcoxon is the two-sided signed-rank test on b_i - a_i; Wilcoxon.P
	// is the p-value.
	Wilcoxon SignedRank `json:"wilcoxon"`
	// Wins counts pairs with b_i - a_i > TieEps, Losses those with
	// b_i - a_i < -TieEps, Ties the rest; they sum to N. "Win" means b is
	// higher: for time and cost, where lower is better, read Losses as b's
	// wins.
	Wins   int `json:"wins"`
	Ties   int `json:"ties"`
	Losses int `json:"losses"`
}

// Compare compares paired runs: a[i] and b[i] are the same task and seed
// under arm a and arm b. It reports the means, the mean difference b - a with
// a bootstrap 95% CI, the Wilcoxon signed-rank two-sided p-value and the
// win/tie/loss counts.
//
// Errors: a and b of different lengths; no pairs; a value that is NaN,
// infinite or beyond ±MaxAbs (the error names the arm and index);
// Resamples < 0; TieEps negative or not finite. Pairs with a missing side go
// through Pairs first.
func Compare(a, b []float64, opts Options) (Result, error) {
	name := "pairedstats"
	if opts.Metric != "" {
		name += " " + opts.Metric
	}
	if len(a) != len(b) {
		return Result{}, fmt.Errorf("%s: arm a has %d values and arm b has %d; give one value per task and seed on each side (use Pairs to drop runs missing on either side)", name, len(a), len(b))
	}
	if len(a) == 0 {
		return Result{}, fmt.Errorf("%s: no pairs to compare; every task and seed lacked a value on one side or none ran", name)
	}
	if opts.Resamples < 0 {
		return Result{}, fmt.Errorf("%s: Resamples is %d; use 0 for the default %d or a positive count", name, opts.Resamples, DefaultResamples)
	}
	if opts.TieEps < 0 || math.IsNaN(opts.TieEps) || math.IsInf(opts.TieEps, 0) {
		return Result{}, fmt.Errorf("%s: TieEps is %v; use 0 or a small positive tolerance in the metric's unit", name, opts.TieEps)
	}
	if err := checkValues(name, "a", a); err != nil {
		return Result{}, err
	}
	if err := checkValues(name, "b", b); err != nil {
		return Result{}, err
	}
	resamples := opts.Resamples
	if resamples == 0 {
		resamples = DefaultResamples
	}

	d := make([]float64, len(a))
	res := Result{Metric: opts.Metric, N: len(a)}
	for i := range a {
		d[i] = b[i] - a[i]
		switch {
		case d[i] > opts.TieEps:
			res.Wins++
		case d[i] < -opts.TieEps:
			res.Losses++
		default:
			res.Ties++
		}
	}
	res.MeanA = meanOf(a)
	res.MeanB = meanOf(b)
	res.MeanDiff = meanOf(d)
	res.CI95[0], res.CI95[1] = bootstrapCI(d, resamples, opts.Seed, 0.95)
	res.Wilcoxon = signedRank(d, opts.TieEps)
	return res, nil
}

// checkValues rejects a value Compare cannot average: NaN, infinite or
// beyond ±MaxAbs. arm is "a" or "b".
func checkValues(name, arm string, x []float64) error {
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > MaxAbs {
			return fmt.Errorf("%s: %s[%d] is %v; every value must be a finite number (drop runs without a value with Pairs)", name, arm, i, v)
		}
	}
	return nil
}

// Pairs keeps the indices where both a[i] and b[i] are present, for metrics
// a run may lack (no judge verdict, a failed run), and returns their values
// in order with the count of pairs dropped. It errors when a and b differ
// in length.
func Pairs(a, b []*float64) (keptA, keptB []float64, dropped int, err error) {
	if len(a) != len(b) {
		return nil, nil, 0, fmt.Errorf("pairedstats: arm a has %d runs and arm b has %d; pair them by task and seed first", len(a), len(b))
	}
	for i := range a {
		if a[i] == nil || b[i] == nil {
			dropped++
			continue
		}
		keptA = append(keptA, *a[i])
		keptB = append(keptB, *b[i])
	}
	return keptA, keptB, dropped, nil
}

// String renders r on one line in the form of ACE Table 5:
//
//	IF: +0.42 [+0.10, +0.75] p=0.031 (W/T/L 12/20/8, n=40)
//
// Numbers show at least two decimals and at least two significant digits
// (a cost difference of 0.0042 USD prints as +0.0042); p below 0.001 prints
// as p<0.001.
func (r Result) String() string {
	dec := decimals(r.MeanDiff, r.CI95[0], r.CI95[1])
	var sb strings.Builder
	if r.Metric != "" {
		sb.WriteString(r.Metric + ": ")
	}
	p := "p<0.001"
	if r.Wilcoxon.P >= 0.001 {
		p = "p=" + strconv.FormatFloat(r.Wilcoxon.P, 'f', 3, 64)
	}
	fmt.Fprintf(&sb, "%s [%s, %s] %s (W/T/L %d/%d/%d, n=%d)",
		signed(r.MeanDiff, dec), signed(r.CI95[0], dec), signed(r.CI95[1], dec),
		p, r.Wins, r.Ties, r.Losses, r.N)
	return sb.String()
}

// decimals is how many decimals show two significant digits of the largest
// of xs, at least 2 and at most 10.
func decimals(xs ...float64) int {
	m := 0.0
	for _, x := range xs {
		m = math.Max(m, math.Abs(x))
	}
	if m == 0 {
		return 2
	}
	return min(max(2, 1-int(math.Floor(math.Log10(m)))), 10)
}

// signed formats x with an explicit sign and dec decimals; a value that
// rounds to zero prints as +0.00, never -0.00.
func signed(x float64, dec int) string {
	s := strconv.FormatFloat(x, 'f', dec, 64)
	if strings.Trim(s, "-0.") == "" {
		return "+" + strings.TrimPrefix(s, "-")
	}
	if !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s
}
