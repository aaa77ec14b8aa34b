package pptx

import (
	"fmt"
	"strconv"
	"sync"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// Underlay gives the shapes a slide shows from its slide layout and slide
// master (logos, rules, background art; never placeholders), for drawing
// under a deck's slides while they are edited. The scene graph does not
// carry them (Export leaves them in the layout and master parts, where
// PowerPoint keeps them), but everything that judges what the deck looks
// like must see them: the renderer's pictures, its contrast measurements
// and the layout tools choosing a colour for new text.
//
// An Underlay is built once per original package and is safe for
// concurrent use.
type Underlay struct {
	mu       sync.Mutex
	im       *importer
	slideDoc map[string]*xnode // original slide part -> its p:sld root
}

// NewUnderlay reads the layouts and masters of the .pptx package data
// (named name in errors); slides are not imported. Errors are those of
// Import for a damaged package.
func NewUnderlay(data []byte, name string) (*Underlay, error) {
	im, err := newImporter(data, name, DefaultLimits)
	if err != nil {
		return nil, err
	}
	im.only = map[string]bool{} // every slide a stub: only layouts are read
	if err := im.run(); err != nil {
		return nil, err
	}
	u := &Underlay{im: im, slideDoc: map[string]*xnode{}}
	return u, nil
}

// Shapes returns the layout and master shapes slide s shows at 0-based
// position index in its deck, back to front, as locked nodes with ids
// "<slide id>/master/<n>" and "<slide id>/layout/<n>" (slide number fields
// show index+1 plus the deck's first slide number less one). The layout
// is the one Export writes the slide with: a slide imported from this
// package keeps its own (with its p:sld/@showMasterSp and colour map
// override); a new slide gets the layout Slide.Layout names, else one that
// fits its placeholders (exporter.layoutFor). The nodes are new on every
// call: callers may place them in a deck.
func (u *Underlay) Shapes(s *sg.Node, index int) []*sg.Node {
	if u == nil || s == nil {
		return nil
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	var lay *layout
	var root *xnode
	if s.Source != nil && s.Source.Format == "pptx" {
		// Export keeps an original slide on its own layout whatever
		// Slide.Layout says now, so that is the art the file shows.
		if orig := u.im.bySlide[s.Source.Part]; orig != nil && orig.lay != nil {
			lay = orig.lay
			root = u.slideRoot(s.Source.Part)
		}
	}
	if lay == nil {
		// A new slide: the layout export will give it.
		part := u.im.layoutFor(s)
		if part == "" {
			return nil
		}
		var err error
		if lay, err = u.im.layout(part); err != nil {
			return nil
		}
	}
	si := &slideInfo{lay: lay, node: &sg.Node{ID: s.ID}, cc: &colorCtx{th: lay.m.th, clrMap: lay.m.clrMap}}
	if root != nil {
		si.cc = slideColors(root, lay)
	}
	out := u.im.inheritedShapes(si, root, index)
	for _, n := range out {
		stampDigests(n)
	}
	return out
}

// slideRoot parses an original slide part once; nil when unreadable.
func (u *Underlay) slideRoot(part string) *xnode {
	if r, ok := u.slideDoc[part]; ok {
		return r
	}
	var r *xnode
	if doc, err := u.im.p.xml(part); err == nil {
		r = doc.root()
	}
	u.slideDoc[part] = r
	return r
}

// AssetBytes returns the bytes of a picture the layout and master shapes
// use (refs as in Shapes' image paints), so a renderer can draw them; the
// deck's own asset store does not hold them.
func (u *Underlay) AssetBytes(ref string) ([]byte, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if b, ok := u.im.blobs[ref]; ok {
		return b, nil
	}
	return nil, fmt.Errorf("pptx underlay %s: no asset %s", u.im.name, strconv.Quote(ref))
}
