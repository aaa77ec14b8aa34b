// Package figma imports a Figma REST API file response (GET /v1/files/:key
// or GET /v1/files/:key/nodes) into the scene graph.
//
// The scene graph already uses Figma's vocabulary (node types, Paint,
// TypeStyle, auto-layout fields), so the mapping is close to identity. What
// the importer adds:
//   - Slides: SLIDE nodes (Figma Slides) when present, else the top-level
//     frames of each page (CANVAS), or the requested nodes of a /nodes
//     response, become SLIDEs. Their children keep their ids.
//   - Placement: relativeTransform and size when the response has them
//     (geometry=paths or plugin exports); else the transform is derived from
//     absoluteBoundingBox relative to the parent (no rotation known).
//   - Text: characterStyleOverrides are re-indexed from UTF-16 code units
//     (Figma) to code points (scene graph); lineTypes / lineIndentations
//     become paragraph list types and levels.
//   - Styles: named fill styles become Deck.Tokens.Colors with the paints
//     that use them keeping a ThemeColor reference; named text styles become
//     Tokens.TextStyles.
//   - Images: IMAGE paints reference the image by Figma's imageRef; with the
//     image bytes (GET /v1/files/:key/images) passed in Options.Images they
//     become assets, otherwise they are replaced by a grey placeholder fill
//     and reported.
//
// Errors name the input and the JSON problem; nothing panics on bad input.
package figma

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"unicode/utf8"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// MaxBytes bounds the accepted response size.
const MaxBytes = 256 << 20

// maxDepth bounds node nesting.
const maxDepth = 256

// Options tune an import.
type Options struct {
	// Name is used in error messages and as the deck name when the
	// response has none.
	Name string
	// Images maps a Figma imageRef to the image bytes.
	Images map[string][]byte
}

// Import reads a Figma REST response into a deck. Image fills whose bytes
// are not available become placeholder fills; see ImportDetailed.
func Import(data []byte) (*sg.Deck, error) {
	d, _, _, err := ImportDetailed(data, Options{})
	return d, err
}

// ImportDetailed reads a Figma REST response. It returns the deck, the image
// bytes it took in as assets (by SHA-256 ref) and warnings for what it
// approximated.
func ImportDetailed(data []byte, o Options) (*sg.Deck, sg.Blobs, []string, error) {
	name := o.Name
	if name == "" {
		name = "Figma response"
	}
	if len(data) > MaxBytes {
		return nil, nil, nil, fmt.Errorf("%s: %d bytes, over the limit of %d", name, len(data), MaxBytes)
	}
	var resp response
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&resp); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			return nil, nil, nil, fmt.Errorf("%s: not valid JSON at byte %d: %v", name, syn.Offset, err)
		case errors.As(err, &typ):
			return nil, nil, nil, fmt.Errorf("%s: field %s: got a JSON %s, want %s; is this a Figma GET /v1/files response?", name, typ.Field, typ.Value, typ.Type)
		}
		return nil, nil, nil, fmt.Errorf("%s: cannot read JSON: %v", name, err)
	}
	im := &importer{blobs: sg.Blobs{}, images: o.Images, fillStyles: map[string]string{}, textStyles: map[string]string{}, imported: map[string]string{}}
	im.deck = &sg.Deck{ID: "figma-" + sg.HashBytes(data)[:16], Name: resp.Name, Source: &sg.DeckSource{Format: "figma", Name: o.Name}}
	if im.deck.Name == "" {
		im.deck.Name = name
	}
	var roots []*fnode
	collect := func(styles map[string]fstyle) {
		for id, s := range styles {
			switch s.StyleType {
			case "FILL":
				im.fillStyles[id] = s.Name
			case "TEXT":
				im.textStyles[id] = s.Name
			}
		}
	}
	switch {
	case resp.Document != nil:
		collect(resp.Styles)
		roots = append(roots, resp.Document)
	case len(resp.Nodes) > 0:
		ids := make([]string, 0, len(resp.Nodes))
		for id := range resp.Nodes {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			nr := resp.Nodes[id]
			if nr == nil || nr.Document == nil {
				im.warn("node %s: no document in the response (deleted or no access)", id)
				continue
			}
			collect(nr.Styles)
			roots = append(roots, nr.Document)
		}
	default:
		return nil, nil, nil, fmt.Errorf("%s: neither \"document\" nor \"nodes\" found; expected a Figma GET /v1/files/:key or /v1/files/:key/nodes response", name)
	}
	var slides []*fnode
	for _, r := range roots {
		if hasSlides(r, 0) {
			findSlides(r, &slides, 0)
		}
	}
	if len(slides) == 0 {
		for _, r := range roots {
			topFrames(r, &slides)
		}
	}
	if len(slides) == 0 {
		return nil, nil, nil, fmt.Errorf("%s: no frames or slides to import; select a page with top-level frames", name)
	}
	for _, s := range slides {
		n, err := im.slide(s)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		if len(im.deck.Slides) == 0 {
			im.deck.Width, im.deck.Height = n.Size.X, n.Size.Y
		} else if n.Size.X != im.deck.Width || n.Size.Y != im.deck.Height {
			im.warn("frame %q is %gx%g px, the deck is %gx%g px (taken from the first frame)", s.Name, n.Size.X, n.Size.Y, im.deck.Width, im.deck.Height)
		}
		im.deck.Slides = append(im.deck.Slides, n)
	}
	if im.deck.Width <= 0 || im.deck.Height <= 0 {
		im.deck.Width, im.deck.Height = 1920, 1080
	}
	im.dropDanglingEndpoints()
	im.deck.SyncIDSeq()
	// U+000B becomes a line break; other control characters, U+FFFE and
	// numbers that are not finite or lie outside a slide file's
	// coordinate range are refused here, with the node and field named,
	// rather than failing at export.
	sg.NormalizeDeckText(im.deck)
	if err := sg.ValidateValues(im.deck); err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	return im.deck, im.blobs, im.warns, nil
}

