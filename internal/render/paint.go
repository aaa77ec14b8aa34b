package render

import (
	"encoding/base64"
	"fmt"
	"math"
	"net/http"
	"sort"
	"strings"

	"github.com/acecanvas/ace/internal/scenegraph"
)

func clamp01(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return math.Max(0, math.Min(1, v))
}

// cssColor formats c with an extra alpha multiplier as rgba().
func cssColor(c scenegraph.Color, alpha float64) string {
	b := func(f float64) int { return int(math.Round(clamp01(f) * 255)) }
	return fmt.Sprintf("rgba(%d,%d,%d,%s)", b(c.R), b(c.G), b(c.B), trimFloat(clamp01(c.A*alpha)))
}

func paintAlpha(p *scenegraph.Paint) float64 {
	if p.Opacity == nil {
		return 1
	}
	return clamp01(*p.Opacity)
}

// paintColor returns a solid colour standing for p: its colour, or the
// mean of its gradient stops. ok is false for image paints.
func paintColor(p *scenegraph.Paint) (scenegraph.Color, bool) {
	switch {
	case p.Type == scenegraph.PaintSolid && p.Color != nil:
		c := *p.Color
		c.A *= paintAlpha(p)
		return c, true
	case strings.HasPrefix(p.Type, "GRADIENT_") && len(p.GradientStops) > 0:
		var c scenegraph.Color
		for _, s := range p.GradientStops {
			c.R += s.Color.R
			c.G += s.Color.G
			c.B += s.Color.B
			c.A += s.Color.A
		}
		k := float64(len(p.GradientStops))
		c = scenegraph.Color{R: c.R / k, G: c.G / k, B: c.B / k, A: c.A / k * paintAlpha(p)}
		return c, true
	}
	return scenegraph.Color{}, false
}

// over composites top over bottom (straight alpha).
func over(top, bottom scenegraph.Color) scenegraph.Color {
	a := top.A + bottom.A*(1-top.A)
	if a <= 0 {
		return scenegraph.Color{}
	}
	mix := func(t, b float64) float64 { return (t*top.A + b*bottom.A*(1-top.A)) / a }
	return scenegraph.Color{R: mix(top.R, bottom.R), G: mix(top.G, bottom.G), B: mix(top.B, bottom.B), A: a}
}

// cssPaint returns the CSS background layer of a non-image paint.
func cssPaint(p *scenegraph.Paint) (string, bool) {
	a := paintAlpha(p)
	stops := func() string {
		ss := append([]scenegraph.ColorStop(nil), p.GradientStops...)
		sort.SliceStable(ss, func(i, j int) bool { return ss[i].Position < ss[j].Position })
		parts := make([]string, len(ss))
		for i, s := range ss {
			parts[i] = fmt.Sprintf("%s %s%%", cssColor(s.Color, a), trimFloat(clamp01(s.Position)*100))
		}
		if len(parts) == 1 {
			parts = append(parts, parts[0])
		}
		return strings.Join(parts, ",")
	}
	switch p.Type {
	case scenegraph.PaintSolid:
		if p.Color == nil {
			return "", false
		}
		c := cssColor(*p.Color, a)
		return "linear-gradient(" + c + "," + c + ")", true
	case scenegraph.PaintGradientLinear:
		if len(p.GradientStops) == 0 {
			return "", false
		}
		// GradientAngle is clockwise from left-to-right; CSS 0deg points up.
		return fmt.Sprintf("linear-gradient(%sdeg,%s)", trimFloat(90+p.GradientAngle), stops()), true
	case scenegraph.PaintGradientRadial, scenegraph.PaintGradientDiamond:
		if len(p.GradientStops) == 0 {
			return "", false
		}
		return "radial-gradient(closest-side," + stops() + ")", true
	case scenegraph.PaintGradientAngular:
		if len(p.GradientStops) == 0 {
			return "", false
		}
		return fmt.Sprintf("conic-gradient(from %sdeg,%s)", trimFloat(90+p.GradientAngle), stops()), true
	}
	return "", false
}

