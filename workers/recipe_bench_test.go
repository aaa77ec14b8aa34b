package workers

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/deckio"
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/runner"
	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/internal/store"
)

// realDecks returns the six real decks and their total slide count.
func realDecks(b *testing.B) ([]string, int) {
	paths := shareddecks.PPTX(b)
	slides := 0
	for _, p := range paths {
		d, _, err := deckio.Load(p)
		if err != nil {
			b.Fatal(err)
		}
		slides += len(d.Slides)
	}
	return paths, slides
}

func rebrandEdit(b *testing.B) Edit {
	path := filepath.Join(shareddecks.Root(b), "testdata", "recipes", "rebrand.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return Edit{RecipePath: path, RecipeData: data}
}

// BenchmarkRecipeBatchRealDecks is the main job's throughput: the rebrand
// recipe over the six real decks through ACE_JOBS, the dispatcher and
// EditWorkflow on the embedded stack (workers in this process, render pool
// of 2), reported as decks/min and slides/s. Each iteration is a new batch.
func BenchmarkRecipeBatchRealDecks(b *testing.B) {
	if shared.err != nil {
		b.Fatalf("embedded stack: %v", shared.err)
	}
	c := shared.conn
	paths, slides := realDecks(b)
	edit := rebrandEdit(b)
	ctx := context.Background()
	var total time.Duration
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		batch, jobs, err := PrepareJobs(ctx, c.Store, fmt.Sprintf("bench-%d-%d", time.Now().UnixNano(), i), paths, edit)
		if err != nil {
			b.Fatal(err)
		}
		if err := Submit(ctx, c.JS, batch, jobs); err != nil {
			b.Fatal(err)
		}
		keys := make([]string, len(jobs))
		for k, j := range jobs {
			keys[k] = j.Key
		}
		fctx, cancel := context.WithTimeout(ctx, 20*time.Minute)
		st, err := Follow(fctx, c.JS, batch, keys, nil)
		cancel()
		if err != nil {
			b.Fatal(err)
		}
		for _, k := range keys {
			if r := st.Decks[k].Result; r == nil || r.Outcome == "failed" {
				b.Fatalf("deck %s did not finish: %+v", k, r)
			}
		}
		total += time.Since(start)
	}
	per := total.Seconds() / float64(b.N)
	b.ReportMetric(float64(len(paths))/per*60, "decks/min")
	b.ReportMetric(float64(slides)/per, "slides/s")
}

// BenchmarkRecipeStepShare runs the same recipe over the same decks with the
// in-process runner (the steps the workflow's activities call) and reports
// the share of time per step: import, act (route + recipe compile), apply,
// render, diff, export.
func BenchmarkRecipeStepShare(b *testing.B) {
	if shared.err != nil {
		b.Fatalf("embedded stack: %v", shared.err)
	}
	paths, _ := realDecks(b)
	edit := rebrandEdit(b)
	ctx := context.Background()
	steps := &runner.Steps{Store: store.NewMemory(), Renderer: shared.acts.Steps.Renderer}
	recipeRef, err := steps.Store.Put(ctx, edit.RecipeData)
	if err != nil {
		b.Fatal(err)
	}
	share := map[string]time.Duration{}
	for b.Loop() {
		for _, p := range paths {
			t := time.Now()
			d, blobs, err := deckio.Load(p)
			if err != nil {
				b.Fatal(err)
			}
			if err := store.PutBlobs(ctx, steps.Store, blobs); err != nil {
				b.Fatal(err)
			}
			ref, err := store.PutDeck(ctx, steps.Store, d)
			if err != nil {
				b.Fatal(err)
			}
			share["import"] += time.Since(t)
			rec, err := runner.Run(ctx, steps, editloop.Request{DeckRef: ref, RecipeRef: recipeRef, RecipePath: edit.RecipePath})
			if err != nil {
				b.Fatal(err)
			}
			for _, it := range rec.Iterations {
				share["act"] += time.Duration(it.Timings.Act) * time.Millisecond
				share["apply"] += time.Duration(it.Timings.Apply) * time.Millisecond
				share["render"] += time.Duration(it.Timings.Render) * time.Millisecond
				share["diff"] += time.Duration(it.Timings.Diff) * time.Millisecond
			}
			t = time.Now()
			final, err := store.GetDeck(ctx, steps.Store, rec.Final)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := pptx.Export(final, store.Assets(ctx, steps.Store)); err != nil {
				b.Fatal(err)
			}
			share["export"] += time.Since(t)
		}
	}
	var sum time.Duration
	names := make([]string, 0, len(share))
	for k, v := range share {
		sum += v
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		b.ReportMetric(100*share[k].Seconds()/sum.Seconds(), k+"-%")
	}
}
