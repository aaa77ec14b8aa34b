package route

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// SerializerVersion changes whenever a serializer's output changes, so
// cached contexts from an older build are never served (cache keys carry
// it).
const SerializerVersion = "care-ctx-4"

// Context serializes the slice of the deck a decision routes to, as compact
// JSON. What each mode carries is exactly ACE Table 21:
//
//	property               micro          macro          systemic  full
//	scope                  target slides  whole deck     whole deck whole deck
//	text content           yes            yes            no         yes
//	typography             yes            yes            yes        yes
//	fill/stroke colour     yes            no             yes        yes
//	slide background       yes            no             yes        yes
//	layout / boxes         yes            targets only   no         yes
//	node tree (id/name/t)  yes            yes            no         yes
//
// MICRO_SPATIAL lists the other slides by id and name only. OFF carries the
// slide count only. Errors: a nil deck, a MICRO_SPATIAL decision without
// targets, or targets outside the deck.
func Context(d *scenegraph.Deck, dec Decision) (string, error) {
	if d == nil {
		return "", fmt.Errorf("route context: deck is nil")
	}
	for _, i := range dec.TargetSlides {
		if i < 0 || i >= len(d.Slides) {
			return "", fmt.Errorf("route context: target slide index %d outside deck %q of %d slides (targets are 0-based)", i, d.ID, len(d.Slides))
		}
	}
	var v any
	switch dec.Mode {
	case Micro:
		if len(dec.TargetSlides) == 0 {
			return "", fmt.Errorf("route context: MICRO_SPATIAL needs at least one target slide")
		}
		v = microContext(d, dec.TargetSlides)
	case Macro:
		v = macroContext(d, dec.TargetSlides)
	case Systemic:
		v = systemicContext(d)
	case Full:
		v = fullContext(d)
	case Off:
		v = offContext(d)
	default:
		return "", fmt.Errorf("route context: unknown mode %q", dec.Mode)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", fmt.Errorf("route context for deck %q: %w", d.ID, err)
	}
	return strings.TrimSuffix(buf.String(), "\n"), nil
}

type cDeck struct {
	ID     string  `json:"id"`
	Name   string  `json:"name,omitempty"`
	W      float64 `json:"w"`
	H      float64 `json:"h"`
	Slides int     `json:"slides"`
}

func deckHead(d *scenegraph.Deck) cDeck {
	return cDeck{ID: d.ID, Name: d.Name, W: r1(d.Width), H: r1(d.Height), Slides: len(d.Slides)}
}

// cSlide is a slide of the micro and full representations.
type cSlide struct {
	ID     string   `json:"id"`
	Num    int      `json:"i"` // 1-based position
	Name   string   `json:"n,omitempty"`
	BG     []string `json:"bg,omitempty"`
	Layout string   `json:"layoutName,omitempty"`
	Hidden bool     `json:"hidden,omitempty"`
	Trans  string   `json:"transition,omitempty"`
	Sect   string   `json:"section,omitempty"`
	Notes  string   `json:"notes,omitempty"`
	AL     string   `json:"layout,omitempty"`
	Kids   []*cNode `json:"kids,omitempty"`
}

// cStub is a non-target slide in MICRO_SPATIAL: id and name only.
type cStub struct {
	ID   string `json:"id"`
	Num  int    `json:"i"`
	Name string `json:"n,omitempty"`
}

type fullDoc struct {
	Deck   cDeck    `json:"deck"`
	Tokens *cTokens `json:"tokens,omitempty"`
	Slides []any    `json:"slides"`
}

func fullContext(d *scenegraph.Deck) fullDoc {
	doc := fullDoc{Deck: deckHead(d), Tokens: tokens(d)}
	for i, s := range d.Slides {
		if s != nil {
			doc.Slides = append(doc.Slides, fullSlide(s, i))
		}
	}
	return doc
}

func microContext(d *scenegraph.Deck, targets []int) fullDoc {
	doc := fullDoc{Deck: deckHead(d)}
	for i, s := range d.Slides {
		if s == nil {
			continue
		}
		if slices.Contains(targets, i) {
			doc.Slides = append(doc.Slides, fullSlide(s, i))
		} else {
			doc.Slides = append(doc.Slides, cStub{ID: s.ID, Num: i + 1, Name: meaningfulName(s.Name, i)})
		}
	}
	return doc
}

