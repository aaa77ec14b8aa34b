package fidelity

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
)

func decksDir(t testing.TB) string { return shareddecks.PPTXDir(t) }

func realDecks(t testing.TB) []string {
	paths, err := filepath.Glob(filepath.Join(decksDir(t), "*.pptx"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no .pptx decks: %v", err)
	}
	return paths
}

func importDeck(t testing.TB, path string) (*scenegraph.Deck, scenegraph.Blobs) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// As the product imports it: the renderer draws the layout and master
	// art from the original package.
	d, blobs, err := pptx.Import(data, filepath.Base(path))
	if err != nil {
		t.Fatalf("importing %s: %v", path, err)
	}
	return d, blobs
}

func newPool(t testing.TB, size int) *render.Pool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, err := render.NewPool(ctx, render.Options{Size: size})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// Every slide of the six real decks renders: a PNG of the slide's size
// that is not blank, every visible text measured, stable violation keys.
func TestRealDecksRenderEverySlide(t *testing.T) {
	pool := newPool(t, 2)
	for _, path := range realDecks(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			d, blobs := importDeck(t, path)
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			res, err := pool.Render(ctx, d, blobs, render.Request{Images: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Slides) != len(d.Slides) {
				t.Fatalf("rendered %d of %d slides", len(res.Slides), len(d.Slides))
			}
			texts := 0
			for _, s := range res.Slides {
				img, err := png.Decode(bytes.NewReader(s.PNG))
				if err != nil {
					t.Fatalf("slide %d: %v", s.Index+1, err)
				}
				if b := img.Bounds(); b.Dx() != int(d.Width) || b.Dy() != int(d.Height) {
					t.Errorf("slide %d: PNG %v, want %gx%g", s.Index+1, b, d.Width, d.Height)
				}
				if distinctColors(img, 64) < 3 {
					// A blank picture must be explained by the geometry:
					// every text on it is flagged as unreadable (white on
					// white where the importer lacks the master's
					// background, or an image at opacity 0).
					flagged := map[string]bool{}
					for _, v := range s.Violations {
						if v.Kind == render.KindLowContrast {
							flagged[v.NodeIDs[0]] = true
						}
					}
					for id, m := range s.Nodes {
						if m.HasText && !flagged[id] {
							t.Errorf("slide %d looks blank but text %s is not flagged low_contrast", s.Index+1, id)
						}
					}
					t.Logf("slide %d is blank: its scene graph draws nothing visible (%d low-contrast texts)", s.Index+1, len(flagged))
				}
				d.Slides[s.Index].Walk(func(n, _ *scenegraph.Node, _ int) bool {
					if !n.IsVisible() {
						return false
					}
					if n.Type.CanHoldText() && len([]rune(n.Characters)) > 0 && n.Characters != " " {
						m, ok := s.Nodes[n.ID]
						if !ok {
							t.Errorf("slide %d: text node %s not measured", s.Index+1, n.ID)
						} else if m.HasText {
							texts++
							if m.Lines < 1 || m.TextBounds == nil {
								t.Errorf("slide %d: text node %s: %+v", s.Index+1, n.ID, m)
							}
						}
					}
					return true
				})
				for _, e := range s.Errors {
					t.Logf("slide %d: %s: %s", s.Index+1, e.NodeID, e.Message)
				}
			}
			if texts == 0 {
				t.Error("no text measured in the whole deck")
			}
			seen := map[string]bool{}
			for _, v := range res.Violations {
				if seen[v.Key] {
					t.Errorf("duplicate violation key %s", v.Key)
				}
				seen[v.Key] = true
			}
			// Rendering is deterministic: the same deck gives the same
			// violation keys.
			again, err := pool.Render(ctx, d, blobs, render.Request{})
			if err != nil {
				t.Fatal(err)
			}
			if ok, extra := render.Gate(again.Violations, res.Violations); !ok || len(again.Violations) != len(res.Violations) {
				t.Errorf("second render differs: %d vs %d violations, new %v", len(again.Violations), len(res.Violations), extra)
			}
			t.Logf("%d slides, %d text nodes, %d violations", len(res.Slides), texts, len(res.Violations))
		})
	}
}

// distinctColors counts distinct colours on a coarse grid, up to limit.
func distinctColors(img image.Image, limit int) int {
	seen := map[[3]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 7 {
		for x := b.Min.X; x < b.Max.X; x += 7 {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[[3]uint32{r >> 12, g >> 12, bl >> 12}] = true
			if len(seen) >= limit {
				return len(seen)
			}
		}
	}
	return len(seen)
}

// BenchmarkRealDeckSlidesPerSecond renders every slide of the 37-slide
// real deck (career-tips.pptx) to PNG per iteration with pools of one and
// two browsers, reporting slides/s and the per-slide median and p95.
func BenchmarkRealDeckSlidesPerSecond(b *testing.B) {
	d, blobs := importDeck(b, filepath.Join(decksDir(b), "career-tips.pptx"))
	for _, size := range []int{1, 2} {
		b.Run(fmt.Sprintf("pool=%d", size), func(b *testing.B) {
			pool := newPool(b, size)
			ctx := context.Background()
			if _, err := pool.Render(ctx, d, blobs, render.Request{Images: true}); err != nil { // warm
				b.Fatal(err)
			}
			var per []time.Duration
			slides := 0
			start := time.Now()
			for b.Loop() {
				res, err := pool.Render(ctx, d, blobs, render.Request{Images: true})
				if err != nil {
					b.Fatal(err)
				}
				for _, s := range res.Slides {
					per = append(per, s.Duration)
				}
				slides += len(res.Slides)
			}
			b.ReportMetric(float64(slides)/time.Since(start).Seconds(), "slides/s")
			sort.Slice(per, func(i, j int) bool { return per[i] < per[j] })
			if len(per) > 0 {
				b.ReportMetric(float64(per[len(per)/2])/1e6, "slide-median-ms")
				b.ReportMetric(float64(per[min(len(per)-1, len(per)*95/100)])/1e6, "slide-p95-ms")
			}
		})
	}
}
