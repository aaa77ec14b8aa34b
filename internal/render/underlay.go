package render

import (
	"fmt"
	"strings"
	"sync"

	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/scenegraph"
)

// Layout and master art. A deck imported from a .pptx shows, under every
// slide, the shapes of its slide layout and master (ECMA-376 §19.3.1.39,
// p:sldLayout; PowerPoint draws them unless p:sld/@showMasterSp="0"). The
// scene graph leaves them in the layout, so the renderer draws them from
// the original package (pptx.Underlay) as locked nodes at the back of the
// slide. They count for contrast and appear in pictures; violations are
// only reported for the deck's own nodes.

// underlays caches one pptx.Underlay per original package (content-
// addressed by DeckSource.Ref, so an entry never goes stale); a few decks
// at a time are in flight, so a small table with oldest-first eviction is
// enough.
var underlays = struct {
	sync.Mutex
	byRef map[string]*underlayEntry
	order []string
}{byRef: map[string]*underlayEntry{}}

const maxUnderlays = 16

type underlayEntry struct {
	once sync.Once
	u    *pptx.Underlay
	err  error
}

// underlayFor returns the Underlay of d's original package, nil when d was
// not imported from a .pptx. The error says why the art could not be read
// (the original missing from assets, a damaged package).
func underlayFor(d *scenegraph.Deck, assets scenegraph.AssetSource) (*pptx.Underlay, error) {
	if d.Source == nil || d.Source.Format != "pptx" || d.Source.Ref == "" || assets == nil {
		return nil, nil
	}
	ref := d.Source.Ref
	underlays.Lock()
	e := underlays.byRef[ref]
	if e == nil {
		e = &underlayEntry{}
		underlays.byRef[ref] = e
		underlays.order = append(underlays.order, ref)
		if len(underlays.order) > maxUnderlays {
			delete(underlays.byRef, underlays.order[0])
			underlays.order = underlays.order[1:]
		}
	}
	underlays.Unlock()
	e.once.Do(func() {
		b, err := assets.AssetBytes(ref)
		if err != nil {
			e.err = fmt.Errorf("the original .pptx is not in the assets: %w", err)
			return
		}
		e.u, e.err = pptx.NewUnderlay(b, d.Source.Name)
	})
	if e.err != nil {
		// Not cached as a failure: the assets may hold the package later.
		underlays.Lock()
		if underlays.byRef[ref] == e {
			delete(underlays.byRef, ref)
		}
		underlays.Unlock()
	}
	return e.u, e.err
}

// withUnderlay returns slide s (0-based index i of d) with its layout and
// master art at the back, and an asset source that also finds that art's
// pictures; s itself is not modified. A slide that already carries the art
// (imported with pptx.Options.Inherited) is returned as it is.
func withUnderlay(d *scenegraph.Deck, i int, s *scenegraph.Node, assets scenegraph.AssetSource) (*scenegraph.Node, scenegraph.AssetSource, []NodeError) {
	for _, c := range s.Children {
		if inheritedArt(c) {
			return s, assets, nil
		}
	}
	u, err := underlayFor(d, assets)
	if err != nil {
		return s, assets, []NodeError{{NodeID: s.ID, Message: "layout and master art not drawn: " + err.Error()}}
	}
	art := u.Shapes(s, i)
	if len(art) == 0 {
		return s, assets, nil
	}
	cp := *s
	cp.Children = append(art, s.Children...)
	return &cp, underlayAssets{assets, u}, nil
}

// inheritedArt reports whether n is a layout or master shape placed in a
// slide (pptx.Options.Inherited or pptx.Underlay).
func inheritedArt(n *scenegraph.Node) bool {
	return n.Locked && n.Source != nil && n.Source.Format == "pptx" &&
		(strings.HasPrefix(n.Source.Part, "ppt/slideLayouts/") || strings.HasPrefix(n.Source.Part, "ppt/slideMasters/"))
}

// underlayAssets finds a picture in the deck's assets, else in the art's.
type underlayAssets struct {
	scenegraph.AssetSource
	u *pptx.Underlay
}

func (a underlayAssets) AssetBytes(ref string) ([]byte, error) {
	b, err := a.AssetSource.AssetBytes(ref)
	if err == nil {
		return b, nil
	}
	if b, uerr := a.u.AssetBytes(ref); uerr == nil {
		return b, nil
	}
	return nil, err
}
