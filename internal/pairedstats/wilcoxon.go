package pairedstats

import (
	"math"
	"sort"
)

// Method says how a signed-rank p-value was computed.
type Method string

const (
	// Exact: the p-value sums the exact null distribution of T+, in which
	// each of the 2^n' sign assignments to the ranks 1..n' is equally likely
	// (Wilcoxon 1945; Hollander & Wolfe). Used when at most ExactMaxN
	// nonzero differences remain and their absolute values have no ties,
	// so every rank is a whole number.
	Exact Method = "exact"
	// Normal: the large-sample normal approximation to T+, with the
	// variance reduced for tied absolute differences and a continuity
	// correction of 1/2 toward the mean (Hollander & Wolfe; the formula of
	// R's wilcox.test and scipy.stats.wilcoxon(correction=True)).
	Normal Method = "normal"
	// NoTest: every difference was a tie, so no rank carries a sign; the
	// data give no evidence either way and P is 1.
	NoTest Method = "none"
)

// ExactMaxN is the largest count of nonzero differences for which the exact
// null distribution is used (when there are no tied ranks). At 25 the table
// has 326 entries and 2^25 assignments, cheap to build by dynamic programming;
// at n' = 25 the normal approximation is already within 0.01 of it.
const ExactMaxN = 25

// rankTieRel is how close two absolute differences must be, relative to the
// larger, to share a midrank. Scores such as SCR are ratios (3/10 - 1/10 and
// 4/10 - 2/10 differ in the last bit), and floating-point noise must not
// turn equal differences into distinct ranks.
const rankTieRel = 1e-9

// SignedRank is the outcome of a two-sided Wilcoxon signed-rank test on
// paired differences d_i = b_i - a_i.
//
// Zero differences (|d_i| <= the tie band) are dropped before ranking, as in
// Wilcoxon's original method (scipy's zero_method="wilcox", R's default),
// not kept with rank as in Pratt (1959): a tie says nothing about direction,
// and dropping it keeps the exact table valid for the n' differences left.
type SignedRank struct {
	// NonZero is n', the count of differences left after dropping zeros.
	NonZero int `json:"nonzero"`
	// WPlus is T+, the sum of the midranks of |d_i| over the positive
	// differences, in 0..n'(n'+1)/2 (steps of 1/2 when ranks tie).
	WPlus float64 `json:"w_plus"`
	// Z is the normal deviate after continuity correction; 0 unless Method
	// is Normal.
	Z float64 `json:"z"`
	// P is the two-sided p-value, in [0, 1].
	P float64 `json:"p"`
	// Method says which null distribution gave P.
	Method Method `json:"method"`
}

// signedRank runs the two-sided Wilcoxon signed-rank test on d, treating
// |d_i| <= zeroEps as zero. d must be finite.
func signedRank(d []float64, zeroEps float64) SignedRank {
	var nz []float64
	for _, v := range d {
		if math.Abs(v) > zeroEps {
			nz = append(nz, v)
		}
	}
	n := len(nz)
	if n == 0 {
		return SignedRank{P: 1, Method: NoTest}
	}
	ranks, tieSizes := midranks(nz)
	wPlus := 0.0
	for i, v := range nz {
		if v > 0 {
			wPlus += ranks[i]
		}
	}
	res := SignedRank{NonZero: n, WPlus: wPlus}
	if n <= ExactMaxN && len(tieSizes) == 0 {
		res.Method = Exact
		res.P = exactP(n, int(math.Round(wPlus)))
		return res
	}
	res.Method = Normal
	res.Z, res.P = normalP(n, wPlus, tieSizes)
	return res
}

// midranks ranks |v| from 1 (smallest) to len(v), giving each group of tied
// absolute values the mean of the ranks it spans. It returns the rank of each
// v[i] and the size of every tie group larger than one.
func midranks(v []float64) (ranks []float64, tieSizes []int) {
	n := len(v)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return math.Abs(v[order[i]]) < math.Abs(v[order[j]]) })
	ranks = make([]float64, n)
	for start := 0; start < n; {
		first := math.Abs(v[order[start]])
		end := start + 1
		for end < n {
			next := math.Abs(v[order[end]])
			if next-first > rankTieRel*next {
				break
			}
			end++
		}
		// Ranks start+1 .. end share their mean.
		mid := float64(start+1+end) / 2
		for k := start; k < end; k++ {
			ranks[order[k]] = mid
		}
		if t := end - start; t > 1 {
			tieSizes = append(tieSizes, t)
		}
		start = end
	}
	return ranks, tieSizes
}

// signedRankCounts returns c where c[s] is the number of subsets of the
// ranks {1..n} whose sum is s, for s in 0..n(n+1)/2: under the null each
// subset is the set of positive ranks with probability 2^-n, so
// P(T+ = s) = c[s] / 2^n (Hollander & Wolfe's exact distribution). Built by
// adding one rank at a time, as for the subset-sum count.
func signedRankCounts(n int) []uint64 {
	maxSum := n * (n + 1) / 2
	c := make([]uint64, maxSum+1)
	c[0] = 1
	for k := 1; k <= n; k++ {
		for s := k * (k + 1) / 2; s >= k; s-- {
			c[s] += c[s-k]
		}
	}
	return c
}

// exactP is the two-sided exact p-value of T+ = w among n untied ranks:
// twice the smaller tail, P(T+ <= w) or P(T+ >= w), capped at 1.
func exactP(n, w int) float64 {
	c := signedRankCounts(n)
	var lower, upper uint64
	for s, k := range c {
		if s <= w {
			lower += k
		}
		if s >= w {
			upper += k
		}
	}
	total := math.Ldexp(1, n)
	p := 2 * float64(min(lower, upper)) / total
	return math.Min(p, 1)
}

// normalP is the two-sided p-value of T+ = wPlus among n ranks by the
// normal approximation: E[T+] = n(n+1)/4, Var[T+] = n(n+1)(2n+1)/24 minus
// sum(t^3 - t)/48 over tie groups of size t, and z = (T+ - E - sign*1/2)/sd
// with the continuity correction taken toward the mean as R and scipy do.
// P = 2(1 - Phi(|z|)) = erfc(|z|/sqrt 2).
func normalP(n int, wPlus float64, tieSizes []int) (z, p float64) {
	fn := float64(n)
	mean := fn * (fn + 1) / 4
	variance := fn * (fn + 1) * (2*fn + 1) / 24
	for _, t := range tieSizes {
		ft := float64(t)
		variance -= (ft*ft*ft - ft) / 48
	}
	dev := wPlus - mean
	switch {
	case dev > 0:
		dev -= 0.5
	case dev < 0:
		dev += 0.5
	}
	z = dev / math.Sqrt(variance)
	p = math.Erfc(math.Abs(z) / math.Sqrt2)
	return z, math.Min(p, 1)
}
