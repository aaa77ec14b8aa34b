package render

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/scenegraph"
)

const lorem = "The quick brown fox jumps over the lazy dog and keeps running across the field"

func TestTextWrapsIntoLinesAndReportsOverflow(t *testing.T) {
	fits := text("fits", 100, 100, 600, 200, lorem, 20, "#000000")
	tight := text("tight", 100, 400, 150, 40, lorem, 20, "#000000")
	sr := renderOne(t, deck(fits, tight), nil, false)
	if m := sr.Nodes["fits"]; m.Lines != 2 || m.Overflow {
		t.Errorf("fits: lines=%d overflow=%v, want 2 lines that fit", m.Lines, m.Overflow)
	}
	m := sr.Nodes["tight"]
	if m.Lines < 5 || !m.Overflow || m.OverflowY <= 0 {
		t.Errorf("tight: lines=%d overflow=%v overY=%g, want >=5 lines overflowing", m.Lines, m.Overflow, m.OverflowY)
	}
	if m.TextBounds == nil || m.TextBounds.Height <= m.Bounds.Height {
		t.Errorf("tight: ink %+v should be taller than the 40 px box", m.TextBounds)
	}
}

func TestAutoResizeTextHugsItsContent(t *testing.T) {
	both := text("both", 100, 100, 10, 10, "Hello", 40, "#000000")
	both.TextBox = &scenegraph.TextBox{AutoResize: scenegraph.AutoResizeBoth}
	height := text("height", 100, 300, 200, 10, lorem, 20, "#000000")
	height.TextBox = &scenegraph.TextBox{AutoResize: scenegraph.AutoResizeHeight}
	sr := renderOne(t, deck(both, height), nil, false)
	b := sr.Nodes["both"]
	if b.Bounds.Width < 80 || b.Bounds.Width > 130 || b.Lines != 1 || b.Overflow {
		t.Errorf("WIDTH_AND_HEIGHT: %+v, want one line about 100 px wide", b)
	}
	h := sr.Nodes["height"]
	if h.Bounds.Width != 200 || h.Bounds.Height < 3*20 || h.Overflow {
		t.Errorf("HEIGHT: %+v, want 200 px wide, grown to its lines", h)
	}
}

func TestVerticalAnchorLetterSpacingAndLineHeight(t *testing.T) {
	mid := text("mid", 100, 100, 400, 200, "Centred", 20, "#000000")
	mid.Style.TextAlignVertical = scenegraph.AlignCenter
	bottom := text("bottom", 600, 100, 400, 200, "Bottom", 20, "#000000")
	bottom.Style.TextAlignVertical = scenegraph.AlignBottom
	plain := text("plain", 100, 400, 1000, 40, "Spacing", 20, "#000000")
	spaced := text("spaced", 100, 450, 1000, 40, "Spacing", 20, "#000000")
	ls := 10.0
	spaced.Style.LetterSpacing = &ls
	tall := text("tall", 100, 500, 1000, 200, "a\nb\nc", 20, "#000000")
	tall.Style.LineHeightPx = 50
	sr := renderOne(t, deck(mid, bottom, plain, spaced, tall), nil, false)
	m := sr.Nodes["mid"].TextBounds
	if m == nil || !near(m.Y+m.Height/2, 200, 3) {
		t.Errorf("CENTER anchor: ink %+v, want centred on y=200", m)
	}
	b := sr.Nodes["bottom"].TextBounds
	if b == nil || !near(b.Bottom(), 300, 4) {
		t.Errorf("BOTTOM anchor: ink %+v, want bottom near 300", b)
	}
	pw, sw := sr.Nodes["plain"].TextBounds.Width, sr.Nodes["spaced"].TextBounds.Width
	if !near(sw-pw, 7*10, 2) {
		t.Errorf("letter spacing 10 px over 7 glyphs: widths %g vs %g, want +70", pw, sw)
	}
	// Three lines 50 px apart: the first glyph box's top to the last's
	// bottom is 2 x 50 plus one glyph box (about 23 px for 20 px type).
	if tl := sr.Nodes["tall"]; tl.Lines != 3 || tl.TextBounds.Height < 115 || tl.TextBounds.Height > 130 {
		t.Errorf("line height 50 px x 3 lines: got %d lines, ink height %g", tl.Lines, tl.TextBounds.Height)
	}
}

