package diff

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// Box is a slide-local bounding box in px.
type Box struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}

func boxOf(r scenegraph.Rect) Box {
	return Box{X: round2(r.X), Y: round2(r.Y), W: round2(r.Width), H: round2(r.Height)}
}

func (b Box) String() string { return fmt.Sprintf("(%g,%g %gx%g)", b.X, b.Y, b.W, b.H) }

// modifier emits modified entries for one aligned pair.
type modifier struct {
	w       *walker
	o, c    *scenegraph.Node
	parents []string
}

func (m modifier) add(prop string, before, after any, detail string, visual bool) {
	m.w.emit(Entry{Kind: Modified, NodeID: nodeIDUnlessSlide(m.c), NodeType: string(m.c.Type), Name: m.c.Name,
		Parents: m.parents, Property: prop, Before: before, After: after, Detail: detail, visual: visual})
}

// change emits a plain "prop: before -> after" entry.
func (m modifier) change(prop string, before, after any) {
	m.add(prop, before, after, fmt.Sprintf("%s: %s -> %s", prop, show(before), show(after)), false)
}

func show(v any) string {
	switch x := v.(type) {
	case nil:
		return "(none)"
	case string:
		if x == "" {
			return `""`
		}
		return fmt.Sprintf("%q", clip(x, FullText))
	case []string:
		if len(x) == 0 {
			return "(none)"
		}
		return "[" + strings.Join(x, ", ") + "]"
	case float64:
		return fmt.Sprintf("%g", round2(x))
	case Box:
		return x.String()
	}
	return fmt.Sprint(v)
}

// compare emits the modified entries of an aligned pair (ACE App. E.3).
func (w *walker) compare(o, c *scenegraph.Node, parents []string) {
	m := modifier{w: w, o: o, c: c, parents: parents}
	if o.Type == scenegraph.TypeSlide || c.Type == scenegraph.TypeSlide {
		m.slide()
		m.text()
		return
	}
	if typeClass(o.Type) != typeClass(c.Type) {
		m.change("type", string(o.Type), string(c.Type))
	}
	if o.IsVisible() != c.IsVisible() {
		m.add("visible", o.IsVisible(), c.IsVisible(), fmt.Sprintf("visible: %v -> %v", o.IsVisible(), c.IsVisible()), isVisual(c))
	}
	if math.Abs(o.Alpha()-c.Alpha()) > ColorTol {
		m.change("opacity", round2(o.Alpha()), round2(c.Alpha()))
	}
	if ro, rc := o.Transform.Rotation(), c.Transform.Rotation(); !sameGeom(ro, rc) {
		m.add("rotation", round2(ro), round2(rc), fmt.Sprintf("rotated %g -> %g degrees (clockwise, about the centre)", round2(ro), round2(rc)), false)
	}
	m.bbox()
	m.paints("fills", o.Fills, c.Fills)
	m.paints("strokes", o.Strokes, c.Strokes)
	if len(c.Strokes) > 0 && !sameGeom(o.StrokeWeight, c.StrokeWeight) {
		m.change("strokeWeight", o.StrokeWeight, c.StrokeWeight)
	}
	if eo, ec := effectStrings(o.Effects), effectStrings(c.Effects); !slices.Equal(eo, ec) {
		m.change("effects", eo, ec)
	}
	if ro, rc := radii(o), radii(c); ro != rc {
		m.change("cornerRadius", ro, rc)
	}
	m.text()
	m.autoLayout()
	m.misc()
	if o.Chart != nil || c.Chart != nil {
		m.chart()
	}
	if o.Table != nil || c.Table != nil {
		m.tableGrid()
	}
}

func (m modifier) slide() {
	o, c := m.o, m.c
	if !paintsSame(o.Fills, c.Fills) {
		m.add("background", paintStrings(o.Fills), paintStrings(c.Fills),
			fmt.Sprintf("slide background: %s -> %s", show(paintStrings(o.Fills)), show(paintStrings(c.Fills))), hasImagePaint(c.Fills))
	}
	po, pc := o.Slide, c.Slide
	if po == nil {
		po = &scenegraph.SlideProps{}
	}
	if pc == nil {
		pc = &scenegraph.SlideProps{}
	}
	if to, tc := transitionString(po.Transition), transitionString(pc.Transition); to != tc {
		m.change("transition", to, tc)
	}
	if po.Hidden != pc.Hidden {
		m.add("hidden", po.Hidden, pc.Hidden, fmt.Sprintf("slide hidden: %v -> %v", po.Hidden, pc.Hidden), false)
	}
	if po.Layout != pc.Layout {
		m.change("layout", po.Layout, pc.Layout)
	}
	if normText(po.Notes) != normText(pc.Notes) {
		m.add("notes", po.Notes, pc.Notes, "speaker notes: "+textChange(normText(po.Notes), normText(pc.Notes)), false)
	}
	if o.Name != c.Name {
		m.change("name", o.Name, c.Name)
	}
}

