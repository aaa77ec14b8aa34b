// Command acesim predicts how ACE's main job scales: it replays the
// per-step costs one `make bench` run measured (scripts/benchratio
// -costs; out/bench/stepcosts.json, default testdata/bench/stepcosts.json)
// over N workers with Temporal task queues, NATS, Chromium workers and
// the model's rate limit as resources, in a discrete-event simulation
// (sim.go), and prints for each workload, worker count and batch size the
// batch's duration, decks per minute, each resource's utilisation and
// the bottleneck. docs/scaling.md explains the model and its sources.
//
// Usage: go run ./cmd/acesim [-costs FILE] [-workers 8,32,128] [-decks 10000,1000000] [flags]
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// capacities are the resources' sizes that are not measured by make bench:
// each flag's help names its source or says it is an assumption.
type capacities struct {
	temporalAPS   float64 // Temporal actions per second (namespace limit)
	natsServers   int     // JetStream requests served at once
	modelRPM      float64
	modelTPM      float64
	tokensPerCall float64
	modelLatencyS float64
	agentRounds   int
	changedShare  float64 // share of a deck's slides an edit changes (rendered before and after)
	renderFactor  float64 // a workflow render's cost over the in-process render of the same slides
}

const (
	resTemporal = iota
	resNATS
	resCPU
	resChromium
	resModel
	resCount
)

var resNames = [resCount]string{"temporal", "nats", "cpu", "chromium", "model"}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}

func run(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("acesim", flag.ContinueOnError)
	costsPath := fs.String("costs", "", "per-step costs JSON (default out/bench/stepcosts.json when make bench wrote it, else testdata/bench/stepcosts.json)")
	workersList := fs.String("workers", "8,32,128", "render worker counts to simulate (one Chromium each; each worker also has one CPU activity slot)")
	decksList := fs.String("decks", "10000,1000000", "batch sizes to simulate (decks)")
	var c capacities
	fs.Float64Var(&c.temporalAPS, "temporal-aps", 400, "Temporal actions per second: 400 is Temporal Cloud's default namespace limit (docs.temporal.io, Cloud operating envelope); a self-hosted cluster's is its persistence's (measure it)")
	fs.IntVar(&c.natsServers, "nats-concurrency", 4, "JetStream object-store requests served at once, each taking the measured put/get time (assumption: one server, file storage; measure with nats bench --js)")
	fs.Float64Var(&c.modelRPM, "model-rpm", 10000, "model requests per minute allowed (assumption: set your provider's tier)")
	fs.Float64Var(&c.modelTPM, "model-tpm", 2000000, "model tokens per minute allowed (assumption: set your provider's tier)")
	fs.Float64Var(&c.tokensPerCall, "tokens-per-call", 8000, "prompt+completion tokens per model call (assumption; ace edit --record prints the real figure)")
	fs.Float64Var(&c.modelLatencyS, "model-latency", 3, "seconds one model call takes (assumption)")
	fs.IntVar(&c.agentRounds, "agent-rounds", 6, "agent rounds (model calls) per instruction edit, plus one judge call (assumption; ace edit --record prints the real figure)")
	fs.Float64Var(&c.changedShare, "changed", 1, "share of each deck's slides the edit changes (each rendered before and after); 1 for the rebrand recipe")
	fs.Float64Var(&c.renderFactor, "render-factor", 1, "a workflow render's cost over the in-process render make bench measures: issue 22 measured 2.2 from the Temporal histories before renders were reused (its goal: at most 1.2)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	path := *costsPath
	if path == "" {
		path = "testdata/bench/stepcosts.json"
		if _, err := os.Stat("out/bench/stepcosts.json"); err == nil {
			path = "out/bench/stepcosts.json"
		}
	}
	costs, err := readCosts(path)
	if err != nil {
		return err
	}
	workers, err := ints("workers", *workersList)
	if err != nil {
		return err
	}
	decks, err := ints("decks", *decksList)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "acesim: step costs from %s (benchtime %s, %d cores, recorded %s, %s)\n",
		path, costs.Benchtime, costs.Cores, costs.Recorded, machineText(costs))
	fmt.Fprintf(w, "acesim: render %.1f ms/slide, %.1f slides/deck, import %.0f-%.0f ms, export %.0f-%.0f ms, orchestration %.0f ms/deck, NATS put/get %.2f/%.2f ms\n",
		costs.RenderSlideMS, costs.SlidesPerDeck, minOf(costs.ImportMS), maxOf(costs.ImportMS), minOf(costs.ExportMS), maxOf(costs.ExportMS), costs.OrchestrationMS, costs.NATSPutMS, costs.NATSGetMS)
	fmt.Fprintf(w, "acesim: Temporal %.0f actions/s, NATS %d at once, model %.0f RPM / %.0f TPM, %.0f tokens and %.1f s per call, %d agent rounds, %.0f%% of slides changed, render factor %.2g\n\n",
		c.temporalAPS, c.natsServers, c.modelRPM, c.modelTPM, c.tokensPerCall, c.modelLatencyS, c.agentRounds, 100*c.changedShare, c.renderFactor)
	fmt.Fprintf(w, "%-11s %7s %9s %10s %10s   %-8s %-8s %-8s %-8s %-8s  %s\n", "workload", "workers", "decks", "hours", "decks/min", "temporal", "nats", "cpu", "chromium", "model", "bottleneck")
	for _, wl := range []string{"recipe", "instruction"} {
		for _, n := range workers {
			for _, d := range decks {
				res := resources(n, c)
				r := simulate(res, d, plan(wl, costs, c))
				b := 0
				for i := range r.util {
					if r.util[i] > r.util[b] {
						b = i
					}
				}
				u := func(i int) string { return fmt.Sprintf("%.0f%%", 100*r.util[i]) }
				fmt.Fprintf(w, "%-11s %7d %9d %10.2f %10.0f   %-8s %-8s %-8s %-8s %-8s  %s\n", wl, n, d, r.makespanS/3600, float64(d)/(r.makespanS/60),
					u(resTemporal), u(resNATS), u(resCPU), u(resChromium), u(resModel), resNames[b])
			}
		}
	}
	return nil
}