// paintBox writes fills (non-image), strokes, corner radii, effects and
// opacity of a node's own box.
func (b *builder) paintBox(st *style, n *scenegraph.Node) {
	// Geometry drawn as SVG paints its own fill and stroke.
	vectorish := len(shapePaths(n)) > 0 || n.Type == scenegraph.TypeLine || n.Type == scenegraph.TypeConnector
	var layers []string
	if !vectorish {
		// Figma paints the last fill on top; CSS draws the first layer on top.
		for i := len(n.Fills) - 1; i >= 0; i-- {
			p := &n.Fills[i]
			if !p.IsVisible() || p.Type == scenegraph.PaintImage {
				continue
			}
			if l, ok := cssPaint(p); ok {
				layers = append(layers, l)
			}
		}
	}
	if len(layers) > 0 {
		st.add("background", strings.Join(layers, ","))
	}
	switch {
	case n.Type == scenegraph.TypeEllipse || n.Preset == "ellipse":
		st.add("border-radius", "50%")
	case n.Preset == "roundRect" && n.CornerRadius == 0 && n.CornerRadii == nil:
		// DrawingML roundRect default adjust: 16.667% of the shorter side.
		st.add("border-radius", px(math.Min(n.Size.X, n.Size.Y)*0.16667))
	case n.CornerRadii != nil:
		r := n.CornerRadii
		st.add("border-radius", fmt.Sprintf("%s %s %s %s", px(r[0]), px(r[1]), px(r[2]), px(r[3])))
	case n.CornerRadius > 0:
		st.add("border-radius", px(n.CornerRadius))
	}
	var shadows []string
	if !vectorish && n.StrokeWeight > 0 {
		if c, ok := firstColor(n.Strokes); ok {
			w := n.StrokeWeight
			styleName := "solid"
			if len(n.StrokeDashes) > 0 {
				styleName = "dashed"
			}
			switch n.StrokeAlign {
			case "INSIDE":
				if styleName == "solid" {
					shadows = append(shadows, fmt.Sprintf("inset 0 0 0 %s %s", px(w), c))
				} else {
					st.add("outline", fmt.Sprintf("%s %s %s", px(w), styleName, c))
					st.add("outline-offset", px(-w))
				}
			case "OUTSIDE":
				st.add("outline", fmt.Sprintf("%s %s %s", px(w), styleName, c))
			default: // CENTER, the DrawingML default
				st.add("outline", fmt.Sprintf("%s %s %s", px(w), styleName, c))
				st.add("outline-offset", px(-w/2))
			}
		}
	}
	var filters []string
	hasFill := len(layers) > 0
	for _, e := range n.Effects {
		if e.Visible != nil && !*e.Visible {
			continue
		}
		col := "rgba(0,0,0,0.25)"
		if e.Color != nil {
			col = cssColor(*e.Color, 1)
		}
		var ox, oy float64
		if e.Offset != nil {
			ox, oy = e.Offset.X, e.Offset.Y
		}
		switch e.Type {
		case scenegraph.EffectDropShadow:
			if hasFill && !vectorish {
				shadows = append(shadows, fmt.Sprintf("%s %s %s %s %s", px(ox), px(oy), px(e.Radius), px(e.Spread), col))
			} else {
				filters = append(filters, fmt.Sprintf("drop-shadow(%s %s %s %s)", px(ox), px(oy), px(e.Radius/2), col))
			}
		case scenegraph.EffectInnerShadow:
			shadows = append(shadows, fmt.Sprintf("inset %s %s %s %s %s", px(ox), px(oy), px(e.Radius), px(e.Spread), col))
		case scenegraph.EffectLayerBlur:
			filters = append(filters, fmt.Sprintf("blur(%s)", px(e.Radius/2)))
		case scenegraph.EffectBackgroundBlur:
			st.add("backdrop-filter", fmt.Sprintf("blur(%s)", px(e.Radius/2)))
		}
	}
	if len(shadows) > 0 {
		st.add("box-shadow", strings.Join(shadows, ","))
	}
	if len(filters) > 0 {
		st.add("filter", strings.Join(filters, " "))
	}
	if n.Opacity != nil && *n.Opacity < 1 {
		st.add("opacity", trimFloat(clamp01(*n.Opacity)))
	}
}

// firstColor returns the CSS colour of the first visible colour paint.
func firstColor(ps []scenegraph.Paint) (string, bool) {
	for i := range ps {
		p := &ps[i]
		if !p.IsVisible() {
			continue
		}
		if c, ok := paintColor(p); ok {
			return cssColor(c, 1), true
		}
	}
	return "", false
}

// allowedImageTypes are the formats Chromium decodes; others (EMF, WMF,
// TIFF) render as a labelled placeholder and a NodeError.
var allowedImageTypes = map[string]bool{
	"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true,
	"image/bmp": true, "image/svg+xml": true, "image/avif": true,
}