func transitionString(t *scenegraph.Transition) string {
	if t == nil || t.Type == "" || t.Type == "none" {
		return "none"
	}
	s := t.Type
	if t.Direction != "" {
		s += " " + t.Direction
	}
	if t.DurationMs > 0 {
		s += fmt.Sprintf(" %gms", t.DurationMs)
	}
	return s
}

// bbox merges the four per-axis deltas into one entry (ACE App. E.5 ii),
// in slide-local coordinates (App. E.4).
//
// localBox is the node's slide-local box; with duplicate ids (an invalid
// deck) it falls back to the parent-relative box.
func (m modifier) bbox() {
	if m.c.Type == scenegraph.TypeTableCell {
		return // a cell's box is its grid slot; the grid is compared on the TABLE
	}
	bo, bc := m.w.localBox(m.w.oix, m.o), m.w.localBox(m.w.cix, m.c)
	// A child of a pair of matched parents is compared relative to its
	// parent's slide-local origin, so moving a frame is one edit and not
	// one per descendant; a re-parented node is compared in slide-local
	// coordinates, so a node that stays in place reads as `moved` only.
	po, pc := m.w.oix.Parent(m.o.ID), m.w.cix.Parent(m.c.ID)
	if po != nil && pc != nil && po.Type != scenegraph.TypeSlide && pc.Type != scenegraph.TypeSlide && po.ID == pc.ID {
		oo, oc := m.w.localBox(m.w.oix, po), m.w.localBox(m.w.cix, pc)
		bo.X, bo.Y = round2(bo.X-oo.X), round2(bo.Y-oo.Y)
		bc.X, bc.Y = round2(bc.X-oc.X), round2(bc.Y-oc.Y)
	}
	dx, dy := !sameGeom(bo.X, bc.X), !sameGeom(bo.Y, bc.Y)
	dw, dh := !sameGeom(bo.W, bc.W), !sameGeom(bo.H, bc.H)
	if !dx && !dy && !dw && !dh {
		return
	}
	var parts []string
	if dx || dy {
		parts = append(parts, fmt.Sprintf("moved by (%+g, %+g) px", round2(bc.X-bo.X), round2(bc.Y-bo.Y)))
	}
	if dw || dh {
		parts = append(parts, fmt.Sprintf("resized %gx%g -> %gx%g", bo.W, bo.H, bc.W, bc.H))
	}
	m.add("bbox", bo, bc, "bbox "+bo.String()+" -> "+bc.String()+": "+strings.Join(parts, ", "), false)
}

func (m modifier) paints(prop string, po, pc []scenegraph.Paint) {
	if paintsSame(po, pc) {
		return
	}
	so, sc := paintStrings(po), paintStrings(pc)
	m.add(prop, so, sc, fmt.Sprintf("%s: %s -> %s", prop, show(so), show(sc)), hasImagePaint(pc) || isVisual(m.c))
}

// paintsSame compares paint lists with the colour tolerance.
func paintsSame(a, b []scenegraph.Paint) bool {
	a, b = visiblePaints(a), visiblePaints(b)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !paintSame(a[i], b[i]) {
			return false
		}
	}
	return true
}

func visiblePaints(ps []scenegraph.Paint) []scenegraph.Paint {
	var out []scenegraph.Paint
	for _, p := range ps {
		if p.IsVisible() {
			out = append(out, p)
		}
	}
	return out
}

func paintSame(a, b scenegraph.Paint) bool {
	if a.Type != b.Type || math.Abs(f64(a.Opacity, 1)-f64(b.Opacity, 1)) > ColorTol {
		return false
	}
	switch a.Type {
	case scenegraph.PaintSolid:
		return sameColor(a.Color, b.Color)
	case scenegraph.PaintImage:
		return a.ImageRef == b.ImageRef && a.ScaleMode == b.ScaleMode && cropString(a.Crop) == cropString(b.Crop)
	}
	if len(a.GradientStops) != len(b.GradientStops) || !sameGeom(a.GradientAngle, b.GradientAngle) {
		return false
	}
	for i := range a.GradientStops {
		sa, sb := a.GradientStops[i], b.GradientStops[i]
		if math.Abs(sa.Position-sb.Position) > ColorTol || !sa.Color.Near(sb.Color, ColorTol) {
			return false
		}
	}
	return true
}

