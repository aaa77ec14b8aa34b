package pairedstats

import (
	"math"
	"testing"
)

// The reference p-values below were printed by scipy 1.10.1 (Debian
// bookworm's python3-scipy) with the call quoted beside each case; the input
// vectors are the ones passed to it. scipy's statistic for a two-sided test
// is min(T+, T-), so the tests compare that rather than T+ itself.
var scipyCases = []struct {
	name   string
	a, b   []float64
	method Method
	stat   float64 // scipy's min(T+, T-)
	p      float64
}{
	{
		// wilcoxon(b, a, zero_method='wilcox', method='exact')
		name:   "small sample without ties uses the exact table",
		a:      []float64{3.0, 2.5, 4.0, 2.0, 3.5, 3.0, 4.5, 3.0, 2.0, 4.0},
		b:      []float64{3.75, 2.25, 5.25, 3.0, 3.0, 4.5, 4.625, 3.875, 1.625, 5.75},
		method: Exact, stat: 9, p: 0.064453125,
	},
	{
		// wilcoxon(b, a, zero_method='wilcox', correction=True, method='approx')
		name:   "tied absolute differences use the tie-corrected normal approximation",
		a:      []float64{2, 3, 1, 4, 2, 3, 3, 2, 4, 1, 2, 3},
		b:      []float64{3, 5, 2, 3, 4, 4, 5, 3, 5, 3, 1, 4},
		method: Normal, stat: 9, p: 0.016276057164915494,
	},
	{
		// d = b - a; wilcoxon(d[d != 0], method='exact'): scipy 1.10 falls
		// back to the normal approximation when zeros are present, so the
		// reference drops them first, as Wilcoxon's method does.
		name:   "zero differences are dropped and the rest use the exact table",
		a:      []float64{4.0, 3.0, 2.5, 3.5, 4.0, 2.0, 3.0, 1.5, 4.5, 3.0, 2.5, 3.5, 2.0, 4.0},
		b:      []float64{4.0, 4.25, 2.5, 5.0, 3.5, 4.75, 3.0, 2.375, 4.5, 3.125, 5.0, 3.5, 3.625, 3.25},
		method: Exact, stat: 5, p: 0.0390625,
	},
	{
		// IF-like judge scores, 40 pairs, 11 zeros, two tie groups.
		// wilcoxon(b, a, zero_method='wilcox', correction=True, method='approx')
		name:   "forty judge scores with zeros and ties use the normal approximation",
		a:      []float64{5.0, 3.0, 2.5, 4.5, 5.0, 2.5, 3.0, 2.0, 5.0, 5.0, 4.0, 3.5, 3.5, 4.0, 4.5, 4.0, 4.5, 3.5, 3.0, 2.0, 4.5, 3.0, 4.0, 4.5, 4.0, 5.0, 4.0, 5.0, 4.5, 5.0, 3.5, 2.0, 4.0, 4.5, 2.5, 4.0, 4.5, 4.0, 2.5, 4.0},
		b:      []float64{5.0, 2.5, 3.0, 5.0, 5.0, 3.5, 4.0, 1.0, 4.0, 5.0, 5.0, 3.0, 3.5, 4.0, 5.0, 4.5, 5.0, 4.0, 3.0, 2.5, 3.5, 3.0, 5.0, 5.0, 4.5, 5.0, 4.5, 5.0, 5.0, 5.0, 3.5, 2.5, 5.0, 5.0, 3.0, 3.0, 4.0, 3.5, 2.0, 4.5},
		method: Normal, stat: 152.5, p: 0.14488560586967245,
	},
	{
		// Wall times in seconds, 30 pairs, all |d| distinct: above ExactMaxN.
		// wilcoxon(b, a, zero_method='wilcox', correction=True, method='approx')
		name:   "thirty untied times use the normal approximation",
		a:      []float64{28.8, 21.2, 33.3, 47.6, 69.2, 69.0, 35.0, 35.7, 23.6, 21.6, 29.4, 72.6, 43.8, 44.4, 44.2, 36.8, 85.9, 85.9, 85.3, 70.4, 65.6, 60.2, 48.7, 68.8, 57.3, 72.7, 71.4, 63.3, 54.1, 70.8},
		b:      []float64{31.0, 22.4, 25.9, 39.3, 71.7, 71.9, 34.9, 36.8, 27.4, 15.9, 28.1, 62.9, 31.1, 46.2, 32.0, 26.5, 71.3, 63.7, 90.9, 49.5, 67.2, 52.3, 58.0, 68.0, 59.2, 82.1, 58.0, 51.9, 59.6, 84.9},
		method: Normal, stat: 163, p: 0.15583622304041933,
	},
	{
		// Costs in USD, 25 pairs, all |d| distinct: the largest exact case.
		// wilcoxon(b, a, zero_method='wilcox', method='exact')
		name:   "twenty-five untied costs use the exact table",
		a:      []float64{0.1051, 0.0711, 0.1975, 0.0346, 0.0294, 0.1537, 0.134, 0.0813, 0.074, 0.1082, 0.1796, 0.0659, 0.1124, 0.027, 0.1334, 0.0868, 0.0486, 0.1688, 0.0176, 0.1964, 0.1096, 0.1716, 0.1603, 0.1375, 0.1604},
		b:      []float64{0.096, 0.0734, 0.1776, 0.0315, 0.0059, 0.1475, 0.188, 0.0817, 0.1166, 0.1278, 0.1446, 0.0729, 0.1085, 0.0, 0.1292, 0.1333, 0.0949, 0.1662, 0.006, 0.205, 0.1297, 0.2208, 0.1527, 0.1191, 0.1686},
		method: Exact, stat: 146, p: 0.6720751523971558,
	},
}

