package pptx

import (
	"fmt"
	"math"
	"os"
	"path"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/formats/figma"
	sg "github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
)

// standardLayouts are the layouts PowerPoint's "New Slide" offers in a
// blank presentation that a fresh package must have at least.
var standardLayouts = []string{"Title Slide", "Title and Content", "Section Header", "Two Content", "Title Only", "Blank"}

// packageLayouts reads a package's layouts by name, through the importer.
func packageLayouts(t *testing.T, data []byte) map[string]*layout {
	t.Helper()
	im, err := newImporter(data, "fresh.pptx", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if err := im.run(); err != nil {
		t.Fatal(err)
	}
	out := map[string]*layout{}
	for _, p := range im.p.order {
		if path.Dir(p) != "ppt/slideLayouts" || path.Ext(p) != ".xml" {
			continue
		}
		l, err := im.layout(p)
		if err != nil {
			t.Fatal(err)
		}
		out[l.name] = l
	}
	return out
}

// TestFreshPackageHasStandardLayouts: the package a deck without a .pptx
// source is written into has the standard layouts, typed as PowerPoint
// types them, with their placeholders in the template's proportions of
// whatever slide size the deck has, and is a consistent package.
func TestFreshPackageHasStandardLayouts(t *testing.T) {
	for _, size := range []sg.Vector{{X: 1280, Y: 720}, {X: 960, Y: 720}, {X: 1920, Y: 1080}} {
		t.Run(fmt.Sprintf("%gx%g", size.X, size.Y), func(t *testing.T) {
			d := &sg.Deck{ID: "d", Name: "fresh", Width: size.X, Height: size.Y}
			data := skeleton(d)
			checkPackage(t, data)
			got := packageLayouts(t, data)
			for _, name := range standardLayouts {
				if got[name] == nil {
					t.Errorf("no layout %q (have %d)", name, len(got))
				}
			}
			cx, cy := float64(sg.PxToEMU(size.X)), float64(sg.PxToEMU(size.Y))
			for _, spec := range skeletonLayouts {
				l := got[spec.name]
				if l == nil {
					t.Errorf("layout %q missing", spec.name)
					continue
				}
				if typ := layoutType(l); typ != spec.typ {
					t.Errorf("%s: type %q, want %q", spec.name, typ, spec.typ)
				}
				if len(l.phs) != len(spec.phs) {
					t.Errorf("%s: %d placeholders, want %d", spec.name, len(l.phs), len(spec.phs))
					continue
				}
				for i, e := range l.phs {
					ph, want := phOf(e), spec.phs[i]
					wantType := want.typ
					if wantType == "" {
						wantType = "obj"
					}
					if phType(ph) != wantType {
						t.Errorf("%s: placeholder %d is %q, want %q", spec.name, i, phType(ph), wantType)
					}
					x := e.path(nsP, "spPr").child(nsA, "xfrm")
					off, ext := x.child(nsA, "off"), x.child(nsA, "ext")
					box := []float64{float64(inum(off.av("x"))) / cx, float64(inum(off.av("y"))) / cy, float64(inum(ext.av("cx"))) / cx, float64(inum(ext.av("cy"))) / cy}
					for k, f := range []float64{want.x, want.y, want.w, want.h} {
						if math.Abs(box[k]-f) > 1e-6 {
							t.Errorf("%s: placeholder %d box %v, want fractions %v of the slide", spec.name, i, box, []float64{want.x, want.y, want.w, want.h})
							break
						}
					}
					if box[0]+box[2] > 1+1e-9 || box[1]+box[3] > 1+1e-9 {
						t.Errorf("%s: placeholder %d leaves the slide: %v", spec.name, i, box)
					}
				}
			}
		})
	}
}

// textNode is a placeholder text box of a hand-built slide.
func textNode(id, role, text string, y float64) *sg.Node {
	return &sg.Node{ID: id, Type: sg.TypeText, Name: role, Transform: sg.Translate(64, y), Size: sg.Vector{X: 800, Y: 60},
		TextContent: sg.TextContent{Characters: text, Style: &sg.TypeStyle{FontSize: 24}}, Placeholder: &sg.Placeholder{Role: role}}
}

// layoutCase is a hand-built slide and the layout it must land on.
type layoutCase struct {
	slide *sg.Node
	want  string
}

// layoutsDeck is a deck with no .pptx source whose slides name a layout or
// only carry placeholders, each with speaker notes.
func layoutsDeck() (*sg.Deck, []layoutCase) {
	slide := func(id, layout string, kids ...*sg.Node) *sg.Node {
		s := &sg.Node{ID: id, Type: sg.TypeSlide, Transform: sg.Identity, Size: sg.Vector{X: 1280, Y: 720}, Children: kids}
		s.Slide = &sg.SlideProps{Layout: layout}
		return s
	}
	cases := []layoutCase{
		{slide("named", "Section Header", textNode("t1", "title", "Part two", 200)), "Section Header"},
		{slide("case", "two content", textNode("t2", "title", "Both", 40)), "Two Content"},
		{slide("tb", "", textNode("t3", "title", "Agenda", 40), textNode("b3", "body", "One\nTwo", 160)), "Title and Content"},
		{slide("t", "", textNode("t4", "title", "Only a title", 40)), "Title Only"},
		{slide("none", "", &sg.Node{ID: "r5", Type: sg.TypeRectangle, Transform: sg.Translate(10, 10), Size: sg.Vector{X: 100, Y: 100}, Fills: []sg.Paint{sg.Solid(sg.MustHex("#336699"))}}), "Blank"},
		{slide("ctr", "", textNode("t6", "ctrTitle", "Welcome", 200), textNode("s6", "subTitle", "2026", 400)), "Title Slide"},
		{slide("unknown", "No Such Layout", textNode("t7", "title", "Fallback", 40)), "Title Only"},
		{slide("two", "", textNode("t8", "title", "Pros and cons", 40), textNode("l8", "body", "Pro", 160), textNode("r8", "body", "Con", 160)), "Two Content"},
	}
	d := &sg.Deck{ID: "layouts", Name: "layouts", Width: 1280, Height: 720}
	for _, c := range cases {
		c.slide.Slide.Notes = "Notes of " + c.slide.ID + "\nsecond line"
		d.Slides = append(d.Slides, c.slide)
	}
	return d, cases
}

// TestFreshExportPicksLayouts: a slide of a deck with no .pptx source lands
// on the layout its Slide.Layout names (case aside), and a slide without a
// known layout name on the layout its placeholders fit; the generated demo
// deck's slides keep the layout names they were made with.
func TestFreshExportPicksLayouts(t *testing.T) {
	d, cases := layoutsDeck()
	out, err := Export(d, sg.Blobs{})
	if err != nil {
		t.Fatal(err)
	}
	checkPackage(t, out)
	d2, _, err := Import(out, "layouts.pptx")
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		if got := d2.Slides[i].Slide.Layout; got != c.want {
			t.Errorf("slide %q: layout %q, want %q", c.slide.ID, got, c.want)
		}
		if got := d2.Slides[i].Slide.Notes; got != c.slide.Slide.Notes {
			t.Errorf("slide %q: notes %q, want %q", c.slide.ID, got, c.slide.Slide.Notes)
		}
	}

	g, blobs := deckgen.Generate(deckgen.Options{Slides: 16, Seed: 7})
	out, err = Export(g, blobs)
	if err != nil {
		t.Fatal(err)
	}
	g2, _, err := Import(out, "generated.pptx")
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range g.Slides {
		if got := g2.Slides[i].Slide.Layout; got != s.Slide.Layout {
			t.Errorf("generated slide %d: layout %q, want %q", i+1, got, s.Slide.Layout)
		}
	}
}

