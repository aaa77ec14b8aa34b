package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
)

// ContactSheet tiles slide PNGs into one PNG, cols per row, each scaled
// (box filter) to thumbWidth px wide, with a 16 px grey gutter. Errors name
// the PNG that does not decode.
func ContactSheet(pngs [][]byte, cols, thumbWidth int) ([]byte, error) {
	if len(pngs) == 0 {
		return nil, fmt.Errorf("contact sheet: no slide images")
	}
	if cols <= 0 {
		cols = 4
	}
	if thumbWidth <= 0 {
		thumbWidth = 320
	}
	const gutter = 16
	thumbs := make([]*image.RGBA, len(pngs))
	th := 0
	for i, p := range pngs {
		img, err := png.Decode(bytes.NewReader(p))
		if err != nil {
			return nil, fmt.Errorf("contact sheet: slide image %d: %w", i+1, err)
		}
		thumbs[i] = downscale(img, thumbWidth)
		th = max(th, thumbs[i].Bounds().Dy())
	}
	cols = min(cols, len(pngs))
	rows := (len(pngs) + cols - 1) / cols
	sheet := image.NewRGBA(image.Rect(0, 0, gutter+cols*(thumbWidth+gutter), gutter+rows*(th+gutter)))
	draw.Draw(sheet, sheet.Bounds(), &image.Uniform{color.RGBA{0xE6, 0xE6, 0xE6, 0xFF}}, image.Point{}, draw.Src)
	for i, t := range thumbs {
		x := gutter + (i%cols)*(thumbWidth+gutter)
		y := gutter + (i/cols)*(th+gutter)
		draw.Draw(sheet, t.Bounds().Add(image.Pt(x, y)), t, image.Point{}, draw.Src)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, sheet); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// downscale resizes img to width w (aspect kept) by averaging source pixels.
func downscale(img image.Image, w int) *image.RGBA {
	b := img.Bounds()
	sw, sh := b.Dx(), b.Dy()
	if sw == 0 || sh == 0 {
		return image.NewRGBA(image.Rect(0, 0, w, 1))
	}
	h := max(1, sh*w/sw)
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		y0, y1 := y*sh/h, max((y+1)*sh/h, y*sh/h+1)
		for x := 0; x < w; x++ {
			x0, x1 := x*sw/w, max((x+1)*sw/w, x*sw/w+1)
			var r, g, bl, a, n uint64
			for yy := y0; yy < y1; yy++ {
				for xx := x0; xx < x1; xx++ {
					cr, cg, cb, ca := img.At(b.Min.X+xx, b.Min.Y+yy).RGBA()
					r, g, bl, a, n = r+uint64(cr), g+uint64(cg), bl+uint64(cb), a+uint64(ca), n+1
				}
			}
			out.SetRGBA(x, y, color.RGBA{uint8(r / n >> 8), uint8(g / n >> 8), uint8(bl / n >> 8), uint8(a / n >> 8)})
		}
	}
	return out
}
