package pptx

import (
	"os"
	"strings"
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
)

func readShared(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// namedNode returns the node of slide i (0-based) named name.
func namedNode(t *testing.T, d *sg.Deck, i int, name string) *sg.Node {
	t.Helper()
	var found *sg.Node
	d.Slides[i].Walk(func(n, _ *sg.Node, _ int) bool {
		if found == nil && n.Name == name {
			found = n
		}
		return true
	})
	if found == nil {
		t.Fatalf("slide %d has no node named %q", i+1, name)
	}
	return found
}

// bodyPrOf returns the a:bodyPr element of the p:sp named name in part.
func bodyPrOf(t *testing.T, part []byte, name string) string {
	t.Helper()
	s := string(part)
	i := strings.Index(s, ` name="`+name+`"`)
	if i < 0 {
		t.Fatalf("no shape named %q", name)
	}
	s = s[i:]
	s = s[strings.Index(s, "<a:bodyPr"):]
	if end := strings.Index(s, ">"); s[end-1] == '/' {
		return s[:end+1]
	}
	return s[:strings.Index(s, "</a:bodyPr>")+len("</a:bodyPr>")]
}

// TestNormAutofitImport: the stored fontScale and lnSpcReduction are read
// from the nearest a:bodyPr with an autofit choice (ECMA-376 §21.1.2.1.3),
// and a body that inherits <a:normAutofit/> from its master gets neither.
func TestNormAutofitImport(t *testing.T) {
	d, _, err := Import(readShared(t, shareddecks.PPTXFile(t, "default_template.pptx")), "default_template.pptx")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		slide            int
		name             string
		scale, reduction float64
	}{
		{11, "Content Placeholder 2", 0.85, 0.2}, // <a:normAutofit fontScale="85000" lnSpcReduction="20000"/>
		{7, "Text Placeholder 3", 0, 0.1},        // <a:normAutofit lnSpcReduction="10000"/>
		{8, "Title 1", 0.9, 0},                   // <a:normAutofit fontScale="90000"/>
		{12, "Content Placeholder 2", 0, 0},      // <a:bodyPr/>: the layout's <a:normAutofit/>
	} {
		tb := namedNode(t, d, c.slide, c.name).TextBox
		if tb == nil || tb.AutoResize != sg.AutoResizeShrink || tb.FontScale != c.scale || tb.LineSpacingReduction != c.reduction {
			t.Errorf("slide %d %q: %+v, want normAutofit at %g with %g off line spacing", c.slide+1, c.name, tb, c.scale, c.reduction)
		}
	}
}

// TestAutofitExport: the autofit element is written from what is drawn
// (sg.TextBox.DrawnFontScale, DrawnLineReduction) and only when it
// changed: a body inheriting normAutofit keeps inheriting it when only
// its insets change, a stored scale with line spacing reduction is kept
// byte for byte, and a changed scale is written in 1/1000 %.
func TestAutofitExport(t *testing.T) {
	orig := readShared(t, shareddecks.PPTXFile(t, "default_template.pptx"))
	d, blobs, err := Import(orig, "default_template.pptx")
	if err != nil {
		t.Fatal(err)
	}
	inherited := namedNode(t, d, 12, "Content Placeholder 2").TextBox
	inherited.Insets = &sg.Insets{Left: 20, Top: 10, Right: 20, Bottom: 10}
	reduced := namedNode(t, d, 7, "Text Placeholder 3").TextBox
	reduced.Insets = &sg.Insets{Left: 20, Top: 10, Right: 20, Bottom: 10}
	refitted := namedNode(t, d, 11, "Content Placeholder 2").TextBox
	refitted.FontScale, refitted.LineSpacingReduction = 0.62, 0
	fits := namedNode(t, d, 10, "Content Placeholder 2").TextBox
	fits.FontScale, fits.LineSpacingReduction = 0, 0
	off := namedNode(t, d, 8, "Title 1").TextBox
	off.AutoResize = sg.AutoResizeNone
	out, err := Export(d, blobs)
	if err != nil {
		t.Fatal(err)
	}
	parts := zipParts(t, out)
	for _, c := range []struct{ part, name, want string }{
		{"ppt/slides/slide13.xml", "Content Placeholder 2", `<a:bodyPr lIns="190500" tIns="95250" rIns="190500" bIns="95250" wrap="square" anchor="t"/>`},
		{"ppt/slides/slide8.xml", "Text Placeholder 3", `<a:normAutofit lnSpcReduction="10000"/>`},
		{"ppt/slides/slide12.xml", "Content Placeholder 2", `<a:normAutofit fontScale="62000"/>`},
		{"ppt/slides/slide11.xml", "Content Placeholder 2", `<a:normAutofit/>`},
		{"ppt/slides/slide9.xml", "Title 1", `<a:noAutofit/>`},
	} {
		if got := bodyPrOf(t, parts[c.part], c.name); !strings.Contains(got, c.want) {
			t.Errorf("%s %q: %s, want %s", c.part, c.name, got, c.want)
		}
	}
	if got := bodyPrOf(t, parts["ppt/slides/slide8.xml"], "Text Placeholder 3"); strings.Count(got, "Autofit") != 1 {
		t.Errorf("one autofit choice expected: %s", got)
	}
	again, _, err := Import(out, "out.pptx")
	if err != nil {
		t.Fatal(err)
	}
	if tb := namedNode(t, again, 11, "Content Placeholder 2").TextBox; tb.FontScale != 0.62 || tb.LineSpacingReduction != 0 {
		t.Errorf("re-imported %+v, exported fontScale 62%%", tb)
	}
	if tb := namedNode(t, again, 12, "Content Placeholder 2").TextBox; tb.AutoResize != sg.AutoResizeShrink {
		t.Errorf("the body no longer inherits normAutofit: %+v", tb)
	}
}

// autofitXML writes both stored values, each only when not its default.
func TestAutofitXML(t *testing.T) {
	for _, c := range []struct {
		tb   *sg.TextBox
		want string
	}{
		{nil, `<a:noAutofit/>`},
		{&sg.TextBox{AutoResize: sg.AutoResizeShrink}, `<a:normAutofit/>`},
		{&sg.TextBox{AutoResize: sg.AutoResizeShrink, FontScale: 0.925, LineSpacingReduction: 0.1}, `<a:normAutofit fontScale="92500" lnSpcReduction="10000"/>`},
		{&sg.TextBox{AutoResize: sg.AutoResizeShrink, FontScale: 1}, `<a:normAutofit/>`},
		{&sg.TextBox{AutoResize: sg.AutoResizeHeight, FontScale: 0.5}, `<a:spAutoFit/>`},
		{&sg.TextBox{AutoResize: sg.AutoResizeNone, FontScale: 0.5, LineSpacingReduction: 0.2}, `<a:noAutofit/>`},
	} {
		if got := autofitXML(c.tb); got != c.want {
			t.Errorf("%+v: %s, want %s", c.tb, got, c.want)
		}
	}
}
