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
// the backdrop. Each text line's glyph area (the union of its character
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

// needsBackdrop reports whether any node of raw has text lines to judge.
func needsBackdrop(raw *rawSlide) bool {
	for _, n := range raw.Nodes {
		if len(n.Lns) > 0 {
			return true
		}
	}
	return false
}

// sampleBackdrop decodes shot (the text-less screenshot of a w x h px
// slide) and fills each text node's Behind with the distinct mean colours
// of the cells under its lines. Errors: a picture that does not decode.
func sampleBackdrop(raw *rawSlide, shot []byte, w, h float64) error {
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
			for _, c := range cellMeans(img, ln, w, h) {
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
// img, a picture of a w x h px slide. Cells wholly off the slide are
// skipped.
func cellMeans(img image.Image, ln rawRect, w, h float64) [][3]uint8 {
	if ln.Width <= 0 || ln.Height <= 0 || w <= 0 || h <= 0 {
		return nil
	}
	b := img.Bounds()
	sx, sy := float64(b.Dx())/w, float64(b.Dy())/h
	k := int(math.Round(ln.Width / ln.Height))
	k = min(max(k, 1), backdropCellsPerLine)
	y0 := max(int(math.Floor(ln.Y*sy)), 0)
	y1 := min(int(math.Ceil((ln.Y+ln.Height)*sy)), b.Dy())
	if y1 <= y0 {
		return nil
	}
	var out [][3]uint8
	for i := 0; i < k; i++ {
		x0 := max(int(math.Floor((ln.X+ln.Width*float64(i)/float64(k))*sx)), 0)
		x1 := min(int(math.Ceil((ln.X+ln.Width*float64(i+1)/float64(k))*sx)), b.Dx())
		if x1 <= x0 {
			continue
		}
		var r, g, bl, cnt float64
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				cr, cg, cb, _ := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
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
