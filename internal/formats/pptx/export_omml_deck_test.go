package pptx

import (
	"math"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// deckFormulas are the MATH nodes the deck tests add: LaTeX, display or
// inline, size in px, colour.
var deckFormulas = []struct {
	latex   string
	display bool
	size    float64
	color   string
}{
	{`x=\frac{-b\pm\sqrt{b^2-4ac}}{2a}`, true, 32 * sg.PxPerPt, "#1F4E79"},
	{`\sum_{i=1}^{n} i=\frac{n(n+1)}{2}`, true, 28, ""},
	{`e^{i\pi}+1=0`, false, 24, "#C00000"},
	{`\begin{pmatrix}a&b\\c&d\end{pmatrix}`, true, 20, ""},
	{`\lim_{x\to 0}\frac{\sin x}{x}=1`, false, 30, "#000000"},
	{`\int_0^\infty e^{-x^2}\,dx=\frac{\sqrt{\pi}}{2}`, true, 36, ""},
	{`a=b\\c=d`, true, 24, ""},
}

func hexColor(t *testing.T, s string) *sg.Color {
	if s == "" {
		return nil
	}
	c, err := sg.ParseHex(s)
	if err != nil {
		t.Fatal(err)
	}
	return &c
}

// addFormulas appends deckFormulas to a slide as new MATH nodes (no
// source element), stacked down the slide.
func addFormulas(t *testing.T, slide *sg.Node) {
	for i, f := range deckFormulas {
		slide.Children = append(slide.Children, &sg.Node{
			ID: slide.ID + "/math" + string(rune('a'+i)), Type: sg.TypeMath, Name: "Formula " + string(rune('A'+i)),
			Transform: sg.Translate(80, 40+float64(i)*90), Size: sg.Vector{X: 640, Y: 80},
			Math: &sg.Math{LaTeX: f.latex, Display: f.display, FontSize: f.size, Color: hexColor(t, f.color)},
		})
	}
}

// checkFormulas finds the added formulas in a re-imported deck by name and
// compares them with deckFormulas; it returns how many came back with the
// LaTeX identical but for whitespace.
func checkFormulas(t *testing.T, d *sg.Deck) (identical int) {
	t.Helper()
	byName := map[string]*sg.Node{}
	d.Walk(func(n, _ *sg.Node, _ int) bool {
		if n.Type == sg.TypeMath {
			byName[n.Name] = n
		}
		return true
	})
	for i, f := range deckFormulas {
		name := "Formula " + string(rune('A'+i))
		n := byName[name]
		if n == nil || n.Math == nil {
			t.Errorf("%s (%s) did not come back as a MATH node", name, f.latex)
			continue
		}
		m := n.Math
		if noSpace(m.LaTeX) == noSpace(f.latex) {
			identical++
		} else if texCanon(m.LaTeX) != texCanon(f.latex) {
			t.Errorf("%s: LaTeX %s, want %s", name, m.LaTeX, f.latex)
		}
		if m.Display != f.display {
			t.Errorf("%s: display %v, want %v", name, m.Display, f.display)
		}
		if math.Abs(m.FontSize-f.size) > 1e-6 {
			t.Errorf("%s: font size %g px, want %g", name, m.FontSize, f.size)
		}
		want := f.color
		if want == "" {
			want = "#000000" // the renderer's default, written explicitly
		}
		if m.Color == nil || m.Color.Hex() != want {
			t.Errorf("%s: colour %v, want %s", name, m.Color, want)
		}
		if math.Abs(n.Size.X-640) > 0.01 || math.Abs(n.Size.Y-80) > 0.01 || math.Abs(n.Transform.X()-80) > 0.01 {
			t.Errorf("%s: box %v at %v", name, n.Size, n.Transform)
		}
	}
	return identical
}

// MATH nodes export as PowerPoint equations and import back as the same
// formulas: new nodes on a slide of a real deck (the patch path), a
// retyped equation PowerPoint wrote (patchMath), and new nodes in a deck
// with no .pptx source (the fresh path). The packages pass checkPackage,
// and LibreOffice converts them to PDF.
func TestMathExportsAsEquations(t *testing.T) {
	// A real deck with PowerPoint-style equations (mathDeck: default_template
	// plus three equation boxes); retype one, add ours.
	data := mathDeck(t)
	d, blobs, _, err := ImportWithOptions(data, "math.pptx", Options{})
	if err != nil {
		t.Fatal(err)
	}
	ix := sg.NewIndex(d)
	retyped := ix.Node(d.Slides[0].ID + "/902") // "Equation inline"
	retyped.Math.LaTeX = `E=mc^{3}+\frac{1}{2}mv^2`
	retyped.Math.FontSize = 40
	addFormulas(t, d.Slides[0])
	out, warns, err := ExportDetailed(d, blobs)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range warns {
		if strings.Contains(w.Msg, "formula") {
			t.Errorf("warning on a supported formula: %s", w)
		}
	}
	checkPackage(t, out)
	slide := string(zipParts(t, out)["ppt/slides/slide1.xml"])
	if n := strings.Count(slide, `<mc:Choice xmlns:a14="`+nsA14+`" Requires="a14">`); n != 3+len(deckFormulas) {
		t.Errorf("%d equations (mc:Choice a14) on the slide, want %d", n, 3+len(deckFormulas))
	}
	if strings.Contains(slide, `\frac`) || strings.Contains(slide, `\sum`) {
		t.Error("LaTeX source written into the slide")
	}
	d2, blobs2, _, err := ImportWithOptions(out, "out.pptx", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := sg.Validate(d2); err != nil {
		t.Fatal(err)
	}
	identical := checkFormulas(t, d2)
	var r2 *sg.Node // a rewritten shape gets a new id; find it by name
	d2.Walk(func(n, _ *sg.Node, _ int) bool {
		if n.Name == "Equation inline" {
			r2 = n
		}
		return true
	})
	if r2 == nil || r2.Type != sg.TypeMath || texCanon(r2.Math.LaTeX) != texCanon(retyped.Math.LaTeX) || r2.Math.Display || math.Abs(r2.Math.FontSize-40) > 1e-6 {
		t.Errorf("retyped equation after the round trip: %+v", r2)
	}
	// Unedited, the exported equations are kept byte for byte.
	again, err := Export(d2, blobs2)
	if err != nil {
		t.Fatal(err)
	}
	if string(zipParts(t, again)["ppt/slides/slide1.xml"]) != slide {
		t.Error("re-exporting the unedited deck changed the slide with the exported equations")
	}
	t.Logf("patch path: %d formulas, %d with identical LaTeX after the round trip, the rest equal after texCanon", len(deckFormulas), identical)

	// A deck with no .pptx source.
	g, gblobs := deckgen.Generate(deckgen.Options{Slides: 2, Seed: 3})
	addFormulas(t, g.Slides[1])
	fresh, err := Export(g, gblobs)
	if err != nil {
		t.Fatal(err)
	}
	checkPackage(t, fresh)
	g2, _, err := Import(fresh, "fresh.pptx")
	if err != nil {
		t.Fatal(err)
	}
	identical = checkFormulas(t, g2)
	t.Logf("fresh path: %d formulas, %d with identical LaTeX after the round trip, the rest equal after texCanon", len(deckFormulas), identical)

	pages := convertToPDF(t, map[string][]byte{"math.pptx": out, "fresh.pptx": fresh})
	if pages["math.pptx"] != len(d.Slides) || pages["fresh.pptx"] != len(g.Slides) {
		t.Errorf("PDF pages %v, want math.pptx %d, fresh.pptx %d", pages, len(d.Slides), len(g.Slides))
	}
}

// LaTeX the converter does not know reaches the export warnings (as
// "formula <id>: ..."), and its text is in the equation.
func TestMathExportWarnings(t *testing.T) {
	g, blobs := deckgen.Generate(deckgen.Options{Slides: 1, Seed: 9})
	g.Slides[0].Children = append(g.Slides[0].Children, &sg.Node{
		ID: "m1", Type: sg.TypeMath, Name: "Coloured", Transform: sg.Translate(10, 10), Size: sg.Vector{X: 300, Y: 60},
		Math: &sg.Math{LaTeX: `\color{red}{x}+\middle| y`, FontSize: 24},
	})
	out, warns, err := ExportDetailed(g, blobs)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range warns {
		if strings.Contains(w.Msg, "formula m1: ") {
			got = append(got, w.Msg)
		}
	}
	if len(got) != 2 || !strings.Contains(got[0], `\color is not supported`) || !strings.Contains(got[1], `\middle`) {
		t.Errorf("warnings %q", got)
	}
	g2, _, err := Import(out, "w.pptx")
	if err != nil {
		t.Fatal(err)
	}
	var latex string
	g2.Walk(func(n, _ *sg.Node, _ int) bool {
		if n.Name == "Coloured" && n.Math != nil {
			latex = n.Math.LaTeX
		}
		return true
	})
	t.Logf("warnings %q; re-imported as %s", got, latex)
	if !strings.Contains(latex, `\backslash color`) || !strings.Contains(latex, "red") {
		t.Errorf("re-imported LaTeX %q lost the unsupported command's text", latex)
	}
}
