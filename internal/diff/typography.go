package diff

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// typoProp is one compared typography property (ACE App. E.3), with its
// default folded in so "" and the default compare equal.
type typoProp struct {
	name string
	get  func(s *scenegraph.TypeStyle) any
}

var typoProps = []typoProp{
	{"fontFamily", func(s *scenegraph.TypeStyle) any { return s.FontFamily }},
	{"fontFamilyEastAsian", func(s *scenegraph.TypeStyle) any { return s.FontFamilyEastAsian }},
	{"fontFamilyComplex", func(s *scenegraph.TypeStyle) any { return s.FontFamilyComplex }},
	{"fontSize", func(s *scenegraph.TypeStyle) any { return s.FontSize }},
	{"fontWeight", func(s *scenegraph.TypeStyle) any {
		if s.FontWeight == 0 {
			return 400.0
		}
		return float64(s.FontWeight)
	}},
	{"fontStyle", func(s *scenegraph.TypeStyle) any {
		if s.Italic != nil && *s.Italic {
			return "italic"
		}
		return "normal"
	}},
	{"textAlignHorizontal", func(s *scenegraph.TypeStyle) any { return orDefault(s.TextAlignHorizontal, scenegraph.AlignLeft) }},
	{"letterSpacing", func(s *scenegraph.TypeStyle) any { return f64(s.LetterSpacing, 0) }},
	{"lineHeight", func(s *scenegraph.TypeStyle) any {
		switch {
		case s.LineHeightPx != 0:
			return fmt.Sprintf("%gpx", round2(s.LineHeightPx))
		case s.LineHeightPercent != 0:
			return fmt.Sprintf("%g%%", math.Round(s.LineHeightPercent))
		}
		return "auto"
	}},
	{"textCase", func(s *scenegraph.TypeStyle) any { return orDefault(s.TextCase, scenegraph.CaseOriginal) }},
	{"textDecoration", func(s *scenegraph.TypeStyle) any { return orDefault(s.TextDecoration, scenegraph.DecorationNone) }},
	{"textColor", func(s *scenegraph.TypeStyle) any { return textColor(s) }},
	{"hyperlink", func(s *scenegraph.TypeStyle) any { return linkString(s.Link) }},
	{"baselineShift", func(s *scenegraph.TypeStyle) any { return s.Baseline }},
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// textColor is the first visible solid text fill, or "" when inherited.
func textColor(s *scenegraph.TypeStyle) any {
	for _, p := range s.Fills {
		if p.IsVisible() && p.Type == scenegraph.PaintSolid && p.Color != nil {
			return *p.Color
		}
	}
	return nil
}

func sameVal(a, b any) bool {
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		return ok && sameNum(x, y)
	case scenegraph.Color:
		y, ok := b.(scenegraph.Color)
		return ok && x.Near(y, ColorTol)
	}
	return a == b
}

func showVal(v any) any {
	switch x := v.(type) {
	case scenegraph.Color:
		return x.Hex()
	case nil:
		return "inherited"
	case float64:
		return round2(x)
	}
	return v
}

// text compares characters, typography, per-character overrides and
// paragraph properties.
func (m modifier) text() {
	o, c := &m.o.TextContent, &m.c.TextContent
	if !o.HasText() && !c.HasText() {
		return
	}
	to, tc := normText(o.Characters), normText(c.Characters)
	if to != tc {
		m.add("characters", to, tc, "text: "+textChange(to, tc), false)
		m.rangeStyles()
	}
	n := utf8.RuneCountInString(o.Characters)
	if to != tc || n == 0 || utf8.RuneCountInString(c.Characters) != n {
		// No per-character alignment: compare the style of the first
		// character, which carries a whole-text restyle.
		so, sc := o.StyleAt(0), c.StyleAt(0)
		for _, p := range typoProps {
			if a, b := p.get(&so), p.get(&sc); !sameVal(a, b) {
				m.change(p.name, showVal(a), showVal(b))
			}
		}
	} else {
		m.charStyles(n)
	}
	if po, pc := paragraphStrings(o), paragraphStrings(c); strings.Join(po, "|") != strings.Join(pc, "|") {
		if len(po) == len(pc) || to == tc {
			m.change("paragraphs", po, pc)
		}
	}
	if bo, bc := textBoxString(o.TextBox), textBoxString(c.TextBox); bo != bc {
		m.change("textBox", bo, bc)
	}
}