func TestSignedRankMatchesScipy(t *testing.T) {
	for _, tc := range scipyCases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Compare(tc.a, tc.b, Options{Resamples: 100})
			if err != nil {
				t.Fatal(err)
			}
			w := r.Wilcoxon
			if w.Method != tc.method {
				t.Errorf("method = %s, want %s", w.Method, tc.method)
			}
			total := float64(w.NonZero*(w.NonZero+1)) / 2
			if got := math.Min(w.WPlus, total-w.WPlus); got != tc.stat {
				t.Errorf("min(T+, T-) = %v, want %v (T+ = %v, n' = %d)", got, tc.stat, w.WPlus, w.NonZero)
			}
			if math.Abs(w.P-tc.p) > 1e-4 {
				t.Errorf("p = %.10f, want %.10f (scipy)", w.P, tc.p)
			}
			// Swapping the arms mirrors T+ and must leave the two-sided p.
			s, err := Compare(tc.b, tc.a, Options{Resamples: 100})
			if err != nil {
				t.Fatal(err)
			}
			if s.Wilcoxon.WPlus != total-w.WPlus || math.Abs(s.Wilcoxon.P-tc.p) > 1e-4 {
				t.Errorf("swapped arms: T+ = %v, p = %.10f; want %v, %.10f", s.Wilcoxon.WPlus, s.Wilcoxon.P, total-w.WPlus, tc.p)
			}
		})
	}
}

// Hollander & Wolfe (1973), p. 29, also the example in R's wilcox.test help:
// Hamilton depression scale factor IV for 9 patients at the first (x) and
// second (y) visit after a tranquilliser. T+ = 40 for x - y. By hand: T- = 5,
// and the subsets of {1..9} summing to at most 5 are {}, {1}, {2}, {3}, {4},
// {5}, {1,2}, {1,3}, {1,4}, {2,3}: 10 of 512, so p = 2 * 10/512 = 0.0390625.
func TestSignedRankHollanderWolfeExample(t *testing.T) {
	x := []float64{1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30}
	y := []float64{0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29}
	r, err := Compare(y, x, Options{Metric: "HAM-D", Resamples: 100})
	if err != nil {
		t.Fatal(err)
	}
	if r.Wilcoxon.WPlus != 40 || r.Wilcoxon.Method != Exact || r.Wilcoxon.P != 0.0390625 {
		t.Errorf("got %+v, want T+ = 40, exact, p = 0.0390625", r.Wilcoxon)
	}
	if r.Wins != 7 || r.Losses != 2 || r.Ties != 0 {
		t.Errorf("W/T/L = %d/%d/%d, want 7/0/2", r.Wins, r.Ties, r.Losses)
	}
}

