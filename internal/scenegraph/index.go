package scenegraph

import "fmt"

// Index gives O(1) lookup of nodes by id, their parent and their slide.
// It is a view of the deck when it was built: rebuild it (or call Add and
// Remove) after changing the tree.
type Index struct {
	byID   map[string]*Node
	parent map[string]*Node
	slide  map[string]*Node
}

// NewIndex indexes every node of d. When ids repeat, the first in document
// order wins; Validate reports the duplicates.
func NewIndex(d *Deck) *Index {
	ix := &Index{byID: map[string]*Node{}, parent: map[string]*Node{}, slide: map[string]*Node{}}
	for _, s := range d.Slides {
		ix.addTree(s, nil, s)
	}
	return ix
}

func (ix *Index) addTree(n, parent, slide *Node) {
	n.Walk(func(c, p *Node, depth int) bool {
		if _, dup := ix.byID[c.ID]; dup {
			return true
		}
		ix.byID[c.ID] = c
		if depth == 0 {
			p = parent
		}
		if p != nil {
			ix.parent[c.ID] = p
		}
		ix.slide[c.ID] = slide
		return true
	})
}

// Add indexes the subtree n placed under parent (nil for a new slide).
func (ix *Index) Add(n, parent *Node) {
	slide := n
	if parent != nil {
		slide = ix.slide[parent.ID]
	}
	ix.addTree(n, parent, slide)
}

// Remove forgets the subtree rooted at n.
func (ix *Index) Remove(n *Node) {
	n.Walk(func(c, _ *Node, _ int) bool {
		if ix.byID[c.ID] == c {
			delete(ix.byID, c.ID)
			delete(ix.parent, c.ID)
			delete(ix.slide, c.ID)
		}
		return true
	})
}

// Node returns the node with that id, or nil.
func (ix *Index) Node(id string) *Node { return ix.byID[id] }

// Has reports whether the id is in the deck.
func (ix *Index) Has(id string) bool { _, ok := ix.byID[id]; return ok }

// Parent returns the node's parent, or nil for a slide or an unknown id.
func (ix *Index) Parent(id string) *Node { return ix.parent[id] }

// Slide returns the slide that holds the node (the node itself for a slide).
func (ix *Index) Slide(id string) *Node { return ix.slide[id] }

// Len is the number of indexed nodes.
func (ix *Index) Len() int { return len(ix.byID) }

// Lookup returns the node or an error that names the id and the likely
// cause, for tools to hand back to a model.
func (ix *Index) Lookup(id string) (*Node, error) {
	if n := ix.byID[id]; n != nil {
		return n, nil
	}
	return nil, fmt.Errorf("node %q not found: it may have been deleted or never existed; list ids with get_all_slides or scan_text_nodes", id)
}

// AbsoluteTransform composes the transforms from the node's slide down to the
// node, giving its placement in slide coordinates (px).
func (ix *Index) AbsoluteTransform(id string) Transform {
	n := ix.byID[id]
	if n == nil {
		return Identity
	}
	if n.Type == TypeSlide {
		return Identity
	}
	t := n.Transform
	for p := ix.parent[id]; p != nil && p.Type != TypeSlide; p = ix.parent[p.ID] {
		t = p.Transform.Mul(t)
	}
	return t
}

// AbsoluteBounds returns the node's axis-aligned box in slide coordinates,
// from the authored transforms (not the renderer's measured layout).
func (ix *Index) AbsoluteBounds(id string) Rect {
	n := ix.byID[id]
	if n == nil {
		return Rect{}
	}
	return ix.AbsoluteTransform(id).Bounds(n.Size)
}
