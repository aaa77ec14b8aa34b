package render

import (
	"context"
	"math"
	"os"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
)

// Autofit as PowerPoint shows the file (issue 16 item 8). ECMA-376 Part 1
// §21.1.2.1.3 normAutofit: fontScale and lnSpcReduction are the scale the
// application applied when it last laid the text out; omitted, they are
// 100% and 0%. A reader draws what is stored; only an edit of the text
// recomputes it.

// overflowingBody is python-pptx's test_slides.pptx (PowerPoint-made) with
// its empty "Content Placeholder 2" given eight paragraphs, as a script
// writing into a template does. The shape's a:bodyPr is empty, so it
// inherits the master body's <a:normAutofit/>, with no stored scale, and
// the text is far taller than the 432x184 px box.
func overflowingBody(t *testing.T, bodyPr string) []byte {
	t.Helper()
	var paras strings.Builder
	for i := 0; i < 8; i++ {
		paras.WriteString(`<a:p><a:r><a:rPr lang="en-US" dirty="0"/><a:t>Quarterly revenue grew in every region we serve</a:t></a:r></a:p>`)
	}
	return pythonPPTX(t, "test_slides.pptx", "ppt/slides/slide1.xml",
		`<p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:endParaRPr lang="en-US" dirty="0"/></a:p></p:txBody></p:sp><p:pic>`,
		`<p:txBody>`+bodyPr+`<a:lstStyle/>`+paras.String()+`</p:txBody></p:sp><p:pic>`)
}

// nodeNamed returns the node of slide i named name.
func nodeNamed(t *testing.T, d *scenegraph.Deck, i int, name string) *scenegraph.Node {
	t.Helper()
	var found *scenegraph.Node
	d.Slides[i].Walk(func(n, _ *scenegraph.Node, _ int) bool {
		if n.Name == name && found == nil {
			found = n
		}
		return true
	})
	if found == nil {
		t.Fatalf("slide %d has no node named %q", i+1, name)
	}
	return found
}

// smallestRunSize is the smallest font size (px, before any autofit scale)
// of n's visible characters; a superscript or subscript run is drawn at
// 70% of its size (runCSSFor).
func smallestRunSize(n *scenegraph.Node) float64 {
	size := math.Inf(1)
	for i, r := range []rune(n.Characters) {
		if unicode.IsSpace(r) || r == '\u2028' {
			continue
		}
		st := n.StyleAt(i)
		if st.Baseline != 0 {
			st.FontSize *= 0.7
		}
		size = math.Min(size, st.FontSize)
	}
	return size
}

func importBytes(t *testing.T, data []byte, name string) (*scenegraph.Deck, scenegraph.Blobs) {
	t.Helper()
	d, blobs, err := pptx.Import(data, name)
	if err != nil {
		t.Fatal(err)
	}
	return d, blobs
}

func renderSlide(t *testing.T, d *scenegraph.Deck, blobs scenegraph.AssetSource, i int) *SlideResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := sharedPool(t).Render(ctx, d, blobs, Request{Slides: []int{i}})
	if err != nil {
		t.Fatal(err)
	}
	return &res.Slides[0]
}

// TestInheritedNormAutofitIsDrawnUnshrunk: a body placeholder inheriting
// <a:normAutofit/> from its master with no stored fontScale is drawn at
// 100% (PowerPoint and LibreOffice both show it overflowing until someone
// edits the text), and its overflow is a text_overflow violation in px.
func TestInheritedNormAutofitIsDrawnUnshrunk(t *testing.T) {
	d, blobs := importBytes(t, overflowingBody(t, `<a:bodyPr/>`), "inherited.pptx")
	n := nodeNamed(t, d, 0, "Content Placeholder 2")
	if n.TextBox == nil || n.TextBox.AutoResize != scenegraph.AutoResizeShrink || n.TextBox.FontScale != 0 {
		t.Fatalf("the placeholder should inherit the master's normAutofit with no scale: %+v", n.TextBox)
	}
	sr := renderSlide(t, d, blobs, 0)
	m := sr.Nodes[n.ID]
	want := smallestRunSize(n)
	if m.AutoFitScale != 0 || math.Abs(m.MinFontSize-want) > 0.01 {
		t.Errorf("drawn at %.2f px (autofit scale %g), want the stored %.2f px unshrunk", m.MinFontSize, m.AutoFitScale, want)
	}
	if !m.Overflow || m.OverflowY <= 50 {
		t.Errorf("eight paragraphs in a 184 px box should overflow by more than 50 px: %+v", m)
	}
	var v *Violation
	for k := range sr.Violations {
		if sr.Violations[k].Kind == KindTextOverflow && len(sr.Violations[k].NodeIDs) == 1 && sr.Violations[k].NodeIDs[0] == n.ID {
			v = &sr.Violations[k]
		}
	}
	if v == nil {
		t.Fatalf("no text_overflow violation names %s: %+v", n.ID, sr.Violations)
	}
	if !strings.Contains(v.Reason, " px past its box") || !strings.Contains(v.Reason, "normAutofit") {
		t.Errorf("the violation should give the px and say the stored autofit scale is what is drawn: %q", v.Reason)
	}
}

