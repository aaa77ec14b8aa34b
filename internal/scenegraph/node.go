package scenegraph

// NodeType names what a node is. The values are Figma's node types, plus the
// slide-deck types Figma's REST format lacks (TABLE_CELL, CHART, MATH, IMAGE).
type NodeType string

// Node types. SLIDE is the root of each slide's tree.
const (
	TypeSlide     NodeType = "SLIDE"
	TypeFrame     NodeType = "FRAME"
	TypeGroup     NodeType = "GROUP"
	TypeSection   NodeType = "SECTION"
	TypeComponent NodeType = "COMPONENT"
	TypeInstance  NodeType = "INSTANCE"
	TypeText      NodeType = "TEXT"
	TypeRectangle NodeType = "RECTANGLE"
	TypeEllipse   NodeType = "ELLIPSE"
	TypeLine      NodeType = "LINE"
	TypeVector    NodeType = "VECTOR"
	TypeImage     NodeType = "IMAGE"
	TypeTable     NodeType = "TABLE"
	TypeTableCell NodeType = "TABLE_CELL"
	TypeChart     NodeType = "CHART"
	TypeMath      NodeType = "MATH"
	TypeConnector NodeType = "CONNECTOR"
)

// AllTypes lists every node type in a stable order.
var AllTypes = []NodeType{
	TypeSlide, TypeFrame, TypeGroup, TypeSection, TypeComponent, TypeInstance,
	TypeText, TypeRectangle, TypeEllipse, TypeLine, TypeVector, TypeImage,
	TypeTable, TypeTableCell, TypeChart, TypeMath, TypeConnector,
}

// Known reports whether t is one of AllTypes.
func (t NodeType) Known() bool {
	switch t {
	case TypeSlide, TypeFrame, TypeGroup, TypeSection, TypeComponent, TypeInstance,
		TypeText, TypeRectangle, TypeEllipse, TypeLine, TypeVector, TypeImage,
		TypeTable, TypeTableCell, TypeChart, TypeMath, TypeConnector:
		return true
	}
	return false
}

// IsContainer reports whether nodes of this type may have children.
// TABLE holds only TABLE_CELL children; every other container holds any
// non-SLIDE, non-TABLE_CELL node.
func (t NodeType) IsContainer() bool {
	switch t {
	case TypeSlide, TypeFrame, TypeGroup, TypeSection, TypeComponent, TypeInstance, TypeTable:
		return true
	}
	return false
}

// CanAutoLayout reports whether the type may carry auto-layout container
// fields (layoutMode, padding, itemSpacing, axis alignment). In Figma only
// frames and frame-like nodes can; groups cannot (Figma REST: FRAME node).
func (t NodeType) CanAutoLayout() bool {
	switch t {
	case TypeSlide, TypeFrame, TypeComponent, TypeInstance:
		return true
	}
	return false
}

// CanHoldText reports whether the type may carry characters. Besides TEXT,
// table cells and shapes hold text, because a PresentationML p:sp with a
// p:txBody is one shape, not a shape plus a text box (ECMA-376 §19.3.1.43).
func (t NodeType) CanHoldText() bool {
	switch t {
	case TypeText, TypeTableCell, TypeRectangle, TypeEllipse, TypeVector:
		return true
	}
	return false
}

// Node is one element of a slide tree. Geometry is relative to the parent:
// RelativeTransform places the node's top-left corner in the parent's
// coordinate space and Size is its unrotated width and height in px.
//
// Optional fields are pointers or omitted when zero, so the canonical JSON of
// a node lists only what is set. Nil Visible means visible; nil Opacity means 1.
type Node struct {
	ID        string    `json:"id"`
	Type      NodeType  `json:"type"`
	Name      string    `json:"name,omitempty"`
	Visible   *bool     `json:"visible,omitempty"`
	Locked    bool      `json:"locked,omitempty"`
	Opacity   *float64  `json:"opacity,omitempty"`
	Source    *Source   `json:"source,omitempty"`
	Children  []*Node   `json:"children,omitempty"`
	AltText   string    `json:"altText,omitempty"`
	Link      *Link     `json:"hyperlink,omitempty"`
	Transform Transform `json:"relativeTransform"`
	Size      Vector    `json:"size"`

	// AbsoluteBoundingBox is informational: copied from a Figma file or set by
	// a tool after layout. The renderer's measured geometry lives beside the
	// snapshot, never here (DESIGN.md §3).
	AbsoluteBoundingBox *Rect `json:"absoluteBoundingBox,omitempty"`

	Fills        []Paint      `json:"fills,omitempty"`
	Strokes      []Paint      `json:"strokes,omitempty"`
	StrokeWeight float64      `json:"strokeWeight,omitempty"`
	StrokeAlign  string       `json:"strokeAlign,omitempty"` // INSIDE | OUTSIDE | CENTER
	StrokeDashes []float64    `json:"strokeDashes,omitempty"`
	Effects      []Effect     `json:"effects,omitempty"`
	CornerRadius float64      `json:"cornerRadius,omitempty"`
	CornerRadii  *[4]float64  `json:"rectangleCornerRadii,omitempty"` // top-left, top-right, bottom-right, bottom-left
	ClipsContent bool         `json:"clipsContent,omitempty"`
	Constraints  *Constraints `json:"constraints,omitempty"`

	AutoLayout

	// TextContent holds characters and their styles (TEXT, TABLE_CELL and
	// shapes; see NodeType.CanHoldText). Embedded so the keys sit at the
	// node's top level, as in Figma.
	TextContent

	// VECTOR geometry: SVG path data in the node's local px space.
	Paths []VectorPath `json:"vectorPaths,omitempty"`
	// Preset names the PresentationML preset geometry (prstGeom) of a shape
	// ("rect", "roundRect", "ellipse", "rightArrow", ...), kept for export.
	Preset string `json:"preset,omitempty"`

	// IMAGE: the picture is Fills[0] of type IMAGE.

	Table     *Table     `json:"table,omitempty"`     // TABLE
	Cell      *Cell      `json:"cell,omitempty"`      // TABLE_CELL
	Chart     *Chart     `json:"chart,omitempty"`     // CHART
	Math      *Math      `json:"math,omitempty"`      // MATH
	Connector *Connector `json:"connector,omitempty"` // CONNECTOR, LINE endpoints

	// Slide holds SLIDE-only properties.
	Slide *SlideProps `json:"slide,omitempty"`
	// Placeholder marks a node that fills a layout placeholder.
	Placeholder *Placeholder `json:"placeholder,omitempty"`
	// ComponentID links an INSTANCE to its COMPONENT (Figma componentId).
	ComponentID string `json:"componentId,omitempty"`
}

