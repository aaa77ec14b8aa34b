package scenegraph

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Problem is one thing wrong with a deck, at a JSON path such as
// "slides[2].children[0].size.x".
//
// Node is the id of the node the problem is in (empty for deck-level
// problems), so a message can name the node a user or a model sees.
// Value is set for a problem a repair cannot come from the deck's own
// structure: a number out of range or a character a slide file cannot
// hold (see ValidateValues).
type Problem struct {
	Path  string `json:"path"`
	Node  string `json:"node,omitempty"`
	Msg   string `json:"message"`
	Value bool   `json:"value,omitempty"`
}

func (p Problem) String() string {
	if p.Node != "" {
		return p.Path + " (node " + strconv.Quote(p.Node) + "): " + p.Msg
	}
	return p.Path + ": " + p.Msg
}

// ValidationError lists every problem Validate found, in document order.
type ValidationError struct {
	Problems []Problem
}

func (e *ValidationError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "invalid deck: %d problem(s)", len(e.Problems))
	for i, p := range e.Problems {
		if i == 20 {
			fmt.Fprintf(&b, "\n  ... and %d more", len(e.Problems)-20)
			break
		}
		b.WriteString("\n  ")
		b.WriteString(p.String())
	}
	return b.String()
}

// Validate checks the deck against DefaultLimits; see ValidateWithLimits.
func Validate(d *Deck) error { return ValidateWithLimits(d, DefaultLimits) }

// ValidateWithLimits returns nil or a *ValidationError listing every problem:
// duplicate ids, a node under its own descendant, unknown types, slides
// outside the top level, children on leaf types, NaN/Inf or negative sizes,
// style-override ranges outside the text, asset and endpoint references that
// resolve to nothing, auto-layout or text fields on types that cannot hold
// them, unknown enum values, and the limits. It never panics, also on decks
// built in memory with shared or cyclic pointers.
func ValidateWithLimits(d *Deck, lim Limits) error {
	v := &validator{d: d, lim: lim, seen: map[string]string{}, ptrs: map[*Node]bool{}}
	v.deck()
	if len(v.probs) == 0 {
		return nil
	}
	return &ValidationError{Problems: v.probs}
}

