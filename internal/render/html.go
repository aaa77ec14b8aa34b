package render

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// HTML returns the markup of one slide (0-based index): a single
// <div class="ace-slide"> of Deck.Width x Deck.Height px whose descendants
// carry data-id attributes naming the scene-graph nodes. It is the exact
// fragment Pool.Render sets into its shell page, so tests can assert on it
// without a browser. MATH nodes carry their LaTeX in data-latex; the browser
// typesets them (MathJax, to SVG). Problems that do not stop the slide from rendering
// (a missing image asset, an unsupported image format) are returned as notes
// by SlideHTML; HTML drops them.
//
// Errors: a nil deck, an index out of range, or a deck without a positive
// size.
func HTML(d *scenegraph.Deck, slide int, assets scenegraph.AssetSource) (string, error) {
	h, _, err := SlideHTML(d, slide, assets)
	return h, err
}

// SlideHTML is HTML plus the per-node notes gathered while writing it
// (for example "image asset 3fa2…: bytes not found").
func SlideHTML(d *scenegraph.Deck, slide int, assets scenegraph.AssetSource) (string, []NodeError, error) {
	return slideHTML(d, slide, assets, nil)
}

// slideHTML is SlideHTML with the ids of the shrink-on-overflow texts to
// fit (Request.FitText): drawn from full size, marked for page.js to
// shrink until they fit.
func slideHTML(d *scenegraph.Deck, slide int, assets scenegraph.AssetSource, fit map[string]bool) (string, []NodeError, error) {
	if d == nil {
		return "", nil, fmt.Errorf("render: nil deck")
	}
	if slide < 0 || slide >= len(d.Slides) {
		return "", nil, fmt.Errorf("render: slide %d out of range: deck %q has %d slides (indexes are 0-based)", slide, d.ID, len(d.Slides))
	}
	if d.Width <= 0 || d.Height <= 0 || math.IsNaN(d.Width) || math.IsNaN(d.Height) {
		return "", nil, fmt.Errorf("render: deck %q has slide size %gx%g px; set Deck.Width and Deck.Height", d.ID, d.Width, d.Height)
	}
	if d.Width > MaxSlideSide || d.Height > MaxSlideSide {
		return "", nil, fmt.Errorf("render: deck %q has slide size %gx%g px; the renderer draws at most %d px per side", d.ID, d.Width, d.Height, MaxSlideSide)
	}
	s := d.Slides[slide]
	if s == nil {
		return "", nil, fmt.Errorf("render: slide %d of deck %q is nil", slide, d.ID)
	}
	s, assets, notes := withUnderlay(d, slide, s, assets)
	b := &builder{deck: d, assets: assets, slide: s, imgCache: map[string]string{}, errs: notes, fit: fit}
	b.index(s, nil, scenegraph.Identity)
	b.node(s, nil)
	return b.sb.String(), b.errs, nil
}

// MaxSlideSide bounds a slide's width and height in px (a 16:9 PPTX is
// 1280x720, a Figma slide 1920x1080); larger pages exhaust the browser's
// compositor rather than render.
const MaxSlideSide = 8192

// NodeError is a problem with one node that did not stop the render.
type NodeError struct {
	NodeID  string `json:"nodeId"`
	Message string `json:"message"`
}

// builder writes one slide.
type builder struct {
	deck     *scenegraph.Deck
	assets   scenegraph.AssetSource
	slide    *scenegraph.Node
	sb       strings.Builder
	errs     []NodeError
	imgCache map[string]string // asset ref -> data URI ("" when unusable)
	// abs is each node's static absolute transform (scene-graph transforms
	// composed, before auto-layout); connectors use it to find their ends.
	abs    map[string]scenegraph.Transform
	nodes  map[string]*scenegraph.Node
	parent map[string]*scenegraph.Node
	// fit holds the ids of shrink-on-overflow texts to fit rather than
	// draw at their stored scale (Request.FitText).
	fit map[string]bool
}

func (b *builder) index(n, parent *scenegraph.Node, ptf scenegraph.Transform) {
	if b.abs == nil {
		b.abs = map[string]scenegraph.Transform{}
		b.nodes = map[string]*scenegraph.Node{}
		b.parent = map[string]*scenegraph.Node{}
	}
	tf := scenegraph.Identity
	if parent != nil {
		tf = ptf.Mul(n.Transform)
	}
	b.abs[n.ID] = tf
	b.nodes[n.ID] = n
	b.parent[n.ID] = parent
	for _, c := range n.Children {
		if c != nil {
			b.index(c, n, tf)
		}
	}
}

func (b *builder) errorf(n *scenegraph.Node, format string, args ...any) {
	b.errs = append(b.errs, NodeError{NodeID: n.ID, Message: fmt.Sprintf(format, args...)})
}

// w writes raw markup produced by this package (never deck content).
func (b *builder) w(s string) { b.sb.WriteString(s) }

// text writes deck content, escaped.
func (b *builder) text(s string) { b.sb.WriteString(html.EscapeString(s)) }

// attr returns an escaped attribute value.
func attr(s string) string { return html.EscapeString(s) }

