package report

import (
	"context"
	"fmt"
	"regexp"

	"github.com/acecanvas/ace/internal/render"
	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// MaxPairs bounds the before/after pictures on one page; a migration that
// touches every slide of a 300-slide deck shows the first MaxPairs.
const MaxPairs = 60

// Pairs renders the slides that differ between origin and current
// (scenegraph.ChangedSlides: exact, unlike the capped JsonDiff) with the
// pool and returns them side by side (at most MaxPairs). scale is the PNG scale
// (0.5 gives 640x360 for a 16:9 PPTX).
func Pairs(ctx context.Context, pool *render.Pool, origin, current *sg.Deck, originAssets, currentAssets sg.AssetSource, scale float64) ([]SlidePair, error) {
	ids := sg.ChangedSlides(origin, current)
	if len(ids) > MaxPairs {
		ids = ids[:MaxPairs]
	}
	var before, after []int
	for _, id := range ids {
		if _, i := origin.SlideByID(id); i >= 0 {
			before = append(before, i)
		}
		if _, i := current.SlideByID(id); i >= 0 {
			after = append(after, i)
		}
	}
	shots := func(deck *sg.Deck, assets sg.AssetSource, idx []int) (map[string][]byte, error) {
		out := map[string][]byte{}
		if len(idx) == 0 {
			return out, nil
		}
		res, err := pool.Render(ctx, deck, assets, render.Request{Slides: idx, Scale: scale, Images: true})
		if err != nil {
			return nil, err
		}
		for _, s := range res.Slides {
			out[s.SlideID] = s.PNG
		}
		return out, nil
	}
	b, err := shots(origin, originAssets, before)
	if err != nil {
		return nil, fmt.Errorf("render the original: %w", err)
	}
	a, err := shots(current, currentAssets, after)
	if err != nil {
		return nil, fmt.Errorf("render the edit: %w", err)
	}
	pairs := make([]SlidePair, 0, len(ids))
	for _, id := range ids {
		p := SlidePair{Before: b[id], After: a[id]}
		if s, i := current.SlideByID(id); i >= 0 {
			p.Number, p.Title = i+1, slideTitle(s)
			if p.Before == nil {
				p.Note = "added"
			}
		} else if s, i := origin.SlideByID(id); i >= 0 {
			p.Number, p.Title, p.Note = i+1, slideTitle(s), "removed"
		}
		pairs = append(pairs, p)
	}
	return pairs, nil
}

// slideTitle is the text of the slide's title placeholder, or its name
// unless that only restates a number ("Slide 3").
func slideTitle(s *sg.Node) string {
	t := s.Find(func(n *sg.Node) bool {
		return n.Placeholder != nil && (n.Placeholder.Role == "title" || n.Placeholder.Role == "ctrTitle") && n.Characters != ""
	})
	if t != nil {
		if r := []rune(t.Characters); len(r) > 80 {
			return string(r[:80]) + "…"
		}
		return t.Characters
	}
	if reNumberName.MatchString(s.Name) {
		return ""
	}
	return s.Name
}

var reNumberName = regexp.MustCompile(`(?i)^\s*slide\s*\d*\s*$`)
