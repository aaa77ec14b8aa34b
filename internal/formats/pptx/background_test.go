package pptx

import (
	"strings"
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

func importShared(t *testing.T, name string) *sg.Deck {
	t.Helper()
	d, _, _, err := ImportWithOptions(readDeck(t, name), name, Options{Inherited: true})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// A bare <a:alphaModFix/> (amt omitted, default 100000 per ECMA-376
// §20.1.8.4) leaves the picture opaque: career-tips slide 11's background
// photo must not import at opacity 0.
func TestAlphaModFixWithoutAmountIsOpaque(t *testing.T) {
	d := importShared(t, "career-tips.pptx")
	s, _ := d.SlideByID("s11")
	if s == nil || len(s.Fills) != 1 || s.Fills[0].Type != sg.PaintImage {
		t.Fatalf("slide 11 background: %+v", s)
	}
	if o := s.Fills[0].Opacity; o != nil && *o < 1 {
		t.Errorf("background picture opacity %g, want opaque", *o)
	}
}

// A slide background of a:noFill paints nothing and shows the master's
// (Iphone16Pro: every slide clears its background; the master's bgRef
// gives the theme's dark bg2 the light text is coloured for).
func TestNoFillSlideBackgroundShowsTheMasters(t *testing.T) {
	d := importShared(t, "Iphone16Pro.pptx")
	for _, s := range d.Slides {
		vis := visiblePaints(s.Fills)
		if len(vis) == 0 {
			t.Errorf("%s: no visible background", s.ID)
			continue
		}
		// p:bgRef idx="1001" -> the first a:bgFillStyleLst entry, a solid
		// phClr fill, with phClr = bg2 -> (clrMap) dk2 = #2C3C43.
		if c := vis[0].Color; c == nil || c.Hex() != "#2C3C43" {
			t.Errorf("%s: background %+v, want the theme's bg2 #2C3C43", s.ID, vis[0])
		}
	}
}

// Preset shapes with a moved adjust handle import with their outline
// drawn: the Facet master's triangles have their apex at the left
// (adj 0) or right (adj 100000) edge, not in the middle.
func TestAdjustedPresetsGetTheirOutline(t *testing.T) {
	d := importShared(t, "Iphone16Pro.pptx")
	found := map[string]string{}
	s, _ := d.SlideByID("s2")
	s.Walk(func(n, _ *sg.Node, _ int) bool {
		if n.Preset == "triangle" && len(n.Paths) == 1 {
			found[n.Name] = n.Paths[0].Path
		}
		return true
	})
	if p := found["Isosceles Triangle 28"]; !strings.HasPrefix(p, "M0 0 L") {
		t.Errorf("adj 0 triangle: path %q, want the apex at (0, 0)", p)
	}
	if len(found) < 3 {
		t.Errorf("adjusted triangles with outlines: %v", found)
	}
	// A preset at its default adjust value keeps no path of its own.
	if got := adjustedPresetPaths(&xnode{kind: kElem, local: "prstGeom", attrs: []xattr{{local: "prst", value: "triangle"}}}, sg.Vector{X: 10, Y: 10}); got != nil {
		t.Errorf("default triangle got paths %v", got)
	}
}

// Bullets in symbol fonts import as the Unicode character their glyph
// draws; the same character in a text font stays as it is.
func TestSymbolFontBullets(t *testing.T) {
	for _, c := range []struct{ font, ch, want string }{
		{"Wingdings", "§", "▪"},
		{"Wingdings", "\uF0A7", "▪"},
		{"Wingdings 3", "\uF075", "▶"},
		{"Symbol", "\uF0B7", "•"},
		{"Arial", "§", "§"},
		{"", "•", "•"},
		{"Wingdings", "ab", "ab"},
	} {
		if got := symbolBullet(c.font, c.ch); got != c.want {
			t.Errorf("symbolBullet(%q, %q) = %q, want %q", c.font, c.ch, got, c.want)
		}
	}
	d := importShared(t, "Iphone16Pro.pptx")
	s, _ := d.SlideByID("s2")
	bullets := 0
	s.Walk(func(n, _ *sg.Node, _ int) bool {
		for _, p := range n.Paragraphs {
			if p.ListType == sg.ListUnordered {
				bullets++
				if p.Bullet != "▶" {
					t.Errorf("%s: bullet %q, want ▶ (Wingdings 3 u)", n.ID, p.Bullet)
				}
			}
		}
		return true
	})
	if bullets == 0 {
		t.Error("slide 2 has no bulleted paragraphs")
	}
}

// A placeholder with an empty p:spPr takes its layout placeholder's fill
// (matched by idx): build_effective_agents' title slide keeps the blue
// band its white title text sits on.
func TestPlaceholderInheritsLayoutFill(t *testing.T) {
	d := importShared(t, "build_effective_agents.pptx")
	s, _ := d.SlideByID("s1")
	var band *sg.Node
	s.Walk(func(n, _ *sg.Node, _ int) bool {
		if n.ID == "s1/2" {
			band = n
		}
		return true
	})
	if band == nil || band.Placeholder == nil {
		t.Fatalf("placeholder s1/2 not found: %+v", band)
	}
	vis := visiblePaints(band.Fills)
	if len(vis) != 1 || vis[0].Color == nil || vis[0].Color.Hex() != "#375AA4" {
		t.Errorf("placeholder fill %+v, want the layout's #375AA4", band.Fills)
	}
}

// A slide number field on a layout shows the number of the slide it is
// drawn on, not the "‹#›" placeholder text the layout caches.
func TestLayoutSlideNumberFieldShowsTheSlideNumber(t *testing.T) {
	d := importShared(t, "build_effective_agents.pptx")
	s, _ := d.SlideByID("s6")
	var nums []string
	s.Walk(func(n, _ *sg.Node, _ int) bool {
		if strings.Contains(n.ID, "/layout/") && n.Characters != "" {
			nums = append(nums, n.Characters)
		}
		if strings.Contains(n.Characters, "‹#›") {
			t.Errorf("%s shows %q", n.ID, n.Characters)
		}
		return true
	})
	found := false
	for _, c := range nums {
		found = found || c == "6"
	}
	if !found {
		t.Errorf("layout texts on slide 6: %q, want one reading 6", nums)
	}
}