// dataURI returns the asset as a data: URI, or "" (with a NodeError) when it
// is missing or not a browser image format.
func (b *builder) dataURI(n *scenegraph.Node, ref string) string {
	if u, ok := b.imgCache[ref]; ok {
		return u
	}
	u := ""
	defer func() { b.imgCache[ref] = u }()
	if b.assets == nil {
		b.errorf(n, "image %s: no asset source given", shortRef(ref))
		return ""
	}
	name := shortRef(ref)
	a, known := b.deck.Assets[ref]
	if known && a.Name != "" {
		name = a.Name + " (" + shortRef(ref) + ")"
	}
	// The picture bounds (scenegraph.MaxPictureBytes and MaxPicturePixels)
	// hold before the browser decodes anything: the asset table's size
	// first (a scene-graph deck's store is not read for an oversized
	// picture), then the bytes and header themselves.
	if known {
		if err := scenegraph.CheckPictureBytes(name, a.Bytes); err != nil {
			b.errorf(n, "%v", err)
			return ""
		}
	}
	data, err := b.assets.AssetBytes(ref)
	if err != nil {
		b.errorf(n, "image %s: %v", shortRef(ref), err)
		return ""
	}
	if _, _, err := scenegraph.PictureSize(name, data); err != nil {
		b.errorf(n, "%v", err)
		return ""
	}
	mime := ""
	if known {
		mime = strings.ToLower(strings.TrimSpace(a.MimeType))
	}
	if !allowedImageTypes[mime] {
		sniffed := http.DetectContentType(data)
		if i := strings.IndexByte(sniffed, ';'); i >= 0 {
			sniffed = sniffed[:i]
		}
		if allowedImageTypes[sniffed] {
			mime = sniffed
		} else if mime == "" || strings.HasPrefix(sniffed, "text/") && strings.Contains(string(data[:min(len(data), 512)]), "<svg") {
			mime = "image/svg+xml"
		}
	}
	if !allowedImageTypes[mime] {
		b.errorf(n, "image %s: format %q is not drawable in a browser (convert it to PNG)", shortRef(ref), mime)
		return ""
	}
	u = "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data)
	return u
}

func shortRef(ref string) string {
	if len(ref) > 12 {
		return ref[:12]
	}
	return ref
}

// imageFills writes each visible IMAGE paint as an <img> layer filling the
// node's box: FILL is cover, FIT contain, TILE a repeated background, and a
// Crop (or no scale mode, PPTX's stretch) scales the kept part of the source
// onto the box (DrawingML a:srcRect + a:stretch).
func (b *builder) imageFills(n *scenegraph.Node) {
	for i := range n.Fills {
		p := &n.Fills[i]
		if !p.IsVisible() || p.Type != scenegraph.PaintImage {
			continue
		}
		uri := ""
		if p.ImageRef != "" {
			uri = b.dataURI(n, p.ImageRef)
		} else {
			b.errorf(n, "image fill without imageRef")
		}
		alpha := paintAlpha(p)
		wrap := `<div class="il" data-img="` + attr(n.ID) + `" style="` + radiusCSS(n) + `opacity:` + trimFloat(alpha) + `">`
		if uri == "" {
			b.w(wrap + `<div class="missing"></div></div>`)
			continue
		}
		switch p.ScaleMode {
		case "TILE":
			b.w(wrap + `<div style="position:absolute;inset:0;background-image:url('` + uri + `');background-repeat:repeat"></div></div>`)
			continue
		case "FILL":
			b.w(wrap + `<img alt="" src="` + uri + `" style="position:absolute;left:0;top:0;width:100%;height:100%;object-fit:cover"></div>`)
			continue
		case "FIT":
			b.w(wrap + `<img alt="" src="` + uri + `" style="position:absolute;left:0;top:0;width:100%;height:100%;object-fit:contain"></div>`)
			continue
		}
		c := scenegraph.Crop{}
		if p.Crop != nil {
			c = *p.Crop
		}
		kw, kh := 1-c.Left-c.Right, 1-c.Top-c.Bottom
		if kw <= 0.001 || kh <= 0.001 {
			b.errorf(n, "image crop keeps nothing (left+right or top+bottom >= 1)")
			kw, kh, c = 1, 1, scenegraph.Crop{}
		}
		w, h := 100/kw, 100/kh
		b.w(wrap + fmt.Sprintf(`<img alt="" src="%s" style="position:absolute;left:%s%%;top:%s%%;width:%s%%;height:%s%%;max-width:none;object-fit:fill"></div>`,
			uri, trimFloat(-c.Left*w), trimFloat(-c.Top*h), trimFloat(w), trimFloat(h)))
	}
}

func radiusCSS(n *scenegraph.Node) string {
	switch {
	case n.Type == scenegraph.TypeEllipse || n.Preset == "ellipse":
		return "border-radius:50%;"
	case n.CornerRadii != nil:
		r := n.CornerRadii
		return fmt.Sprintf("border-radius:%s %s %s %s;", px(r[0]), px(r[1]), px(r[2]), px(r[3]))
	case n.CornerRadius > 0:
		return "border-radius:" + px(n.CornerRadius) + ";"
	}
	return ""
}