// RangeChange is a style override on a character range [Start, End) (code
// points) of an otherwise unchanged text: an in-place highlight is not a
// text edit (ACE App. E.3).
type RangeChange struct {
	Start   int               `json:"start"`
	End     int               `json:"end"`
	Text    string            `json:"text"`
	Changes map[string][2]any `json:"changes"`
}

// charStyles compares the effective style of every character, segment by
// segment (the union of both texts' override runs, so the cost follows the
// number of runs, not characters). A property that changed the same way on
// every character is a plain property entry; the rest become one
// styleOverride entry listing the changed ranges.
func (m modifier) charStyles(n int) {
	o, c := &m.o.TextContent, &m.c.TextContent
	cuts := map[int]bool{0: true, n: true}
	for _, r := range o.Runs() {
		cuts[r.Start], cuts[r.End] = true, true
	}
	for _, r := range c.Runs() {
		cuts[r.Start], cuts[r.End] = true, true
	}
	bounds := make([]int, 0, len(cuts))
	for k := range cuts {
		if k >= 0 && k <= n {
			bounds = append(bounds, k)
		}
	}
	sort.Ints(bounds)
	type seg struct {
		start, end int
		os, cs     scenegraph.TypeStyle
		changed    map[string][2]any
	}
	segs := make([]seg, 0, len(bounds)-1)
	for i := 0; i+1 < len(bounds); i++ {
		s := bounds[i]
		segs = append(segs, seg{start: s, end: bounds[i+1], os: o.StyleAt(s), cs: c.StyleAt(s)})
	}
	for _, p := range typoProps {
		var diffSegs []int
		for i := range segs {
			if !sameVal(p.get(&segs[i].os), p.get(&segs[i].cs)) {
				diffSegs = append(diffSegs, i)
			}
		}
		if len(diffSegs) == 0 {
			continue
		}
		if len(diffSegs) == len(segs) && uniformSegs(p, segs, func(i int) *scenegraph.TypeStyle { return &segs[i].os }) &&
			uniformSegs(p, segs, func(i int) *scenegraph.TypeStyle { return &segs[i].cs }) {
			m.change(p.name, showVal(p.get(&segs[0].os)), showVal(p.get(&segs[0].cs)))
			continue
		}
		for _, i := range diffSegs {
			if segs[i].changed == nil {
				segs[i].changed = map[string][2]any{}
			}
			segs[i].changed[p.name] = [2]any{showVal(p.get(&segs[i].os)), showVal(p.get(&segs[i].cs))}
		}
	}
	runes := []rune(c.Characters)
	var ranges []RangeChange
	for i := 0; i < len(segs); {
		if segs[i].changed == nil {
			i++
			continue
		}
		j := i + 1
		for j < len(segs) && segs[j].changed != nil && sameChanges(segs[i].changed, segs[j].changed) {
			j++
		}
		start, end := segs[i].start, segs[j-1].end
		ranges = append(ranges, RangeChange{Start: start, End: end, Text: string(runes[start:end]), Changes: segs[i].changed})
		i = j
	}
	if len(ranges) == 0 {
		return
	}
	var parts []string
	for _, r := range ranges {
		var ch []string
		for _, p := range typoProps {
			if v, ok := r.Changes[p.name]; ok {
				ch = append(ch, fmt.Sprintf("%s %v -> %v", p.name, v[0], v[1]))
			}
		}
		parts = append(parts, fmt.Sprintf("%q (chars %d-%d): %s", clip(r.Text, 40), r.Start, r.End, strings.Join(ch, ", ")))
	}
	m.add("styleOverride", nil, ranges, "style override on part of the text (text unchanged): "+strings.Join(parts, "; "), false)
}