// TestFigmaDeckFreshExportKeepsNotes: the real Figma deck, given speaker
// notes, is written as a fresh package (with a generated notes master)
// whose re-import has the same notes and the standard layouts, and
// LibreOffice converts it, and the multi-slide layouts deck, to PDFs with
// one page per slide.
func TestFigmaDeckFreshExportKeepsNotes(t *testing.T) {
	data, err := os.ReadFile(shareddecks.Figma(t))
	if err != nil {
		t.Fatal(err)
	}
	d, blobs, _, err := figma.ImportDetailed(data, figma.Options{Name: "figma"})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Slides) == 0 {
		t.Fatal("the Figma deck has no slides")
	}
	for i, s := range d.Slides {
		if s.Slide == nil {
			s.Slide = &sg.SlideProps{}
		}
		s.Slide.Notes = fmt.Sprintf("Slide %d: open with the demo.\n\nClose with questions & answers <5 min>.", i+1)
	}
	out, warns, err := ExportDetailed(d, blobs)
	if err != nil {
		t.Fatal(err)
	}
	noNotesWarning(t, warns)
	checkPackage(t, out)
	d2, _, err := Import(out, "figma.pptx")
	if err != nil {
		t.Fatal(err)
	}
	if len(d2.Slides) != len(d.Slides) {
		t.Fatalf("%d slides came back, want %d", len(d2.Slides), len(d.Slides))
	}
	for i := range d.Slides {
		if a, b := d.Slides[i].Slide.Notes, d2.Slides[i].Slide.Notes; a != b {
			t.Errorf("slide %d notes %q, want %q", i+1, b, a)
		}
	}
	layouts := packageLayouts(t, out)
	for _, name := range standardLayouts {
		if layouts[name] == nil {
			t.Errorf("the fresh export has no layout %q", name)
		}
	}
	parts := zipParts(t, out)
	if m := partsUnder(parts, "ppt/notesMasters"); len(m) != 1 {
		t.Errorf("notes masters %v, want one", m)
	}
	if n := partsUnder(parts, "ppt/notesSlides"); len(n) != len(d.Slides) {
		t.Errorf("%d notes slides, want %d", len(n), len(d.Slides))
	}
	t.Logf("%d slides, %d notes slides, %d layouts", len(d.Slides), len(partsUnder(parts, "ppt/notesSlides")), len(layouts))
	// LibreOffice converts it, and the hand-built deck of every layout
	// (one slide each, each with notes), one PDF page per slide.
	ld, _ := layoutsDeck()
	lout, err := Export(ld, sg.Blobs{})
	if err != nil {
		t.Fatal(err)
	}
	pages := convertToPDF(t, map[string][]byte{"figma.pptx": out, "layouts.pptx": lout})
	t.Logf("LibreOffice pages: %v", pages)
	if pages["figma.pptx"] != len(d.Slides) || pages["layouts.pptx"] != len(ld.Slides) {
		t.Errorf("LibreOffice made %v pages, want figma.pptx %d, layouts.pptx %d", pages, len(d.Slides), len(ld.Slides))
	}
}
