package render

import (
	"context"
	"sort"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// FitTextFunc adapts a renderer to tools.Options.FitText: it renders the
// slides holding the given shrink-on-overflow texts (Request.FitText:
// drawn from full size, shrunk by bisection until they fit, as PowerPoint
// refits a normAutofit text when it is edited) and returns each one's
// scale, 0.25..1 (1 when the text fits at full size, 0.25 when it does
// not fit even then). Ids that are not texts of the deck are left out.
// The renderer is deterministic for equal decks, which keeps tool replay
// exact. Errors are the renderer's.
func FitTextFunc(ctx context.Context, r Renderer, assets scenegraph.AssetSource) func(*scenegraph.Deck, []string) (map[string]float64, error) {
	return func(d *scenegraph.Deck, ids []string) (map[string]float64, error) {
		want := make(map[string]bool, len(ids))
		for _, id := range ids {
			want[id] = true
		}
		onSlide := map[int]bool{}
		for i, s := range d.Slides {
			s.Walk(func(n, _ *scenegraph.Node, _ int) bool {
				if want[n.ID] {
					onSlide[i] = true
				}
				return true
			})
		}
		if len(onSlide) == 0 {
			return map[string]float64{}, nil
		}
		slides := make([]int, 0, len(onSlide))
		for i := range onSlide {
			slides = append(slides, i)
		}
		sort.Ints(slides)
		res, err := r.Render(ctx, d, assets, Request{Slides: slides, FitText: ids})
		if err != nil {
			return nil, err
		}
		out := make(map[string]float64, len(ids))
		for _, s := range res.Slides {
			for id, m := range s.Nodes {
				if !want[id] || !m.HasText {
					continue
				}
				out[id] = 1
				if m.AutoFitScale > 0 {
					out[id] = m.AutoFitScale
				}
			}
		}
		return out, nil
	}
}