// paintStrings renders visible paints compactly: "#RRGGBB", "#RRGGBB@50%",
// "linear(#A->#B 90deg)", "image:1a2b3c4d FILL".
func paintStrings(ps []scenegraph.Paint) []string {
	var out []string
	for _, p := range visiblePaints(ps) {
		out = append(out, paintString(p))
	}
	return out
}

// paintString renders one paint compactly.
func paintString(p scenegraph.Paint) string {
	var s string
	switch p.Type {
	case scenegraph.PaintSolid:
		if p.Color != nil {
			s = p.Color.Hex()
		} else {
			s = "solid"
		}
	case scenegraph.PaintImage:
		ref := p.ImageRef
		if len(ref) > 8 {
			ref = ref[:8]
		}
		s = "image:" + ref
		if p.ScaleMode != "" {
			s += " " + p.ScaleMode
		}
		if c := cropString(p.Crop); c != "" {
			s += " crop" + c
		}
	default:
		kind := strings.ToLower(strings.TrimPrefix(p.Type, "GRADIENT_"))
		var stops []string
		for _, st := range p.GradientStops {
			stops = append(stops, st.Color.Hex())
		}
		s = fmt.Sprintf("%s(%s %gdeg)", kind, strings.Join(stops, "->"), round2(p.GradientAngle))
	}
	if p.Opacity != nil && *p.Opacity < 1 {
		s += fmt.Sprintf("@%d%%", int(math.Round(*p.Opacity*100)))
	}
	return s
}

func cropString(c *scenegraph.Crop) string {
	if c == nil || (c.Left == 0 && c.Top == 0 && c.Right == 0 && c.Bottom == 0) {
		return ""
	}
	return fmt.Sprintf("(%g,%g,%g,%g)", round2(c.Left), round2(c.Top), round2(c.Right), round2(c.Bottom))
}

func hasImagePaint(ps []scenegraph.Paint) bool {
	for _, p := range ps {
		if p.Type == scenegraph.PaintImage {
			return true
		}
	}
	return false
}

func effectStrings(es []scenegraph.Effect) []string {
	var out []string
	for _, e := range es {
		if e.Visible != nil && !*e.Visible {
			continue
		}
		s := fmt.Sprintf("%s r%g", e.Type, math.Round(e.Radius))
		if e.Color != nil {
			s += " " + e.Color.Hex()
		}
		if e.Offset != nil {
			s += fmt.Sprintf(" (%g,%g)", math.Round(e.Offset.X), math.Round(e.Offset.Y))
		}
		if e.Spread != 0 {
			s += fmt.Sprintf(" spread %g", math.Round(e.Spread))
		}
		out = append(out, s)
	}
	return out
}

func radii(n *scenegraph.Node) string {
	if n.CornerRadii != nil {
		r := n.CornerRadii
		return fmt.Sprintf("%g %g %g %g", math.Round(r[0]), math.Round(r[1]), math.Round(r[2]), math.Round(r[3]))
	}
	if n.CornerRadius == 0 {
		return "0"
	}
	return fmt.Sprintf("%g", math.Round(n.CornerRadius))
}

// autoLayout compares the container and child auto-layout fields as one
// entry each.
func (m modifier) autoLayout() {
	if so, sc := layoutString(&m.o.AutoLayout), layoutString(&m.c.AutoLayout); so != sc {
		m.change("autoLayout", so, sc)
	}
	if so, sc := sizingString(&m.o.AutoLayout), sizingString(&m.c.AutoLayout); so != sc {
		m.change("layoutSizing", so, sc)
	}
}

func layoutString(a *scenegraph.AutoLayout) string {
	if !a.HasAutoLayout() {
		return "none"
	}
	s := fmt.Sprintf("%s gap %g pad %g/%g/%g/%g", a.LayoutMode, math.Round(a.ItemSpacing),
		math.Round(a.PaddingTop), math.Round(a.PaddingRight), math.Round(a.PaddingBottom), math.Round(a.PaddingLeft))
	if a.LayoutWrap == scenegraph.Wrap {
		s += " wrap"
	}
	if a.PrimaryAxisAlignItems != "" {
		s += " main " + a.PrimaryAxisAlignItems
	}
	if a.CounterAxisAlignItems != "" {
		s += " cross " + a.CounterAxisAlignItems
	}
	return s
}

