// Package pairedstats compares two arms of a benchmark on the same tasks and
// seeds, as ACE §5.4 (Table 5) reports them: the mean paired difference
// (arm b minus arm a) with a percentile-bootstrap 95% confidence interval, a
// two-sided Wilcoxon signed-rank p-value, and win/tie/loss counts.
//
// Inputs are two slices of equal length where index i holds the same
// task-seed run under arm a and under arm b, in the metric's own unit (IF and
// VQ on the 0-5 judge scale, checks passed as a count or share, SCR as a
// share 0-1, wall time in seconds, cost in USD). Runs that have no value for
// a metric (a judge that did not answer, a run that failed) go through Pairs
// first, which drops every pair with a missing side and says how many.
//
// Sources:
//   - Wilcoxon, F. (1945) "Individual comparisons by ranking methods",
//     Biometrics Bulletin 1(6):80-83: the signed-rank statistic and the
//     method of dropping zero differences.
//   - Hollander, M. and Wolfe, D. A. Nonparametric Statistical Methods
//     (1973, 2nd ed. 1999), the one-sample signed-rank chapter: the exact
//     null distribution of T+, its large-sample normal approximation, the
//     variance correction for tied absolute differences, and the worked
//     example (Hamilton depression scale, 9 patients, 1973 ed. p. 29) that
//     the tests check by hand.
//   - Efron, B. and Tibshirani, R. J. (1993) An Introduction to the
//     Bootstrap, ch. 13: the percentile interval.
//
// The normal approximation and its continuity correction follow the same
// formula as R's wilcox.test and scipy.stats.wilcoxon(correction=True), so
// results can be checked against either.
package pairedstats
