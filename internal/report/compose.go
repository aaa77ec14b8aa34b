package report

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/acecanvas/ace/internal/render"
	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// MaxPairs bounds the before/after pictures on one page; a migration that
// touches every slide of a 300-slide deck shows the first MaxPairs.
const MaxPairs = 60

// Pairs pictures the slides that differ between origin and current
// (scenegraph.ChangedSlides: exact, unlike the capped JsonDiff) and
// returns them side by side (at most MaxPairs). scale is the PNG scale
// (0.5 gives 640x360 for a 16:9 PPTX). A picture an earlier render kept
// (the pool's render.Options.Memo or Pictures: the workflows' render
// steps) is used as it is, at scale or at 1 (the judge's pictures); only
// the others are rendered, with the pool (a lazy pool whose pictures are
// all kept starts no browser).
func Pairs(ctx context.Context, pool Painter, origin, current *sg.Deck, originAssets, currentAssets sg.AssetSource, scale float64) ([]SlidePair, error) {
	return pairs(ctx, pool, origin, current, nil, originAssets, currentAssets, scale, nil)
}

// Painter is the part of *render.Pool the pictures need: Render, and
// Pictured to read a picture an earlier render kept.
type Painter interface {
	Render(ctx context.Context, d *sg.Deck, assets sg.AssetSource, req render.Request) (*render.Result, error)
	Pictured(ctx context.Context, d *sg.Deck, assets sg.AssetSource, i int, scales ...float64) ([]byte, bool)
}

// Pictures counts what Picture did: slides it rendered and slides an
// earlier render had already pictured; Stalled is the time its renders
// waited for a browser other work held (render.Result.Stalled).
type Pictures struct {
	Rendered, Kept int
	Stalled        time.Duration
}

// Picture makes, with pool, the before and after pictures a report page
// shows for an edit from origin to current (drawn as for the batch
// report: the kept iteration's judged snapshot, or nil), at PageScale,
// without composing the page: the pool's render.Options.Pictures keeps
// them, and the report later reads them without a browser. The batch
// workflows run it as their last step, on the render workers, so a
// batch's pictures are made in parallel as its decks finish rather than
// one by one when the report is written. Errors are the renders'.
func Picture(ctx context.Context, pool Painter, origin, current, drawn *sg.Deck, assets sg.AssetSource) (Pictures, error) {
	var st Pictures
	_, err := pairs(ctx, pool, origin, current, drawn, assets, assets, PageScale, &st)
	return st, err
}

// pairs is Pairs with drawn, when not nil, the snapshot whose render the
// gate judged (the kept iteration's, before the measured geometry was
// written back into current: the same picture, different bytes): its
// kept pictures stand for current's slides. st, when not nil, counts the
// slides rendered and found kept.
func pairs(ctx context.Context, pool Painter, origin, current, drawn *sg.Deck, originAssets, currentAssets sg.AssetSource, scale float64, st *Pictures) ([]SlidePair, error) {
	if st == nil {
		st = &Pictures{}
	}
	ids := sg.ChangedSlides(origin, current)
	if len(ids) > MaxPairs {
		ids = ids[:MaxPairs]
	}
	kept := func(d *sg.Deck, assets sg.AssetSource, id string) []byte {
		if d == nil {
			return nil
		}
		_, i := d.SlideByID(id)
		if i < 0 {
			return nil
		}
		if png, ok := pool.Pictured(ctx, d, assets, i, scale, 1); ok {
			return png
		}
		return nil
	}
	shots := func(deck, drawn *sg.Deck, assets sg.AssetSource) (map[string][]byte, error) {
		out := map[string][]byte{}
		var idx []int
		for _, id := range ids {
			_, i := deck.SlideByID(id)
			if i < 0 {
				continue
			}
			png := kept(drawn, assets, id)
			if png == nil && drawn != deck {
				png = kept(deck, assets, id)
			}
			if png != nil {
				out[id] = png
				st.Kept++
				continue
			}
			idx = append(idx, i)
		}
		if len(idx) == 0 {
			return out, nil
		}
		res, err := pool.Render(ctx, deck, assets, render.Request{Slides: idx, Scale: scale, Images: true, PictureOnly: true})
		if err != nil {
			return nil, err
		}
		st.Rendered += len(res.Slides)
		st.Stalled += res.Stalled
		for _, s := range res.Slides {
			out[s.SlideID] = s.PNG
		}
		return out, nil
	}
	if drawn == nil {
		drawn = current
	}
	b, err := shots(origin, origin, originAssets)
	if err != nil {
		return nil, fmt.Errorf("render the original: %w", err)
	}
	a, err := shots(current, drawn, currentAssets)
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
