package diff

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
)

func realDecks(t *testing.T) map[string]*scenegraph.Deck {
	t.Helper()
	paths := shareddecks.PPTX(t)
	out := map[string]*scenegraph.Deck{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		d, _, err := pptx.Import(data, filepath.Base(p))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out[filepath.Base(p)] = d
	}
	return out
}

// On every real deck: a copy diffs empty, and a scripted edit (retitle
// slide 1's first text, hide a node, delete a node, move the last slide to
// the front) reads back as exactly those entries.
func TestRealDecks(t *testing.T) {
	for name, d := range realDecks(t) {
		t.Run(name, func(t *testing.T) {
			if got := Compute(d, d.Clone()); !got.Empty() {
				t.Fatalf("copy differs: %v", kinds(got))
			}
			if len(d.Slides) < 3 {
				t.Skip("needs 3 slides")
			}
			c := d.Clone()
			var texts, others []*scenegraph.Node
			c.Slides[1].Walk(func(n, _ *scenegraph.Node, depth int) bool {
				if depth > 0 && n.Type != scenegraph.TypeTableCell {
					if normText(n.Characters) != "" {
						texts = append(texts, n)
					} else if len(n.Children) == 0 {
						others = append(others, n)
					}
				}
				return true
			})
			if len(texts) == 0 {
				t.Skip("slide 2 has no text")
			}
			texts[0].Characters = "Retitled by the test"
			wantN := 2
			if len(others) > 0 {
				f := false
				others[0].Visible = &f
				wantN++
			}
			last := c.Slides[len(c.Slides)-1]
			c.Slides = append([]*scenegraph.Node{last}, c.Slides[:len(c.Slides)-1]...)
			got := Compute(d, c)
			if got.Distinct != wantN {
				t.Fatalf("want %d entries, got %v\n%s", wantN, kinds(got), got.Text(nil))
			}
			txt := got.Text(d)
			for _, s := range []string{"Retitled by the test", "slide moved from position"} {
				if !strings.Contains(txt, s) {
					t.Errorf("text lacks %q", s)
				}
			}
		})
	}
}

// An edited deck exported to PPTX and imported again diffs as exactly the
// edit: ids survive the round trip and EMU rounding stays under the
// tolerances (App. E.4).
func TestRealDeckExportRoundTripShowsOnlyTheEdit(t *testing.T) {
	if testing.Short() {
		t.Skip("exports every real deck")
	}
	for _, p := range shareddecks.PPTX(t) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		d, blobs, err := pptx.Import(data, filepath.Base(p))
		if err != nil {
			t.Fatal(err)
		}
		c := d.Clone()
		n := c.Slides[0].Children[0]
		n.Transform = n.Transform.WithOffset(n.Transform.X()+33, n.Transform.Y()+44)
		out, err := pptx.Export(c, blobs)
		if err != nil {
			t.Fatalf("%s: export: %v", p, err)
		}
		back, _, err := pptx.Import(out, filepath.Base(p))
		if err != nil {
			t.Fatalf("%s: re-import: %v", p, err)
		}
		got := Compute(d, back)
		if got.Distinct != 1 || got.Entries[0].Property != "bbox" || got.Entries[0].NodeID != n.ID {
			t.Errorf("%s: want one bbox entry on %s, got %v\n%s", filepath.Base(p), n.ID, kinds(got), got.Text(nil))
		}
	}
}