func uniformSegs[S any](p typoProp, segs []S, style func(i int) *scenegraph.TypeStyle) bool {
	first := p.get(style(0))
	for i := 1; i < len(segs); i++ {
		if !sameVal(first, p.get(style(i))) {
			return false
		}
	}
	return true
}

func sameChanges(a, b map[string][2]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || fmt.Sprint(v) != fmt.Sprint(w) {
			return false
		}
	}
	return true
}

func paragraphStrings(t *scenegraph.TextContent) []string {
	var out []string
	for _, p := range t.Paragraphs {
		s := orDefault(p.ListType, scenegraph.ListNone)
		if p.Level > 0 {
			s += fmt.Sprintf(" lvl%d", p.Level)
		}
		if p.Align != "" {
			s += " " + p.Align
		}
		if p.RTL {
			s += " rtl"
		}
		if p.LineHeight != 0 {
			s += fmt.Sprintf(" lh%g", round2(p.LineHeight))
		}
		if p.SpaceBefore != 0 || p.SpaceAfter != 0 {
			s += fmt.Sprintf(" sp%g/%g", math.Round(p.SpaceBefore), math.Round(p.SpaceAfter))
		}
		// The bullet's own size (percent of the text) and colour.
		if p.BulletSize > 0 {
			s += fmt.Sprintf(" bu%g%%", math.Round(p.BulletSize*100))
		}
		if p.BulletColor != nil {
			s += " bu" + colorHex(p.BulletColor)
		}
		out = append(out, s)
	}
	// trailing plain paragraphs are the default
	for len(out) > 0 && out[len(out)-1] == scenegraph.ListNone {
		out = out[:len(out)-1]
	}
	return out
}

func textBoxString(b *scenegraph.TextBox) string {
	if b == nil {
		return ""
	}
	s := b.AutoResize
	if b.NoWrap {
		s += " nowrap"
	}
	if b.Vertical != "" {
		s += " " + b.Vertical
	}
	if b.Columns > 1 {
		s += fmt.Sprintf(" cols%d", b.Columns)
	}
	if b.Insets != nil {
		in := b.Insets
		s += fmt.Sprintf(" inset %g/%g/%g/%g", math.Round(in.Top), math.Round(in.Right), math.Round(in.Bottom), math.Round(in.Left))
	}
	return strings.TrimSpace(s)
}

// textChange shows a text edit: both texts in full when each is at most
// FullText runes, else the changed middle with a little context when both
// share a prefix or suffix.
func textChange(a, b string) string {
	if a == "" {
		return fmt.Sprintf("set to %q", clip(b, FullText))
	}
	if b == "" {
		return fmt.Sprintf("cleared (was %q)", clip(a, FullText))
	}
	if utf8.RuneCountInString(a) <= FullText && utf8.RuneCountInString(b) <= FullText {
		return fmt.Sprintf("%q -> %q", a, b)
	}
	ra, rb := []rune(a), []rune(b)
	p := 0
	for p < len(ra) && p < len(rb) && ra[p] == rb[p] {
		p++
	}
	s := 0
	for s < len(ra)-p && s < len(rb)-p && ra[len(ra)-1-s] == rb[len(rb)-1-s] {
		s++
	}
	if p+s < 8 || len(ra) < 40 && len(rb) < 40 {
		return fmt.Sprintf("%q -> %q", clip(a, 120), clip(b, 120))
	}
	ctx := func(r []rune, from, to int) string {
		lo, hi := max(0, from-15), min(len(r), to+15)
		out := string(r[lo:hi])
		if lo > 0 {
			out = "…" + out
		}
		if hi < len(r) {
			out += "…"
		}
		return out
	}
	return fmt.Sprintf("%q -> %q", clip(ctx(ra, p, len(ra)-s), 160), clip(ctx(rb, p, len(rb)-s), 160))
}

// FullText is the longest text, in runes, the diff shows whole (a text
// edit, notes, an added node's text); longer texts are cut with "…". About
// a paragraph: issue 17 found titles and bullets cut at 60-120 runes hid
// what the judge had to check.
const FullText = 400

// clip shortens s to at most n runes, marking the cut with "…".
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