// resources builds the simulated resources for n render workers.
func resources(n int, c capacities) []*resource {
	res := make([]*resource, resCount)
	res[resTemporal] = &resource{name: "temporal", servers: 1}
	res[resNATS] = &resource{name: "nats", servers: c.natsServers}
	res[resCPU] = &resource{name: "cpu", servers: n}
	res[resChromium] = &resource{name: "chromium", servers: n}
	res[resModel] = &resource{name: "model", servers: 1}
	return res
}

// plan returns the op sequence of one deck of workload wl. Each activity
// is one Temporal action (scheduling it), a NATS get of its input, its
// work on its task queue's workers, a NATS put of its output; the deck's
// workflow start is one more action and the measured orchestration
// overhead one delay.
func plan(wl string, s *stepCosts, c capacities) planner {
	ms := func(x float64) float64 { return x / 1000 }
	modelInterval := max(60/c.modelRPM, c.tokensPerCall/(c.modelTPM/60))
	slides := s.SlidesPerDeck * c.changedShare * c.renderFactor
	// The ops are the same for every deck but the import and the export,
	// drawn from the six real decks' figures: one template, two
	// placeholders, so a million decks cost a million step counters.
	const importOp, exportOp = -2, -3
	acts := [][]op{{{importOp, 0}}}
	if wl == "instruction" {
		acts = append(acts, []op{{resCPU, ms(s.RouteMS)}})
		var agent []op
		for range c.agentRounds {
			agent = append(agent, op{resModel, modelInterval}, op{-1, c.modelLatencyS}, op{resCPU, ms(s.ActRoundMS)})
		}
		acts = append(acts, agent)
	} else {
		acts = append(acts, []op{{resCPU, ms(s.ActRoundMS)}})
	}
	acts = append(acts,
		[]op{{resChromium, ms(s.RenderSlideMS) * slides}}, // before
		[]op{{resChromium, ms(s.RenderSlideMS) * slides}}, // after
		[]op{{resCPU, ms(s.DiffSlideMS) * s.SlidesPerDeck}})
	if wl == "instruction" {
		acts = append(acts, []op{{resModel, modelInterval}, {-1, c.modelLatencyS}, {resCPU, ms(s.JudgeRoundTripMS)}})
	}
	acts = append(acts, []op{{exportOp, 0}})
	seq := []op{{resTemporal, 1 / c.temporalAPS}, {-1, ms(s.OrchestrationMS)}}
	for _, a := range acts {
		seq = append(seq, op{resTemporal, 1 / c.temporalAPS}, op{resNATS, ms(s.NATSGetMS)})
		seq = append(seq, a...)
		seq = append(seq, op{resNATS, ms(s.NATSPutMS)})
	}
	return func(deck int32, step int) (op, bool) {
		if step >= len(seq) {
			return op{}, false
		}
		switch o := seq[step]; o.res {
		case importOp:
			return op{resCPU, ms(pick(s.ImportMS, deck, 1))}, true
		case exportOp:
			return op{resCPU, ms(pick(s.ExportMS, deck, 2))}, true
		default:
			return o, true
		}
	}
}

func ints(name, list string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, errors.New("acesim: -" + name + " " + list + ": want positive whole numbers separated by commas, e.g. 8,32,128")
		}
		out = append(out, n)
	}
	return out, nil
}

// machineText says how busy the machine was: others' CPU when the run
// recorded it (the 1-minute load counts the run's own), else that load.
func machineText(c *stepCosts) string {
	if c.OtherCPU >= 0 {
		s := fmt.Sprintf("other processes %.2f cores on average", c.OtherCPU)
		if c.BusyStart >= 0 {
			s = fmt.Sprintf("%.2f cores busy before it, %s", c.BusyStart, s)
		}
		return s
	}
	return "1-minute load " + loadText(c.Load1Max)
}

func loadText(l float64) string {
	if l < 0 {
		return "not recorded"
	}
	return strconv.FormatFloat(l, 'f', 2, 64)
}

func minOf(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs {
		m = min(m, x)
	}
	return m
}

func maxOf(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}
