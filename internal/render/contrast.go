package render

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// Contrast on the rendered pixels. WCAG 2.x (success criterion 1.4.3,
// "Contrast (Minimum)", with its definitions of contrast ratio and relative
// luminance) compares a text colour with its background colour; on a slide
// the background is whatever is painted under the glyphs: a photo, a
// gradient, a table cell's fill, layout art. The renderer therefore lays
// out the slide, makes every text transparent (page.js hideText: glyphs,
// bullets, underlines; the layout is kept) and screenshots what remains,
// the backdrop: only the region the text lines cover (backdropRegion), in
// the same pixels a screenshot of the whole slide would have. Without a
// picture of the slide the text is hidden in the layout call itself. Each text line's glyph area (the union of its character
// boxes) is cut into cells about one line-height wide, and each cell's mean
// colour counts as one background the text must read on. A node's
// Measured.Contrast is its worst run against its worst cell, so a slide
// number over the dark corner of a photo, or grey text on a red cell, is
// judged by what a reader sees there and not by the shape's declared fill.

const (
	// BackdropScale is the scale of the text-less screenshot the contrast
	// check samples (half the slide's px per side: a cell's mean colour
	// needs no more, and the capture stays cheap).
	BackdropScale = 0.5
	// backdropLines and backdropCellsPerLine bound the cells sampled per
	// text node (12 lines, 32 cells each).
	backdropLines        = 12
	backdropCellsPerLine = 32
)

// backdropRegion is the part of a w x h px slide the backdrop screenshot
// covers: the union of every node's text lines (rawNode.Lns, the first
// backdropLines of each), each clamped to the slide, widened to whole
// multiples of 1/BackdropScale px, so that each of its pixels is the same
// pixel a screenshot of the whole slide would have. ok is false when no
// node has a line on the slide (then no screenshot is needed).
func backdropRegion(raw *rawSlide, w, h float64) (r rawRect, ok bool) {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, n := range raw.Nodes {
		for i, ln := range n.Lns {
			if i >= backdropLines {
				break
			}
			// The part of the line on the slide, if any.
			lx0, ly0 := max(ln.X, 0), max(ln.Y, 0)
			lx1, ly1 := min(ln.X+ln.Width, w), min(ln.Y+ln.Height, h)
			if lx1 <= lx0 || ly1 <= ly0 {
				continue
			}
			x0, y0 = min(x0, lx0), min(y0, ly0)
			x1, y1 = max(x1, lx1), max(y1, ly1)
		}
	}
	step := 1 / BackdropScale
	x0 = math.Floor(x0/step) * step
	y0 = math.Floor(y0/step) * step
	x1 = min(math.Ceil(x1/step)*step, w)
	y1 = min(math.Ceil(y1/step)*step, h)
	if !(x1 > x0 && y1 > y0) {
		return rawRect{}, false
	}
	return rawRect{X: x0, Y: y0, Width: x1 - x0, Height: y1 - y0}, true
}

// sampleBackdrop decodes shot (the text-less screenshot of region, slide
// px, at BackdropScale) and fills each text node's Behind with the
// distinct mean colours of the cells under its lines. Errors: a picture
// that does not decode.
func sampleBackdrop(raw *rawSlide, shot []byte, region rawRect) error {
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		return fmt.Errorf("decoding the backdrop screenshot: %w", err)
	}
	for k := range raw.Nodes {
		n := &raw.Nodes[k]
		n.Behind = nil
		lines := n.Lns
		if len(lines) > backdropLines {
			lines = lines[:backdropLines]
		}
		seen := map[[3]uint8]bool{}
		for _, ln := range lines {
			for _, c := range cellMeans(img, ln, region) {
				if !seen[c] {
					seen[c] = true
					n.Behind = append(n.Behind, c)
				}
			}
		}
	}
	return nil
}

// cellMeans cuts line box ln (slide px) into cells about one line-height
// wide and returns each cell's mean sRGB colour (8 bits per channel) in
// img, a picture of region (slide px) of the slide. Cells wholly outside
// region are skipped.
func cellMeans(img image.Image, ln rawRect, region rawRect) [][3]uint8 {
	if ln.Width <= 0 || ln.Height <= 0 || region.Width <= 0 || region.Height <= 0 {
		return nil
	}
	b := img.Bounds()
	sx, sy := float64(b.Dx())/region.Width, float64(b.Dy())/region.Height
	k := int(math.Round(ln.Width / ln.Height))
	k = min(max(k, 1), backdropCellsPerLine)
	y0 := max(int(math.Floor((ln.Y-region.Y)*sy)), 0)
	y1 := min(int(math.Ceil((ln.Y-region.Y+ln.Height)*sy)), b.Dy())
	if y1 <= y0 {
		return nil
	}
	px := pixelReader(img)
	var out [][3]uint8
	for i := 0; i < k; i++ {
		x0 := max(int(math.Floor((ln.X-region.X+ln.Width*float64(i)/float64(k))*sx)), 0)
		x1 := min(int(math.Ceil((ln.X-region.X+ln.Width*float64(i+1)/float64(k))*sx)), b.Dx())
		if x1 <= x0 {
			continue
		}
		var r, g, bl, cnt float64
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				cr, cg, cb := px(b.Min.X+x, b.Min.Y+y)
				r += float64(cr)
				g += float64(cg)
				bl += float64(cb)
				cnt++
			}
		}
		to8 := func(v float64) uint8 { return uint8(math.Round(v / cnt / 0xffff * 255)) }
		out = append(out, [3]uint8{to8(r), to8(g), to8(bl)})
	}
	return out
}

// pixelReader returns a function giving the 16-bit alpha-premultiplied
// red, green and blue of img at (x, y), as img.At(x, y).RGBA() does,
// reading an *image.RGBA's bytes directly (the decoded form of an opaque
// screenshot) without the per-pixel interface call.
func pixelReader(img image.Image) func(x, y int) (r, g, b uint32) {
	if m, ok := img.(*image.RGBA); ok {
		return func(x, y int) (uint32, uint32, uint32) {
			i := m.PixOffset(x, y)
			p := m.Pix[i : i+3 : i+3]
			return uint32(p[0]) * 0x101, uint32(p[1]) * 0x101, uint32(p[2]) * 0x101
		}
	}
	return func(x, y int) (uint32, uint32, uint32) {
		r, g, b, _ := img.At(x, y).RGBA()
		return r, g, b
	}
}

// behindColors converts sampled cell colours to scene-graph colours.
func behindColors(cs [][3]uint8) []scenegraph.Color {
	if len(cs) == 0 {
		return nil
	}
	out := make([]scenegraph.Color, len(cs))
	for i, c := range cs {
		out[i] = scenegraph.Color{R: float64(c[0]) / 255, G: float64(c[1]) / 255, B: float64(c[2]) / 255, A: 1}
	}
	return out
}

// worstContrast is the run that reads worst on the worst of behind,
// relative to what WCAG asks of its size: the ratio found and the ratio
// that run needs (ContrastBody or ContrastLarge). ratio is 0 when there
// are no runs or no backgrounds.
func worstContrast(runs []rawRun, behind []scenegraph.Color) (ratio, need float64) {
	worst := math.Inf(1)
	for _, bg := range behind {
		for _, r := range runs {
			fg := over(scenegraph.Color{R: r.C[0], G: r.C[1], B: r.C[2], A: r.C[3]}, bg)
			cr := ContrastRatio(fg, bg)
			nd := contrastNeed(r.S, r.W)
			if cr/nd < worst {
				worst = cr / nd
				ratio, need = math.Round(cr*100)/100, nd
			}
		}
	}
	return ratio, need
}
