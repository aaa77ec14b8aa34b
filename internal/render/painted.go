package render

import (
	"context"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// Painted returns, per node id, the absolute box of what the render showed
// for it: its box, grown by its inked text where the text runs past the
// box. Layout tools that look for free space take it as
// tools.Options.Measure. Layout and master art is included only where it
// holds text or a picture (a logo, a slide number: things new content
// must not cover), under its id "<slide id>/layout/<n>" or
// "<slide id>/master/<n>"; the art's rules and bands are background.
func (r *Result) Painted() map[string]scenegraph.Rect {
	out := map[string]scenegraph.Rect{}
	for _, s := range r.Slides {
		for id, m := range s.Nodes {
			if m.Art && !m.HasText && m.Image == nil {
				continue
			}
			b := m.Bounds
			if m.TextBounds != nil {
				b = b.Union(*m.TextBounds)
			}
			out[id] = b
		}
	}
	return out
}

// Renderer is what MeasureFunc needs of a pool.
type Renderer interface {
	Render(ctx context.Context, d *scenegraph.Deck, assets scenegraph.AssetSource, req Request) (*Result, error)
}

// MeasureFunc adapts a renderer to tools.Options.Measure: it renders every
// slide of the deck (geometry only, no pictures) and returns Painted. The
// renderer is deterministic for equal decks, which keeps tool replay exact.
func MeasureFunc(ctx context.Context, r Renderer, assets scenegraph.AssetSource) func(*scenegraph.Deck) (map[string]scenegraph.Rect, error) {
	return func(d *scenegraph.Deck) (map[string]scenegraph.Rect, error) {
		res, err := r.Render(ctx, d, assets, Request{})
		if err != nil {
			return nil, err
		}
		return res.Painted(), nil
	}
}