// response covers both response shapes.
type response struct {
	Name     string                `json:"name"`
	Document *fnode                `json:"document"`
	Styles   map[string]fstyle     `json:"styles"`
	Nodes    map[string]*nodesItem `json:"nodes"`
}

type nodesItem struct {
	Document *fnode            `json:"document"`
	Styles   map[string]fstyle `json:"styles"`
}

type fstyle struct {
	Name      string `json:"name"`
	StyleType string `json:"styleType"`
}

// fnode is the subset of a Figma node the importer reads.
type fnode struct {
	ID                   string             `json:"id"`
	Name                 string             `json:"name"`
	Type                 string             `json:"type"`
	Visible              *bool              `json:"visible"`
	Locked               bool               `json:"locked"`
	Opacity              *float64           `json:"opacity"`
	Children             []*fnode           `json:"children"`
	AbsoluteBoundingBox  *sg.Rect           `json:"absoluteBoundingBox"`
	RelativeTransform    *sg.Transform      `json:"relativeTransform"`
	Size                 *sg.Vector         `json:"size"`
	Fills                []fpaint           `json:"fills"`
	Background           []fpaint           `json:"background"`
	Strokes              []fpaint           `json:"strokes"`
	StrokeWeight         float64            `json:"strokeWeight"`
	StrokeAlign          string             `json:"strokeAlign"`
	StrokeDashes         []float64          `json:"strokeDashes"`
	Effects              []feffect          `json:"effects"`
	CornerRadius         float64            `json:"cornerRadius"`
	RectangleCornerRadii *[4]float64        `json:"rectangleCornerRadii"`
	ClipsContent         bool               `json:"clipsContent"`
	Constraints          *fconstraints      `json:"constraints"`
	Styles               map[string]string  `json:"styles"`
	ComponentID          string             `json:"componentId"`
	FillGeometry         []sg.VectorPath    `json:"fillGeometry"`
	Characters           string             `json:"characters"`
	Style                *ftypeStyle        `json:"style"`
	CharOverrides        []int              `json:"characterStyleOverrides"`
	OverrideTable        map[string]ftypeSt `json:"styleOverrideTable"`
	LineTypes            []string           `json:"lineTypes"`
	LineIndentations     []int              `json:"lineIndentations"`

	LayoutMode             string   `json:"layoutMode"`
	LayoutWrap             string   `json:"layoutWrap"`
	PrimaryAxisAlignItems  string   `json:"primaryAxisAlignItems"`
	CounterAxisAlignItems  string   `json:"counterAxisAlignItems"`
	PaddingLeft            float64  `json:"paddingLeft"`
	PaddingRight           float64  `json:"paddingRight"`
	PaddingTop             float64  `json:"paddingTop"`
	PaddingBottom          float64  `json:"paddingBottom"`
	ItemSpacing            float64  `json:"itemSpacing"`
	CounterAxisSpacing     *float64 `json:"counterAxisSpacing"`
	LayoutSizingHorizontal string   `json:"layoutSizingHorizontal"`
	LayoutSizingVertical   string   `json:"layoutSizingVertical"`
	LayoutPositioning      string   `json:"layoutPositioning"`

	// Connector fields (FigJam / Slides connectors).
	ConnectorStart    *fendpoint `json:"connectorStart"`
	ConnectorEnd      *fendpoint `json:"connectorEnd"`
	ConnectorLineType string     `json:"connectorLineType"`
}