func TestRunStylesListsAndRTL(t *testing.T) {
	n := text("t", 100, 100, 800, 300, "Bold and red\nsecond item\nשלום עולם", 24, "#000000")
	n.CharacterStyleOverrides = []int{1, 1, 1, 1, 0, 0, 0, 0, 0, 2, 2, 2}
	italic := true
	n.StyleOverrideTable = map[string]scenegraph.TypeStyle{
		"1": {FontWeight: 700},
		"2": {Italic: &italic, Fills: []scenegraph.Paint{scenegraph.Solid(scenegraph.MustHex("#FF0000"))}},
	}
	n.Paragraphs = []scenegraph.Paragraph{{ListType: scenegraph.ListOrdered}, {ListType: scenegraph.ListOrdered}, {RTL: true}}
	d := deck(n)
	h, err := HTML(d, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"font-weight:700", "font-style:italic", "rgba(255,0,0,1)", ">1.<", ">2.<", "direction:rtl"} {
		if !strings.Contains(h, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	sr := renderOne(t, d, nil, false)
	if m := sr.Nodes["t"]; m.Lines != 3 {
		t.Errorf("lines = %d, want 3", m.Lines)
	}
	// The RTL paragraph is right-aligned: its ink reaches the box's right
	// inset (PPTX-less TEXT has no insets), so the union ink spans to ~900.
	if m := sr.Nodes["t"].TextBounds; m == nil || m.Right() < 880 {
		t.Errorf("RTL paragraph should end near the right edge: ink %+v", m)
	}
}

// Text in each script must be drawn with a real face from the fallback
// chain: its width equals the width of the same text set in the Noto face
// directly (a missing glyph box would differ).
func TestScriptFallbackUsesRealFaces(t *testing.T) {
	cases := []struct{ s, face string }{
		{"你好世界，演示文稿", "Noto Sans CJK SC"},
		{"مرحبا بالعالم", "Noto Sans Arabic"},
		{"สวัสดีชาวโลก", "Noto Sans Thai"},
	}
	var nodes []*scenegraph.Node
	for i, c := range cases {
		a := text("chain"+string(rune('0'+i)), 50, 50+float64(i)*100, 1000, 60, c.s, 30, "#000000")
		a.Style.FontFamily = "Calibri"
		a.TextBox = &scenegraph.TextBox{NoWrap: true}
		b := text("face"+string(rune('0'+i)), 50, 400+float64(i)*100, 1000, 60, c.s, 30, "#000000")
		b.Style.FontFamily = c.face
		b.TextBox = &scenegraph.TextBox{NoWrap: true}
		nodes = append(nodes, a, b)
	}
	sr := renderOne(t, deck(nodes...), nil, false)
	for i, c := range cases {
		a, b := sr.Nodes["chain"+string(rune('0'+i))].TextBounds, sr.Nodes["face"+string(rune('0'+i))].TextBounds
		if a == nil || b == nil || !near(a.Width, b.Width, 1) {
			t.Errorf("%s: width via fallback %+v vs %s %+v", c.s, a, c.face, b)
		}
	}
}

func TestTextIsEscaped(t *testing.T) {
	n := text("t", 100, 100, 800, 100, `<script>alert(1)</script></div><img src=x onerror=alert(2)>`, 20, "#000000")
	n.Style.FontFamily = `x"; background:url(http://127.0.0.1/)`
	h, err := HTML(deck(n), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(h, "<script>") || strings.Contains(h, "<img src=x") || strings.Contains(h, "url(http") {
		t.Fatalf("deck content leaked into markup: %s", h)
	}
	sr := renderOne(t, deck(n), nil, false)
	if m := sr.Nodes["t"]; !m.HasText || m.Lines < 1 {
		t.Errorf("escaped text should render as text: %+v", m)
	}
}

func TestPaintedIncludesOverflowingText(t *testing.T) {
	tight := text("tight", 100, 100, 150, 40, lorem, 20, "#000000")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := sharedPool(t).Render(ctx, deck(tight), nil, Request{})
	if err != nil {
		t.Fatal(err)
	}
	p, g := res.Painted()["tight"], res.Geometry()["tight"]
	if g.Height != 40 || p.Height <= 100 || p.Y != 100 {
		t.Errorf("geometry %+v, painted %+v: painted should extend down over the overflowing lines", g, p)
	}
}

// A shrink-on-overflow box (normAutofit) the request asks to fit
// (Request.FitText, what an edit of its text does in PowerPoint) shrinks
// its text until it fits; the same box not asked, with no stored scale, is
// drawn at full size and overflows, as a plain box does.
func TestAutoFitShrinksTextToFit(t *testing.T) {
	fit := text("fit", 100, 100, 300, 80, lorem+" "+lorem, 24, "#000000")
	fit.TextBox = &scenegraph.TextBox{AutoResize: scenegraph.AutoResizeShrink}
	stored := text("stored", 100, 300, 300, 80, lorem+" "+lorem, 24, "#000000")
	stored.TextBox = &scenegraph.TextBox{AutoResize: scenegraph.AutoResizeShrink}
	plain := text("plain", 600, 100, 300, 80, lorem+" "+lorem, 24, "#000000")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := sharedPool(t).Render(ctx, deck(fit, stored, plain), nil, Request{FitText: []string{"fit"}})
	if err != nil {
		t.Fatal(err)
	}
	sr := res.Slides[0]
	f := sr.Nodes["fit"]
	if f.Overflow || f.AutoFitScale <= 0.25 || f.AutoFitScale >= 1 || math.Abs(f.MinFontSize-24*f.AutoFitScale) > 0.05 {
		t.Errorf("autofit box: %+v", f)
	}
	for _, id := range []string{"stored", "plain"} {
		if p := sr.Nodes[id]; !p.Overflow || p.AutoFitScale != 0 || p.MinFontSize != 24 {
			t.Errorf("%s box: %+v", id, p)
		}
	}
}

// An empty list paragraph shows no bullet or number (as PowerPoint draws
// it) and numbering goes on after it.
func TestEmptyListParagraphHasNoMarker(t *testing.T) {
	n := text("t", 100, 100, 800, 300, "one\n\ntwo\n", 24, "#000000")
	n.Paragraphs = []scenegraph.Paragraph{{ListType: scenegraph.ListOrdered}, {ListType: scenegraph.ListOrdered}, {ListType: scenegraph.ListOrdered}, {ListType: scenegraph.ListUnordered, Bullet: "•"}}
	h, err := HTML(deck(n), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c := strings.Count(h, `class="bu"`); c != 2 {
		t.Errorf("%d markers, want 2 (one per non-empty paragraph)", c)
	}
	if !strings.Contains(h, ">1.<") || !strings.Contains(h, ">2.<") || strings.Contains(h, ">3.<") || strings.Contains(h, ">•<") {
		t.Errorf("numbering should be 1., 2. with no marker on the empty paragraphs: %s", h)
	}
}

// A line break inside a paragraph (U+2028, DrawingML a:br) starts a new
// line in the same paragraph.
func TestLineSeparatorBreaksTheLine(t *testing.T) {
	n := text("t", 100, 100, 800, 200, "one\u2028two", 24, "#000000")
	sr := renderOne(t, deck(n), nil, false)
	if m := sr.Nodes["t"]; m.Lines != 2 {
		t.Errorf("lines = %d, want 2", m.Lines)
	}
}