// IsVisible reports whether the node is drawn (Visible nil or true).
func (n *Node) IsVisible() bool { return n.Visible == nil || *n.Visible }

// Alpha returns the node's opacity in 0..1 (1 when unset).
func (n *Node) Alpha() float64 {
	if n.Opacity == nil {
		return 1
	}
	return *n.Opacity
}

// Source ties a node to the element it was imported from, so export can find
// it again and write it back byte-identical when it was not edited.
type Source struct {
	Format  string `json:"format"`            // "pptx" | "figma"
	Part    string `json:"part,omitempty"`    // OPC part name, e.g. "ppt/slides/slide3.xml"
	ShapeID string `json:"shapeId,omitempty"` // p:cNvPr/@id, or the Figma node id
	// Digest is the content digest of the node as imported (NodeDigest);
	// an exporter re-serializes the element only when the node's digest
	// differs.
	Digest string `json:"digest,omitempty"`
	// EMU keeps the imported offset and extent exactly (EMU are integers; px
	// are not), so untouched geometry is written back without rounding.
	EMU *EMURect `json:"emu,omitempty"`
}

// EMURect is an offset and extent in English Metric Units (914400 per inch).
type EMURect struct {
	X  int64 `json:"x"`
	Y  int64 `json:"y"`
	CX int64 `json:"cx"`
	CY int64 `json:"cy"`
}

// Link is a hyperlink: to a URL, or to another slide of the deck.
// External URLs are recorded, never fetched.
type Link struct {
	URL    string `json:"url,omitempty"`
	NodeID string `json:"nodeId,omitempty"` // a SLIDE id for an in-deck jump
}

// Constraints are Figma's resizing constraints of a child in a non-auto-layout
// parent: MIN | CENTER | MAX | STRETCH | SCALE on each axis.
type Constraints struct {
	Horizontal string `json:"horizontal"`
	Vertical   string `json:"vertical"`
}

// VectorPath is one SVG path ("M0 0 L10 0 Z") with its winding rule.
type VectorPath struct {
	Path        string `json:"path"`
	WindingRule string `json:"windingRule,omitempty"` // NONZERO | EVENODD
}

// SlideProps are the properties only a SLIDE carries.
type SlideProps struct {
	Layout     string      `json:"layout,omitempty"` // layout name, e.g. "Title and Content"
	Section    string      `json:"section,omitempty"`
	Hidden     bool        `json:"hidden,omitempty"`
	Transition *Transition `json:"transition,omitempty"`
	Notes      string      `json:"notes,omitempty"`
}

// Transition is the slide's entry transition.
type Transition struct {
	Type       string  `json:"type"` // e.g. "fade", "push", "wipe", "none"
	DurationMs float64 `json:"durationMs,omitempty"`
	Direction  string  `json:"direction,omitempty"`
}

// Placeholder names the layout slot a node fills (PresentationML p:ph).
type Placeholder struct {
	Role  string `json:"role"` // title | ctrTitle | subTitle | body | dt | ftr | sldNum | pic | chart | tbl | obj
	Index int    `json:"idx,omitempty"`
}

// Math is a formula kept as LaTeX source; the renderer typesets it.
type Math struct {
	LaTeX    string  `json:"latex"`
	FontSize float64 `json:"fontSize,omitempty"` // px
	Color    *Color  `json:"color,omitempty"`
	// Display typesets in display style, as LaTeX \[...\] (large operators
	// with limits above and below, full-size fractions; OMML m:oMathPara);
	// false typesets inline style, as $...$ in running text (OMML m:oMath
	// inside a paragraph).
	Display bool `json:"display,omitempty"`
}

// Connector joins two nodes (Figma connectorStart / connectorEnd). A free end
// has no NodeID and uses Position, in the parent's space.
type Connector struct {
	Start    Endpoint `json:"connectorStart"`
	End      Endpoint `json:"connectorEnd"`
	LineType string   `json:"connectorLineType,omitempty"` // STRAIGHT | ELBOWED | CURVED
	StartCap string   `json:"connectorStartStrokeCap,omitempty"`
	EndCap   string   `json:"connectorEndStrokeCap,omitempty"` // NONE | ARROW_LINES | ARROW_EQUILATERAL | CIRCLE_FILLED
}

// Endpoint is one end of a connector.
type Endpoint struct {
	NodeID   string  `json:"endpointNodeId,omitempty"`
	Magnet   string  `json:"magnet,omitempty"` // AUTO | TOP | BOTTOM | LEFT | RIGHT | CENTER
	Position *Vector `json:"position,omitempty"`
}