type ftypeSt = ftypeStyle

type ftypeStyle struct {
	FontFamily          string   `json:"fontFamily"`
	FontWeight          float64  `json:"fontWeight"`
	FontSize            float64  `json:"fontSize"`
	Italic              *bool    `json:"italic"`
	TextCase            string   `json:"textCase"`
	TextDecoration      string   `json:"textDecoration"`
	LetterSpacing       *float64 `json:"letterSpacing"`
	LineHeightPx        float64  `json:"lineHeightPx"`
	LineHeightPercentFS float64  `json:"lineHeightPercentFontSize"`
	LineHeightUnit      string   `json:"lineHeightUnit"`
	TextAlignHorizontal string   `json:"textAlignHorizontal"`
	TextAlignVertical   string   `json:"textAlignVertical"`
	TextAutoResize      string   `json:"textAutoResize"`
	Fills               []fpaint `json:"fills"`
	Hyperlink           *struct {
		Type   string `json:"type"`
		URL    string `json:"url"`
		NodeID string `json:"nodeID"`
	} `json:"hyperlink"`
}

type fpaint struct {
	Type                    string          `json:"type"`
	Visible                 *bool           `json:"visible"`
	Opacity                 *float64        `json:"opacity"`
	Color                   *sg.Color       `json:"color"`
	GradientHandlePositions []sg.Vector     `json:"gradientHandlePositions"`
	GradientStops           []sg.ColorStop  `json:"gradientStops"`
	ScaleMode               string          `json:"scaleMode"`
	ImageRef                string          `json:"imageRef"`
	BoundVariables          json.RawMessage `json:"boundVariables"`
}

type feffect struct {
	Type    string     `json:"type"`
	Visible *bool      `json:"visible"`
	Radius  float64    `json:"radius"`
	Color   *sg.Color  `json:"color"`
	Offset  *sg.Vector `json:"offset"`
	Spread  float64    `json:"spread"`
}

type fconstraints struct {
	Vertical   string `json:"vertical"`
	Horizontal string `json:"horizontal"`
}

type fendpoint struct {
	EndpointNodeID string     `json:"endpointNodeId"`
	Position       *sg.Vector `json:"position"`
	Magnet         string     `json:"magnet"`
}

type importer struct {
	deck       *sg.Deck
	blobs      sg.Blobs
	images     map[string][]byte
	imported   map[string]string // Figma imageRef -> asset ref
	warns      []string
	fillStyles map[string]string // style id -> name
	textStyles map[string]string
	seenWarn   map[string]bool
	ids        map[string]int // Figma id -> times seen
}