func sizingString(a *scenegraph.AutoLayout) string {
	h, v := a.LayoutSizingHorizontal, a.LayoutSizingVertical
	if h == "" {
		h = scenegraph.SizingFixed
	}
	if v == "" {
		v = scenegraph.SizingFixed
	}
	s := h + "/" + v
	if a.LayoutPositioning == scenegraph.PositioningAbsolute {
		s += " absolute"
	}
	return s
}

func (m modifier) misc() {
	o, c := m.o, m.c
	if lo, lc := linkString(o.Link), linkString(c.Link); lo != lc {
		m.change("hyperlink", lo, lc)
	}
	if o.AltText != c.AltText {
		m.change("altText", o.AltText, c.AltText)
	}
	var mo, mc string
	if o.Math != nil {
		mo = o.Math.LaTeX
	}
	if c.Math != nil {
		mc = c.Math.LaTeX
	}
	if mo != mc {
		m.add("latex", mo, mc, fmt.Sprintf("latex: %s -> %s", show(mo), show(mc)), true)
	}
	if o.Math != nil && c.Math != nil && o.Math.Display != c.Math.Display {
		m.change("mathStyle", mathStyle(o.Math), mathStyle(c.Math))
	}
	if o.Preset != c.Preset && o.Preset != "" && c.Preset != "" {
		m.change("shape", o.Preset, c.Preset)
	}
}

func linkString(l *scenegraph.Link) string {
	if l == nil {
		return ""
	}
	if l.URL != "" {
		return l.URL
	}
	if l.NodeID != "" {
		return "#" + l.NodeID
	}
	return ""
}

func (m modifier) chart() {
	o, c := m.o.Chart, m.c.Chart
	if o == nil || c == nil {
		m.change("chart", chartSummary(o), chartSummary(c))
		return
	}
	if o.ChartType != c.ChartType {
		m.change("chartType", o.ChartType, c.ChartType)
	}
	if o.Title != c.Title {
		m.change("chartTitle", o.Title, c.Title)
	}
	if !slices.Equal(o.Categories, c.Categories) {
		m.change("categories", o.Categories, c.Categories)
	}
	if so, sc := seriesNames(o), seriesNames(c); !slices.Equal(so, sc) {
		m.change("series", so, sc)
	}
	for i := range min(len(o.Series), len(c.Series)) {
		so, sc := o.Series[i], c.Series[i]
		if !valuesSame(so.Values, sc.Values) {
			m.add("seriesValues", so.Values, sc.Values, fmt.Sprintf("series %q values: %v -> %v", sc.Name, so.Values, sc.Values), false)
		}
		if !sameColor(so.Color, sc.Color) {
			m.change("seriesColor", colorHex(so.Color), colorHex(sc.Color))
		}
		if so.FormatCode != sc.FormatCode {
			m.change("seriesFormat", so.FormatCode, sc.FormatCode)
		}
	}
	lo, lc := legendString(o.Legend), legendString(c.Legend)
	if lo != lc {
		m.change("legend", lo, lc)
	}
	if o.Stacked != c.Stacked || o.DataLabels != c.DataLabels {
		m.change("chartOptions", fmt.Sprintf("stacked=%v labels=%v", o.Stacked, o.DataLabels), fmt.Sprintf("stacked=%v labels=%v", c.Stacked, c.DataLabels))
	}
	if o.XAxisTitle != c.XAxisTitle || o.YAxisTitle != c.YAxisTitle {
		m.change("axisTitles", o.XAxisTitle+" | "+o.YAxisTitle, c.XAxisTitle+" | "+c.YAxisTitle)
	}
}

