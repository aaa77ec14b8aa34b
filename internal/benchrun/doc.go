// Package benchrun is the harness of `ace bench`: it runs every task of a
// bench suite (internal/bench) under named arms and seeds through the
// full edit loop in process (internal/runner, the path `ace edit` takes,
// with the render pool), checks each result as a user opens it (the
// loop's export imported again, bench.Task.Evaluate), measures the
// clean-slide rate of the final render, and records one Row per run
// (results.jsonl). Summarize compares arms pairwise on the same task and
// seed (internal/pairedstats: mean difference, bootstrap 95% CI,
// Wilcoxon p, win/tie/loss) for IF, VQ, checks passed, SCR, time and cost,
// as the ACE paper's §5.4 reports its ablations.
//
// A seed is a repetition: the models run at temperature 0 (ACE §5.1), so
// seeds measure how much a served model varies between identical runs,
// and pair the same repetition across arms.
package benchrun