func (im *importer) warn(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if im.seenWarn == nil {
		im.seenWarn = map[string]bool{}
	}
	if !im.seenWarn[msg] {
		im.seenWarn[msg] = true
		im.warns = append(im.warns, msg)
	}
}

func hasSlides(n *fnode, depth int) bool {
	if n == nil || depth > maxDepth {
		return false
	}
	if n.Type == "SLIDE" {
		return true
	}
	for _, c := range n.Children {
		if hasSlides(c, depth+1) {
			return true
		}
	}
	return false
}

func findSlides(n *fnode, out *[]*fnode, depth int) {
	if n == nil || depth > maxDepth {
		return
	}
	if n.Type == "SLIDE" {
		*out = append(*out, n)
		return
	}
	for _, c := range n.Children {
		findSlides(c, out, depth+1)
	}
}

// topFrames returns the frames that become slides: the children of pages
// (CANVAS) under a DOCUMENT, or the node itself when it is a frame.
func topFrames(n *fnode, out *[]*fnode) {
	if n == nil {
		return
	}
	switch n.Type {
	case "DOCUMENT":
		for _, c := range n.Children {
			topFrames(c, out)
		}
	case "CANVAS":
		for _, c := range n.Children {
			if c != nil && isFrameLike(c.Type) {
				*out = append(*out, c)
			}
		}
	default:
		if isFrameLike(n.Type) {
			*out = append(*out, n)
		}
	}
}

func isFrameLike(t string) bool {
	switch t {
	case "FRAME", "COMPONENT", "COMPONENT_SET", "INSTANCE", "SECTION", "GROUP", "SLIDE":
		return true
	}
	return false
}

// slide converts a frame (or SLIDE) into a SLIDE node.
func (im *importer) slide(f *fnode) (*sg.Node, error) {
	n, err := im.node(f, nil, 0)
	if err != nil {
		return nil, err
	}
	if f.Type == "SLIDE" {
		// A Slides slide's children are inside it directly.
	}
	n.Type = sg.TypeSlide
	n.Transform = sg.Identity
	n.LayoutSizingHorizontal, n.LayoutSizingVertical, n.LayoutPositioning = "", "", ""
	n.Constraints = nil
	n.Slide = &sg.SlideProps{}
	if len(n.Fills) == 0 {
		for _, p := range f.Background {
			if pp, ok := im.paint(p, nil); ok {
				n.Fills = append(n.Fills, pp)
			}
		}
	}
	return n, nil
}

var typeMap = map[string]sg.NodeType{
	"FRAME": sg.TypeFrame, "GROUP": sg.TypeGroup, "SECTION": sg.TypeSection, "COMPONENT": sg.TypeComponent,
	"COMPONENT_SET": sg.TypeFrame, "INSTANCE": sg.TypeInstance, "TEXT": sg.TypeText, "RECTANGLE": sg.TypeRectangle,
	"ELLIPSE": sg.TypeEllipse, "LINE": sg.TypeLine, "VECTOR": sg.TypeVector, "BOOLEAN_OPERATION": sg.TypeVector,
	"STAR": sg.TypeVector, "REGULAR_POLYGON": sg.TypeVector, "CONNECTOR": sg.TypeConnector, "SLIDE": sg.TypeSlide,
	"SHAPE_WITH_TEXT": sg.TypeRectangle, "STICKY": sg.TypeRectangle, "WASHI_TAPE": sg.TypeRectangle,
}

