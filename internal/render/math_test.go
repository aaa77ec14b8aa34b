package render

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/acecanvas/ace/internal/scenegraph"
)

func mathNode(id string, x, y, w, h float64, latex string, size float64) *scenegraph.Node {
	return &scenegraph.Node{ID: id, Type: scenegraph.TypeMath, Transform: scenegraph.Translate(x, y),
		Size: scenegraph.Vector{X: w, Y: h}, Math: &scenegraph.Math{LaTeX: latex, FontSize: size}}
}

// inPage evaluates expr in the shared pool's tab, which still holds the
// DOM of the last slide rendered (the pool has one tab).
func inPage[T any](t *testing.T, expr string) T {
	t.Helper()
	p := sharedPool(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tb, err := p.acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer p.release(tb, false)
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// A formula is typeset by MathJax to inline SVG (glyphs as paths, no HTML
// text), drawn from the node's top-left corner, and scales with the node's
// font size: twice the size is twice as wide and tall.
func TestMathIsSVGSizedByFontSize(t *testing.T) {
	const latex = `E = mc^2 + \frac{a}{b}`
	small := mathNode("small", 100, 100, 600, 150, latex, 32)
	big := mathNode("big", 100, 300, 600, 300, latex, 64)
	big.Math.Color = &scenegraph.Color{R: 1, A: 1}
	sr := renderOne(t, deck(small, big), nil, true)
	if len(sr.Errors) != 0 {
		t.Fatalf("errors: %v", sr.Errors)
	}
	type dom struct {
		SVGs      int    `json:"svgs"`
		HTMLText  string `json:"htmlText"`
		Paths     int    `json:"paths"`
		Container string `json:"container"`
	}
	got := inPage[dom](t, `(() => {
		const mx = [...document.querySelectorAll('[data-latex] > .mx')];
		let htmlText = '';
		for (const m of mx) {
			const w = document.createTreeWalker(m, NodeFilter.SHOW_TEXT);
			for (let n = w.nextNode(); n; n = w.nextNode()) if (!n.parentElement.closest('svg')) htmlText += n.data;
		}
		return {svgs: document.querySelectorAll('[data-latex] > .mx svg').length,
			htmlText: htmlText.trim(),
			paths: document.querySelectorAll('[data-latex] > .mx svg path').length,
			container: (document.querySelector('[data-latex] > .mx > mjx-container') || {}).tagName || ''};
	})()`)
	// fontCache local: each formula's SVG holds its own glyph definitions.
	if got.SVGs < 2 || got.Paths < 10 || got.HTMLText != "" || got.Container != "MJX-CONTAINER" {
		t.Fatalf("formulas should be MathJax SVG with glyph paths and no HTML text: %+v", got)
	}
	s, b := sr.Nodes["small"].TextBounds, sr.Nodes["big"].TextBounds
	if s == nil || b == nil {
		t.Fatalf("formula bounds missing: %+v %+v", sr.Nodes["small"], sr.Nodes["big"])
	}
	// E = mc² + a/b at 32 px is about 5 em wide and 2 em tall (the fraction).
	if s.Width < 4*32 || s.Width > 8*32 || s.Height < 1.2*32 || s.Height > 3*32 {
		t.Errorf("32 px formula is %gx%g px, want about 5 em x 2 em", s.Width, s.Height)
	}
	if !near(s.X, 100, 1) || !near(s.Y, 100, 1) || !near(b.X, 100, 1) || !near(b.Y, 300, 1) {
		t.Errorf("formulas should start at their node's top-left corner: %+v %+v", s, b)
	}
	if r := b.Width / s.Width; r < 1.95 || r > 2.05 {
		t.Errorf("width ratio 64 px / 32 px = %.3f, want 2", r)
	}
	if r := b.Height / s.Height; r < 1.95 || r > 2.05 {
		t.Errorf("height ratio 64 px / 32 px = %.3f, want 2", r)
	}
	// The glyphs are painted, in the node's colour.
	img := decodePNG(t, sr.PNG)
	dark, red := 0, 0
	for y := 100; y < 250; y++ {
		for x := 100; x < 700; x++ {
			if c := pixel(img, x, y); c.R < 100 && c.G < 100 && c.B < 100 {
				dark++
			}
		}
	}
	for y := 300; y < 600; y++ {
		for x := 100; x < 700; x++ {
			if c := pixel(img, x, y); c.R > 200 && c.G < 60 && c.B < 60 {
				red++
			}
		}
	}
	if dark < 200 || red < 800 {
		t.Errorf("the formulas drew %d dark and %d red pixels", dark, red)
	}
}

// Invalid LaTeX is an error on the slide that names the node, the source
// and MathJax's reason; the node shows its source instead, the rest of the
// slide renders, and valid formulas beside it are unaffected.
func TestMathInvalidLaTeXIsReported(t *testing.T) {
	cases := []struct{ latex, reason string }{
		{`\frac{a}{`, "Missing close brace"},
		{`x + \notamacro{y}`, `Undefined control sequence \notamacro`},
		{`\begin{pmatrix} a \end{bmatrix}`, `\begin{pmatrix} ended with \end{bmatrix}`},
		{`\require{html}`, `Undefined control sequence \require`},
		{`\style{color:red}{x}`, `Undefined control sequence \style`},
		{`\def\a{\a\a}\a`, "maximum macro substitution count exceeded"},
	}
	for _, c := range cases {
		ok := mathNode("ok", 100, 100, 400, 100, `\sqrt{2}`, 32)
		bad := mathNode("bad", 100, 300, 400, 100, c.latex, 32)
		sr := renderOne(t, deck(ok, bad), nil, false)
		if len(sr.Errors) != 1 {
			t.Errorf("%s: errors = %v, want one", c.latex, sr.Errors)
			continue
		}
		e := sr.Errors[0]
		if e.NodeID != "bad" || !strings.Contains(e.Message, "invalid LaTeX") || !strings.Contains(e.Message, c.latex) || !strings.Contains(e.Message, c.reason) {
			t.Errorf("%s: error %+v should name node bad, the source and %q", c.latex, e, c.reason)
		}
		if sr.Nodes["ok"].TextBounds == nil {
			t.Errorf("%s: the valid formula beside it was not typeset", c.latex)
		}
	}
}

// Math.Display typesets display style (LaTeX \[...\]): a sum's limits go
// above and below the Σ and a fraction is full size, so the formula is
// taller and narrower than the same LaTeX inline style, where the limits
// sit beside the Σ as scripts.
func TestMathDisplayAndInlineStyle(t *testing.T) {
	const latex = `\sum_{i=1}^{n} \frac{x_i}{2}`
	inline := mathNode("inline", 100, 100, 600, 200, latex, 40)
	display := mathNode("display", 100, 400, 600, 250, latex, 40)
	display.Math.Display = true
	sr := renderOne(t, deck(inline, display), nil, false)
	if len(sr.Errors) != 0 {
		t.Fatalf("errors: %v", sr.Errors)
	}
	i, d := sr.Nodes["inline"].TextBounds, sr.Nodes["display"].TextBounds
	if i == nil || d == nil {
		t.Fatalf("formula bounds missing: %+v %+v", sr.Nodes["inline"], sr.Nodes["display"])
	}
	if d.Height < 1.3*i.Height || d.Width >= i.Width {
		t.Errorf("display %gx%g vs inline %gx%g: display style should be taller (limits above and below) and narrower", d.Width, d.Height, i.Width, i.Height)
	}
	attrs := inPage[[]string](t, `[...document.querySelectorAll('[data-latex] > .mx')].map(m => m.getAttribute('data-display') + '/' + (m.querySelector('mjx-container') || {getAttribute: () => ''}).getAttribute('display'))`)
	if len(attrs) != 2 || attrs[0] != "null/null" || attrs[1] != "1/true" {
		t.Errorf("data-display / mjx-container display = %q, want inline then display", attrs)
	}
}

// The LaTeX the PPTX importer writes for OMML (formats/pptx ommlLaTeX)
// typesets with the vendored MathJax and its package set: every construct
// it emits renders without an error.
func TestMathTypesetsImportedOMMLConstructs(t *testing.T) {
	for i, latex := range []string{
		`x=\frac{-b\pm \sqrt{{b}^{2}-4ac}}{2a}`,
		`{a}/{b} + \genfrac{}{}{0pt}{}{n}{k}`,
		`\sum _{i=1}^{n}{{x}_{i}} \int \limits_{0}^{\infty}{f} \mathop{⨁}_{k}{V}`,
		`\sqrt[3]{\alpha}\left[ a \mid b \right]\left\{ 50\% \right. \left\langle u \right\rangle`,
		`\sin{\theta}\operatorname{sgn}{x}\hat{v}\overline{z}\underline{w}\boxed{E}`,
		`\begin{matrix}1 & 0 \\ 0 & 1\end{matrix}\lim_{n\rightarrow \infty} \underset{x}{\max} \overset{!}{=}`,
		`\overbrace{a+b}\underbrace{c}\xrightarrow{f}\xleftarrow{g} {}_{1}^{2}{X}`,
		`\begin{gathered}a=b \\ c=d\end{gathered} \mathbb{R}^{\circ}`,
	} {
		sr := renderOne(t, deck(mathNode("m", 50, 50, 1000, 300, latex, 32)), nil, false)
		if len(sr.Errors) != 0 || sr.Nodes["m"].TextBounds == nil {
			t.Errorf("construct %d %s: errors %v", i, latex, sr.Errors)
		}
	}
}