// px formats a length in px with at most 3 decimals.
func px(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		v = 0
	}
	return trimFloat(v) + "px"
}

func trimFloat(v float64) string {
	s := fmt.Sprintf("%.3f", v)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" || s == "" {
		return "0"
	}
	return s
}

// node writes n and its subtree. parent is nil for the slide.
func (b *builder) node(n, parent *scenegraph.Node) {
	if n == nil || !n.IsVisible() {
		return
	}
	var st style
	classes := "n"
	b.placement(&st, n, parent)
	b.paintBox(&st, n)
	isText := n.Type.CanHoldText() && n.Characters != "" || n.Type == scenegraph.TypeText
	if n.ClipsContent || n.Type == scenegraph.TypeSlide {
		st.add("overflow", "hidden")
	}
	if n.HasAutoLayout() && n.Type.CanAutoLayout() {
		b.flexContainer(&st, n)
	}
	if n.Type == scenegraph.TypeTable {
		b.tableGrid(&st, n)
	}
	if isText && !n.HasAutoLayout() {
		b.textBox(&st, n)
		classes += " tb"
	}
	if n.Type == scenegraph.TypeSlide {
		classes = "n ace-slide"
	}
	attrs := fmt.Sprintf(` class="%s" data-id="%s" data-type="%s"`, classes, attr(n.ID), attr(string(n.Type)))
	if n.ClipsContent && n.Type != scenegraph.TypeSlide {
		attrs += ` data-clip="1"`
	}
	if isText && n.TextBox != nil && n.TextBox.AutoResize == scenegraph.AutoResizeShrink {
		// DrawingML normAutofit (ECMA-376 §21.1.2.1.3): drawn at the
		// stored scale, reported as data-fs; a text the request asks to
		// fit is shrunk by page.js until it fits, as PowerPoint does when
		// the text is edited.
		if b.fit[n.ID] {
			attrs += ` data-autofit="1"`
		} else if f := n.TextBox.DrawnFontScale(); f < 1 {
			attrs += ` data-fs="` + strconv.FormatFloat(f, 'g', -1, 64) + `"`
		}
	}
	if n.Type == scenegraph.TypeMath && n.Math != nil {
		attrs += fmt.Sprintf(` data-latex="%s"`, attr(n.Math.LaTeX))
	}
	b.w("<div" + attrs + ` style="` + attr(st.String()) + `">`)

	// Layers behind the content: image fills, vector geometry.
	b.imageFills(n)
	b.vector(n)
	switch n.Type {
	case scenegraph.TypeLine, scenegraph.TypeConnector:
		b.connector(n, parent)
	case scenegraph.TypeChart:
		b.chart(n)
	case scenegraph.TypeMath:
		b.math(n)
	}
	if isText {
		b.textContent(n)
	}
	for _, c := range n.Children {
		b.node(c, n)
	}
	if n.Type == scenegraph.TypeTableCell && parent != nil && parent.Type == scenegraph.TypeTable {
		b.cellBorders(n)
	}
	b.w("</div>")
}

// style accumulates CSS declarations in insertion order.
type style struct{ decl []string }

func (s *style) add(prop, val string) { s.decl = append(s.decl, prop+":"+val) }
func (s *style) String() string       { return strings.Join(s.decl, ";") }

// inFlow reports whether n is laid out by its parent's auto-layout.
func inFlow(n, parent *scenegraph.Node) bool {
	return parent != nil && parent.HasAutoLayout() && parent.Type.CanAutoLayout() &&
		n.LayoutPositioning != scenegraph.PositioningAbsolute
}

// placement writes position and size. Outside auto-layout a node sits at its
// relativeTransform offset with the 2x2 part as a CSS matrix about its
// top-left corner (transform-origin 0 0), so getBoundingClientRect equals
// Transform.Bounds(Size) composed up the tree.
func (b *builder) placement(st *style, n, parent *scenegraph.Node) {
	st.add("box-sizing", "border-box")
	if parent == nil {
		st.add("position", "relative")
		st.add("width", px(b.deck.Width))
		st.add("height", px(b.deck.Height))
		return
	}
	tf := n.Transform
	if tf.IsZero() {
		tf = scenegraph.Identity
	}
	hugW, hugH := hugs(n)
	if parent.Type == scenegraph.TypeTable && n.Type == scenegraph.TypeTableCell {
		b.gridCell(st, n)
		return
	}
	if inFlow(n, parent) {
		b.flexItem(st, n, parent, hugW, hugH)
		return
	}
	st.add("position", "absolute")
	st.add("left", px(tf.X()))
	st.add("top", px(tf.Y()))
	if hugW {
		st.add("width", "max-content")
	} else {
		st.add("width", px(math.Max(0, n.Size.X)))
	}
	if hugH {
		st.add("height", "auto")
	} else {
		st.add("height", px(math.Max(0, n.Size.Y)))
	}
	if tf[0][0] != 1 || tf[0][1] != 0 || tf[1][0] != 0 || tf[1][1] != 1 {
		st.add("transform-origin", "0 0")
		st.add("transform", fmt.Sprintf("matrix(%s,%s,%s,%s,0,0)",
			trimFloat6(tf[0][0]), trimFloat6(tf[1][0]), trimFloat6(tf[0][1]), trimFloat6(tf[1][1])))
	}
}

