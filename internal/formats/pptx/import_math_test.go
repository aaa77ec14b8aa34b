package pptx

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

const ommlNS = `xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"`

// omml parses an m:oMath fragment.
func omml(t *testing.T, body string) *xnode {
	t.Helper()
	doc, err := parseXML("test", []byte(`<m:oMath `+ommlNS+`>`+body+`</m:oMath>`), xmlLimits{maxDepth: 64})
	if err != nil {
		t.Fatal(err)
	}
	return doc.root()
}

func mr(text string) string { return `<m:r><m:t>` + text + `</m:t></m:r>` }

// OMML as PowerPoint writes it (math-italic letters, U+2212 minus) becomes
// LaTeX MathJax typesets.
func TestOMMLToLaTeX(t *testing.T) {
	for _, c := range []struct{ name, omml, want string }{
		{"quadratic formula", mr("𝑥=") + `<m:f><m:num>` + mr("−𝑏±") + `<m:rad><m:radPr><m:degHide m:val="1"/></m:radPr><m:deg/><m:e><m:sSup><m:e>` + mr("𝑏") + `</m:e><m:sup>` + mr("2") + `</m:sup></m:sSup>` + mr("−4𝑎𝑐") + `</m:e></m:rad></m:num><m:den>` + mr("2𝑎") + `</m:den></m:f>`,
			`x=\frac{-b\pm \sqrt{{b}^{2}-4ac}}{2a}`},
		{"sum with limits", `<m:nary><m:naryPr><m:chr m:val="∑"/><m:limLoc m:val="undOvr"/></m:naryPr><m:sub>` + mr("𝑖=1") + `</m:sub><m:sup>` + mr("𝑛") + `</m:sup><m:e><m:sSub><m:e>` + mr("𝑥") + `</m:e><m:sub>` + mr("𝑖") + `</m:sub></m:sSub></m:e></m:nary>`,
			`\sum _{i=1}^{n}{{x}_{i}}`},
		{"integral (default n-ary character)", `<m:nary><m:sub>` + mr("0") + `</m:sub><m:sup>` + mr("∞") + `</m:sup><m:e>` + mr("𝑓") + `</m:e></m:nary>`,
			`\int _{0}^{\infty}{f}`},
		{"cube root, brackets, function", `<m:rad><m:deg>` + mr("3") + `</m:deg><m:e>` + mr("𝛼") + `</m:e></m:rad><m:d><m:dPr><m:begChr m:val="["/><m:endChr m:val="]"/></m:dPr><m:e>` + mr("𝑎") + `</m:e><m:e>` + mr("𝑏") + `</m:e></m:d><m:func><m:fName><m:r><m:rPr><m:sty m:val="p"/></m:rPr><m:t>sin</m:t></m:r></m:fName><m:e>` + mr("𝜃") + `</m:e></m:func>`,
			`\sqrt[3]{\alpha}\left[ a \mid b \right]\sin{\theta}`},
		{"accent, bar, matrix, limit", `<m:acc><m:e>` + mr("𝑣") + `</m:e></m:acc><m:bar><m:barPr><m:pos m:val="top"/></m:barPr><m:e>` + mr("𝑧") + `</m:e></m:bar><m:m><m:mr><m:e>` + mr("1") + `</m:e><m:e>` + mr("0") + `</m:e></m:mr><m:mr><m:e>` + mr("0") + `</m:e><m:e>` + mr("1") + `</m:e></m:mr></m:m><m:limLow><m:e>` + `<m:r><m:rPr><m:sty m:val="p"/></m:rPr><m:t>lim</m:t></m:r>` + `</m:e><m:lim>` + mr("𝑛→∞") + `</m:lim></m:limLow>`,
			`\hat{v}\overline{z}\begin{matrix}1 & 0 \\ 0 & 1\end{matrix}\lim_{n\rightarrow \infty}`},
		{"empty delimiter and TeX specials", `<m:d><m:dPr><m:begChr m:val="{"/><m:endChr m:val=""/></m:dPr><m:e>` + mr("50%") + `</m:e></m:d>`,
			`\left\{ 50\% \right.`},
	} {
		if got := ommlLaTeX(omml(t, c.omml)); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

// equation returns an mc:AlternateContent as PowerPoint writes an equation
// text box: the OMML shape in mc:Choice (a14), a stand-in in mc:Fallback.
func equation(id, name, para string, y int) string {
	sp := func(body string) string {
		return `<p:sp><p:nvSpPr><p:cNvPr id="` + id + `" name="` + name + `"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>` +
			`<p:spPr><a:xfrm><a:off x="914400" y="` + strconv.Itoa(y) + `"/><a:ext cx="3657600" cy="914400"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:noFill/></p:spPr>` +
			`<p:txBody><a:bodyPr wrap="square"><a:spAutoFit/></a:bodyPr><a:lstStyle/>` + body + `</p:txBody></p:sp>`
	}
	return `<mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006">` +
		`<mc:Choice xmlns:a14="http://schemas.microsoft.com/office/drawing/2010/main" Requires="a14">` + sp(para) + `</mc:Choice>` +
		`<mc:Fallback>` + sp(`<a:p><a:r><a:rPr lang="en-US"/><a:t>[equation picture]</a:t></a:r></a:p>`) + `</mc:Fallback></mc:AlternateContent>`
}

// mathDeck is default_template with three equation boxes added to slide 1:
// a display formula (m:oMathPara) in red 32 pt, an inline one (a bare
// m:oMath), and text mixed with math, which stays unmodelled.
func mathDeck(t *testing.T) []byte {
	red := `<a:rPr lang="en-US" sz="3200" i="1"><a:solidFill><a:srgbClr val="C00000"/></a:solidFill><a:latin typeface="Cambria Math"/></a:rPr>`
	display := `<a:p><a14:m><m:oMathPara xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"><m:oMath>` +
		`<m:r>` + red + `<m:t>𝑥=</m:t></m:r><m:f><m:num><m:r>` + red + `<m:t>𝑎</m:t></m:r></m:num><m:den><m:r>` + red + `<m:t>𝑏</m:t></m:r></m:den></m:f>` +
		`</m:oMath></m:oMathPara></a14:m><a:endParaRPr lang="en-US"/></a:p>`
	inline := `<a:p><a14:m><m:oMath xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"><m:r><m:t>𝐸=𝑚</m:t></m:r><m:sSup><m:e><m:r><m:t>𝑐</m:t></m:r></m:e><m:sup><m:r><m:t>2</m:t></m:r></m:sup></m:sSup></m:oMath></a14:m></a:p>`
	mixed := `<a:p><a:r><a:rPr lang="en-US"/><a:t>where </a:t></a:r><a14:m><m:oMath xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"><m:r><m:t>𝑥</m:t></m:r></m:oMath></a14:m></a:p>`
	extra := equation("901", "Equation display", display, 1828800) + equation("902", "Equation inline", inline, 3657600) + equation("903", "Equation mixed", mixed, 5029200)
	return rezip(t, readDeck(t, "default_template.pptx"), func(name string, data []byte) ([]byte, bool) {
		if name == "ppt/slides/slide1.xml" {
			data = bytes.Replace(data, []byte("</p:spTree>"), []byte(extra+"</p:spTree>"), 1)
		}
		return data, true
	}, nil)
}

// A PowerPoint equation box imports as a MATH node: display style from
// m:oMathPara, inline from a bare m:oMath, size and colour from the math
// run's a:rPr; text mixed with math is not modelled. Unedited export keeps
// the slide byte-identical; a move rewrites both a:xfrm (the OMML stays);
// a LaTeX edit replaces the equation with the MATH writer's shape.
func TestEquationImportsAsMath(t *testing.T) {
	data := mathDeck(t)
	d, blobs, _, err := ImportWithOptions(data, "math.pptx", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := sg.Validate(d); err != nil {
		t.Fatal(err)
	}
	ix := sg.NewIndex(d)
	disp, inl := ix.Node(d.Slides[0].ID+"/901"), ix.Node(d.Slides[0].ID+"/902")
	if ix.Node(d.Slides[0].ID+"/903") != nil {
		t.Error("text mixed with math was modelled")
	}
	if disp == nil || inl == nil || disp.Type != sg.TypeMath || inl.Type != sg.TypeMath {
		t.Fatalf("equations: %+v %+v", disp, inl)
	}
	if m := disp.Math; m.LaTeX != `x=\frac{a}{b}` || !m.Display || math.Abs(m.FontSize-32*sg.PxPerPt) > 1e-3 || m.Color == nil || m.Color.Hex() != "#C00000" {
		t.Errorf("display equation: %+v colour %v", m, m.Color)
	}
	if m := inl.Math; m.LaTeX != `E=m{c}^{2}` || m.Display {
		t.Errorf("inline equation: %+v", m)
	}
	if disp.Name != "Equation display" || disp.Size.X != 384 || disp.Size.Y != 96 || disp.Characters != "" {
		t.Errorf("display equation node: name %q size %v text %q", disp.Name, disp.Size, disp.Characters)
	}
	// Unedited: byte-identical.
	out, err := Export(d, blobs)
	if err != nil {
		t.Fatal(err)
	}
	if op, np := zipParts(t, data), zipParts(t, out); !bytes.Equal(op["ppt/slides/slide1.xml"], np["ppt/slides/slide1.xml"]) {
		t.Fatal("unedited export changed the slide with equations")
	}
	// Move the display equation, retype the inline one.
	disp.Transform[0][2] += 96
	inl.Math.LaTeX = `E=mc^3`
	out, err = Export(d, blobs)
	if err != nil {
		t.Fatal(err)
	}
	checkPackage(t, out)
	slide := string(zipParts(t, out)["ppt/slides/slide1.xml"])
	if n := strings.Count(slide, `<a:off x="1828800" y="1828800"/>`); n != 2 {
		t.Errorf("moved equation: %d a:off at the new place, want 2 (mc:Choice and mc:Fallback)", n)
	}
	if !strings.Contains(slide, "<m:f>") || !strings.Contains(slide, "<m:sSup>") || strings.Count(slide, "<a14:m>") < 2 {
		t.Errorf("want the moved equation's OMML kept and the retyped one written as a new equation (m:sSup):\n%s", slide[strings.Index(slide, "Equation display")-200:])
	}
	d2, _, _, err := ImportWithOptions(out, "out.pptx", Options{})
	if err != nil {
		t.Fatal(err)
	}
	m2 := sg.NewIndex(d2).Node(d.Slides[0].ID + "/901")
	if m2 == nil || m2.Type != sg.TypeMath || m2.Transform.X() != disp.Transform.X() || !m2.Math.Display {
		t.Errorf("re-imported moved equation: %+v", m2)
	}
	var retyped []string
	d2.Walk(func(n, _ *sg.Node, _ int) bool {
		if n.Type == sg.TypeMath && n.Math != nil && strings.Contains(n.Math.LaTeX, "3") {
			retyped = append(retyped, n.Math.LaTeX)
		}
		return true
	})
	if len(retyped) != 1 || texCanon(retyped[0]) != texCanon(`E=mc^3`) {
		t.Errorf("re-imported retyped equation: %q, want E=mc^3", retyped)
	}
}