func (im *importer) node(f *fnode, parent *fnode, depth int) (*sg.Node, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("node %s: nested more than %d levels", f.ID, maxDepth)
	}
	typ, ok := typeMap[f.Type]
	if !ok {
		im.warn("node type %s (e.g. %q) imported as a FRAME", f.Type, f.Name)
		typ = sg.TypeFrame
	}
	if typ == sg.TypeSlide && depth > 0 {
		typ = sg.TypeFrame // a SLIDE nested in a slide is drawn as a frame
	}
	if f.ID == "" {
		return nil, fmt.Errorf("a %s node named %q has no id", f.Type, f.Name)
	}
	id := f.ID
	if im.ids == nil {
		im.ids = map[string]int{}
	}
	if k := im.ids[f.ID]; k > 0 {
		id = f.ID + "#" + strconv.Itoa(k+1)
		im.warn("node id %s appears more than once; later copies renamed %s", f.ID, id)
	}
	im.ids[f.ID]++
	n := &sg.Node{ID: id, Type: typ, Name: f.Name, Visible: f.Visible, Locked: f.Locked, Opacity: clampPtr(f.Opacity),
		Source: &sg.Source{Format: "figma", ShapeID: f.ID}, ComponentID: f.ComponentID}
	if n.Visible != nil && *n.Visible {
		n.Visible = nil
	}
	if n.Opacity != nil && *n.Opacity == 1 {
		n.Opacity = nil
	}
	// Placement.
	switch {
	case f.Size != nil:
		n.Size = sg.Vector{X: math.Max(0, f.Size.X), Y: math.Max(0, f.Size.Y)}
	case f.AbsoluteBoundingBox != nil:
		n.Size = sg.Vector{X: math.Max(0, f.AbsoluteBoundingBox.Width), Y: math.Max(0, f.AbsoluteBoundingBox.Height)}
	}
	switch {
	case f.RelativeTransform != nil:
		n.Transform = *f.RelativeTransform
	case f.AbsoluteBoundingBox != nil && parent != nil && parent.AbsoluteBoundingBox != nil:
		n.Transform = sg.Translate(f.AbsoluteBoundingBox.X-parent.AbsoluteBoundingBox.X, f.AbsoluteBoundingBox.Y-parent.AbsoluteBoundingBox.Y)
	default:
		n.Transform = sg.Identity
	}
	if f.AbsoluteBoundingBox != nil {
		b := *f.AbsoluteBoundingBox
		b.Width, b.Height = math.Max(0, b.Width), math.Max(0, b.Height)
		n.AbsoluteBoundingBox = &b
	}
	// Paint.
	fillStyle := im.fillStyles[f.Styles["fill"]]
	if fillStyle == "" {
		fillStyle = im.fillStyles[f.Styles["fills"]]
	}
	for _, p := range f.Fills {
		if pp, ok := im.paint(p, &fillStyle); ok {
			n.Fills = append(n.Fills, pp)
		}
	}
	strokeStyle := im.fillStyles[f.Styles["stroke"]]
	for _, p := range f.Strokes {
		if pp, ok := im.paint(p, &strokeStyle); ok {
			n.Strokes = append(n.Strokes, pp)
		}
	}
	if len(n.Strokes) > 0 {
		n.StrokeWeight = math.Max(0, f.StrokeWeight)
		n.StrokeAlign = f.StrokeAlign
		n.StrokeDashes = f.StrokeDashes
	}
	for _, e := range f.Effects {
		switch e.Type {
		case sg.EffectDropShadow, sg.EffectInnerShadow, sg.EffectLayerBlur, sg.EffectBackgroundBlur:
			n.Effects = append(n.Effects, sg.Effect{Type: e.Type, Visible: e.Visible, Radius: math.Max(0, e.Radius), Color: clampColor(e.Color), Offset: e.Offset, Spread: e.Spread})
		default:
			im.warn("effect %s not modelled", e.Type)
		}
	}
	n.CornerRadius = math.Max(0, f.CornerRadius)
	n.CornerRadii = f.RectangleCornerRadii
	n.ClipsContent = f.ClipsContent
	if c := f.Constraints; c != nil {
		n.Constraints = &sg.Constraints{Horizontal: constraint(c.Horizontal), Vertical: constraint(c.Vertical)}
	}
	if typ == sg.TypeVector || typ == sg.TypeLine {
		n.Paths = f.FillGeometry
	}
	// Auto-layout.
	if typ.CanAutoLayout() && (f.LayoutMode == sg.LayoutHorizontal || f.LayoutMode == sg.LayoutVertical) {
		n.LayoutMode = f.LayoutMode
		if f.LayoutWrap == sg.Wrap {
			n.LayoutWrap = sg.Wrap
		}
		n.PrimaryAxisAlignItems = oneOf(f.PrimaryAxisAlignItems, sg.AlignMin, sg.AlignCenter, sg.AlignMax, sg.AlignSpaceBetween)
		n.CounterAxisAlignItems = oneOf(f.CounterAxisAlignItems, sg.AlignMin, sg.AlignCenter, sg.AlignMax, sg.AlignBaseline)
		n.PaddingLeft, n.PaddingRight = math.Max(0, f.PaddingLeft), math.Max(0, f.PaddingRight)
		n.PaddingTop, n.PaddingBottom = math.Max(0, f.PaddingTop), math.Max(0, f.PaddingBottom)
		n.ItemSpacing = f.ItemSpacing
		if f.CounterAxisSpacing != nil && *f.CounterAxisSpacing >= 0 {
			n.CounterAxisSpacing = f.CounterAxisSpacing
		}
	}
	n.LayoutSizingHorizontal = oneOf(f.LayoutSizingHorizontal, sg.SizingFixed, sg.SizingHug, sg.SizingFill)
	n.LayoutSizingVertical = oneOf(f.LayoutSizingVertical, sg.SizingFixed, sg.SizingHug, sg.SizingFill)
	if f.LayoutPositioning == sg.PositioningAbsolute && parent != nil && (parent.LayoutMode == sg.LayoutHorizontal || parent.LayoutMode == sg.LayoutVertical) {
		n.LayoutPositioning = sg.PositioningAbsolute
	}
	// Text.
	if typ == sg.TypeText {
		im.text(f, n)
	}
	// Connectors.
	if typ == sg.TypeConnector {
		n.Connector = &sg.Connector{LineType: oneOf(f.ConnectorLineType, "STRAIGHT", "ELBOWED", "CURVED")}
		for _, e := range []struct {
			src *fendpoint
			dst *sg.Endpoint
		}{{f.ConnectorStart, &n.Connector.Start}, {f.ConnectorEnd, &n.Connector.End}} {
			if e.src != nil {
				e.dst.Position = e.src.Position
				e.dst.Magnet = e.src.Magnet
				e.dst.NodeID = e.src.EndpointNodeID
			}
		}
	}
	for _, c := range f.Children {
		if c == nil {
			continue
		}
		cn, err := im.node(c, f, depth+1)
		if err != nil {
			return nil, err
		}
		if !typ.IsContainer() {
			im.warn("children of a %s (%q) dropped", f.Type, f.Name)
			continue
		}
		n.Children = append(n.Children, cn)
	}
	return n, nil
}

