package main

import (
	"encoding/json"
	"fmt"
	"os"
)

// stepCosts is the JSON scripts/benchratio -costs writes from a `make bench`
// run (out/bench/stepcosts.json; the default in testdata/bench). Figures
// are milliseconds of one worker's time.
type stepCosts struct {
	Benchtime string  `json:"benchtime"`
	Cores     int     `json:"cores"`
	Load1Max  float64 `json:"load1_max"`
	// The machine's busy cores just before the run and others' average
	// busy cores during it (scripts/benchcpu); -1 when the file predates
	// them.
	BusyStart        float64   `json:"busy_start"`
	OtherCPU         float64   `json:"other_cpu"`
	Recorded         string    `json:"recorded"`
	RouteMS          float64   `json:"route_ms"`
	ActRoundMS       float64   `json:"act_round_ms"`
	RenderSlideMS    float64   `json:"render_slide_ms"`
	DiffSlideMS      float64   `json:"diff_slide_ms"`
	JudgeRoundTripMS float64   `json:"judge_roundtrip_ms"`
	ImportMS         []float64 `json:"import_ms"`
	ExportMS         []float64 `json:"export_ms"`
	OrchestrationMS  float64   `json:"orchestration_ms"`
	NATSPutMS        float64   `json:"nats_put_ms"`
	NATSGetMS        float64   `json:"nats_get_ms"`
	SlidesPerDeck    float64   `json:"slides_per_deck"`
	Missing          []string  `json:"missing"`
}

// readCosts reads path; a file missing a figure the simulation needs is
// an error naming the figure and how to get it.
func readCosts(path string) (*stepCosts, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("acesim: -costs %s: %w; run make bench (writes out/bench/stepcosts.json) or give testdata/bench/stepcosts.json", path, err)
	}
	c := stepCosts{Load1Max: -1, BusyStart: -1, OtherCPU: -1}
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("acesim: -costs %s: not the JSON scripts/benchratio -costs writes: %w", path, err)
	}
	need := map[string]bool{
		"render_slide_ms": c.RenderSlideMS > 0, "slides_per_deck": c.SlidesPerDeck > 0,
		"import_ms": len(c.ImportMS) > 0, "export_ms": len(c.ExportMS) > 0,
		"nats_put_ms": c.NATSPutMS > 0, "nats_get_ms": c.NATSGetMS > 0,
	}
	for name, ok := range need {
		if !ok {
			return nil, fmt.Errorf("acesim: -costs %s has no %s (the make bench run did not measure it); rerun make bench or use testdata/bench/stepcosts.json", path, name)
		}
	}
	return &c, nil
}