// chartSummary names a chart's type, title, categories and each series
// with its values, so an added or replaced chart shows its data; lists
// longer than chartItems are cut with a count of the rest.
func chartSummary(ch *scenegraph.Chart) string {
	if ch == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s chart", ch.ChartType)
	if ch.Stacked {
		b.WriteString(" (stacked)")
	}
	if ch.Title != "" {
		fmt.Fprintf(&b, " %q", clip(ch.Title, FullText))
	}
	fmt.Fprintf(&b, ", %d categories %s", len(ch.Categories), listOf(ch.Categories, func(s string) string { return fmt.Sprintf("%q", clip(s, 40)) }))
	fmt.Fprintf(&b, ", %d series", len(ch.Series))
	for i, s := range ch.Series {
		if i == chartItems {
			fmt.Fprintf(&b, "; +%d more series", len(ch.Series)-i)
			break
		}
		fmt.Fprintf(&b, "; %q %s", clip(s.Name, 40), listOf(s.Values, func(v float64) string { return fmt.Sprintf("%g", round2(v)) }))
	}
	return b.String()
}

// chartItems bounds the categories, values and series chartSummary lists.
const chartItems = 12

func listOf[T any](xs []T, f func(T) string) string {
	var parts []string
	for i, x := range xs {
		if i == chartItems {
			parts = append(parts, fmt.Sprintf("+%d more", len(xs)-i))
			break
		}
		parts = append(parts, f(x))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func seriesNames(ch *scenegraph.Chart) []string {
	var out []string
	for _, s := range ch.Series {
		out = append(out, s.Name)
	}
	return out
}

func valuesSame(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameNum(a[i], b[i]) {
			return false
		}
	}
	return true
}

// mathStyle names a formula's typesetting style (scenegraph.Math.Display).
func mathStyle(m *scenegraph.Math) string {
	if m.Display {
		return "display"
	}
	return "inline"
}

func colorHex(c *scenegraph.Color) string {
	if c == nil {
		return ""
	}
	return c.Hex()
}

func legendString(l *scenegraph.Legend) string {
	if l == nil {
		return "default"
	}
	return l.Position
}

func (m modifier) tableGrid() {
	o, c := m.o.Table, m.c.Table
	if o == nil || c == nil {
		return
	}
	if len(o.Columns) != len(c.Columns) || len(o.Rows) != len(c.Rows) {
		m.change("tableGrid", fmt.Sprintf("%d rows x %d columns", len(o.Rows), len(o.Columns)),
			fmt.Sprintf("%d rows x %d columns", len(c.Rows), len(c.Columns)))
	} else if !valuesSame(o.Columns, c.Columns) {
		m.change("columnWidths", o.Columns, c.Columns)
	}
	if o.HeaderRow != c.HeaderRow || o.BandedRows != c.BandedRows || o.StyleID != c.StyleID {
		m.change("tableStyle", fmt.Sprintf("header=%v banded=%v %s", o.HeaderRow, o.BandedRows, o.StyleID),
			fmt.Sprintf("header=%v banded=%v %s", c.HeaderRow, c.BandedRows, c.StyleID))
	}
}

// isVisual reports image, vector, picture-fill and formula nodes: the
// content a judge should see rendered (ACE App. E.6).
func isVisual(n *scenegraph.Node) bool {
	if n == nil {
		return false
	}
	switch n.Type {
	case scenegraph.TypeImage, scenegraph.TypeVector, scenegraph.TypeMath:
		return true
	}
	return hasImagePaint(n.Fills)
}

// subtreeVisual reports visual content in a new subtree, ignoring nodes
// that came from the origin.
func subtreeVisual(n *scenegraph.Node, oix *scenegraph.Index) bool {
	found := false
	n.Walk(func(k, _ *scenegraph.Node, depth int) bool {
		if found || (depth > 0 && oix.Has(k.ID)) {
			return false
		}
		if isVisual(k) {
			found = true
		}
		return !found
	})
	return found
}

// localBox is the node's unrotated box in slide-local px: its size
// placed about the centre of its rotated box (the frame PowerPoint's
// a:xfrm stores, ECMA-376 §20.1.7.6), so a rotation about the centre
// changes the rotation entry only and never reads as a move or resize.
// For an unrotated node it is its axis-aligned box.
func (w *walker) localBox(ix *scenegraph.Index, n *scenegraph.Node) Box {
	t := n.Transform
	if ix.Node(n.ID) == n {
		t = ix.AbsoluteTransform(n.ID)
	}
	return unrotatedBox(t, n.Size)
}

// unrotatedBox places a w x h box about the centre of the node under t.
func unrotatedBox(t scenegraph.Transform, size scenegraph.Vector) Box {
	c := t.Apply(scenegraph.Vector{X: size.X / 2, Y: size.Y / 2})
	return boxOf(scenegraph.Rect{X: c.X - size.X/2, Y: c.Y - size.Y/2, Width: size.X, Height: size.Y})
}