// meaningfulName drops a slide name that only restates its position
// ("Slide 3"), which costs tokens and says nothing.
func meaningfulName(name string, i int) string {
	if strings.EqualFold(strings.TrimSpace(name), "slide "+strconv.Itoa(i+1)) {
		return ""
	}
	return name
}

func offContext(d *scenegraph.Deck) fullDoc {
	return fullDoc{Deck: deckHead(d), Slides: []any{}}
}

func fullSlide(s *scenegraph.Node, i int) cSlide {
	cs := cSlide{ID: s.ID, Num: i + 1, Name: meaningfulName(s.Name, i), BG: paints(s.Fills), AL: layoutOf(&s.AutoLayout)}
	if p := s.Slide; p != nil {
		cs.Layout, cs.Hidden, cs.Sect, cs.Notes = p.Layout, p.Hidden, p.Section, p.Notes
		if t := p.Transition; t != nil && t.Type != "" && t.Type != "none" {
			cs.Trans = strings.TrimSpace(fmt.Sprintf("%s %s %s", t.Type, t.Direction, ms(t.DurationMs)))
		}
	}
	for _, k := range s.Children {
		if k != nil {
			cs.Kids = append(cs.Kids, fullNode(k))
		}
	}
	return cs
}

func ms(v float64) string {
	if v <= 0 {
		return ""
	}
	return strconv.FormatFloat(math.Round(v), 'f', -1, 64) + "ms"
}

func fullNode(n *scenegraph.Node) *cNode {
	// x/y are the unrotated box's top-left (equal to the transform offset
	// for an unrotated node), so x, y, w, h and rot describe a rotated node
	// the way PowerPoint does and move_node and resize_node take it.
	box := n.Transform.UnrotatedBox(n.Size)
	c := &cNode{ID: n.ID, Type: string(n.Type), Name: nodeName(n.Name),
		X: ptr(box.X), Y: ptr(box.Y), W: r1(n.Size.X), H: r1(n.Size.Y),
		Rot: r1(n.Transform.Rotation()), Flip: n.Transform.Flipped(), Hide: !n.IsVisible(),
		Fill: paints(n.Fills), FX: effects(n.Effects), Clip: n.ClipsContent,
		AL: layoutOf(&n.AutoLayout), Size: sizingOf(&n.AutoLayout), Alt: n.AltText}
	if a := n.Alpha(); a < 1 {
		c.Op = math.Round(a*100) / 100
	}
	if ss := paints(n.Strokes); len(ss) > 0 {
		c.Strk = strings.Join(ss, ",") + fmt.Sprintf(" %gpx", r1(n.StrokeWeight))
		if len(n.StrokeDashes) > 0 {
			c.Strk += " dash"
		}
	}
	if n.CornerRadii != nil {
		r := n.CornerRadii
		c.Rad = fmt.Sprintf("%g %g %g %g", r1(r[0]), r1(r[1]), r1(r[2]), r1(r[3]))
	} else if n.CornerRadius != 0 {
		c.Rad = strconv.FormatFloat(r1(n.CornerRadius), 'f', -1, 64)
	}
	if n.Placeholder != nil {
		c.Ph = n.Placeholder.Role
	}
	if n.Type == scenegraph.TypeImage {
		for _, p := range n.Fills {
			if p.Type == scenegraph.PaintImage {
				c.Img = paint(p)
				c.Fill = nil
			}
		}
	}
	textFull(c, &n.TextContent)
	if t := n.Table; t != nil {
		c.Tbl = &cTable{Cols: round(t.Columns), Rows: round(t.Rows), Header: t.HeaderRow, Banded: t.BandedRows}
	}
	if cl := n.Cell; cl != nil {
		c.Cell = []int{cl.Row, cl.Column}
		if rs, cs := cl.Spans(); rs > 1 || cs > 1 {
			c.Cell = append(c.Cell, rs, cs)
		}
		// A cell's box is its grid slot; drop the geometry.
		c.X, c.Y, c.W, c.H = nil, nil, 0, 0
	}
	if ch := n.Chart; ch != nil {
		c.Chart = chartOf(ch, true)
	}
	if m := n.Math; m != nil {
		c.TeX = m.LaTeX
	}
	if cn := n.Connector; cn != nil {
		c.Conn = fmt.Sprintf("%s->%s %s", endpoint(cn.Start), endpoint(cn.End), strings.ToLower(cn.LineType))
	}
	if n.Link != nil {
		if n.Link.URL != "" {
			c.Link = n.Link.URL
		} else if n.Link.NodeID != "" {
			c.Link = "#" + n.Link.NodeID
		}
	}
	for _, k := range n.Children {
		if k != nil {
			c.Kids = append(c.Kids, fullNode(k))
		}
	}
	return c
}