func constraint(v string) string {
	switch v {
	case "TOP", "LEFT", "MIN":
		return "MIN"
	case "BOTTOM", "RIGHT", "MAX":
		return "MAX"
	case "CENTER":
		return "CENTER"
	case "TOP_BOTTOM", "LEFT_RIGHT", "STRETCH":
		return "STRETCH"
	case "SCALE":
		return "SCALE"
	}
	return "MIN"
}

func oneOf(v string, allowed ...string) string {
	for _, a := range allowed {
		if v == a {
			return v
		}
	}
	return ""
}

func clampPtr(p *float64) *float64 {
	if p == nil {
		return nil
	}
	v := math.Max(0, math.Min(1, *p))
	if math.IsNaN(v) {
		v = 1
	}
	return &v
}

func clampColor(c *sg.Color) *sg.Color {
	if c == nil {
		return nil
	}
	f := func(x float64) float64 {
		if math.IsNaN(x) {
			return 0
		}
		return math.Max(0, math.Min(1, x))
	}
	out := sg.Color{R: f(c.R), G: f(c.G), B: f(c.B), A: f(c.A)}
	return &out
}

// paint converts a Figma paint; style names the fill style it comes from,
// which becomes a colour token and a ThemeColor reference.
func (im *importer) paint(p fpaint, style *string) (sg.Paint, bool) {
	out := sg.Paint{Type: p.Type, Opacity: clampPtr(p.Opacity)}
	if p.Visible != nil && !*p.Visible {
		f := false
		out.Visible = &f
	}
	if out.Opacity != nil && *out.Opacity == 1 {
		out.Opacity = nil
	}
	switch p.Type {
	case sg.PaintSolid:
		c := clampColor(p.Color)
		if c == nil {
			c = &sg.Color{A: 1}
		}
		out.Color = c
		if style != nil && *style != "" {
			if im.deck.Tokens.Colors == nil {
				im.deck.Tokens.Colors = map[string]sg.Color{}
			}
			if _, ok := im.deck.Tokens.Colors[*style]; !ok {
				im.deck.Tokens.Colors[*style] = *c
			}
			if im.deck.Tokens.Colors[*style].Near(*c, 0.001) {
				out.ThemeColor = &sg.ThemeColor{Name: *style}
			}
		}
	case sg.PaintGradientLinear, sg.PaintGradientRadial, sg.PaintGradientAngular, sg.PaintGradientDiamond:
		for _, s := range p.GradientStops {
			c := clampColor(&s.Color)
			out.GradientStops = append(out.GradientStops, sg.ColorStop{Position: math.Max(0, math.Min(1, s.Position)), Color: *c})
		}
		if h := p.GradientHandlePositions; len(h) >= 2 {
			out.GradientAngle = math.Round(math.Atan2(h[1].Y-h[0].Y, h[1].X-h[0].X)*180/math.Pi*1000) / 1000
		}
	case sg.PaintImage:
		out.ScaleMode = p.ScaleMode
		if out.ScaleMode == "STRETCH" {
			out.ScaleMode = "CROP"
		}
		if b, ok := im.images[p.ImageRef]; ok && len(b) > 0 {
			ref, ok := im.imported[p.ImageRef]
			if !ok {
				ref = im.deck.AddAsset(im.blobs, b, "", p.ImageRef, 0, 0)
				im.imported[p.ImageRef] = ref
			}
			out.ImageRef = ref
			return out, true
		}
		im.warn("image %s not available (pass the GET /v1/files/:key/images bytes); replaced by a grey placeholder fill", p.ImageRef)
		c := sg.Color{R: 0.85, G: 0.85, B: 0.85, A: 1}
		return sg.Paint{Type: sg.PaintSolid, Color: &c, Visible: out.Visible}, true
	default:
		im.warn("paint type %s not modelled", p.Type)
		return sg.Paint{}, false
	}
	return out, true
}

