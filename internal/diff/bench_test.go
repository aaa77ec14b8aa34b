package diff

import (
	"fmt"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/scenegraph"
)

// editOnePercent returns a copy of d with every 100th node (slides
// excluded) edited: text rewritten, or recoloured, or moved, in turn.
func editOnePercent(d *scenegraph.Deck) (*scenegraph.Deck, int) {
	c := d.Clone()
	k, edited := 0, 0
	c.Walk(func(n, _ *scenegraph.Node, depth int) bool {
		if depth == 0 {
			return true
		}
		k++
		if k%100 != 0 {
			return true
		}
		edited++
		switch {
		case n.Characters != "":
			n.Characters += " (revised)"
		case len(n.Fills) > 0:
			n.Fills = []scenegraph.Paint{scenegraph.Solid(scenegraph.MustHex("#C00000"))}
		default:
			n.Transform = n.Transform.WithOffset(n.Transform.X()+40, n.Transform.Y())
		}
		return true
	})
	return c, edited
}

// BenchmarkCompute1000Slides: JsonDiff of a generated 1,000-slide deck
// against a copy with 1% of its nodes edited (issue 6, make bench).
func BenchmarkCompute1000Slides(b *testing.B) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 1000, Seed: 1})
	c, edited := editOnePercent(d)
	b.ReportMetric(float64(d.Count()), "nodes")
	b.ResetTimer()
	var out *Diff
	for b.Loop() {
		out = Compute(d, c)
	}
	b.StopTimer()
	if out.Distinct == 0 || edited == 0 {
		b.Fatalf("no edits found (%d edited)", edited)
	}
	b.ReportMetric(float64(out.Distinct), "entries")
}

// BenchmarkText1000Slides renders the judge text (tree + D0 snapshot).
func BenchmarkText1000Slides(b *testing.B) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 1000, Seed: 1})
	c, _ := editOnePercent(d)
	out := Compute(d, c)
	b.ResetTimer()
	var s string
	for b.Loop() {
		s = out.Text(d)
	}
	b.ReportMetric(float64(len(s)), "bytes")
}

func TestOnePercentEditIsFound(t *testing.T) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 50, Seed: 1})
	c, edited := editOnePercent(d)
	out := Compute(d, c)
	if edited == 0 || out.Distinct == 0 || out.Distinct > edited {
		t.Fatalf("edited %d nodes, diff has %d distinct entries:\n%s", edited, out.Distinct, out.Text(nil))
	}
	fmt.Printf("1%% edit of a 50-slide deck: %d nodes edited, %d entries\n", edited, out.Distinct)
}
