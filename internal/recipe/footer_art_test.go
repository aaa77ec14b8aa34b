package recipe_test

import (
	"context"
	"os"
	"testing"

	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/render"
	sg "github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/internal/tools"
)

// TestFooterReadsOnLayoutArt: on default_template (and Iphone16Pro) the
// free space along the bottom lies on the master's green art, which the
// scene graph does not hold. With tools.Options.Backdrop the footer's
// colour comes from the rendered slide and the render finds no footer
// below WCAG; without it the colour comes from the deck's own fills (the
// slide background) and the render flags it on the art. The second half
// shows what the renderer's view of the art is for.
func TestFooterReadsOnLayoutArt(t *testing.T) {
	if testing.Short() {
		t.Skip("renders two real decks")
	}
	ctx := context.Background()
	pool := newPool(t)
	for _, name := range []string{"default_template.pptx", "Iphone16Pro.pptx"} {
		d0, blobs := importShared(t, name)
		call := []tools.Call{{Tool: "add_footer", Args: []byte(`{"text":"© 2026 Acme Insights. Confidential: for internal use only."}`)}}
		flagged := func(o tools.Options) (footers, low int) {
			d1, _, err := tools.Apply(d0, call, o)
			if err != nil {
				t.Fatal(err)
			}
			res, err := pool.Render(ctx, d1, blobs, render.Request{})
			if err != nil {
				t.Fatal(err)
			}
			isFooter := map[string]bool{}
			for _, s := range d1.Slides {
				for _, c := range s.Children {
					if c.Placeholder != nil && c.Placeholder.Role == "ftr" && c.Source == nil {
						isFooter[c.ID] = true
					}
				}
			}
			for _, v := range res.Violations {
				if v.Kind == render.KindLowContrast && isFooter[v.NodeIDs[0]] {
					low++
				}
			}
			return len(isFooter), low
		}
		measure := render.MeasureFunc(ctx, pool, blobs)
		n, low := flagged(tools.Options{Measure: measure, Backdrop: render.BackdropFunc(ctx, pool, blobs)})
		nFills, lowFills := flagged(tools.Options{Measure: measure})
		t.Logf("%s: %d new footers; below WCAG with the colour from the render %d, from the fills %d", name, n, low, lowFills)
		if n == 0 || nFills != n {
			t.Fatalf("%s: footers placed %d and %d", name, n, nFills)
		}
		if low != 0 {
			t.Errorf("%s: %d footers chosen from the rendered slide still read badly", name, low)
		}
		if lowFills == 0 {
			t.Errorf("%s: the fills-only colour reads everywhere: the art is not under the footers any more, so this test shows nothing", name)
		}
	}
}

// TestFooterAvoidsLayoutText: build_effective_agents' layout prints its own
// text in the bottom-right corner of slides 2-9 (a "2" that is not a
// placeholder). A slide number add_footer places must not cover it: the
// measured art text is an obstacle like the slide's own text.
func TestFooterAvoidsLayoutText(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a real deck")
	}
	ctx := context.Background()
	pool := newPool(t)
	name := "build_effective_agents.pptx"
	d0, blobs := importShared(t, name)
	before, err := pool.Render(ctx, d0, blobs, render.Request{})
	if err != nil {
		t.Fatal(err)
	}
	call := []tools.Call{{Tool: "add_footer", Args: []byte(`{"slideNumber":true}`)}}
	d1, _, err := tools.Apply(d0, call, tools.Options{Measure: render.MeasureFunc(ctx, pool, blobs)})
	if err != nil {
		t.Fatal(err)
	}
	art, checked := 0, 0
	for i, s := range d1.Slides {
		for id, m := range before.Slides[i].Nodes {
			if !m.Art || !m.HasText {
				continue
			}
			art++
			for _, c := range s.Children {
				if c.Placeholder == nil || c.Placeholder.Role != "sldNum" || c.Source != nil {
					continue
				}
				checked++
				box := sg.Rect{X: c.Transform.X(), Y: c.Transform.Y(), Width: c.Size.X, Height: c.Size.Y}
				if box.Intersect(m.Bounds).Area() > 0 {
					t.Errorf("slide %d: new slide number at %v covers the layout's text %s at %v", i+1, box, id, m.Bounds)
				}
			}
		}
	}
	t.Logf("%d layout texts, %d new slide numbers checked against them", art, checked)
	if art == 0 || checked == 0 {
		t.Fatal("nothing to check: the layout text or the new slide numbers are missing")
	}
}

// newPool starts one browser for a test, closed when it ends.
func newPool(t *testing.T) *render.Pool {
	t.Helper()
	pool, err := render.NewPool(context.Background(), render.Options{Size: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pool.Close() })
	return pool
}

// importShared imports one of the real decks.
func importShared(t *testing.T, name string) (*sg.Deck, sg.Blobs) {
	t.Helper()
	data, err := os.ReadFile(shareddecks.PPTXFile(t, name))
	if err != nil {
		t.Fatal(err)
	}
	d, blobs, err := pptx.Import(data, name)
	if err != nil {
		t.Fatal(err)
	}
	return d, blobs
}
