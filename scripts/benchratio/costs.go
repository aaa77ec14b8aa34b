package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

// StepCosts are the per-step costs of the main job as one `make bench` run
// measured them, the input of the scaling simulation (cmd/acesim,
// docs/scaling.md). Every figure is in milliseconds of one worker's time
// unless its name says otherwise; a figure the run did not measure is 0
// and named in Missing. Source names the benchmark behind each figure.
type StepCosts struct {
	Benchtime string  `json:"benchtime"`
	Cores     int     `json:"cores"`
	Load1Max  float64 `json:"load1_max"` // highest 1-minute load average during the run, its own load included; -1 not recorded
	// The machine's busy cores just before the run, the 1-minute load
	// average then, and the average busy cores of other processes over
	// the run (scripts/benchcpu); -1 not recorded.
	BusyStart  float64 `json:"busy_start"`
	Load1Start float64 `json:"load1_start"`
	OtherCPU   float64 `json:"other_cpu"`
	Recorded   string  `json:"recorded,omitempty"`

	RouteMS          float64   `json:"route_ms"`            // CARE routing of one instruction
	ActRoundMS       float64   `json:"act_round_ms"`        // ACE's side of one agent round (model latency excluded)
	RenderSlideMS    float64   `json:"render_slide_ms"`     // one real slide, one warm browser (1 / slides per s)
	DiffSlideMS      float64   `json:"diff_slide_ms"`       // JsonDiff per slide
	JudgeRoundTripMS float64   `json:"judge_roundtrip_ms"`  // ACE's side of one model call (local server)
	ImportMS         []float64 `json:"import_ms"`           // PPTX import, one figure per real deck
	ExportMS         []float64 `json:"export_ms"`           // PPTX export of the edited deck, one per real deck
	OrchestrationMS  float64   `json:"orchestration_ms"`    // Temporal overhead of one edit iteration (workflow minus in-process)
	NATSPutMS        float64   `json:"nats_put_ms"`         // one deck object put to JetStream object store
	NATSGetMS        float64   `json:"nats_get_ms"`         // one deck object get
	RecipeSlidesPerS float64   `json:"recipe_slides_per_s"` // the whole recipe batch over the real decks, in process
	SlidesPerDeck    float64   `json:"slides_per_deck"`     // mean slides of the real decks the render figure ran over

	Source  map[string]string `json:"source"`
	Missing []string          `json:"missing,omitempty"`
}

// costsFrom picks the step costs out of a run's figures.
func costsFrom(f figures, info runInfo) StepCosts {
	c := StepCosts{Benchtime: info.benchtime, Cores: info.cores, Load1Max: info.load1Max, Load1Start: info.load1Start, BusyStart: info.busyStart, OtherCPU: info.otherCPU, Recorded: info.recorded, Source: map[string]string{}}
	ms := func(field, bench, unit string, scale float64) float64 {
		v, ok := f[bench][unit]
		if !ok {
			c.Missing = append(c.Missing, field)
			return 0
		}
		c.Source[field] = bench + " " + unit
		return v * scale
	}
	const nsToMS = 1e-6
	c.RouteMS = ms("route_ms", "route.BenchmarkHeuristic", "ns/op", nsToMS)
	c.ActRoundMS = ms("act_round_ms", "agent.BenchmarkActRound", "ns/op", nsToMS)
	const realDecks = "fidelity.BenchmarkRealDeckSlidesPerSecond/pool=1"
	if sps := ms("render_slide_ms", realDecks, "slides/s", 1); sps > 0 {
		c.RenderSlideMS = 1000 / sps
		// One op renders every slide of the six real decks once.
		c.SlidesPerDeck = f[realDecks]["ns/op"] * 1e-9 * sps / 6
		c.Source["slides_per_deck"] = realDecks + " ns/op x slides/s / 6 decks"
	}
	c.DiffSlideMS = ms("diff_slide_ms", "diff.BenchmarkCompute1000Slides", "ns/op", nsToMS/1000)
	c.JudgeRoundTripMS = ms("judge_roundtrip_ms", "llm.BenchmarkChatRoundTrip", "ns/op", nsToMS)
	c.OrchestrationMS = ms("orchestration_ms", "workers.BenchmarkOrchestrationOverhead", "ms/iter-workflow", 1)
	c.NATSPutMS = ms("nats_put_ms", "store.BenchmarkNATSPut", "ns/op", nsToMS)
	c.NATSGetMS = ms("nats_get_ms", "store.BenchmarkNATSGet", "ns/op", nsToMS)
	c.RecipeSlidesPerS = ms("recipe_slides_per_s", "workers.BenchmarkRecipeBatchRealDecks", "slides/s", 1)
	names := make([]string, 0, len(f))
	for n := range f {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		switch {
		case strings.HasPrefix(n, "pptx.BenchmarkImport/"):
			c.ImportMS = append(c.ImportMS, f[n]["ns/op"]*nsToMS)
		case strings.HasPrefix(n, "pptx.BenchmarkExport/") && strings.HasSuffix(n, "/edited"):
			c.ExportMS = append(c.ExportMS, f[n]["ns/op"]*nsToMS)
		}
	}
	if len(c.ImportMS) == 0 {
		c.Missing = append(c.Missing, "import_ms")
	} else {
		c.Source["import_ms"] = "pptx.BenchmarkImport/* ns/op"
	}
	if len(c.ExportMS) == 0 {
		c.Missing = append(c.Missing, "export_ms")
	} else {
		c.Source["export_ms"] = "pptx.BenchmarkExport/*/edited ns/op"
	}
	return c
}

// writeCosts writes c as indented JSON to path.
func writeCosts(path string, c StepCosts) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("benchratio: -costs %s: %w", path, err)
	}
	return nil
}