// ValidateValues returns nil or a *ValidationError listing only the value
// problems Validate finds: non-finite numbers, coordinates and lengths
// outside MaxCoordinatePx, and characters a slide file cannot hold
// (CheckText). The importers run it, so a file that would parse into an
// unexportable deck is refused at import with the node and field named,
// while structural oddities PowerPoint tolerates are left to the tools.
func ValidateValues(d *Deck) error {
	v := &validator{d: d, lim: DefaultLimits, seen: map[string]string{}, ptrs: map[*Node]bool{}}
	v.deck()
	var out []Problem
	for _, p := range v.probs {
		if p.Value {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return &ValidationError{Problems: out}
}

type validator struct {
	d      *Deck
	lim    Limits
	probs  []Problem
	seen   map[string]string // id -> path of first use
	ptrs   map[*Node]bool
	nodes  int
	stack  []string // ids of ancestors
	ends   []endpointRef
	capped bool
	cur    string // id of the node being checked
}

type endpointRef struct{ path, id string }

func (v *validator) add(path, format string, args ...any) {
	v.probs = append(v.probs, Problem{Path: path, Node: v.cur, Msg: fmt.Sprintf(format, args...)})
}

// addValue adds a value problem (see Problem.Value).
func (v *validator) addValue(path, format string, args ...any) {
	v.probs = append(v.probs, Problem{Path: path, Node: v.cur, Msg: fmt.Sprintf(format, args...), Value: true})
}

// chars checks a string field that export writes into XML.
func (v *validator) chars(p, leaf, s string) {
	if s == "" {
		return
	}
	if err := CheckText(s); err != nil {
		v.addValue(p+leaf, "%v", err)
	}
}

func (v *validator) deck() {
	d := v.d
	if d.ID == "" {
		v.add("id", "deck id is empty; set a stable id")
	}
	v.num("width", "", d.Width, true)
	v.num("height", "", d.Height, true)
	if d.Width == 0 || d.Height == 0 {
		v.add("width", "slide size %gx%g px: both must be positive (16:9 PPTX is 1280x720)", d.Width, d.Height)
	}
	v.chars("name", "", d.Name)
	if v.lim.MaxSlides > 0 && len(d.Slides) > v.lim.MaxSlides {
		v.add("slides", "%d slides, over the limit of %d", len(d.Slides), v.lim.MaxSlides)
	}
	for k, c := range d.Tokens.Colors {
		v.color("tokens.colors."+k, "", c)
	}
	for k, s := range d.Tokens.TextStyles {
		v.style("tokens.textStyles."+k, "", &s)
	}
	for k, a := range d.Assets {
		p := "assets." + k
		if len(k) != 64 || strings.Trim(k, "0123456789abcdef") != "" {
			v.add(p, "asset key must be the lowercase hex SHA-256 of its bytes")
		}
		if a.MimeType == "" {
			v.add(p+".mimeType", "asset has no MIME type")
		}
		if a.Bytes < 0 || a.Width < 0 || a.Height < 0 {
			v.add(p, "negative asset size")
		}
	}
	for i, s := range d.Slides {
		p := fmt.Sprintf("slides[%d]", i)
		if s == nil {
			v.add(p, "slide is null")
			continue
		}
		if s.Type != TypeSlide {
			v.add(p+".type", "top-level node has type %q; every entry of slides must be a SLIDE", s.Type)
		}
		v.node(p, s, nil, 0)
		if v.capped {
			return
		}
	}
	ids := map[string]bool{}
	for _, s := range d.Slides {
		if s != nil {
			ids[s.ID] = true
		}
	}
	for i, sec := range d.Sections {
		v.chars(fmt.Sprintf("sections[%d].name", i), "", sec.Name)
		for j, id := range sec.SlideIDs {
			if !ids[id] {
				v.add(fmt.Sprintf("sections[%d].slideIds[%d]", i, j), "section %q names slide %q, which is not in the deck", sec.Name, id)
			}
		}
	}
	for _, e := range v.ends {
		if _, ok := v.seen[e.id]; !ok {
			v.add(e.path, "connector endpoint %q is not a node of the deck", e.id)
		}
	}
}

func (v *validator) node(p string, n, parent *Node, depth int) {
	if v.capped {
		return
	}
	if n == nil {
		v.add(p, "node is null")
		return
	}
	if v.ptrs[n] {
		v.add(p, "node %q appears twice in the tree (a shared pointer or a cycle); clone it before inserting", n.ID)
		return
	}
	v.ptrs[n] = true
	v.nodes++
	outer := v.cur
	v.cur = n.ID
	defer func() { v.cur = outer }()
	if v.lim.MaxNodes > 0 && v.nodes > v.lim.MaxNodes {
		v.add(p, "more than %d nodes in the deck; split the deck or raise Limits.MaxNodes", v.lim.MaxNodes)
		v.capped = true
		return
	}
	if v.lim.MaxDepth > 0 && depth > v.lim.MaxDepth {
		v.add(p, "nested %d levels deep, over the limit of %d", depth, v.lim.MaxDepth)
		return
	}

	switch {
	case n.ID == "":
		v.add(p+".id", "node id is empty")
	case isAncestor(v.stack, n.ID):
		v.add(p+".id", "node %q is listed under its own descendant (a cycle); an id names one node", n.ID)
	default:
		if first, dup := v.seen[n.ID]; dup {
			v.add(p+".id", "id %q is used twice (first at %s); every node needs its own id", n.ID, first)
		} else {
			v.seen[n.ID] = p
		}
	}
	if !n.Type.Known() {
		v.add(p+".type", "unknown node type %q; want one of %s", n.Type, typeList())
	}
	if n.Type == TypeSlide && parent != nil {
		v.add(p+".type", "a SLIDE can only be a top-level entry of slides")
	}
	if n.Type == TypeTableCell && (parent == nil || parent.Type != TypeTable) {
		v.add(p+".type", "a TABLE_CELL must be a child of a TABLE")
	}

	v.geometry(p, n)
	v.chars(p, ".name", n.Name)
	v.chars(p, ".altText", n.AltText)
	if n.Link != nil {
		v.chars(p, ".hyperlink.url", n.Link.URL)
	}
	if n.Slide != nil {
		// Speaker notes are not checked: the exporter writes U+000B and
		// U+2028 in them as a:br and drops what XML cannot hold
		// (pptx notesRuns); tool calls refuse such characters anyway.
		v.chars(p, ".slide.layout", n.Slide.Layout)
	}
	if n.Math != nil {
		v.chars(p, ".math.latex", n.Math.LaTeX)
	}
	v.paints(p, ".fills", n.Fills)
	v.paints(p, ".strokes", n.Strokes)
	v.nonNeg(p, ".strokeWeight", n.StrokeWeight)
	v.nonNeg(p, ".cornerRadius", n.CornerRadius)
	if n.Opacity != nil && (!finite(*n.Opacity) || *n.Opacity < 0 || *n.Opacity > 1) {
		v.add(p+".opacity", "opacity %v outside 0..1", *n.Opacity)
	}
	for i, e := range n.Effects {
		ep := p + ".effects[" + strconv.Itoa(i) + "]"
		v.nonNeg(ep, ".radius", e.Radius)
		v.num(ep, ".spread", e.Spread, false)
		if e.Color != nil {
			v.color(ep, ".color", *e.Color)
		}
		if e.Offset != nil {
			v.num(ep, ".offset.x", e.Offset.X, false)
			v.num(ep, ".offset.y", e.Offset.Y, false)
		}
	}
	v.autoLayout(p, n, parent)
	v.text(p, n)
	v.typed(p, n)

	if len(n.Children) > 0 && !n.Type.IsContainer() && n.Type.Known() {
		v.add(p+".children", "a %s cannot have children (%d found); wrap them in a FRAME or GROUP", n.Type, len(n.Children))
	}
	v.stack = append(v.stack, n.ID)
	for i, c := range n.Children {
		cp := p + ".children[" + strconv.Itoa(i) + "]"
		if c != nil && n.Type == TypeTable && c.Type != TypeTableCell {
			v.add(cp+".type", "a TABLE holds only TABLE_CELL children, found %s", c.Type)
		}
		v.node(cp, c, n, depth+1)
	}
	v.stack = v.stack[:len(v.stack)-1]
}

func isAncestor(stack []string, id string) bool {
	for _, a := range stack {
		if a == id {
			return true
		}
	}
	return false
}

func typeList() string {
	s := make([]string, len(AllTypes))
	for i, t := range AllTypes {
		s[i] = string(t)
	}
	return strings.Join(s, ", ")
}

func (v *validator) geometry(p string, n *Node) {
	for r := 0; r < 2; r++ {
		for c := 0; c < 3; c++ {
			if x := n.Transform[r][c]; !finite(x) || x > MaxCoordinatePx || x < -MaxCoordinatePx {
				v.num(fmt.Sprintf("%s.relativeTransform[%d][%d]", p, r, c), "", x, false)
			}
		}
	}
	v.num(p, ".size.x", n.Size.X, true)
	v.num(p, ".size.y", n.Size.Y, true)
	if b := n.AbsoluteBoundingBox; b != nil {
		v.num(p, ".absoluteBoundingBox.x", b.X, false)
		v.num(p, ".absoluteBoundingBox.y", b.Y, false)
		v.num(p, ".absoluteBoundingBox.width", b.Width, true)
		v.num(p, ".absoluteBoundingBox.height", b.Height, true)
	}
	for i, x := range n.StrokeDashes {
		v.num(fmt.Sprintf("%s.strokeDashes[%d]", p, i), "", x, true)
	}
	if r := n.CornerRadii; r != nil {
		for i, x := range r {
			v.num(fmt.Sprintf("%s.rectangleCornerRadii[%d]", p, i), "", x, true)
		}
	}
	for i, vp := range n.Paths {
		if x, ok := pathOutOfRange(vp.Path); !ok {
			pp := fmt.Sprintf("%s.vectorPaths[%d].path", p, i)
			if !finite(x) {
				v.addValue(pp, "path %q holds a number that is not finite", clip(vp.Path))
			} else {
				v.addValue(pp, "path %q holds %g, outside the coordinate range of a slide file, ±%.0f px (ECMA-376 Part 1 §20.1.10.16 ST_Coordinate)", clip(vp.Path), x, MaxCoordinatePx)
			}
		}
	}
	if c := n.Connector; c != nil {
		for _, e := range [2]struct {
			side string
			pos  *Vector
		}{{"connectorStart", c.Start.Position}, {"connectorEnd", c.End.Position}} {
			if e.pos != nil {
				v.num(p, ".connector."+e.side+".position.x", e.pos.X, false)
				v.num(p, ".connector."+e.side+".position.y", e.pos.Y, false)
			}
		}
	}
}

var (
	layoutModes = set(LayoutNone, LayoutHorizontal, LayoutVertical)
	sizings     = set(SizingFixed, SizingHug, SizingFill)
	primaryAl   = set(AlignMin, AlignCenter, AlignMax, AlignSpaceBetween)
	counterAl   = set(AlignMin, AlignCenter, AlignMax, AlignBaseline)
	wraps       = set(WrapNone, Wrap)
	positioning = set(PositioningAuto, PositioningAbsolute)
	paintTypes  = set(PaintSolid, PaintGradientLinear, PaintGradientRadial, PaintGradientAngular, PaintGradientDiamond, PaintImage)
	hAligns     = set(AlignLeft, AlignCenter, AlignRight, AlignJustified)
	vAligns     = set(AlignTop, AlignCenter, AlignBottom)
	listTypes   = set(ListNone, ListOrdered, ListUnordered)
	textCases   = set(CaseOriginal, CaseUpper, CaseLower, CaseTitle, CaseSmallCaps)
	decorations = set(DecorationNone, DecorationUnderline, DecorationStrikethrough)
)

func set(vals ...string) map[string]bool {
	m := make(map[string]bool, len(vals))
	for _, s := range vals {
		m[s] = true
	}
	return m
}

func (v *validator) enum(p, leaf, val string, allowed map[string]bool) {
	if val != "" && !allowed[val] {
		keys := make([]string, 0, len(allowed))
		for k := range allowed {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		v.add(p+leaf, "unknown value %q; want one of %s", val, strings.Join(keys, ", "))
	}
}

func (v *validator) autoLayout(p string, n, parent *Node) {
	a := &n.AutoLayout
	if a.hasContainerFields() && n.Type.Known() && !n.Type.CanAutoLayout() {
		v.add(p+".layoutMode", "a %s cannot hold auto-layout fields (layoutMode, padding, itemSpacing, axis alignment); use a FRAME", n.Type)
	}
	v.enum(p, ".layoutMode", a.LayoutMode, layoutModes)
	v.enum(p, ".layoutWrap", a.LayoutWrap, wraps)
	v.enum(p, ".primaryAxisAlignItems", a.PrimaryAxisAlignItems, primaryAl)
	v.enum(p, ".counterAxisAlignItems", a.CounterAxisAlignItems, counterAl)
	v.enum(p, ".layoutSizingHorizontal", a.LayoutSizingHorizontal, sizings)
	v.enum(p, ".layoutSizingVertical", a.LayoutSizingVertical, sizings)
	v.enum(p, ".layoutPositioning", a.LayoutPositioning, positioning)
	v.nonNeg(p, ".paddingLeft", a.PaddingLeft)
	v.nonNeg(p, ".paddingRight", a.PaddingRight)
	v.nonNeg(p, ".paddingTop", a.PaddingTop)
	v.nonNeg(p, ".paddingBottom", a.PaddingBottom)
	v.num(p, ".itemSpacing", a.ItemSpacing, false) // negative spacing overlaps items, as in Figma
	if a.CounterAxisSpacing != nil {
		v.nonNeg(p, ".counterAxisSpacing", *a.CounterAxisSpacing)
	}
	if a.LayoutPositioning == PositioningAbsolute && (parent == nil || !parent.HasAutoLayout()) {
		v.add(p+".layoutPositioning", "ABSOLUTE positioning only applies inside an auto-layout parent")
	}
}

func (v *validator) text(p string, n *Node) {
	t := &n.TextContent
	if !t.HasText() {
		return
	}
	if n.Type.Known() && !n.Type.CanHoldText() {
		v.add(p+".characters", "a %s cannot hold text; use a TEXT node", n.Type)
	}
	if !utf8.ValidString(t.Characters) {
		v.add(p+".characters", "text is not valid UTF-8")
	}
	v.chars(p, ".characters", t.Characters)
	runes := t.RuneCount()
	if v.lim.MaxTextRunes > 0 && runes > v.lim.MaxTextRunes {
		v.add(p+".characters", "text of %d characters, over the limit of %d", runes, v.lim.MaxTextRunes)
	}
	if t.Style != nil {
		v.style(p, ".style", t.Style)
	}
	if k := len(t.CharacterStyleOverrides); k > runes {
		v.add(p+".characterStyleOverrides", "%d entries for a text of %d characters; overrides must lie inside the text", k, runes)
	}
	reported := map[int]bool{}
	for i, k := range t.CharacterStyleOverrides {
		if k == 0 || reported[k] {
			continue
		}
		if k < 0 {
			v.add(fmt.Sprintf("%s.characterStyleOverrides[%d]", p, i), "negative style key %d", k)
			reported[k] = true
			continue
		}
		if _, ok := t.StyleOverrideTable[strconv.Itoa(k)]; !ok {
			v.add(fmt.Sprintf("%s.characterStyleOverrides[%d]", p, i), "style key %d is not in styleOverrideTable", k)
			reported[k] = true
		}
	}
	for k, s := range t.StyleOverrideTable {
		if _, err := strconv.Atoi(k); err != nil {
			v.add(p+".styleOverrideTable."+k, "override keys are decimal integers")
		}
		v.style(p+".styleOverrideTable."+k, "", &s)
	}
	if err := checkFields(t); err != nil {
		v.add(p+".fields", "%v; fields must lie in order inside one line of the text", err)
	}
	lines := strings.Count(t.Characters, "\n") + 1
	if len(t.Paragraphs) > lines {
		v.add(p+".paragraphs", "%d paragraph styles for %d lines of text", len(t.Paragraphs), lines)
	}
	for i, para := range t.Paragraphs {
		pp := p + ".paragraphs[" + strconv.Itoa(i) + "]"
		v.enum(pp, ".listType", para.ListType, listTypes)
		v.enum(pp, ".align", para.Align, hAligns)
		if para.Level < 0 || para.Level > 8 {
			v.add(pp+".level", "level %d outside 0..8", para.Level)
		}
		v.nonNeg(pp, ".spaceBefore", para.SpaceBefore)
		v.nonNeg(pp, ".spaceAfter", para.SpaceAfter)
		v.nonNeg(pp, ".lineHeight", para.LineHeight)
		v.nonNeg(pp, ".marginLeft", para.MarginLeft)
		v.num(pp, ".indent", para.Indent, false)
		v.nonNeg(pp, ".bulletSize", para.BulletSize)
		if para.BulletColor != nil {
			v.color(pp, ".bulletColor", *para.BulletColor)
		}
	}
	if b := t.TextBox; b != nil {
		if b.FontScale < 0 || b.FontScale > 1 || math.IsNaN(b.FontScale) {
			v.add(p+".textBox.fontScale", "font scale %g outside 0..1 (0.9 = 90%%; 0 = none)", b.FontScale)
		}
		if b.LineSpacingReduction < 0 || b.LineSpacingReduction > MaxLineSpacingReduction || math.IsNaN(b.LineSpacingReduction) {
			v.add(p+".textBox.lineSpacingReduction", "line spacing reduction %g outside 0..%g (0.2 = 20%%)", b.LineSpacingReduction, MaxLineSpacingReduction)
		}
	}
	if b := t.TextBox; b != nil && b.Insets != nil {
		in := b.Insets
		v.nonNeg(p, ".textBox.insets.left", in.Left)
		v.nonNeg(p, ".textBox.insets.top", in.Top)
		v.nonNeg(p, ".textBox.insets.right", in.Right)
		v.nonNeg(p, ".textBox.insets.bottom", in.Bottom)
	}
}

func (v *validator) style(p, leaf string, s *TypeStyle) {
	p += leaf
	v.chars(p, ".fontFamily", s.FontFamily)
	v.chars(p, ".fontFamilyEastAsian", s.FontFamilyEastAsian)
	v.chars(p, ".fontFamilyComplex", s.FontFamilyComplex)
	if s.Link != nil {
		v.chars(p, ".hyperlink.url", s.Link.URL)
	}
	v.nonNeg(p, ".fontSize", s.FontSize)
	if s.FontWeight < 0 || s.FontWeight > 1000 {
		v.add(p+".fontWeight", "font weight %d outside 1..1000", s.FontWeight)
	}
	if s.LetterSpacing != nil {
		v.num(p, ".letterSpacing", *s.LetterSpacing, false)
	}
	v.nonNeg(p, ".lineHeightPx", s.LineHeightPx)
	v.nonNeg(p, ".lineHeightPercentFontSize", s.LineHeightPercent)
	v.enum(p, ".textAlignHorizontal", s.TextAlignHorizontal, hAligns)
	v.enum(p, ".textAlignVertical", s.TextAlignVertical, vAligns)
	v.enum(p, ".textCase", s.TextCase, textCases)
	v.enum(p, ".textDecoration", s.TextDecoration, decorations)
	v.paints(p, ".fills", s.Fills)
}

func (v *validator) paints(p, leaf string, ps []Paint) {
	for i := range ps {
		pt := &ps[i]
		pp := p + leaf + "[" + strconv.Itoa(i) + "]"
		v.enum(pp, ".type", pt.Type, paintTypes)
		if pt.Type == "" {
			v.add(pp+".type", "paint has no type")
		}
		if pt.Color != nil {
			v.color(pp, ".color", *pt.Color)
		}
		if pt.Type == PaintSolid && pt.Color == nil {
			v.add(pp+".color", "SOLID paint without a colour")
		}
		if pt.Opacity != nil && (!finite(*pt.Opacity) || *pt.Opacity < 0 || *pt.Opacity > 1) {
			v.add(pp+".opacity", "opacity %v outside 0..1", *pt.Opacity)
		}
		for j, st := range pt.GradientStops {
			v.color(fmt.Sprintf("%s.gradientStops[%d].color", pp, j), "", st.Color)
			v.num(fmt.Sprintf("%s.gradientStops[%d].position", pp, j), "", st.Position, true)
		}
		if pt.Type == PaintImage {
			if pt.ImageRef == "" {
				v.add(pp+".imageRef", "IMAGE paint without an imageRef")
			} else if _, ok := v.d.Assets[pt.ImageRef]; !ok {
				v.add(pp+".imageRef", "asset %q is not in the deck's asset table; add it with the image bytes first", short(pt.ImageRef))
			}
		}
		if c := pt.Crop; c != nil {
			for _, side := range [4]struct {
				name string
				x    float64
			}{{"left", c.Left}, {"top", c.Top}, {"right", c.Right}, {"bottom", c.Bottom}} {
				name, x := side.name, side.x
				if !finite(x) || x < -1 || x > 1 {
					v.add(pp+".crop."+name, "crop fraction %v outside -1..1", x)
				}
			}
		}
	}
}

func (v *validator) typed(p string, n *Node) {
	if n.Table != nil && n.Type != TypeTable {
		v.add(p+".table", "only a TABLE carries table fields")
	}
	if n.Cell != nil && n.Type != TypeTableCell {
		v.add(p+".cell", "only a TABLE_CELL carries cell fields")
	}
	if n.Chart != nil && n.Type != TypeChart {
		v.add(p+".chart", "only a CHART carries chart data")
	}
	if n.Math != nil && n.Type != TypeMath {
		v.add(p+".math", "only a MATH node carries LaTeX")
	}
	if n.Slide != nil && n.Type != TypeSlide {
		v.add(p+".slide", "only a SLIDE carries slide properties")
	}
	switch n.Type {
	case TypeTable:
		if n.Table == nil {
			v.add(p+".table", "TABLE without its grid (columns and rows)")
			return
		}
		for i, w := range n.Table.Columns {
			v.num(fmt.Sprintf("%s.table.columns[%d]", p, i), "", w, true)
		}
		for i, h := range n.Table.Rows {
			v.num(fmt.Sprintf("%s.table.rows[%d]", p, i), "", h, true)
		}
		for i, c := range n.Children {
			if c == nil || c.Cell == nil {
				continue
			}
			rs, cs := c.Cell.Spans()
			if c.Cell.Row < 0 || c.Cell.Column < 0 || c.Cell.Row+rs > len(n.Table.Rows) || c.Cell.Column+cs > len(n.Table.Columns) {
				v.add(fmt.Sprintf("%s.children[%d].cell", p, i), "cell at row %d column %d (span %dx%d) lies outside the %dx%d grid",
					c.Cell.Row, c.Cell.Column, rs, cs, len(n.Table.Rows), len(n.Table.Columns))
			}
		}
	case TypeTableCell:
		if n.Cell == nil {
			v.add(p+".cell", "TABLE_CELL without its row and column")
		}
	case TypeChart:
		if n.Chart == nil {
			v.add(p+".chart", "CHART without data")
			return
		}
		v.chars(p, ".chart.title", n.Chart.Title)
		v.chars(p, ".chart.xAxisTitle", n.Chart.XAxisTitle)
		v.chars(p, ".chart.yAxisTitle", n.Chart.YAxisTitle)
		for i, c := range n.Chart.Categories {
			v.chars(fmt.Sprintf("%s.chart.categories[%d]", p, i), "", c)
		}
		for i, s := range n.Chart.Series {
			sp := fmt.Sprintf("%s.chart.series[%d]", p, i)
			v.chars(sp, ".name", s.Name)
			if n.Chart.ChartType != ChartScatter && len(s.Values) != len(n.Chart.Categories) {
				v.add(sp+".values", "series %q has %d values for %d categories", s.Name, len(s.Values), len(n.Chart.Categories))
			}
			for j, x := range s.Values {
				if !finite(x) {
					v.addValue(fmt.Sprintf("%s.values[%d]", sp, j), "not a finite number (%v)", x)
				}
			}
		}
	case TypeMath:
		if n.Math == nil {
			v.add(p+".math", "MATH without LaTeX")
		}
	case TypeImage:
		hasImage := false
		for _, f := range n.Fills {
			hasImage = hasImage || f.Type == PaintImage
		}
		if !hasImage {
			v.add(p+".fills", "IMAGE node without an IMAGE fill")
		}
	}
	if c := n.Connector; c != nil {
		for _, end := range [2]struct {
			side string
			e    Endpoint
		}{{"connectorStart", c.Start}, {"connectorEnd", c.End}} {
			side, e := end.side, end.e
			if e.NodeID != "" {
				v.ends = append(v.ends, endpointRef{path: p + ".connector." + side, id: e.NodeID})
			}
		}
	}
}

func (v *validator) color(p, leaf string, c Color) {
	for _, ch := range [4]struct {
		n string
		x float64
	}{{"r", c.R}, {"g", c.G}, {"b", c.B}, {"a", c.A}} {
		if !finite(ch.x) || ch.x < 0 || ch.x > 1 {
			v.add(p+leaf+"."+ch.n, "colour channel %v outside 0..1", ch.x)
		}
	}
}

// num checks a number at path p+leaf: finite, inside the coordinate range
// (MaxCoordinatePx) and, when nonNeg, not negative. The path is only built
// for a problem (validation runs on every batch, and most decks are valid).
func (v *validator) num(p, leaf string, x float64, nonNeg bool) {
	switch {
	case !finite(x):
		v.addValue(p+leaf, "not a finite number (%v); give a number of px", x)
	case x > MaxCoordinatePx || x < -MaxCoordinatePx:
		v.addValue(p+leaf, "%g is outside the coordinate range of a slide file, ±%.0f px (ECMA-376 Part 1 §20.1.10.16 ST_Coordinate, ±%d EMU)", x, MaxCoordinatePx, MaxCoordinateEMU)
	case nonNeg && x < 0:
		v.add(p+leaf, "negative value %g; sizes and lengths are px >= 0", x)
	}
}

func (v *validator) nonNeg(p, leaf string, x float64) { v.num(p, leaf, x, true) }

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func short(ref string) string {
	if len(ref) > 12 {
		return ref[:12] + "…"
	}
	return ref
}
