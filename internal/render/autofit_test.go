package render

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/libreoffice"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/internal/tools"
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

// zipParts returns every part of a package by name.
func zipParts(t *testing.T, data []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name] = b
	}
	return out
}

// shapeXML returns the p:sp element of part whose p:cNvPr is named name.
func shapeXML(t *testing.T, part []byte, name string) string {
	t.Helper()
	s := string(part)
	i := strings.Index(s, `<p:cNvPr id="`)
	for i >= 0 {
		end := strings.Index(s[i:], ">")
		if strings.Contains(s[i:i+end], ` name="`+name+`"`) {
			start := strings.LastIndex(s[:i], "<p:sp>")
			stop := strings.Index(s[i:], "</p:sp>")
			return s[start : i+stop+len("</p:sp>")]
		}
		next := strings.Index(s[i+1:], `<p:cNvPr id="`)
		if next < 0 {
			break
		}
		i += 1 + next
	}
	t.Fatalf("no shape named %q", name)
	return ""
}

func applyOne(t *testing.T, d *scenegraph.Deck, opts tools.Options, tool string, args any) *scenegraph.Deck {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	next, _, err := tools.Apply(d, []tools.Call{{Tool: tool, Args: raw}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return next
}

// TestEditedAutofitTextIsExportedAtTheScaleDrawn: ACE's edit of a
// normAutofit text refits it as PowerPoint does on an edit, and the scale
// it draws and checks is the one exported. test_slides.pptx's body
// placeholder (inheriting <a:normAutofit/>) is given eight paragraphs:
// the text is drawn shrunk to fit, without overflow, and the export
// writes <a:normAutofit fontScale> with that scale, which re-imports the
// same; every other part of the package, and the other shapes of the
// slide, are byte-identical.
func TestEditedAutofitTextIsExportedAtTheScaleDrawn(t *testing.T) {
	data := pythonPPTX(t, "test_slides.pptx", "")
	d, blobs := importBytes(t, data, "test_slides.pptx")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	opts := tools.Options{FitText: FitTextFunc(ctx, sharedPool(t), blobs)}
	body := nodeNamed(t, d, 0, "Content Placeholder 2")
	long := strings.TrimSuffix(strings.Repeat("Quarterly revenue grew in every region we serve\n", 8), "\n")
	next := applyOne(t, d, opts, "set_text_content", map[string]any{"nodeId": body.ID, "text": long})
	n := nodeNamed(t, next, 0, "Content Placeholder 2")
	scale := n.TextBox.FontScale
	if scale <= 0.25 || scale >= 1 || n.TextBox.LineSpacingReduction != 0 {
		t.Fatalf("eight paragraphs should be fitted below 100%%: %+v", n.TextBox)
	}
	t.Logf("eight paragraphs fitted at %g", scale)
	m := renderSlide(t, next, blobs, 0).Nodes[n.ID]
	if m.Overflow || m.AutoFitScale != scale || math.Abs(m.MinFontSize-smallestRunSize(n)*scale) > 0.02 {
		t.Errorf("stored scale %g, drawn at %g (%.2f px), overflow %v", scale, m.AutoFitScale, m.MinFontSize, m.Overflow)
	}

	out, err := pptx.Export(next, blobs)
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("ACE_AUTOFIT_OUT"); dir != "" { // for a look in PowerPoint or LibreOffice
		if err := os.WriteFile(filepath.Join(dir, "autofit-edited.pptx"), out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before, after := zipParts(t, data), zipParts(t, out)
	const slide = "ppt/slides/slide1.xml"
	want := `<a:normAutofit fontScale="` + strconv.Itoa(int(math.Round(scale*100000))) + `"/>`
	if sp := shapeXML(t, after[slide], "Content Placeholder 2"); !strings.Contains(sp, want) {
		t.Errorf("exported body does not store the scale drawn, want %s in\n%s", want, sp)
	}
	for _, other := range []string{"Title 1", "TextBox 6", "Rounded Rectangle 11"} {
		if a, b := shapeXML(t, before[slide], other), shapeXML(t, after[slide], other); a != b {
			t.Errorf("untouched shape %q changed:\n%s\n%s", other, a, b)
		}
	}
	for name, b := range before {
		if name != slide && !bytes.Equal(b, after[name]) {
			t.Errorf("part %s changed", name)
		}
	}
	again, _ := importBytes(t, out, "out.pptx")
	if got := nodeNamed(t, again, 0, "Content Placeholder 2").TextBox.FontScale; got != scale {
		t.Errorf("re-imported scale %g, exported %g", got, scale)
	}
}

// TestRecolourKeepsTheStoredAutofit: an edit that does not change where
// lines break (a colour) does not refit: default_template slide 12's body
// keeps its stored fontScale 85% and lnSpcReduction 20%, drawn and
// exported byte for byte, and so do the slides the edit did not touch.
func TestRecolourKeepsTheStoredAutofit(t *testing.T) {
	data, err := os.ReadFile(shareddecks.PPTXFile(t, "default_template.pptx"))
	if err != nil {
		t.Fatal(err)
	}
	d, blobs := importBytes(t, data, "default_template.pptx")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	opts := tools.Options{FitText: FitTextFunc(ctx, sharedPool(t), blobs)}
	body := nodeNamed(t, d, 11, "Content Placeholder 2")
	next := applyOne(t, d, opts, "set_text_color", map[string]any{"nodeId": body.ID, "color": "#203040"})
	n := nodeNamed(t, next, 11, "Content Placeholder 2")
	if n.TextBox.FontScale != 0.85 || n.TextBox.LineSpacingReduction != 0.2 {
		t.Fatalf("a recolour refitted the text: %+v", n.TextBox)
	}
	if m := renderSlide(t, next, blobs, 11).Nodes[n.ID]; m.AutoFitScale != 0.85 {
		t.Errorf("drawn at %g, want the stored 0.85", m.AutoFitScale)
	}
	out, err := pptx.Export(next, blobs)
	if err != nil {
		t.Fatal(err)
	}
	before, after := zipParts(t, data), zipParts(t, out)
	const slide = "ppt/slides/slide12.xml"
	if sp := shapeXML(t, after[slide], "Content Placeholder 2"); !strings.Contains(sp, `<a:bodyPr><a:normAutofit fontScale="85000" lnSpcReduction="20000"/></a:bodyPr>`) {
		t.Errorf("the stored autofit was not kept:\n%s", sp)
	}
	for name, b := range before {
		if strings.HasPrefix(name, "ppt/slides/slide") && name != slide && !bytes.Equal(b, after[name]) {
			t.Errorf("untouched part %s changed", name)
		}
	}
}

// pdfWordHeights converts the files with LibreOffice and returns, per
// file, the height (pt) of each occurrence of word on the first page of
// its PDF (pdftotext -bbox): the size LibreOffice drew the text at.
func pdfWordHeights(t *testing.T, files map[string][]byte, word string) map[string][]float64 {
	t.Helper()
	if _, err := libreoffice.Binary(); err != nil {
		t.Skip(err)
	}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed (poppler-utils)")
	}
	pdfs, err := libreoffice.ToPDF(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	box := regexp.MustCompile(`<word xMin="[-0-9.]+" yMin="([-0-9.]+)" xMax="[-0-9.]+" yMax="([-0-9.]+)">([^<]*)</word>`)
	out := map[string][]float64{}
	for name, pdf := range pdfs {
		p := filepath.Join(t.TempDir(), "x.pdf")
		if err := os.WriteFile(p, pdf, 0o644); err != nil {
			t.Fatal(err)
		}
		html, err := exec.Command("pdftotext", "-bbox", "-f", "1", "-l", "1", p, "-").Output()
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range box.FindAllStringSubmatch(string(html), -1) {
			if m[3] == word {
				y0, _ := strconv.ParseFloat(m[1], 64)
				y1, _ := strconv.ParseFloat(m[2], 64)
				out[name] = append(out[name], y1-y0)
			}
		}
		if len(out[name]) == 0 {
			t.Fatalf("LibreOffice drew no %q on %s's first slide", word, name)
		}
	}
	return out
}

// TestAutofitAgreesWithLibreOffice checks the rule against LibreOffice
// 7.4's PDF of the same files: the body that only inherits normAutofit
// is drawn at full size (the same size as with a:noAutofit), as ACE draws
// it; and the file ACE exports after fitting eight paragraphs into it
// (fontScale stored) is drawn by LibreOffice, which refits such a box
// itself, within 5 percentage points of ACE's scale.
func TestAutofitAgreesWithLibreOffice(t *testing.T) {
	if testing.Short() {
		t.Skip("runs LibreOffice")
	}
	data := pythonPPTX(t, "test_slides.pptx", "")
	d, blobs := importBytes(t, data, "test_slides.pptx")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	body := nodeNamed(t, d, 0, "Content Placeholder 2")
	long := strings.TrimSuffix(strings.Repeat("Quarterly revenue grew in every region we serve\n", 8), "\n")
	next := applyOne(t, d, tools.Options{FitText: FitTextFunc(ctx, sharedPool(t), blobs)}, "set_text_content", map[string]any{"nodeId": body.ID, "text": long})
	scale := nodeNamed(t, next, 0, "Content Placeholder 2").TextBox.FontScale
	fitted, err := pptx.Export(next, blobs)
	if err != nil {
		t.Fatal(err)
	}
	h := pdfWordHeights(t, map[string][]byte{
		"inherited.pptx": overflowingBody(t, `<a:bodyPr/>`),
		"none.pptx":      overflowingBody(t, `<a:bodyPr><a:noAutofit/></a:bodyPr>`),
		"fitted.pptx":    fitted,
	}, "Quarterly")
	full := h["none.pptx"][0]
	if got := h["inherited.pptx"][0]; math.Abs(got-full) > 0.1 {
		t.Errorf("LibreOffice drew the inherited-normAutofit body at %.2f pt high, the unshrunk one at %.2f pt", got, full)
	}
	lo := h["fitted.pptx"][0] / full
	t.Logf("fitted body: ACE scale %.3f, LibreOffice %.3f", scale, lo)
	if math.Abs(lo-scale) > 0.05 {
		t.Errorf("LibreOffice drew ACE's fitted body at %.3f of full size, ACE at %.3f", lo, scale)
	}
}
