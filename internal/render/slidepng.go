package render

import (
	"context"
	"fmt"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// SlidePNG adapts a renderer to tools.Options.Renderer (the SlideRenderer
// of export_slide_image): RenderSlidePNG renders the one slide with the
// given id at scale (1 = the slide's px size) and returns its PNG. Images
// come from assets. Errors: no slide with that id, or the render's own.
type SlidePNG struct {
	Ctx      context.Context
	Renderer Renderer
	Assets   scenegraph.AssetSource
}

// RenderSlidePNG implements tools.SlideRenderer.
func (s SlidePNG) RenderSlidePNG(d *scenegraph.Deck, slideID string, scale float64) ([]byte, error) {
	slide, idx := d.SlideByID(slideID)
	if slide == nil {
		return nil, fmt.Errorf("render: deck %q has no slide %q", d.ID, slideID)
	}
	ctx := s.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	res, err := s.Renderer.Render(ctx, d, s.Assets, Request{Slides: []int{idx}, Scale: scale, Images: true})
	if err != nil {
		return nil, err
	}
	if len(res.Slides) != 1 || len(res.Slides[0].PNG) == 0 {
		return nil, fmt.Errorf("render: slide %q produced no picture", slideID)
	}
	return res.Slides[0].PNG, nil
}
