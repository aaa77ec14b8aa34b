package runner_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/cache"
	"github.com/acecanvas/ace/internal/deckio"
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/runner"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/internal/store"
)

// BenchmarkStepObservation is the cost of one of the agent's steps on the
// six real decks: a one-slide change applied to the working copy
// (Steps.ApplyRound) and observed (Steps.Observe: the changed slides of the
// working copy and of the iteration's start rendered, with the renderer's
// memo, and the observation built), eight steps per deck on successive
// slides. It reports the median and p95 step in ms and the median's ratio
// to rendering the whole deck once (one browser, no memo), the cost the
// step would have without per-slide renders. Issue 15's goal: a median of
// at most 200 ms for a one-slide change on a 2-core machine.
func BenchmarkStepObservation(b *testing.B) {
	paths, err := filepath.Glob(filepath.Join(shareddecks.PPTXDir(b), "*.pptx"))
	if err != nil || len(paths) == 0 {
		b.Fatalf("real decks: %v", err)
	}
	ctx := context.Background()
	p, err := render.NewPool(ctx, render.Options{Size: 1, Memo: cache.NewLRU(0, 0)})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	var steps []time.Duration
	var full time.Duration
	for b.Loop() {
		steps, full = steps[:0], 0
		for _, path := range paths {
			d, blobs, err := deckio.Load(path)
			if err != nil {
				b.Fatal(err)
			}
			st := store.NewMemory()
			if err := store.PutBlobs(ctx, st, blobs); err != nil {
				b.Fatal(err)
			}
			base, err := store.PutDeck(ctx, st, d)
			if err != nil {
				b.Fatal(err)
			}
			noMemo, err := render.NewPool(ctx, render.Options{Size: 1})
			if err != nil {
				b.Fatal(err)
			}
			t0 := time.Now()
			if _, err := noMemo.Render(ctx, d, store.Assets(ctx, st), render.Request{}); err != nil {
				b.Fatal(err)
			}
			full += time.Since(t0)
			noMemo.Close()

			s := &runner.Steps{Store: st, Renderer: p}
			cur := editloop.RoundOutput{DeckRef: base}
			for k := 0; k < 8; k++ {
				id := firstText(d.Slides[(k*3+1)%len(d.Slides)])
				if id == "" {
					continue
				}
				args, _ := json.Marshal(map[string]string{"nodeId": id, "text": fmt.Sprintf("Step %d: a revised line", k)})
				round := agent.Round{Turn: k + 1, Calls: []agent.RoundCall{{ID: "c", Tool: "set_text_content", Args: string(args)}}}
				t := time.Now()
				next, err := s.ApplyRound(ctx, editloop.RoundInput{BaseRef: base, CallsRef: cur.CallsRef, DeckRef: cur.DeckRef, Round: round})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := s.Observe(ctx, editloop.ObserveInput{BaselineRef: base, PrevRef: cur.DeckRef, DeckRef: next.DeckRef}); err != nil {
					b.Fatal(err)
				}
				steps = append(steps, time.Since(t))
				cur = next
			}
		}
	}
	slices.Sort(steps)
	median := steps[len(steps)/2]
	p95 := steps[(len(steps)*95)/100]
	fullPerDeck := full / time.Duration(len(paths))
	b.ReportMetric(float64(median.Microseconds())/1000, "ms/step-median")
	b.ReportMetric(float64(p95.Microseconds())/1000, "ms/step-p95")
	b.ReportMetric(float64(fullPerDeck.Microseconds())/1000, "ms/full-deck-render")
	b.ReportMetric(float64(median)/float64(fullPerDeck), "step/full-render")
}

// firstText is the id of the first text node of slide s, "" when none.
func firstText(s *scenegraph.Node) string {
	var id string
	s.Walk(func(n, _ *scenegraph.Node, _ int) bool {
		if id == "" && n.Type == scenegraph.TypeText && n.Characters != "" {
			id = n.ID
		}
		return id == ""
	})
	return id
}
