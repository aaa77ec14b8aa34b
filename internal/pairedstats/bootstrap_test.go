package pairedstats

import (
	"math"
	"testing"
)

// ifScores is the forty-pair judge-score case of scipyCases: a realistic
// IF comparison with ties and zeros.
func ifScores(t *testing.T) (a, b []float64) {
	t.Helper()
	for _, tc := range scipyCases {
		if len(tc.a) == 40 {
			return tc.a, tc.b
		}
	}
	t.Fatal("no forty-pair case in scipyCases")
	return nil, nil
}

func TestBootstrapIsDeterministicForASeed(t *testing.T) {
	a, b := ifScores(t)
	first, err := Compare(a, b, Options{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	again, err := Compare(a, b, Options{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if first.CI95 != again.CI95 {
		t.Errorf("seed 7 gave %v then %v", first.CI95, again.CI95)
	}
	other, err := Compare(a, b, Options{Seed: 8})
	if err != nil {
		t.Fatal(err)
	}
	if other.CI95 == first.CI95 {
		t.Errorf("seeds 7 and 8 gave the same interval %v; the seed is not reaching the generator", first.CI95)
	}
}

// The percentile interval of a mean over 40 pairs is close to the normal
// one, mean ± 1.96 sd/sqrt(n) with the plug-in sd (divisor n), which the
// bootstrap estimates. A resampler that drew without replacement (zero
// width), drew too few values or mixed up pairs would miss it by far more
// than the 10% allowed here.
func TestBootstrapIntervalMatchesNormalTheory(t *testing.T) {
	a, b := ifScores(t)
	r, err := Compare(a, b, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	n := float64(len(a))
	var ss float64
	for i := range a {
		dev := b[i] - a[i] - r.MeanDiff
		ss += dev * dev
	}
	half := 1.96 * math.Sqrt(ss/n) / math.Sqrt(n)
	if !(r.CI95[0] < r.MeanDiff && r.MeanDiff < r.CI95[1]) {
		t.Fatalf("CI %v does not contain the mean difference %v", r.CI95, r.MeanDiff)
	}
	for i, got := range []float64{r.MeanDiff - r.CI95[0], r.CI95[1] - r.MeanDiff} {
		if math.Abs(got-half)/half > 0.10 {
			t.Errorf("half-width %d = %.4f, normal theory %.4f", i, got, half)
		}
	}
}

func TestBootstrapCollapsesOnConstantDifferences(t *testing.T) {
	a := []float64{1, 2.5, 3, 4, 0.5, 2}
	b := make([]float64, len(a))
	for i := range a {
		b[i] = a[i] + 0.25
	}
	r, err := Compare(a, b, Options{Seed: 3, Resamples: 500})
	if err != nil {
		t.Fatal(err)
	}
	if r.CI95[0] != r.MeanDiff || r.CI95[1] != r.MeanDiff || math.Abs(r.MeanDiff-0.25) > 1e-15 {
		t.Errorf("constant +0.25: mean %v, CI %v; want both ends at the mean, 0.25", r.MeanDiff, r.CI95)
	}
	if r.Wilcoxon.Method != Normal {
		t.Errorf("six tied |d| ranks: method %s, want normal", r.Wilcoxon.Method)
	}
}

// Type 7 percentiles as numpy.percentile and R's quantile compute them.
func TestPercentileInterpolates(t *testing.T) {
	x := []float64{1, 2, 3, 4, 5}
	for _, tc := range []struct{ q, want float64 }{
		{0, 1}, {0.1, 1.4}, {0.25, 2}, {0.5, 3}, {0.975, 4.9}, {1, 5},
	} {
		if got := percentile(x, tc.q); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("percentile(%v, %v) = %v, want %v", x, tc.q, got, tc.want)
		}
	}
}