// The exact table counts subsets of {1..n} by their sum (OEIS A053632).
func TestSignedRankCounts(t *testing.T) {
	want := map[int][]uint64{
		1: {1, 1},
		3: {1, 1, 1, 2, 1, 1, 1},
		4: {1, 1, 1, 2, 2, 2, 2, 2, 1, 1, 1},
	}
	for n, w := range want {
		got := signedRankCounts(n)
		if len(got) != len(w) {
			t.Fatalf("n=%d: %v, want %v", n, got, w)
		}
		for s := range w {
			if got[s] != w[s] {
				t.Fatalf("n=%d: %v, want %v", n, got, w)
			}
		}
	}
	for n := 1; n <= ExactMaxN; n++ {
		c := signedRankCounts(n)
		var sum uint64
		for s, k := range c {
			sum += k
			if k != c[len(c)-1-s] {
				t.Fatalf("n=%d: table not symmetric at %d", n, s)
			}
		}
		if sum != 1<<n {
			t.Fatalf("n=%d: table sums to %d, want 2^n = %d", n, sum, uint64(1)<<n)
		}
	}
}

// At n = 25 the normal approximation and the exact table agree to within
// 0.01 (the widest gap of these, 0.0065, is at T+ = 130); a wrong mean,
// variance or tail in either would open a wider one.
func TestExactAndNormalAgreeAtTwentyFive(t *testing.T) {
	const n = ExactMaxN
	for _, w := range []int{60, 90, 110, 130, 162} {
		exact := exactP(n, w)
		_, normal := normalP(n, float64(w), nil)
		if math.Abs(exact-normal) > 0.01 {
			t.Errorf("T+ = %d: exact p %.5f, normal p %.5f", w, exact, normal)
		}
	}
}

func TestMidranksShareTiesAcrossFloatNoise(t *testing.T) {
	// 0.3-0.1 and 0.4-0.2 differ in the last bit; SCR shares produce such
	// differences, and they must tie like 2 and 2 do.
	noisy := []float64{0.3 - 0.1, -(0.4 - 0.2), 0.5, 0.7 - 0.6}
	ranks, ties := midranks(noisy)
	want := []float64{2.5, 2.5, 4, 1}
	for i := range want {
		if ranks[i] != want[i] {
			t.Fatalf("ranks = %v, want %v", ranks, want)
		}
	}
	if len(ties) != 1 || ties[0] != 2 {
		t.Errorf("tie groups = %v, want [2]", ties)
	}
}

func TestAllZeroDifferencesGiveNoTest(t *testing.T) {
	a := []float64{1, 2, 3}
	r, err := Compare(a, a, Options{Resamples: 50})
	if err != nil {
		t.Fatal(err)
	}
	if r.Wilcoxon.Method != NoTest || r.Wilcoxon.P != 1 || r.Ties != 3 {
		t.Errorf("got %+v, want no test, p = 1, 3 ties", r)
	}
}

func TestTieEpsWidensZerosAndTies(t *testing.T) {
	a := []float64{3, 3, 3, 3, 3, 3, 3, 3}
	b := []float64{3.01, 2.99, 4, 4.5, 3.5, 2, 5, 3.02}
	strict, err := Compare(a, b, Options{Resamples: 50})
	if err != nil {
		t.Fatal(err)
	}
	loose, err := Compare(a, b, Options{Resamples: 50, TieEps: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	if strict.Wilcoxon.NonZero != 8 || strict.Ties != 0 {
		t.Errorf("TieEps 0: n' = %d, ties = %d; want 8, 0", strict.Wilcoxon.NonZero, strict.Ties)
	}
	if loose.Wilcoxon.NonZero != 5 || loose.Wins != 4 || loose.Ties != 3 || loose.Losses != 1 {
		t.Errorf("TieEps 0.05: n' = %d, W/T/L %d/%d/%d; want 5, 4/3/1",
			loose.Wilcoxon.NonZero, loose.Wins, loose.Ties, loose.Losses)
	}
	// With 0.01, -0.01 and 0.02 dropped, d = 1, 1.5, 0.5, -1, 2 has
	// midranks 2.5, 4, 1, 2.5, 5, so T+ = 2.5 + 4 + 1 + 5.
	if loose.Wilcoxon.WPlus != 12.5 {
		t.Errorf("TieEps 0.05: T+ = %v, want 12.5", loose.Wilcoxon.WPlus)
	}
}
