package scenegraph

// Auto-layout values, as in Figma's REST API (FrameNode fields).
const (
	LayoutNone       = "NONE"
	LayoutHorizontal = "HORIZONTAL"
	LayoutVertical   = "VERTICAL"

	SizingFixed = "FIXED"
	SizingHug   = "HUG"
	SizingFill  = "FILL"

	AlignMin          = "MIN"
	AlignCenter       = "CENTER"
	AlignMax          = "MAX"
	AlignSpaceBetween = "SPACE_BETWEEN"
	AlignBaseline     = "BASELINE"

	WrapNone = "NO_WRAP"
	Wrap     = "WRAP"

	PositioningAuto     = "AUTO"
	PositioningAbsolute = "ABSOLUTE"
)

// AutoLayout holds Figma's auto-layout fields. The container fields
// (LayoutMode through CounterAxisSpacing) are valid only on types for which
// CanAutoLayout is true; the child fields (sizing, positioning) on any node.
// It is embedded in Node so its JSON keys sit at the node's top level, as in
// Figma.
type AutoLayout struct {
	// LayoutMode turns the node into an auto-layout container: children are
	// placed in a row (HORIZONTAL) or column (VERTICAL) and their
	// relativeTransform is derived, not authored (ACE §3.1).
	LayoutMode            string   `json:"layoutMode,omitempty"`
	LayoutWrap            string   `json:"layoutWrap,omitempty"`
	PrimaryAxisAlignItems string   `json:"primaryAxisAlignItems,omitempty"`
	CounterAxisAlignItems string   `json:"counterAxisAlignItems,omitempty"`
	PaddingLeft           float64  `json:"paddingLeft,omitempty"`
	PaddingRight          float64  `json:"paddingRight,omitempty"`
	PaddingTop            float64  `json:"paddingTop,omitempty"`
	PaddingBottom         float64  `json:"paddingBottom,omitempty"`
	ItemSpacing           float64  `json:"itemSpacing,omitempty"`
	CounterAxisSpacing    *float64 `json:"counterAxisSpacing,omitempty"`

	// LayoutSizingHorizontal/Vertical: FIXED keeps Size; HUG shrinks a
	// container to its content; FILL stretches a child of an auto-layout
	// parent along that axis. Empty means FIXED.
	LayoutSizingHorizontal string `json:"layoutSizingHorizontal,omitempty"`
	LayoutSizingVertical   string `json:"layoutSizingVertical,omitempty"`
	// LayoutPositioning ABSOLUTE takes a child out of its parent's flow.
	LayoutPositioning string `json:"layoutPositioning,omitempty"`
}

// HasAutoLayout reports whether LayoutMode is HORIZONTAL or VERTICAL.
func (a *AutoLayout) HasAutoLayout() bool {
	return a.LayoutMode == LayoutHorizontal || a.LayoutMode == LayoutVertical
}

// hasContainerFields reports whether any container-only field is set.
func (a *AutoLayout) hasContainerFields() bool {
	return (a.LayoutMode != "" && a.LayoutMode != LayoutNone) || a.LayoutWrap != "" ||
		a.PrimaryAxisAlignItems != "" || a.CounterAxisAlignItems != "" ||
		a.PaddingLeft != 0 || a.PaddingRight != 0 || a.PaddingTop != 0 || a.PaddingBottom != 0 ||
		a.ItemSpacing != 0 || a.CounterAxisSpacing != nil
}
