package critic

import (
	"slices"

	"github.com/acecanvas/ace/internal/diff"
)

// Aspect is one kind of change an edit made, read from its JsonDiff. The
// scheduler ranks a group higher when the turn's edits touch one of its
// aspects (ReDeck App. M: probes are "ranked by recent edits").
type Aspect string

// Aspects.
const (
	AspectText       Aspect = "text"       // characters, notes, links, alt text, LaTeX
	AspectTypography Aspect = "typography" // font family, size, weight, style, spacing, alignment, paragraphs
	AspectColor      Aspect = "color"      // fills, strokes, text colour, effects, opacity, backgrounds
	AspectGeometry   Aspect = "geometry"   // box, rotation, auto-layout, corner radius
	AspectStructure  Aspect = "structure"  // nodes added, removed, moved, restacked, shown or hidden
	AspectSlides     Aspect = "slides"     // slides added, removed, reordered; layouts, transitions
	AspectTable      Aspect = "table"      // anything in a table
	AspectChart      Aspect = "chart"      // anything in a chart
	AspectImage      Aspect = "image"      // pictures and vector art
	// AspectAny in a group's on list makes it relevant to every edit.
	AspectAny Aspect = "any"
)

// Aspects lists every aspect but AspectAny, in a fixed order.
var Aspects = []Aspect{AspectText, AspectTypography, AspectColor, AspectGeometry, AspectStructure,
	AspectSlides, AspectTable, AspectChart, AspectImage}

func (a Aspect) valid() bool { return slices.Contains(Aspects, a) }

// propertyAspect maps a diff entry's Property (internal/diff compare.go,
// typography.go) to its aspect; properties not listed add none of their
// own (a layer rename, say).
var propertyAspect = map[string]Aspect{
	"characters": AspectText, "notes": AspectText, "hyperlink": AspectText, "altText": AspectText, "latex": AspectText,
	"fontFamily": AspectTypography, "fontFamilyEastAsian": AspectTypography, "fontFamilyComplex": AspectTypography,
	"fontSize": AspectTypography, "fontWeight": AspectTypography, "fontStyle": AspectTypography,
	"textAlignHorizontal": AspectTypography, "letterSpacing": AspectTypography, "lineHeight": AspectTypography,
	"textCase": AspectTypography, "textDecoration": AspectTypography, "baselineShift": AspectTypography,
	"styleOverride": AspectTypography, "paragraphs": AspectTypography, "textBox": AspectTypography, "mathStyle": AspectTypography,
	"fills": AspectColor, "strokes": AspectColor, "textColor": AspectColor, "effects": AspectColor,
	"opacity": AspectColor, "background": AspectColor, "seriesColor": AspectColor, "tableStyle": AspectColor,
	"bbox": AspectGeometry, "rotation": AspectGeometry, "autoLayout": AspectGeometry, "layoutSizing": AspectGeometry,
	"cornerRadius": AspectGeometry, "strokeWeight": AspectGeometry, "shape": AspectGeometry, "columnWidths": AspectGeometry,
	"visible": AspectStructure, "hidden": AspectSlides, "layout": AspectSlides, "transition": AspectSlides,
	"chart": AspectChart, "chartType": AspectChart, "chartTitle": AspectChart, "chartOptions": AspectChart,
	"series": AspectChart, "seriesValues": AspectChart, "categories": AspectChart, "legend": AspectChart, "axisTitles": AspectChart,
	"tableGrid": AspectTable,
}

// nodeTypeAspect adds an aspect for entries about nodes of these types.
var nodeTypeAspect = map[string]Aspect{
	"TABLE": AspectTable, "TABLE_ROW": AspectTable, "TABLE_CELL": AspectTable,
	"CHART": AspectChart, "IMAGE": AspectImage, "VECTOR": AspectImage, "MATH": AspectText,
}

// Edits is what a turn changed: the slides, in deck order, and the aspects,
// in the order of Aspects.
type Edits struct {
	Slides  []string `json:"slides,omitempty"`
	Aspects []Aspect `json:"aspects,omitempty"`
}

// EditsOf reads the slides and aspects a JsonDiff touches. For the
// scheduler's "modified slides" pass the diff of the turn's start against
// its end; the origin-against-current diff the judge reads names every
// slide changed so far. Removed slides are listed too (the scheduler skips
// slides the current deck lacks).
func EditsOf(d *diff.Diff) Edits {
	var e Edits
	if d == nil {
		return e
	}
	seen := map[Aspect]bool{}
	for _, en := range d.Entries {
		if en.SlideID != "" && !slices.Contains(e.Slides, en.SlideID) {
			e.Slides = append(e.Slides, en.SlideID)
		}
		for _, a := range entryAspects(en) {
			seen[a] = true
		}
	}
	for _, a := range Aspects {
		if seen[a] {
			e.Aspects = append(e.Aspects, a)
		}
	}
	return e
}

func entryAspects(en diff.Entry) []Aspect {
	var out []Aspect
	if a, ok := propertyAspect[en.Property]; ok {
		out = append(out, a)
	}
	if a, ok := nodeTypeAspect[en.NodeType]; ok {
		out = append(out, a)
	}
	switch {
	case en.Kind == diff.SlideReorder:
		out = append(out, AspectSlides)
	case en.Kind == diff.RowReorder:
		out = append(out, AspectTable)
	case en.NodeID == "" && (en.Kind == diff.Added || en.Kind == diff.Removed):
		out = append(out, AspectSlides)
	case en.Kind == diff.Added || en.Kind == diff.Removed || en.Kind == diff.Moved || en.Kind == diff.ZOrder:
		out = append(out, AspectStructure)
		if en.Kind == diff.Added && en.NodeType == "TEXT" {
			out = append(out, AspectText)
		}
	}
	return out
}