func trimFloat6(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "0"
	}
	s := fmt.Sprintf("%.6f", v)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" || s == "" {
		return "0"
	}
	return s
}

// hugs reports whether n sizes itself to its content on each axis: an
// auto-layout container with HUG sizing, or text that auto-resizes
// (Figma textAutoResize WIDTH_AND_HEIGHT / HEIGHT).
func hugs(n *scenegraph.Node) (w, h bool) {
	if n.HasAutoLayout() && n.Type.CanAutoLayout() {
		w = n.LayoutSizingHorizontal == scenegraph.SizingHug
		h = n.LayoutSizingVertical == scenegraph.SizingHug
	}
	if n.Type.CanHoldText() && n.TextBox != nil {
		switch n.TextBox.AutoResize {
		case scenegraph.AutoResizeBoth:
			w, h = true, true
		case scenegraph.AutoResizeHeight:
			h = true
		}
	}
	if n.Type == scenegraph.TypeText {
		if n.LayoutSizingHorizontal == scenegraph.SizingHug {
			w = true
		}
		if n.LayoutSizingVertical == scenegraph.SizingHug {
			h = true
		}
	}
	return w, h
}

// flexContainer maps Figma auto-layout onto flexbox.
func (b *builder) flexContainer(st *style, n *scenegraph.Node) {
	st.add("display", "flex")
	if n.LayoutMode == scenegraph.LayoutVertical {
		st.add("flex-direction", "column")
	} else {
		st.add("flex-direction", "row")
	}
	wrap := n.LayoutWrap == scenegraph.Wrap && n.LayoutMode == scenegraph.LayoutHorizontal
	if wrap {
		st.add("flex-wrap", "wrap")
	} else {
		st.add("flex-wrap", "nowrap")
	}
	st.add("padding", fmt.Sprintf("%s %s %s %s", px(n.PaddingTop), px(n.PaddingRight), px(n.PaddingBottom), px(n.PaddingLeft)))
	justify := "flex-start"
	switch n.PrimaryAxisAlignItems {
	case scenegraph.AlignCenter:
		justify = "center"
	case scenegraph.AlignMax:
		justify = "flex-end"
	case scenegraph.AlignSpaceBetween:
		justify = "space-between"
	}
	st.add("justify-content", justify)
	align := "flex-start"
	switch n.CounterAxisAlignItems {
	case scenegraph.AlignCenter:
		align = "center"
	case scenegraph.AlignMax:
		align = "flex-end"
	case scenegraph.AlignBaseline:
		align = "baseline"
	}
	st.add("align-items", align)
	if wrap {
		st.add("align-content", "flex-start")
	}
	// Figma ignores itemSpacing under SPACE_BETWEEN ("Auto" spacing).
	mainGap := n.ItemSpacing
	if n.PrimaryAxisAlignItems == scenegraph.AlignSpaceBetween {
		mainGap = 0
	}
	crossGap := 0.0
	if n.CounterAxisSpacing != nil {
		crossGap = *n.CounterAxisSpacing
	}
	if n.LayoutMode == scenegraph.LayoutVertical {
		st.add("row-gap", px(mainGap))
	} else {
		st.add("column-gap", px(mainGap))
		st.add("row-gap", px(crossGap))
	}
}

// flexItem sizes a child of an auto-layout parent.
func (b *builder) flexItem(st *style, n, parent *scenegraph.Node, hugW, hugH bool) {
	st.add("position", "relative")
	st.add("min-width", "0")
	st.add("min-height", "0")
	row := parent.LayoutMode != scenegraph.LayoutVertical
	mainSizing, crossSizing := n.LayoutSizingHorizontal, n.LayoutSizingVertical
	mainLen, crossLen := n.Size.X, n.Size.Y
	mainHug, crossHug := hugW, hugH
	mainProp, crossProp := "width", "height"
	if !row {
		mainSizing, crossSizing = crossSizing, mainSizing
		mainLen, crossLen = crossLen, mainLen
		mainHug, crossHug = crossHug, mainHug
		mainProp, crossProp = crossProp, mainProp
	}
	switch {
	case mainSizing == scenegraph.SizingFill:
		st.add("flex", "1 1 0px")
		st.add(mainProp, "auto")
	case mainHug:
		st.add("flex", "0 0 auto")
		if row {
			st.add(mainProp, "max-content")
		} else {
			st.add(mainProp, "auto")
		}
	default:
		st.add("flex", "0 0 auto")
		st.add(mainProp, px(math.Max(0, mainLen)))
	}
	switch {
	case crossSizing == scenegraph.SizingFill:
		st.add("align-self", "stretch")
		st.add(crossProp, "auto")
	case crossHug:
		if !row {
			st.add(crossProp, "max-content")
		} else {
			st.add(crossProp, "auto")
		}
	default:
		st.add(crossProp, px(math.Max(0, crossLen)))
	}
}
