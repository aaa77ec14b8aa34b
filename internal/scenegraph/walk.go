package scenegraph

import "strconv"

func itoa(i int) string { return strconv.Itoa(i) }

// VisitFunc is called for each node with its parent (nil for a slide) and
// depth (0 for a slide). Returning false skips the node's children.
type VisitFunc func(n, parent *Node, depth int) bool

// Walk visits every node of every slide in document order (pre-order,
// children in z-order from back to front). It does not guard against
// pointer cycles; Validate does.
func (d *Deck) Walk(fn VisitFunc) {
	for _, s := range d.Slides {
		walk(s, nil, 0, fn)
	}
}

// Walk visits n and its descendants in pre-order.
func (n *Node) Walk(fn VisitFunc) { walk(n, nil, 0, fn) }

func walk(n, parent *Node, depth int, fn VisitFunc) {
	if n == nil || !fn(n, parent, depth) {
		return
	}
	for _, c := range n.Children {
		walk(c, n, depth+1, fn)
	}
}

// Find returns the first node in pre-order for which match is true.
func (n *Node) Find(match func(*Node) bool) *Node {
	var found *Node
	n.Walk(func(c, _ *Node, _ int) bool {
		if found != nil {
			return false
		}
		if match(c) {
			found = c
			return false
		}
		return true
	})
	return found
}

// Count returns the number of nodes in the deck, slides included.
func (d *Deck) Count() int {
	k := 0
	d.Walk(func(*Node, *Node, int) bool { k++; return true })
	return k
}

// CountByType returns node counts per type.
func (d *Deck) CountByType() map[NodeType]int {
	m := map[NodeType]int{}
	d.Walk(func(n, _ *Node, _ int) bool { m[n.Type]++; return true })
	return m
}