// text maps a TEXT node's characters, style and overrides.
func (im *importer) text(f *fnode, n *sg.Node) {
	n.Characters = f.Characters
	if !utf8.ValidString(n.Characters) {
		n.Characters = string([]rune(n.Characters))
	}
	if f.Style != nil {
		s := im.typeStyle(*f.Style)
		if len(s.Fills) == 0 {
			s.Fills = n.Fills
		}
		n.Style = &s
		tb := &sg.TextBox{AutoResize: oneOf(f.Style.TextAutoResize, sg.AutoResizeNone, sg.AutoResizeHeight, sg.AutoResizeBoth, sg.AutoResizeShrink)}
		if tb.AutoResize != "" {
			n.TextBox = tb
		}
		if name := im.textStyles[f.Styles["text"]]; name != "" {
			if im.deck.Tokens.TextStyles == nil {
				im.deck.Tokens.TextStyles = map[string]sg.TypeStyle{}
			}
			if _, ok := im.deck.Tokens.TextStyles[name]; !ok {
				im.deck.Tokens.TextStyles[name] = s
			}
		}
	}
	// The text colour lives in the style; the node's fills would paint a box.
	n.Fills = nil
	// Overrides: UTF-16 code units -> code points.
	if len(f.CharOverrides) > 0 {
		var out []int
		u := 0
		for _, r := range n.Characters {
			k := 0
			if u < len(f.CharOverrides) {
				k = f.CharOverrides[u]
			}
			out = append(out, k)
			if r >= 0x10000 {
				u += 2
			} else {
				u++
			}
		}
		for len(out) > 0 && out[len(out)-1] == 0 {
			out = out[:len(out)-1]
		}
		table := map[string]sg.TypeStyle{}
		for k, st := range f.OverrideTable {
			if _, err := strconv.Atoi(k); err != nil {
				continue
			}
			table[k] = im.typeStyle(st)
		}
		for i, k := range out {
			if k < 0 {
				out[i] = 0
				continue
			}
			if _, ok := table[strconv.Itoa(k)]; k != 0 && !ok {
				out[i] = 0
			}
		}
		if len(out) > 0 {
			n.CharacterStyleOverrides = out
			n.StyleOverrideTable = table
		}
	}
	lines := 1
	for _, r := range n.Characters {
		if r == '\n' {
			lines++
		}
	}
	if len(f.LineTypes) > 0 {
		for i := 0; i < lines && i < len(f.LineTypes); i++ {
			p := sg.Paragraph{ListType: oneOf(f.LineTypes[i], sg.ListNone, sg.ListOrdered, sg.ListUnordered)}
			if i < len(f.LineIndentations) {
				p.Level = max(0, min(8, f.LineIndentations[i]))
			}
			if p.ListType == sg.ListUnordered {
				p.Bullet = "•"
			}
			if n.Style != nil {
				p.Align = n.Style.TextAlignHorizontal
			}
			n.Paragraphs = append(n.Paragraphs, p)
		}
	}
}

