package render

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"math"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// BackdropFunc adapts a renderer to tools.Options.Backdrop: for each slide
// id in probes it renders that slide of the deck at scale 1 (pictures,
// layout and master art included) and returns the colour of the pixel
// under each probe point (slide px, clamped to the slide), in the probes'
// order. It answers what a reader sees behind new text, where the deck's
// fills and boxes only approximate it (a triangle's box is not the
// triangle; a photo has no fill). The slides render in one call, in
// parallel. Errors: a slide id the deck lacks, or the render's own.
func BackdropFunc(ctx context.Context, r Renderer, assets scenegraph.AssetSource) func(*scenegraph.Deck, map[string][]scenegraph.Vector) (map[string][]scenegraph.Color, error) {
	return func(d *scenegraph.Deck, probes map[string][]scenegraph.Vector) (map[string][]scenegraph.Color, error) {
		var idx []int
		for id := range probes {
			s, i := d.SlideByID(id)
			if s == nil {
				return nil, fmt.Errorf("render: deck %q has no slide %q", d.ID, id)
			}
			idx = append(idx, i)
		}
		if len(idx) == 0 {
			return map[string][]scenegraph.Color{}, nil
		}
		res, err := r.Render(ctx, d, assets, Request{Slides: idx, Scale: 1, Images: true})
		if err != nil {
			return nil, err
		}
		out := make(map[string][]scenegraph.Color, len(idx))
		for _, sr := range res.Slides {
			img, err := png.Decode(bytes.NewReader(sr.PNG))
			if err != nil {
				return nil, fmt.Errorf("render: slide %q picture: %w", sr.SlideID, err)
			}
			out[sr.SlideID] = sample(img, probes[sr.SlideID], d.Width, d.Height)
		}
		return out, nil
	}
}

// sample reads the opaque colour at each point (slide px) of a picture of
// a w x h px slide.
func sample(img image.Image, pts []scenegraph.Vector, w, h float64) []scenegraph.Color {
	b := img.Bounds()
	sx, sy := float64(b.Dx())/w, float64(b.Dy())/h
	out := make([]scenegraph.Color, len(pts))
	for k, p := range pts {
		x := b.Min.X + int(math.Min(math.Max(p.X*sx, 0), float64(b.Dx()-1)))
		y := b.Min.Y + int(math.Min(math.Max(p.Y*sy, 0), float64(b.Dy()-1)))
		r, g, bl, _ := img.At(x, y).RGBA()
		out[k] = scenegraph.Color{R: float64(r) / 0xffff, G: float64(g) / 0xffff, B: float64(bl) / 0xffff, A: 1}
	}
	return out
}

// TextBackdropFunc adapts a renderer to tools.Options.TextBackdrop: it
// renders the slides with the given ids (geometry only) and returns, per
// text node of the deck on them, Measured.Behind: the colours under its
// glyphs with every text transparent (contrast.go). Layout and master art
// is drawn but not returned. Errors: a slide id the deck lacks, or the
// render's own.
func TextBackdropFunc(ctx context.Context, r Renderer, assets scenegraph.AssetSource) func(*scenegraph.Deck, []string) (map[string][]scenegraph.Color, error) {
	return func(d *scenegraph.Deck, slideIDs []string) (map[string][]scenegraph.Color, error) {
		var idx []int
		for _, id := range slideIDs {
			s, i := d.SlideByID(id)
			if s == nil {
				return nil, fmt.Errorf("render: deck %q has no slide %q", d.ID, id)
			}
			idx = append(idx, i)
		}
		out := map[string][]scenegraph.Color{}
		if len(idx) == 0 {
			return out, nil
		}
		res, err := r.Render(ctx, d, assets, Request{Slides: idx})
		if err != nil {
			return nil, err
		}
		for _, sr := range res.Slides {
			for id, m := range sr.Nodes {
				if len(m.Behind) > 0 && !m.Art {
					out[id] = m.Behind
				}
			}
		}
		return out, nil
	}
}