func endpoint(e scenegraph.Endpoint) string {
	if e.NodeID != "" {
		return e.NodeID
	}
	if e.Position != nil {
		return fmt.Sprintf("(%g,%g)", r1(e.Position.X), r1(e.Position.Y))
	}
	return "?"
}

func round(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = r1(x)
	}
	return out
}

func textFull(c *cNode, t *scenegraph.TextContent) {
	if !t.HasText() {
		return
	}
	c.Txt = t.Characters
	base := t.StyleAt(-1)
	if t.Style != nil {
		base = *t.Style
	}
	c.Font = fontString(base)
	c.Color = textColorOf(base)
	if base.TextAlignHorizontal != "" && base.TextAlignHorizontal != scenegraph.AlignLeft {
		c.Align = strings.ToLower(base.TextAlignHorizontal)
	}
	c.TStyle = extraStyle(base)
	for _, r := range t.Runs() {
		if r.Key == 0 {
			continue
		}
		if o, ok := t.StyleOverrideTable[strconv.Itoa(r.Key)]; ok {
			if st := overrideString(o); st != "" {
				c.Runs = append(c.Runs, cRun{S: r.Start, E: r.End, St: st})
			}
		}
	}
	c.Paras = paragraphs(t)
	if b := t.TextBox; b != nil {
		var parts []string
		if b.AutoResize != "" {
			parts = append(parts, strings.ToLower(b.AutoResize))
		}
		if b.NoWrap {
			parts = append(parts, "nowrap")
		}
		if b.Vertical != "" {
			parts = append(parts, b.Vertical)
		}
		if b.Insets != nil {
			in := b.Insets
			parts = append(parts, fmt.Sprintf("inset %g %g %g %g", r1(in.Top), r1(in.Right), r1(in.Bottom), r1(in.Left)))
		}
		if b.Columns > 1 {
			parts = append(parts, fmt.Sprintf("cols %d", b.Columns))
		}
		c.Box = strings.Join(parts, " ")
	}
}

func effects(es []scenegraph.Effect) []string {
	var out []string
	for _, e := range es {
		if e.Visible != nil && !*e.Visible {
			continue
		}
		s := fmt.Sprintf("%s r%g", strings.ToLower(e.Type), r1(e.Radius))
		if e.Color != nil {
			s += " " + e.Color.Hex()
		}
		if e.Offset != nil {
			s += fmt.Sprintf(" (%g,%g)", r1(e.Offset.X), r1(e.Offset.Y))
		}
		if e.Spread != 0 {
			s += fmt.Sprintf(" s%g", r1(e.Spread))
		}
		out = append(out, s)
	}
	return out
}

func layoutOf(a *scenegraph.AutoLayout) string {
	if !a.HasAutoLayout() {
		return ""
	}
	s := fmt.Sprintf("%s gap %g pad %g %g %g %g", strings.ToLower(a.LayoutMode), r1(a.ItemSpacing),
		r1(a.PaddingTop), r1(a.PaddingRight), r1(a.PaddingBottom), r1(a.PaddingLeft))
	if a.LayoutWrap == scenegraph.Wrap {
		s += " wrap"
	}
	if a.PrimaryAxisAlignItems != "" {
		s += " main:" + strings.ToLower(a.PrimaryAxisAlignItems)
	}
	if a.CounterAxisAlignItems != "" {
		s += " cross:" + strings.ToLower(a.CounterAxisAlignItems)
	}
	return s
}

func sizingOf(a *scenegraph.AutoLayout) string {
	h, v := a.LayoutSizingHorizontal, a.LayoutSizingVertical
	var parts []string
	if h != "" && h != scenegraph.SizingFixed {
		parts = append(parts, "w:"+strings.ToLower(h))
	}
	if v != "" && v != scenegraph.SizingFixed {
		parts = append(parts, "h:"+strings.ToLower(v))
	}
	if a.LayoutPositioning == scenegraph.PositioningAbsolute {
		parts = append(parts, "absolute")
	}
	return strings.Join(parts, " ")
}