func (im *importer) typeStyle(s ftypeStyle) sg.TypeStyle {
	out := sg.TypeStyle{
		FontFamily:          s.FontFamily,
		FontSize:            math.Max(0, s.FontSize),
		FontWeight:          int(math.Max(0, math.Min(1000, s.FontWeight))),
		Italic:              s.Italic,
		TextCase:            s.TextCase,
		TextDecoration:      oneOf(s.TextDecoration, sg.DecorationNone, sg.DecorationUnderline, sg.DecorationStrikethrough),
		LetterSpacing:       s.LetterSpacing,
		LineHeightPx:        math.Max(0, s.LineHeightPx),
		TextAlignHorizontal: oneOf(s.TextAlignHorizontal, sg.AlignLeft, sg.AlignCenter, sg.AlignRight, sg.AlignJustified),
		TextAlignVertical:   oneOf(s.TextAlignVertical, sg.AlignTop, sg.AlignCenter, sg.AlignBottom),
	}
	if s.LineHeightUnit == "FONT_SIZE_%" || s.LineHeightPercentFS > 0 {
		out.LineHeightPercent = math.Max(0, s.LineHeightPercentFS)
	}
	switch s.TextCase {
	case "SMALL_CAPS_FORCED":
		out.TextCase = sg.CaseSmallCaps
	case sg.CaseUpper, sg.CaseLower, sg.CaseTitle, sg.CaseSmallCaps, sg.CaseOriginal:
	default:
		out.TextCase = ""
	}
	for _, p := range s.Fills {
		if pp, ok := im.paint(p, nil); ok {
			out.Fills = append(out.Fills, pp)
		}
	}
	if h := s.Hyperlink; h != nil {
		if h.URL != "" {
			out.Link = &sg.Link{URL: h.URL}
		} else if h.NodeID != "" {
			out.Link = &sg.Link{NodeID: h.NodeID}
		}
	}
	return out
}

// dropDanglingEndpoints clears connector ends that name nodes outside the
// imported slides (the scene graph requires endpoints to resolve).
func (im *importer) dropDanglingEndpoints() {
	ix := sg.NewIndex(im.deck)
	im.deck.Walk(func(n, _ *sg.Node, _ int) bool {
		if c := n.Connector; c != nil {
			for _, e := range []*sg.Endpoint{&c.Start, &c.End} {
				if e.NodeID != "" && !ix.Has(e.NodeID) {
					im.warn("connector %s: endpoint %s is outside the imported frames; kept as a free end", n.ID, e.NodeID)
					e.NodeID = ""
				}
			}
		}
		return true
	})
}
