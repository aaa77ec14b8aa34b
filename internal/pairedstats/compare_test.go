package pairedstats

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestCompareReportsMeansAndCounts(t *testing.T) {
	a, b := ifScores(t)
	r, err := Compare(a, b, Options{Metric: "IF"})
	if err != nil {
		t.Fatal(err)
	}
	var sa, sb float64
	var wins, ties, losses int
	for i := range a {
		sa += a[i]
		sb += b[i]
		switch {
		case b[i] > a[i]:
			wins++
		case b[i] < a[i]:
			losses++
		default:
			ties++
		}
	}
	n := float64(len(a))
	if r.N != 40 || math.Abs(r.MeanA-sa/n) > 1e-12 || math.Abs(r.MeanB-sb/n) > 1e-12 ||
		math.Abs(r.MeanDiff-(sb-sa)/n) > 1e-12 {
		t.Errorf("n %d, means %v %v diff %v; want 40, %v %v %v", r.N, r.MeanA, r.MeanB, r.MeanDiff, sa/n, sb/n, (sb-sa)/n)
	}
	if r.Wins != wins || r.Ties != ties || r.Losses != losses || wins+ties+losses != r.N {
		t.Errorf("W/T/L %d/%d/%d, want %d/%d/%d", r.Wins, r.Ties, r.Losses, wins, ties, losses)
	}
	if r.Ties != 11 {
		t.Errorf("ties = %d, want the 11 zero differences", r.Ties)
	}
}

func TestCompareRejectsBadInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b []float64
		opts Options
		want string
	}{
		{"arms of different lengths", []float64{1, 2}, []float64{1}, Options{}, "arm a has 2 values and arm b has 1"},
		{"no pairs", nil, nil, Options{Metric: "VQ"}, "pairedstats VQ: no pairs"},
		{"a NaN names its index", []float64{1, math.NaN()}, []float64{1, 2}, Options{}, "a[1] is NaN"},
		{"an infinity names its arm and index", []float64{1, 2, 3}, []float64{1, 2, math.Inf(-1)}, Options{}, "b[2] is -Inf"},
		{"a value beyond MaxAbs", []float64{1e301}, []float64{1}, Options{}, "a[0] is 1e+301"},
		{"negative resamples", []float64{1}, []float64{2}, Options{Resamples: -1}, "Resamples is -1"},
		{"negative tie band", []float64{1}, []float64{2}, Options{TieEps: -0.1}, "TieEps is -0.1"},
		{"NaN tie band", []float64{1}, []float64{2}, Options{TieEps: math.NaN()}, "TieEps is NaN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compare(tc.a, tc.b, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestPairsDropsMissingSides(t *testing.T) {
	v := func(x float64) *float64 { return &x }
	a := []*float64{v(4), nil, v(3), v(5), nil}
	b := []*float64{v(4.5), v(2), nil, v(4), nil}
	ka, kb, dropped, err := Pairs(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if dropped != 3 || fmt.Sprint(ka) != "[4 5]" || fmt.Sprint(kb) != "[4.5 4]" {
		t.Errorf("kept %v %v, dropped %d; want [4 5] [4.5 4], 3", ka, kb, dropped)
	}
	if _, _, _, err := Pairs(a, b[:2]); err == nil || !strings.Contains(err.Error(), "arm a has 5 runs and arm b has 2") {
		t.Errorf("length mismatch: err = %v", err)
	}
}

func TestResultString(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    Result
		want string
	}{
		{"the paper's layout", Result{Metric: "IF", N: 40, MeanDiff: 0.42, CI95: [2]float64{0.1, 0.75},
			Wilcoxon: SignedRank{P: 0.0312}, Wins: 12, Ties: 20, Losses: 8},
			"IF: +0.42 [+0.10, +0.75] p=0.031 (W/T/L 12/20/8, n=40)"},
		{"a tiny p", Result{Metric: "IF", N: 94, MeanDiff: 2.36, CI95: [2]float64{1.77, 2.94},
			Wilcoxon: SignedRank{P: 1e-9}, Wins: 35, Ties: 15, Losses: 3},
			"IF: +2.36 [+1.77, +2.94] p<0.001 (W/T/L 35/15/3, n=94)"},
		{"small costs keep two significant digits", Result{Metric: "cost_usd", N: 6, MeanDiff: -0.0042, CI95: [2]float64{-0.0061, -0.0003},
			Wilcoxon: SignedRank{P: 0.03125}, Wins: 0, Ties: 0, Losses: 6},
			"cost_usd: -0.0042 [-0.0061, -0.0003] p=0.031 (W/T/L 0/0/6, n=6)"},
		{"no metric name and a negative zero", Result{N: 3, MeanDiff: 0, CI95: [2]float64{-0.001, 0.5},
			Wilcoxon: SignedRank{P: 1}, Ties: 3},
			"+0.00 [+0.00, +0.50] p=1.000 (W/T/L 0/3/0, n=3)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.r.String(); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func FuzzCompare(f *testing.F) {
	f.Add([]byte{12, 14, 8, 8, 20, 3, 7, 9}, 0.0, 1.0, uint64(1))
	f.Add([]byte{1, 1, 1, 1}, 0.5, 0.25, uint64(2))
	f.Add([]byte{0, 255, 255, 0, 128, 127}, 0.0, 1e299, uint64(3))
	f.Add([]byte{5, 6}, math.NaN(), 1.0, uint64(4))
	f.Fuzz(func(t *testing.T, data []byte, tieEps, scale float64, seed uint64) {
		n := len(data) / 2
		a := make([]float64, n)
		b := make([]float64, n)
		for i := range n {
			a[i] = float64(int8(data[2*i])) * scale
			b[i] = float64(int8(data[2*i+1])) * scale
		}
		r, err := Compare(a, b, Options{Resamples: 200, Seed: seed, TieEps: tieEps})
		if err != nil {
			return
		}
		p := r.Wilcoxon.P
		if !(p >= 0 && p <= 1) {
			t.Fatalf("p = %v outside [0, 1]", p)
		}
		lo, hi := r.CI95[0], r.CI95[1]
		if !(lo <= hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
			t.Fatalf("CI [%v, %v] is not a finite interval", lo, hi)
		}
		if r.Wins+r.Ties+r.Losses != r.N || r.N != n || r.Wilcoxon.NonZero != r.Wins+r.Losses {
			t.Fatalf("counts W/T/L %d/%d/%d, n %d, n' %d for %d pairs", r.Wins, r.Ties, r.Losses, r.N, r.Wilcoxon.NonZero, n)
		}
		if math.IsNaN(r.MeanDiff) || math.IsInf(r.MeanDiff, 0) {
			t.Fatalf("mean difference %v", r.MeanDiff)
		}
	})
}

func ExampleCompare() {
	// IF scores of ten tasks under two arms (a: one pass, b: self-correction).
	// One tie is dropped and 1.0 occurs three times among the nine |b - a|
	// left, so the p-value is the tie-corrected normal one (scipy:
	// wilcoxon(b, a, zero_method='wilcox', correction=True,
	// method='approx') gives 0.0571).
	a := []float64{3.0, 2.5, 4.0, 2.0, 3.5, 3.0, 4.5, 3.0, 2.0, 4.0}
	b := []float64{3.75, 2.25, 5.0, 3.0, 3.0, 4.5, 4.5, 3.875, 1.625, 5.0}
	r, err := Compare(a, b, Options{Metric: "IF", Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Println(r)
	fmt.Println(r.Wilcoxon.Method)
	// Output:
	// IF: +0.50 [+0.08, +0.91] p=0.057 (W/T/L 6/1/3, n=10)
	// normal
}