func chartOf(ch *scenegraph.Chart, colours bool) *cChart {
	c := &cChart{Type: strings.ToLower(ch.ChartType), Title: ch.Title, Cats: ch.Categories}
	for _, s := range ch.Series {
		cs := cSeries{Name: s.Name, Vals: s.Values, Fmt: s.FormatCode}
		if colours {
			cs.Color = hexOf(s.Color)
		}
		c.Series = append(c.Series, cs)
	}
	var opts []string
	if ch.Stacked {
		opts = append(opts, "stacked")
	}
	if ch.DataLabels {
		opts = append(opts, "labels")
	}
	if ch.Legend != nil {
		opts = append(opts, "legend:"+strings.ToLower(ch.Legend.Position))
	}
	if ch.XAxisTitle != "" {
		opts = append(opts, "x:"+ch.XAxisTitle)
	}
	if ch.YAxisTitle != "" {
		opts = append(opts, "y:"+ch.YAxisTitle)
	}
	c.Opts = strings.Join(opts, "; ")
	return c
}

// ---- MACRO_PROGRAMMATIC: the skeleton ----

// kNode is a skeleton node (ACE App. Q.1.1 Listing 8: "only text content
// and node IDs"; Table 21 macro column): id, type, meaningful name, text
// and typography; no colours. To stay a skeleton:
//   - t is left out for TEXT nodes and table cells (a node with txt and no
//     t is TEXT; a node with cell is a TABLE_CELL);
//   - typography is a key into macroDoc.Fonts, runs are [start, end, key)
//     typography overrides on code points;
//   - a subtree with no text anywhere below it (icons drawn as groups of
//     vectors, decorative shapes) keeps its root only, with "+" giving the
//     number of folded descendants; get_node_info reads them;
//   - b = [x, y, w, h], the unrotated box in slide px, only on target
//     slides, with rot (degrees clockwise about its centre) when rotated.
type kNode struct {
	ID   string    `json:"id"`
	Type string    `json:"t,omitempty"`
	Name string    `json:"n,omitempty"`
	Ph   string    `json:"ph,omitempty"`
	Cell []int     `json:"cell,omitempty"`
	Txt  string    `json:"txt,omitempty"`
	Font int       `json:"f,omitempty"`
	Runs [][3]int  `json:"runs,omitempty"`
	B    []float64 `json:"b,omitempty"`
	Rot  float64   `json:"rot,omitempty"` // degrees clockwise about b's centre
	Fold int       `json:"+,omitempty"`
	// Rows is a table whose cells form a plain grid (no merges, no
	// per-character runs): row by row, each cell [id, text] or [id, text,
	// font key] when its font differs from the table's f.
	Rows [][][]any `json:"rows,omitempty"`
	Kids []*kNode  `json:"kids,omitempty"`
}

type kSlide struct {
	ID     string `json:"id"`
	Num    int    `json:"i"`
	Name   string `json:"n,omitempty"`
	Target bool   `json:"target,omitempty"`
	// Notes are the slide's speaker notes, whitespace folded, at most
	// macroNotesRunes (a deck-wide "replace every X" must know whether
	// the notes hold X; a relay model had to guess).
	Notes string   `json:"notes,omitempty"`
	Kids  []*kNode `json:"kids,omitempty"`
}

// macroNotesRunes bounds a slide's notes in the MACRO skeleton;
// get_node_info of the slide gives them whole.
const macroNotesRunes = 300

type macroDoc struct {
	Deck    cDeck  `json:"deck"`
	Targets string `json:"targets,omitempty"` // 1-based
	// Fonts maps the keys used by kNode.Font and runs to "family size
	// weight [italic]" strings, numbered in order of first use.
	Fonts  fontTable `json:"fonts,omitempty"`
	Slides []kSlide  `json:"slides"`
}

// fontTable is the macro fonts table: entry i has key i+1. It encodes as a
// JSON object in key order ({"1": ..., "2": ..., "10": ...}).
type fontTable []string