// TestStoredFontScaleIsDrawnAtThatScale: default_template.pptx (a real
// deck PowerPoint saved) stores fontScale 90% on slide 9's title, 92.5%
// with lnSpcReduction 10% on slide 11's body and 85% with 20% on slide
// 12's body. Each is drawn at exactly its stored scale, never shrunk
// further, and the scale drawn is what the render reports.
func TestStoredFontScaleIsDrawnAtThatScale(t *testing.T) {
	data, err := os.ReadFile(shareddecks.PPTXFile(t, "default_template.pptx"))
	if err != nil {
		t.Fatal(err)
	}
	d, blobs := importBytes(t, data, "default_template.pptx")
	for _, c := range []struct {
		slide     int // 0-based
		name      string
		scale     float64
		reduction float64
	}{{8, "Title 1", 0.9, 0}, {10, "Content Placeholder 2", 0.925, 0.1}, {11, "Content Placeholder 2", 0.85, 0.2}} {
		n := nodeNamed(t, d, c.slide, c.name)
		if n.TextBox == nil || n.TextBox.FontScale != c.scale {
			t.Fatalf("slide %d %q: imported autofit %+v, want fontScale %g", c.slide+1, c.name, n.TextBox, c.scale)
		}
		m := renderSlide(t, d, blobs, c.slide).Nodes[n.ID]
		want := smallestRunSize(n) * c.scale
		if math.Abs(m.MinFontSize-want) > 0.02 || math.Abs(m.AutoFitScale-c.scale) > 1e-9 {
			t.Errorf("slide %d %q: drawn at %.3f px (scale %g), want %.3f px (the stored %g)", c.slide+1, c.name, m.MinFontSize, m.AutoFitScale, want, c.scale)
		}
	}
}

// TestLineSpacingReductionIsSubtracted: a stored lnSpcReduction of 20% is
// taken off each paragraph's line spacing (ECMA-376 §21.1.2.1.3): single
// spacing is drawn at 80% of its pitch, 150% spacing at 130%.
func TestLineSpacingReductionIsSubtracted(t *testing.T) {
	pitch := func(reduction, lineHeight float64) float64 {
		t.Helper()
		height := func(lines int) float64 {
			s := strings.Repeat("Line\n", lines-1) + "Line"
			n := text("t", 100, 100, 400, 500, s, 24, "#000000")
			n.TextBox = &scenegraph.TextBox{AutoResize: scenegraph.AutoResizeShrink, LineSpacingReduction: reduction, NoWrap: true}
			for i := 0; i < lines; i++ {
				n.Paragraphs = append(n.Paragraphs, scenegraph.Paragraph{LineHeight: lineHeight})
			}
			m := renderOne(t, deck(n), nil, false).Nodes["t"]
			if m.TextBounds == nil || m.Lines != lines {
				t.Fatalf("%d lines drawn as %+v", lines, m)
			}
			return m.TextBounds.Height
		}
		return (height(5) - height(1)) / 4
	}
	for _, c := range []struct{ lineHeight, want float64 }{{0, 0.8}, {1.5, 1.3 / 1.5}} {
		full, reduced := pitch(0, c.lineHeight), pitch(0.2, c.lineHeight)
		if got := reduced / full; math.Abs(got-c.want) > 0.02 {
			t.Errorf("line spacing %g: pitch %.2f px reduced to %.2f px (x%.3f), want x%.3f", c.lineHeight, full, reduced, got, c.want)
		}
	}
}
