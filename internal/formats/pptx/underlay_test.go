package pptx

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// TestUnderlayMatchesInheritedImport: on every real deck, the shapes the
// Underlay gives each slide are exactly the decorations an Inherited import
// puts at the back of that slide (same ids, same content), and their
// pictures resolve through AssetBytes.
func TestUnderlayMatchesInheritedImport(t *testing.T) {
	total := 0
	for _, rd := range realDecks {
		data := readDeck(t, rd.file)
		withDeco, _, _, err := ImportWithOptions(data, rd.file, Options{Inherited: true})
		if err != nil {
			t.Fatal(err)
		}
		plain, _, err := Import(data, rd.file)
		if err != nil {
			t.Fatal(err)
		}
		u, err := NewUnderlay(data, rd.file)
		if err != nil {
			t.Fatalf("%s: %v", rd.file, err)
		}
		n := 0
		for i, s := range plain.Slides {
			var want []*sg.Node
			for _, c := range withDeco.Slides[i].Children {
				if strings.Contains(c.ID, "/master/") || strings.Contains(c.ID, "/layout/") {
					want = append(want, c)
				}
			}
			got := u.Shapes(s, i)
			if g, w := marshal(t, got), marshal(t, want); g != w {
				t.Errorf("%s slide %d: underlay differs from the inherited import:\n got %.300s\nwant %.300s", rd.file, i+1, g, w)
			}
			for _, c := range got {
				c.Walk(func(x, _ *sg.Node, _ int) bool {
					if !x.Locked {
						t.Errorf("%s: %s not locked", rd.file, x.ID)
					}
					for _, p := range x.Fills {
						if p.ImageRef != "" {
							if _, err := u.AssetBytes(p.ImageRef); err != nil {
								t.Errorf("%s: %s: %v", rd.file, x.ID, err)
							}
						}
					}
					return true
				})
			}
			n += len(got)
		}
		t.Logf("%s: %d layout/master shapes over %d slides", rd.file, n, len(plain.Slides))
		total += n
	}
	if total == 0 {
		t.Fatal("no real deck shows any layout or master shape")
	}
}

// TestUnderlayFollowsTheExport: the art drawn under a slide is the art of
// the layout the exported file gives it. A new slide on a named layout
// shows that layout's art under its own ids; a new slide naming a layout
// the package lacks shows the art of the layout export picks for it
// instead; an original slide renamed to another layout keeps its own art,
// as export keeps its layout.
func TestUnderlayFollowsTheExport(t *testing.T) {
	data := readDeck(t, "build_effective_agents.pptx")
	d, blobs, err := Import(data, "build_effective_agents.pptx")
	if err != nil {
		t.Fatal(err)
	}
	u, err := NewUnderlay(data, "build_effective_agents.pptx")
	if err != nil {
		t.Fatal(err)
	}
	s := d.Slides[1]
	orig := u.Shapes(s, 1)
	if len(orig) == 0 {
		t.Fatal("slide 2 shows no layout art")
	}
	// A new slide as create_slide makes it without a layout name (no
	// SlideProps at all) still shows the art of the layout export picks.
	bare := &sg.Node{ID: "new0", Type: sg.TypeSlide, Children: []*sg.Node{
		{ID: "new0/t", Type: sg.TypeText, Placeholder: &sg.Placeholder{Role: "title"}},
		{ID: "new0/b", Type: sg.TypeText, Placeholder: &sg.Placeholder{Role: "body"}}}}
	if len(u.Shapes(bare, 3)) == 0 {
		t.Errorf("a new slide without SlideProps shows no art (export gives it %s)", u.im.layoutFor(bare))
	}
	fresh := &sg.Node{ID: "new1", Type: sg.TypeSlide, Slide: &sg.SlideProps{Layout: s.Slide.Layout}}
	got := u.Shapes(fresh, 5)
	if len(got) != len(orig) {
		t.Fatalf("a new slide on %q shows %d shapes, the original %d", s.Slide.Layout, len(got), len(orig))
	}
	for _, c := range got {
		if !strings.HasPrefix(c.ID, "new1/") {
			t.Errorf("id %s does not name the slide", c.ID)
		}
	}
	// Export the deck with an original slide renamed and a new slide on an
	// unknown layout; each slide's art must come from the layout part the
	// file gives it.
	if d.Slides[0].Slide.Layout == s.Slide.Layout {
		t.Fatal("slides 1 and 2 share a layout; the rename below would show nothing")
	}
	s.Slide.Layout = d.Slides[0].Slide.Layout // another layout of the package
	fresh.Slide.Layout = "No Such Layout"
	fresh.Size, fresh.Transform = sg.Vector{X: d.Width, Y: d.Height}, sg.Identity
	d.Slides = append(d.Slides, fresh)
	out, err := Export(d, blobs)
	if err != nil {
		t.Fatal(err)
	}
	// What the exported file shows under each slide, read back with its
	// layout and master art.
	d2, _, _, err := ImportWithOptions(out, "out.pptx", Options{Inherited: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, s2 := range d2.Slides {
		var want []string
		for _, c := range s2.Children {
			if inheritedNode(c, s2.Source.Part) {
				want = append(want, c.Source.Part+"#"+c.Source.ShapeID)
			}
		}
		var got []string
		for _, c := range u.Shapes(d.Slides[i], i) {
			got = append(got, c.Source.Part+"#"+c.Source.ShapeID)
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("slide %d (layout %q): art drawn %v, the exported file shows %v", i+1, d.Slides[i].Slide.Layout, got, want)
		}
	}
}

func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAdjustedFrameKeepsItsBorder: career-tips' layouts draw a white border
// with prstGeom "frame" and adj1 8849: the importer writes the border with
// that width (8.849% of the shorter side) and an open middle.
func TestAdjustedFrameKeepsItsBorder(t *testing.T) {
	data := readDeck(t, "career-tips.pptx")
	d, _, err := Import(data, "career-tips.pptx")
	if err != nil {
		t.Fatal(err)
	}
	u, err := NewUnderlay(data, "career-tips.pptx")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for i, s := range d.Slides {
		for _, n := range u.Shapes(s, i) {
			n.Walk(func(c, _ *sg.Node, _ int) bool {
				if c.Preset != "frame" {
					return true
				}
				found++
				if len(c.Paths) != 1 || strings.Count(c.Paths[0].Path, "M") != 2 {
					t.Errorf("%s: frame paths %v, want one path of two rings", c.ID, c.Paths)
					return true
				}
				// The inner ring starts at the border width on both axes.
				want := math.Min(c.Size.X, c.Size.Y) * 0.08849
				var x, y float64
				inner := c.Paths[0].Path[strings.LastIndex(c.Paths[0].Path, "M")+1:]
				if _, err := fmt.Sscanf(inner, "%g %g", &x, &y); err != nil || math.Abs(x-want) > 0.01 || math.Abs(y-want) > 0.01 {
					t.Errorf("%s: inner ring at %g,%g, want %g (%v)", c.ID, x, y, want, err)
				}
				return true
			})
		}
	}
	if found == 0 {
		t.Fatal("no frame preset among career-tips' layout shapes")
	}
}