func (f fontTable) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	b.WriteByte('{')
	for i, v := range f {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"%d":`, i+1)
		if err := enc.Encode(v); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1) // Encode's newline
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// skeleton builds a macroDoc, numbering typography as it goes.
type skeleton struct {
	ix    *scenegraph.Index
	doc   *macroDoc
	fonts map[string]int
}

func (k *skeleton) font(f string) int {
	if f == "" {
		return 0
	}
	if n, ok := k.fonts[f]; ok {
		return n
	}
	k.doc.Fonts = append(k.doc.Fonts, f)
	n := len(k.doc.Fonts)
	k.fonts[f] = n
	return n
}

func macroContext(d *scenegraph.Deck, targets []int) macroDoc {
	doc := macroDoc{Deck: deckHead(d), Slides: []kSlide{}}
	var one []int
	for _, t := range targets {
		one = append(one, t+1)
	}
	doc.Targets = scenegraph.SlideRanges(one, ",")
	k := &skeleton{ix: scenegraph.NewIndex(d), doc: &doc, fonts: map[string]int{}}
	for i, s := range d.Slides {
		if s == nil {
			continue
		}
		target := slices.Contains(targets, i)
		ks := kSlide{ID: s.ID, Num: i + 1, Name: meaningfulName(s.Name, i), Target: target}
		if s.Slide != nil {
			ks.Notes = clip(strings.Join(strings.Fields(s.Slide.Notes), " "), macroNotesRunes)
		}
		for _, c := range s.Children {
			if c != nil {
				ks.Kids = append(ks.Kids, k.node(c, target, 0))
			}
		}
		doc.Slides = append(doc.Slides, ks)
	}
	return doc
}

func (k *skeleton) node(n *scenegraph.Node, bounds bool, inherit int) *kNode {
	out := &kNode{ID: n.ID, Type: string(n.Type), Name: nodeName(n.Name)}
	if n.Cell != nil {
		out.Cell = []int{n.Cell.Row, n.Cell.Column}
		out.Type, out.Name = "", ""
	}
	if n.TextContent.HasText() {
		if n.Type == scenegraph.TypeText {
			out.Type = ""
		}
		out.Txt = n.Characters
		if n.Style != nil && n.Characters != "" {
			if f := k.font(fontString(*n.Style)); f != inherit {
				out.Font = f
			}
		}
		for _, r := range n.Runs() {
			if r.Key == 0 {
				continue
			}
			if o, ok := n.StyleOverrideTable[strconv.Itoa(r.Key)]; ok {
				if f := fontString(o); f != "" { // typography only: no colour
					out.Runs = append(out.Runs, [3]int{r.Start, r.End, k.font(f)})
				}
			}
		}
	}
	if n.Placeholder != nil {
		out.Ph = n.Placeholder.Role
	}
	if bounds && n.Cell == nil {
		t := n.Transform
		if k.ix.Node(n.ID) == n {
			t = k.ix.AbsoluteTransform(n.ID)
		}
		b := t.UnrotatedBox(n.Size)
		out.B = []float64{r1(b.X), r1(b.Y), r1(b.Width), r1(b.Height)}
		out.Rot = r1(t.Rotation())
	}
	if !hasTextBelow(n) {
		out.Fold = countBelow(n)
		return out
	}
	if n.Type == scenegraph.TypeTable {
		out.Font = k.font(cellFont(n))
		if !bounds && k.grid(out, n) {
			return out
		}
	}
	for _, c := range n.Children {
		if c != nil {
			out.Kids = append(out.Kids, k.node(c, bounds, out.Font))
		}
	}
	return out
}

// grid fills out.Rows (and out.Font, the cells' commonest font) when the
// table's cells are a plain grid, in order, without merges or runs. It
// reports false, leaving out untouched, otherwise.
func (k *skeleton) grid(out *kNode, n *scenegraph.Node) bool {
	var rows [][]*scenegraph.Node
	for _, c := range n.Children {
		if c == nil || c.Cell == nil || len(c.Children) > 0 {
			return false
		}
		r, col := c.Cell.Spans()
		if r != 1 || col != 1 || len(c.CharacterStyleOverrides) > 0 {
			return false
		}
		switch {
		case c.Cell.Row == len(rows) && c.Cell.Column == 0:
			rows = append(rows, []*scenegraph.Node{c})
		case c.Cell.Row == len(rows)-1 && c.Cell.Column == len(rows[len(rows)-1]):
			rows[len(rows)-1] = append(rows[len(rows)-1], c)
		default:
			return false
		}
	}
	if len(rows) == 0 {
		return false
	}
	common := cellFont(n)
	for _, row := range rows {
		var cells [][]any
		for _, c := range row {
			cell := []any{c.ID, ""}
			if c.Characters != "" {
				cell[1] = c.Characters
				if c.Style != nil {
					if f := fontString(*c.Style); f != common && f != "" {
						cell = append(cell, k.font(f))
					}
				}
			}
			cells = append(cells, cell)
		}
		out.Rows = append(out.Rows, cells)
	}
	return true
}

// cellFont is the commonest font among a table's non-empty cells, which
// the table carries as f and its cells inherit.
func cellFont(table *scenegraph.Node) string {
	use := map[string]int{}
	for _, c := range table.Children {
		if c != nil && c.Characters != "" && c.Style != nil {
			use[fontString(*c.Style)]++
		}
	}
	common, most := "", 0
	for f, u := range use {
		if u > most || (u == most && f < common) {
			common, most = f, u
		}
	}
	return common
}

// hasTextBelow reports whether any descendant of n carries text or a
// meaningful name (something a batch edit could look for).
func hasTextBelow(n *scenegraph.Node) bool {
	for _, c := range n.Children {
		if c == nil {
			continue
		}
		if c.TextContent.HasText() || (c.Cell == nil && nodeName(c.Name) != "") || c.Cell != nil || hasTextBelow(c) {
			return true
		}
	}
	return false
}

func countBelow(n *scenegraph.Node) int {
	total := 0
	for _, c := range n.Children {
		if c != nil {
			total += 1 + countBelow(c)
		}
	}
	return total
}

// ---- SYSTEMIC_TOKEN: design tokens and their usage ----

type cTokens struct {
	Colors map[string]string `json:"colors,omitempty"`
	Major  string            `json:"majorFont,omitempty"`
	Minor  string            `json:"minorFont,omitempty"`
	Styles map[string]string `json:"textStyles,omitempty"`
	Vars   map[string]string `json:"vars,omitempty"`
}

func tokens(d *scenegraph.Deck) *cTokens {
	t := d.Tokens
	c := &cTokens{Vars: t.Variables}
	if len(t.Colors) > 0 {
		c.Colors = map[string]string{}
		for k, v := range t.Colors {
			c.Colors[k] = v.Hex()
		}
	}
	c.Major = scriptFonts(t.Fonts.Major)
	c.Minor = scriptFonts(t.Fonts.Minor)
	if len(t.TextStyles) > 0 {
		c.Styles = map[string]string{}
		for k, v := range t.TextStyles {
			c.Styles[k] = strings.TrimSpace(fontString(v) + " " + textColorOf(v))
		}
	}
	if c.Colors == nil && c.Major == "" && c.Minor == "" && c.Styles == nil && c.Vars == nil {
		return nil
	}
	return c
}

func scriptFonts(f scenegraph.ScriptFonts) string {
	s := f.Latin
	if f.EastAsian != "" {
		s += "/ea:" + f.EastAsian
	}
	if f.Complex != "" {
		s += "/cs:" + f.Complex
	}
	return strings.TrimPrefix(s, "/")
}

// colorUse is one colour's usage: how many fills, strokes and text runs
// use it, on which slides (1-based, compressed).
type colorUse struct {
	Color  string `json:"c"`
	Token  string `json:"token,omitempty"`
	Fill   int    `json:"fill,omitempty"`
	Stroke int    `json:"stroke,omitempty"`
	Text   int    `json:"text,omitempty"`
	BG     int    `json:"bg,omitempty"`
	Slides string `json:"slides"`
	slides map[int]bool
}

type fontUse struct {
	Family  string    `json:"f"`
	Sizes   []float64 `json:"sizes,omitempty"`
	Weights []int     `json:"weights,omitempty"`
	Nodes   int       `json:"n"`
	Slides  string    `json:"slides"`
	slides  map[int]bool
	sizes   map[float64]bool
	weights map[int]bool
}

type systemicDoc struct {
	Deck   cDeck       `json:"deck"`
	Tokens *cTokens    `json:"tokens,omitempty"`
	Colors []*colorUse `json:"colors"`
	Fonts  []*fontUse  `json:"fonts"`
}

func systemicContext(d *scenegraph.Deck) systemicDoc {
	doc := systemicDoc{Deck: deckHead(d), Tokens: tokens(d), Colors: []*colorUse{}, Fonts: []*fontUse{}}
	colors := map[string]*colorUse{}
	fonts := map[string]*fontUse{}
	use := func(p scenegraph.Paint, slide int, kind string) {
		if !p.IsVisible() {
			return
		}
		var keys []string
		switch p.Type {
		case scenegraph.PaintSolid:
			keys = append(keys, hexOf(p.Color))
		case scenegraph.PaintImage:
			return
		default:
			for _, st := range p.GradientStops {
				keys = append(keys, st.Color.Hex())
			}
		}
		for _, k := range keys {
			if k == "" {
				continue
			}
			u := colors[k]
			if u == nil {
				u = &colorUse{Color: k, slides: map[int]bool{}}
				colors[k] = u
			}
			if p.ThemeColor != nil && u.Token == "" {
				u.Token = p.ThemeColor.Name
			}
			u.slides[slide] = true
			switch kind {
			case "fill":
				u.Fill++
			case "stroke":
				u.Stroke++
			case "text":
				u.Text++
			case "bg":
				u.BG++
			}
		}
	}
	font := func(s scenegraph.TypeStyle, slide int) {
		fam := s.FontFamily
		if fam == "" {
			fam = "(theme)"
		}
		for _, f := range []string{fam, s.FontFamilyEastAsian, s.FontFamilyComplex} {
			if f == "" {
				continue
			}
			u := fonts[f]
			if u == nil {
				u = &fontUse{Family: f, slides: map[int]bool{}, sizes: map[float64]bool{}, weights: map[int]bool{}}
				fonts[f] = u
			}
			u.Nodes++
			u.slides[slide] = true
			if s.FontSize != 0 {
				u.sizes[r1(s.FontSize)] = true
			}
			w := s.FontWeight
			if w == 0 {
				w = 400
			}
			u.weights[w] = true
		}
	}
	for i, s := range d.Slides {
		if s == nil {
			continue
		}
		for _, p := range s.Fills {
			use(p, i+1, "bg")
		}
		for _, k := range s.Children {
			k.Walk(func(n, _ *scenegraph.Node, _ int) bool {
				for _, p := range n.Fills {
					use(p, i+1, "fill")
				}
				for _, p := range n.Strokes {
					use(p, i+1, "stroke")
				}
				if n.TextContent.HasText() {
					base := n.StyleAt(-1)
					font(base, i+1)
					for _, p := range base.Fills {
						use(p, i+1, "text")
					}
					for _, o := range n.StyleOverrideTable {
						if o.FontFamily != "" || o.FontSize != 0 || o.FontWeight != 0 {
							font(base.Merge(o), i+1)
						}
						for _, p := range o.Fills {
							use(p, i+1, "text")
						}
					}
				}
				if n.Chart != nil {
					for _, se := range n.Chart.Series {
						if se.Color != nil {
							use(scenegraph.Solid(*se.Color), i+1, "fill")
						}
					}
				}
				return true
			})
		}
	}
	for _, u := range colors {
		u.Slides = scenegraph.SlideRanges(sortedKeys(u.slides), ",")
		doc.Colors = append(doc.Colors, u)
	}
	sort.Slice(doc.Colors, func(i, j int) bool {
		a, b := doc.Colors[i], doc.Colors[j]
		na, nb := a.Fill+a.Stroke+a.Text+a.BG, b.Fill+b.Stroke+b.Text+b.BG
		if na != nb {
			return na > nb
		}
		return a.Color < b.Color
	})
	for _, u := range fonts {
		u.Slides = scenegraph.SlideRanges(sortedKeys(u.slides), ",")
		for s := range u.sizes {
			u.Sizes = append(u.Sizes, s)
		}
		slices.Sort(u.Sizes)
		for w := range u.weights {
			u.Weights = append(u.Weights, w)
		}
		slices.Sort(u.Weights)
		doc.Fonts = append(doc.Fonts, u)
	}
	sort.Slice(doc.Fonts, func(i, j int) bool {
		if doc.Fonts[i].Nodes != doc.Fonts[j].Nodes {
			return doc.Fonts[i].Nodes > doc.Fonts[j].Nodes
		}
		return doc.Fonts[i].Family < doc.Fonts[j].Family
	})
	return doc
}

func sortedKeys(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
