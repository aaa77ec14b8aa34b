package tools

import (
	"context"
	"fmt"
	"math"
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

type createFrameArgs struct {
	place
	Fill                   paintArgs `json:"fill,omitempty" desc:"Background fill; omit for a transparent frame."`
	CornerRadius           Length    `json:"cornerRadius,omitempty" min:"0" desc:"Corner radius, px."`
	LayoutMode             string    `json:"layoutMode,omitempty" enum:"NONE,HORIZONTAL,VERTICAL" desc:"Make the frame an auto-layout row (HORIZONTAL) or column (VERTICAL)."`
	LayoutWrap             string    `json:"layoutWrap,omitempty" enum:"NO_WRAP,WRAP" desc:"Wrap children onto new lines when a row is full."`
	Padding                *Length   `json:"padding,omitempty" min:"0" desc:"Padding on all four sides, px (auto-layout)."`
	ItemSpacing            Length    `json:"itemSpacing,omitempty" desc:"Gap between children, px (auto-layout)."`
	PrimaryAxisAlignItems  string    `json:"primaryAxisAlignItems,omitempty" enum:"MIN,CENTER,MAX,SPACE_BETWEEN"`
	CounterAxisAlignItems  string    `json:"counterAxisAlignItems,omitempty" enum:"MIN,CENTER,MAX,BASELINE"`
	LayoutSizingHorizontal string    `json:"layoutSizingHorizontal,omitempty" enum:"FIXED,HUG,FILL"`
	LayoutSizingVertical   string    `json:"layoutSizingVertical,omitempty" enum:"FIXED,HUG,FILL"`
	ClipsContent           bool      `json:"clipsContent,omitempty"`
}

type createTextArgs struct {
	place
	Text       string   `json:"text" desc:"The characters; \\n starts a new paragraph."`
	FontSize   Length   `json:"fontSize,omitempty" exclusiveMin:"0" desc:"px, or with a unit: \"19pt\""`
	FontFamily string   `json:"fontFamily,omitempty" desc:"Typeface for every script the text uses."`
	FontWeight int      `json:"fontWeight,omitempty" min:"100" max:"900"`
	Italic     bool     `json:"italic,omitempty"`
	Color      Hex      `json:"color,omitempty" desc:"Text colour."`
	ThemeColor string   `json:"themeColor,omitempty" desc:"Design-token colour for the text."`
	Align      string   `json:"textAlignHorizontal,omitempty" enum:"LEFT,CENTER,RIGHT,JUSTIFIED"`
	LineHeight *float64 `json:"lineHeight,omitempty" exclusiveMin:"0" desc:"Line height as a multiple of the font size."`
}

type createShapeArgs struct {
	place
	Fill         paintArgs `json:"fill,omitempty"`
	StrokeColor  Hex       `json:"strokeColor,omitempty"`
	StrokeWeight Length    `json:"strokeWeight,omitempty" min:"0"`
	CornerRadius Length    `json:"cornerRadius,omitempty" min:"0"`
	Text         string    `json:"text,omitempty" desc:"Text inside the shape."`
	FontSize     Length    `json:"fontSize,omitempty" exclusiveMin:"0"`
	Preset       string    `json:"preset,omitempty" desc:"PresentationML preset geometry kept for PPTX export (roundRect, rightArrow, chevron, ...)."`
}

type createLineArgs struct {
	ParentID string   `json:"parentId,omitempty" desc:"Slide or frame; default the focused slide."`
	X1       Length   `json:"x1" desc:"Start point, px in the parent."`
	Y1       Length   `json:"y1"`
	X2       Length   `json:"x2" desc:"End point, px in the parent."`
	Y2       Length   `json:"y2"`
	Color    Hex      `json:"color,omitempty" desc:"Line colour; default #000000."`
	Weight   Length   `json:"weight,omitempty" exclusiveMin:"0" desc:"Stroke weight, px; default 1."`
	Dashes   []Length `json:"dashes,omitempty" desc:"Dash pattern, px on/off."`
	EndCap   string   `json:"endCap,omitempty" enum:"NONE,ARROW_LINES,ARROW_EQUILATERAL,CIRCLE_FILLED"`
	Name     string   `json:"name,omitempty"`
}

type createImageArgs struct {
	place
	AssetRef  string `json:"assetRef,omitempty" desc:"Ref (SHA-256) of an image already in the deck's asset table."`
	ImageID   string `json:"imageId,omitempty" desc:"Id from search_stock_images (local:<path> or unsplash:<id>)."`
	Query     string `json:"query,omitempty" desc:"Search the asset library and insert the best match (file name and tags)."`
	ScaleMode string `json:"scaleMode,omitempty" enum:"FILL,FIT,CROP,TILE" desc:"FILL covers the box (cropping), FIT shows the whole image; default FILL."`
	AltText   string `json:"altText,omitempty" desc:"Description for screen readers."`
}

type graphicSeries struct {
	Name   string    `json:"name"`
	Values []float64 `json:"values"`
	Color  Hex       `json:"color,omitempty"`
}

type createGraphicsArgs struct {
	place
	SVGPaths []struct {
		Path   string `json:"path" minLength:"1" desc:"SVG path data in the graphic's local px space (M, L, C, Q, A, Z ...)."`
		Fill   Hex    `json:"fill,omitempty"`
		Stroke Hex    `json:"stroke,omitempty"`
	} `json:"svgPaths,omitempty" desc:"Vector drawing: one VECTOR per path (icons, arrows, dividers)."`
	Chart *struct {
		Kind       string          `json:"kind" enum:"COLUMN,BAR" desc:"COLUMN draws vertical bars, BAR horizontal."`
		Categories []string        `json:"categories" minItems:"1"`
		Series     []graphicSeries `json:"series" minItems:"1"`
		Legend     bool            `json:"legend,omitempty"`
		Labels     bool            `json:"labels,omitempty" desc:"Category labels under (COLUMN) or beside (BAR) the bars."`
	} `json:"chart,omitempty" desc:"A chart drawn as editable shapes (bars, labels, legend) rather than a native chart."`
}

type createConnectorArgs struct {
	StartNodeID string `json:"startNodeId" desc:"Node the connector starts at."`
	EndNodeID   string `json:"endNodeId" desc:"Node the connector ends at."`
	StartMagnet string `json:"startMagnet,omitempty" enum:"AUTO,TOP,BOTTOM,LEFT,RIGHT,CENTER"`
	EndMagnet   string `json:"endMagnet,omitempty" enum:"AUTO,TOP,BOTTOM,LEFT,RIGHT,CENTER"`
	LineType    string `json:"lineType,omitempty" enum:"STRAIGHT,ELBOWED,CURVED"`
	EndCap      string `json:"endCap,omitempty" enum:"NONE,ARROW_LINES,ARROW_EQUILATERAL,CIRCLE_FILLED"`
	Color       Hex    `json:"color,omitempty"`
	Weight      Length `json:"weight,omitempty" exclusiveMin:"0"`
}

func contentCreateTools() []Tool {
	return []Tool{
		def(ModuleContent, "create_frame", false,
			"Create a FRAME (a container) in a slide or frame. A frame can hold any nodes and can be an auto-layout row or column (layoutMode) that places its children itself: set padding, itemSpacing, alignment and sizing here or later with set_layout_mode, set_padding, set_item_spacing, set_axis_align and set_layout_sizing. Without width or height an auto-layout frame hugs its content on that axis. Returns the new id in created[0].",
			func(e *Env, a *createFrameArgs) (Result, error) {
				n := e.newNode(sg.TypeFrame, "Frame")
				if a.Fill.set() {
					p, err := e.paint(a.Fill)
					if err != nil {
						return Result{}, err
					}
					n.Fills = []sg.Paint{p}
				}
				n.CornerRadius = float64(a.CornerRadius)
				n.ClipsContent = a.ClipsContent
				if a.LayoutMode != "" && a.LayoutMode != sg.LayoutNone {
					n.LayoutMode = a.LayoutMode
				}
				n.LayoutWrap = a.LayoutWrap
				if a.Padding != nil {
					p := float64(*a.Padding)
					n.PaddingLeft, n.PaddingRight, n.PaddingTop, n.PaddingBottom = p, p, p, p
				}
				n.ItemSpacing = float64(a.ItemSpacing)
				n.PrimaryAxisAlignItems, n.CounterAxisAlignItems = a.PrimaryAxisAlignItems, a.CounterAxisAlignItems
				n.LayoutSizingHorizontal, n.LayoutSizingVertical = a.LayoutSizingHorizontal, a.LayoutSizingVertical
				// A frame given no width or height hugs its content on that
				// axis, as a new Figma auto-layout frame does, rather than
				// keep a 100 px box its children spill out of (issue 16 item
				// 7). HUG takes effect once the frame lays out its children.
				if a.Width == nil && n.LayoutSizingHorizontal == "" {
					n.LayoutSizingHorizontal = sg.SizingHug
				}
				if a.Height == nil && n.LayoutSizingVertical == "" {
					n.LayoutSizingVertical = sg.SizingHug
				}
				if _, err := e.put(a.place, n, 100, 100); err != nil {
					return Result{}, err
				}
				return Result{Created: []string{n.ID}}, nil
			}),
		def(ModuleContent, "create_text", false,
			"Create a TEXT node. Always give an explicit width so long text wraps instead of overflowing; without width the box hugs its text. The typeface applies to every script the text uses (Latin, East Asian, complex); by default the deck's body font and dark text colour. Colour by value (color) or by design token (themeColor).",
			func(e *Env, a *createTextArgs) (Result, error) {
				n := e.newNode(sg.TypeText, firstWords(a.Text))
				st := &sg.TypeStyle{FontSize: float64(a.FontSize), FontWeight: a.FontWeight, TextAlignHorizontal: a.Align}
				if st.FontSize == 0 {
					st.FontSize = 18
				}
				fam := a.FontFamily
				if fam == "" {
					fam = e.Deck.Tokens.Fonts.Minor.Latin // the deck's body font
				}
				if fam != "" {
					setFamily(st, fam, a.Text, nil)
				}
				if a.Italic {
					st.Italic = ptr(true)
				}
				if a.LineHeight != nil {
					st.LineHeightPercent = *a.LineHeight * 100
				}
				tc := a.ThemeColor
				if a.Color == "" && tc == "" {
					if _, ok := e.Deck.Tokens.Colors["tx1"]; ok {
						tc = "tx1"
					} else if _, ok := e.Deck.Tokens.Colors["dk1"]; ok {
						tc = "dk1" // the theme's dark text colour
					}
				}
				if a.Color != "" || tc != "" {
					p, err := e.paint(paintArgs{Color: a.Color, ThemeColor: tc})
					if err != nil {
						return Result{}, err
					}
					st.Fills = []sg.Paint{p}
				}
				n.Characters, n.Style = a.Text, st
				if a.Width == nil {
					n.LayoutSizingHorizontal = sg.SizingHug
				}
				if a.Height == nil {
					n.LayoutSizingVertical = sg.SizingHug
				}
				if _, err := e.put(a.place, n, 0, 0); err != nil {
					return Result{}, err
				}
				measureText(n)
				return Result{Created: []string{n.ID}}, nil
			}),
		def(ModuleContent, "create_rectangle", false,
			"Create a RECTANGLE (optionally with rounded corners, a stroke and text inside). Use it for cards, bars, highlights and backgrounds of a region.",
			func(e *Env, a *createShapeArgs) (Result, error) {
				return e.createShape(sg.TypeRectangle, "Rectangle", a)
			}),
		def(ModuleContent, "create_ellipse", false,
			"Create an ELLIPSE (a circle when width equals height), optionally with a stroke and text inside. Use it for dots, badges, avatars' frames and cycle diagrams.",
			func(e *Env, a *createShapeArgs) (Result, error) { return e.createShape(sg.TypeEllipse, "Ellipse", a) }),
		def(ModuleContent, "create_line", false,
			"Create a straight LINE from (x1, y1) to (x2, y2) in the parent's coordinates, with colour, weight, dashes and an optional arrow head. For a line that follows two shapes when they move use create_connector.",
			func(e *Env, a *createLineArgs) (Result, error) {
				p, err := e.container(a.ParentID)
				if err != nil {
					return Result{}, err
				}
				n := e.newNode(sg.TypeLine, "Line")
				if a.Name != "" {
					n.Name = a.Name
				}
				dx, dy := a.X2-a.X1, a.Y2-a.Y1
				n.Size = sg.Vector{X: round2(math.Hypot(float64(dx), float64(dy)))}
				n.Transform = sg.Translate(float64(a.X1), float64(a.Y1)).Rotated(math.Atan2(float64(dy), float64(dx)) * 180 / math.Pi)
				c := sg.MustHex("#000000")
				if a.Color != "" {
					if c, err = color(a.Color, nil); err != nil {
						return Result{}, err
					}
				}
				n.Strokes = []sg.Paint{sg.Solid(c)}
				n.StrokeWeight = float64(a.Weight)
				if n.StrokeWeight == 0 {
					n.StrokeWeight = 1
				}
				n.StrokeDashes = lengthsPx(a.Dashes)
				if a.EndCap != "" {
					n.Connector = &sg.Connector{Start: sg.Endpoint{Position: &sg.Vector{X: float64(a.X1), Y: float64(a.Y1)}}, End: sg.Endpoint{Position: &sg.Vector{X: float64(a.X2), Y: float64(a.Y2)}}, EndCap: a.EndCap}
				}
				e.insert(p, n, -1)
				return Result{Created: []string{n.ID}}, nil
			}),
		def(ModuleContent, "create_image", false,
			"Insert a picture as an IMAGE node: from an asset already in the deck (assetRef), from the asset library by id (imageId from search_stock_images) or by a search query over file names and tags. Without width/height the image keeps its intrinsic size (scaled down to fit the slide). scaleMode FILL covers the box, FIT letterboxes.",
			func(e *Env, a *createImageArgs) (Result, error) {
				ref, w, h, err := e.resolveImage(a.AssetRef, a.ImageID, a.Query)
				if err != nil {
					return Result{}, err
				}
				n := e.newNode(sg.TypeImage, "Image")
				mode := a.ScaleMode
				if mode == "" {
					mode = "FILL"
				}
				n.Fills = []sg.Paint{{Type: sg.PaintImage, ImageRef: ref, ScaleMode: mode}}
				n.AltText = a.AltText
				dw, dh := float64(w), float64(h)
				if dw == 0 || dh == 0 {
					dw, dh = 400, 300
				}
				if s := math.Min(1, math.Min(e.Deck.Width/dw, e.Deck.Height/dh)); s < 1 {
					dw, dh = dw*s, dh*s
				}
				if a.Width != nil && a.Height == nil && w > 0 {
					dh = float64(*a.Width) * float64(h) / float64(w)
				}
				if a.Height != nil && a.Width == nil && h > 0 {
					dw = float64(*a.Height) * float64(w) / float64(h)
				}
				if _, err := e.put(a.place, n, round2(dw), round2(dh)); err != nil {
					return Result{}, err
				}
				return Result{Created: []string{n.ID}}, nil
			}),
		def(ModuleContent, "create_graphics", false,
			"Create a graphic as a FRAME of editable shapes in one call: either vector drawings from SVG path data (icons, arrows, dividers), or a bar/column chart drawn from data (bars, category labels, legend) that stays editable shape by shape. For a native chart object use create_chart or create_data_chart.",
			func(e *Env, a *createGraphicsArgs) (Result, error) {
				if len(a.SVGPaths) == 0 && a.Chart == nil {
					return Result{}, fmt.Errorf("give svgPaths or chart")
				}
				f := e.newNode(sg.TypeFrame, "Graphic")
				if _, err := e.put(a.place, f, 400, 300); err != nil {
					return Result{}, err
				}
				created := []string{f.ID}
				for i, sp := range a.SVGPaths {
					v := e.newNode(sg.TypeVector, fmt.Sprintf("Path %d", i+1))
					v.Size = f.Size
					v.Paths = []sg.VectorPath{{Path: sp.Path}}
					if sp.Fill != "" {
						c, err := color(sp.Fill, nil)
						if err != nil {
							return Result{}, err
						}
						v.Fills = []sg.Paint{sg.Solid(c)}
					}
					if sp.Stroke != "" {
						c, err := color(sp.Stroke, nil)
						if err != nil {
							return Result{}, err
						}
						v.Strokes, v.StrokeWeight = []sg.Paint{sg.Solid(c)}, 2
					}
					e.insert(f, v, -1)
					created = append(created, v.ID)
				}
				if a.Chart != nil {
					ids, err := e.drawChart(f, a.Chart.Kind, a.Chart.Categories, a.Chart.Series, a.Chart.Legend, a.Chart.Labels)
					if err != nil {
						return Result{}, err
					}
					created = append(created, ids...)
				}
				return Result{Created: created}, nil
			}),
		def(ModuleContent, "create_connector", false,
			"Create a CONNECTOR between two nodes of the same slide (flowcharts, process diagrams). It stays attached to both ends by id; choose the magnet side, straight/elbowed/curved routing and an arrow head.",
			func(e *Env, a *createConnectorArgs) (Result, error) {
				s, err := e.node(a.StartNodeID)
				if err != nil {
					return Result{}, fmt.Errorf("startNodeId: %w", err)
				}
				t, err := e.node(a.EndNodeID)
				if err != nil {
					return Result{}, fmt.Errorf("endNodeId: %w", err)
				}
				slide := e.Index().Slide(s.ID)
				if slide != e.Index().Slide(t.ID) {
					return Result{}, fmt.Errorf("connector ends %q and %q are on different slides", s.ID, t.ID)
				}
				n := e.newNode(sg.TypeConnector, "Connector")
				bs, bt := e.absBounds(s), e.absBounds(t)
				r := bs.Union(bt)
				n.Transform = sg.Translate(round2(r.X), round2(r.Y))
				n.Size = sg.Vector{X: round2(r.Width), Y: round2(r.Height)}
				n.Connector = &sg.Connector{
					Start:    sg.Endpoint{NodeID: s.ID, Magnet: orStr(a.StartMagnet, "AUTO")},
					End:      sg.Endpoint{NodeID: t.ID, Magnet: orStr(a.EndMagnet, "AUTO")},
					LineType: orStr(a.LineType, "STRAIGHT"), EndCap: orStr(a.EndCap, "ARROW_LINES"),
				}
				c := sg.MustHex("#000000")
				if a.Color != "" {
					if c, err = color(a.Color, nil); err != nil {
						return Result{}, err
					}
				}
				n.Strokes = []sg.Paint{sg.Solid(c)}
				n.StrokeWeight = float64(a.Weight)
				if n.StrokeWeight == 0 {
					n.StrokeWeight = 2
				}
				e.insert(slide, n, -1)
				return Result{Created: []string{n.ID}}, nil
			}),
	}
}

func orStr(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func firstWords(s string) string {
	s = strings.TrimSpace(strings.SplitN(s, "\n", 2)[0])
	if r := []rune(s); len(r) > 30 {
		s = string(r[:30])
	}
	if s == "" {
		return "Text"
	}
	return s
}

func (e *Env) createShape(t sg.NodeType, name string, a *createShapeArgs) (Result, error) {
	n := e.newNode(t, name)
	if a.Fill.set() {
		p, err := e.paint(a.Fill)
		if err != nil {
			return Result{}, err
		}
		n.Fills = []sg.Paint{p}
	} else {
		n.Fills = []sg.Paint{sg.Solid(sg.MustHex("#D9D9D9"))}
	}
	if a.StrokeColor != "" {
		c, err := color(a.StrokeColor, nil)
		if err != nil {
			return Result{}, err
		}
		n.Strokes = []sg.Paint{sg.Solid(c)}
		n.StrokeWeight = float64(a.StrokeWeight)
		if n.StrokeWeight == 0 {
			n.StrokeWeight = 1
		}
	}
	n.CornerRadius = float64(a.CornerRadius)
	n.Preset = a.Preset
	if a.Text != "" {
		n.Characters = a.Text
		n.Style = &sg.TypeStyle{FontSize: float64(a.FontSize), TextAlignHorizontal: sg.AlignCenter, TextAlignVertical: sg.AlignCenter}
		if n.Style.FontSize == 0 {
			n.Style.FontSize = 18
		}
	}
	if _, err := e.put(a.place, n, 100, 100); err != nil {
		return Result{}, err
	}
	return Result{Created: []string{n.ID}}, nil
}

// resolveImage finds image bytes by asset ref, provider id or query, adds
// them to the deck when new, and returns the ref and intrinsic size.
func (e *Env) resolveImage(ref, id, query string) (string, int, int, error) {
	switch {
	case ref != "":
		a, ok := e.Deck.Assets[ref]
		if !ok {
			return "", 0, 0, fmt.Errorf("assetRef %q is not in the deck's asset table; use imageId or query to bring a new image", ref)
		}
		return ref, a.Width, a.Height, nil
	case id != "":
		img, err := e.assets().Fetch(context.Background(), id)
		if err != nil {
			return "", 0, 0, err
		}
		return e.addImage(img), img.Width, img.Height, nil
	case query != "":
		hits, err := e.assets().Search(context.Background(), query, 1)
		if err != nil {
			return "", 0, 0, err
		}
		if len(hits) == 0 {
			return "", 0, 0, fmt.Errorf("no image in the asset library matches %q; try search_stock_images with other words", query)
		}
		img, err := e.assets().Fetch(context.Background(), hits[0].ID)
		if err != nil {
			return "", 0, 0, err
		}
		return e.addImage(img), img.Width, img.Height, nil
	}
	return "", 0, 0, fmt.Errorf("give assetRef, imageId or query")
}

// drawChart draws a bar or column chart with shapes inside frame f.
func (e *Env) drawChart(f *sg.Node, kind string, cats []string, series []graphicSeries, legend, labels bool) ([]string, error) {
	for _, s := range series {
		if len(s.Values) != len(cats) {
			return nil, fmt.Errorf("series %q has %d values for %d categories", s.Name, len(s.Values), len(cats))
		}
	}
	maxV := 0.0
	for _, s := range series {
		for _, v := range s.Values {
			maxV = math.Max(maxV, v)
		}
	}
	if maxV <= 0 {
		maxV = 1
	}
	W, H := f.Size.X, f.Size.Y
	legendH := 0.0
	if legend {
		legendH = 24
	}
	labelH := 0.0
	if labels {
		labelH = 20
	}
	plotW, plotH := W, H-legendH-labelH
	var created []string
	add := func(n *sg.Node) { e.insert(f, n, -1); created = append(created, n.ID) }
	palette := defaultPalette(e.Deck)
	colorOf := func(i int, s graphicSeries) (sg.Color, error) {
		if s.Color != "" {
			return color(s.Color, nil)
		}
		return palette[i%len(palette)], nil
	}
	groups := float64(len(cats))
	k := float64(len(series))
	for ci, cat := range cats {
		for si, s := range series {
			c, err := colorOf(si, s)
			if err != nil {
				return nil, err
			}
			r := e.newNode(sg.TypeRectangle, fmt.Sprintf("%s / %s", cat, s.Name))
			r.Fills = []sg.Paint{sg.Solid(c)}
			v := math.Max(0, s.Values[ci])
			if kind == "BAR" {
				slot := plotH / groups
				bh := slot * 0.7 / k
				r.Size = sg.Vector{X: round2(v / maxV * (plotW - 80)), Y: round2(bh)}
				r.Transform = sg.Translate(80, round2(float64(ci)*slot+slot*0.15+float64(si)*bh))
			} else {
				slot := plotW / groups
				bw := slot * 0.7 / k
				bh := v / maxV * plotH
				r.Size = sg.Vector{X: round2(bw), Y: round2(bh)}
				r.Transform = sg.Translate(round2(float64(ci)*slot+slot*0.15+float64(si)*bw), round2(plotH-bh))
			}
			add(r)
		}
		if labels {
			t := e.newNode(sg.TypeText, cat)
			t.Characters = cat
			t.Style = &sg.TypeStyle{FontSize: 12, TextAlignHorizontal: sg.AlignCenter}
			if kind == "BAR" {
				slot := plotH / groups
				t.Size = sg.Vector{X: 76, Y: 16}
				t.Transform = sg.Translate(0, round2(float64(ci)*slot+slot/2-8))
			} else {
				slot := plotW / groups
				t.Size = sg.Vector{X: round2(slot), Y: 16}
				t.Transform = sg.Translate(round2(float64(ci)*slot), round2(plotH+2))
			}
			add(t)
		}
	}
	if legend {
		lg := e.newNode(sg.TypeFrame, "Legend")
		lg.LayoutMode, lg.ItemSpacing = sg.LayoutHorizontal, 16
		lg.LayoutSizingHorizontal, lg.LayoutSizingVertical = sg.SizingHug, sg.SizingHug
		lg.CounterAxisAlignItems = sg.AlignCenter
		lg.Transform = sg.Translate(0, round2(H-legendH+4))
		e.insert(f, lg, -1)
		created = append(created, lg.ID)
		for si, s := range series {
			c, _ := colorOf(si, s)
			sw := e.newNode(sg.TypeRectangle, s.Name+" swatch")
			sw.Size, sw.Fills = sg.Vector{X: 12, Y: 12}, []sg.Paint{sg.Solid(c)}
			e.insert(lg, sw, -1)
			t := e.newNode(sg.TypeText, s.Name)
			t.Characters, t.Style = s.Name, &sg.TypeStyle{FontSize: 12}
			t.LayoutSizingHorizontal, t.LayoutSizingVertical = sg.SizingHug, sg.SizingHug
			e.insert(lg, t, -1)
			created = append(created, sw.ID, t.ID)
		}
	}
	return created, nil
}

// defaultPalette is the deck's accent colours in order, or a neutral set.
func defaultPalette(d *sg.Deck) []sg.Color {
	var out []sg.Color
	for i := 1; i <= 6; i++ {
		if c, ok := d.Tokens.Colors[fmt.Sprintf("accent%d", i)]; ok {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		for _, h := range []string{"#4472C4", "#ED7D31", "#A5A5A5", "#FFC000", "#5B9BD5", "#70AD47"} {
			out = append(out, sg.MustHex(h))
		}
	}
	return out
}
