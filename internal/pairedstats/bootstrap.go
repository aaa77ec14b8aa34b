package pairedstats

import (
	"math"
	"math/rand/v2"
	"slices"
)

// DefaultResamples is the bootstrap resample count when Options.Resamples is
// 0: 10,000 puts the Monte Carlo error of a 2.5% percentile well below the
// two decimals a report shows (Efron & Tibshirani ch. 13 ask for >= 1,000).
const DefaultResamples = 10000

// pcgStream is the fixed second word of the PCG state; Options.Seed is the
// first. Any constant works; it only has to stay the same between runs.
const pcgStream = 0x5ace_0018_b007_57a7

// bootstrapCI returns the percentile-bootstrap interval [lo, hi] covering
// the central `level` share (0.95 for a 95% CI) of the mean of d: each of
// `resamples` resamples draws len(d) differences with replacement from d
// (pairs stay pairs, so the task-seed pairing is kept) and takes their mean.
// The percentiles interpolate linearly between order statistics (Hyndman
// and Fan's type 7, R's and numpy's default). The draws come from a PCG
// generator seeded with seed, so the same inputs give the same interval.
// d must be non-empty and every d_i/len(d) finite.
func bootstrapCI(d []float64, resamples int, seed uint64, level float64) (lo, hi float64) {
	n := len(d)
	// Summing d_i/n rather than dividing a sum by n keeps the sum inside
	// the float range, and it is the same arithmetic as meanOf, so a
	// constant d gives resample means equal to the point estimate.
	scaled := make([]float64, n)
	for i, v := range d {
		scaled[i] = v / float64(n)
	}
	rng := rand.New(rand.NewPCG(seed, pcgStream))
	means := make([]float64, resamples)
	for r := range means {
		s := 0.0
		for range n {
			s += scaled[rng.IntN(n)]
		}
		means[r] = s
	}
	slices.Sort(means)
	tail := (1 - level) / 2
	return percentile(means, tail), percentile(means, 1-tail)
}

// percentile is the q-quantile (0 <= q <= 1) of the sorted slice x by
// linear interpolation between the order statistics around (len(x)-1)q.
func percentile(x []float64, q float64) float64 {
	h := float64(len(x)-1) * q
	i := int(math.Floor(h))
	if i >= len(x)-1 {
		return x[len(x)-1]
	}
	lo, hi := x[i], x[i+1]
	if lo == hi {
		return lo
	}
	f := h - float64(i)
	// lo*(1-f) + hi*f cannot overflow where lo + f*(hi-lo) can; the clamp
	// keeps rounding from stepping outside [lo, hi].
	v := lo*(1-f) + hi*f
	return math.Min(math.Max(v, lo), hi)
}

// meanOf is the arithmetic mean of x, summed as x_i/len(x) (see
// bootstrapCI). x must be non-empty.
func meanOf(x []float64) float64 {
	n := float64(len(x))
	s := 0.0
	for _, v := range x {
		s += v / n
	}
	return s
}
