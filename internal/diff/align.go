package diff

import (
	"fmt"
	"sort"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// walker holds both decks and their indexes while the diff is computed.
type walker struct {
	o, c     *scenegraph.Deck
	oix, cix *scenegraph.Index
	entries  []Entry

	// slide context of the entries being emitted
	slideID    string
	slideIndex int
	order      float64
}

func newWalker(o, c *scenegraph.Deck) *walker {
	return &walker{o: o, c: c, oix: scenegraph.NewIndex(o), cix: scenegraph.NewIndex(c)}
}

func (w *walker) emit(e Entry) {
	e.SlideID, e.SlideIndex, e.order = w.slideID, w.slideIndex, w.order
	w.entries = append(w.entries, e)
}

// slides aligns slides by stable id (ACE App. E.2) and walks each pair.
func (w *walker) slides() {
	oPos := map[string]int{}
	for i, s := range w.o.Slides {
		if s != nil {
			oPos[s.ID] = i
		}
	}
	cPos := map[string]int{}
	for i, s := range w.c.Slides {
		if s != nil {
			cPos[s.ID] = i
		}
	}
	// Explicit slide_reorder entries: pure id alignment hides a reorder,
	// so the common slides not on a longest increasing run of origin
	// positions are reported as moved (ACE App. E.2).
	var common []int // origin positions in current order
	var commonCur []int
	for i, s := range w.c.Slides {
		if s == nil {
			continue
		}
		if p, ok := oPos[s.ID]; ok {
			common = append(common, p)
			commonCur = append(commonCur, i)
		}
	}
	keep := lis(common)
	reordered := map[int]bool{}
	for k := range common {
		if !keep[k] {
			reordered[commonCur[k]] = true
		}
	}

	for i, cs := range w.c.Slides {
		if cs == nil {
			continue
		}
		w.slideID, w.slideIndex, w.order = cs.ID, i, float64(i)
		p, ok := oPos[cs.ID]
		if !ok {
			w.added(cs, nil)
			continue
		}
		if reordered[i] {
			w.emit(Entry{Kind: SlideReorder, NodeType: string(scenegraph.TypeSlide), Name: cs.Name,
				Property: "position", Before: p, After: i,
				Detail: fmt.Sprintf("slide moved from position %d to %d", p+1, i+1)})
		}
		w.pair(w.o.Slides[p], cs, nil)
	}
	for i, os := range w.o.Slides {
		if os == nil {
			continue
		}
		if _, ok := cPos[os.ID]; ok {
			continue
		}
		// Place the removed slide after the nearest earlier origin slide
		// that survived.
		w.slideID, w.slideIndex, w.order = os.ID, i, -0.5
		for k := i - 1; k >= 0; k-- {
			if s := w.o.Slides[k]; s != nil {
				if cp, ok := cPos[s.ID]; ok {
					w.order = float64(cp) + 0.5
					break
				}
			}
		}
		w.removed(os, nil)
	}
}

// pair compares two aligned nodes and then their children.
func (w *walker) pair(o, c *scenegraph.Node, parents []string) {
	w.compare(o, c, parents)
	if o.Type == scenegraph.TypeTable && c.Type == scenegraph.TypeTable {
		w.tableChildren(o, c, childParents(parents, c))
		return
	}
	w.children(o, c, childParents(parents, c))
}

func childParents(parents []string, n *scenegraph.Node) []string {
	if n.Type == scenegraph.TypeSlide {
		return nil
	}
	out := make([]string, len(parents)+1)
	copy(out, parents)
	out[len(parents)] = n.ID
	return out
}

// children aligns the children of a matched pair with the cascade of ACE
// App. E.2 and emits added, removed, moved and z_order entries.
func (w *walker) children(op, cp *scenegraph.Node, parents []string) {
	oKids, cKids := nonNil(op.Children), nonNil(cp.Children)
	oMatch := make([]int, len(oKids)) // index into cKids, -1 unmatched, -2 handled elsewhere
	cMatch := make([]int, len(cKids))
	for i := range oMatch {
		oMatch[i] = -1
	}
	for i := range cMatch {
		cMatch[i] = -1
	}

	// (0) stable id within the pair.
	cByID := map[string]int{}
	for j, c := range cKids {
		if _, dup := cByID[c.ID]; !dup {
			cByID[c.ID] = j
		}
	}
	for i, o := range oKids {
		if j, ok := cByID[o.ID]; ok && cMatch[j] == -1 {
			oMatch[i], cMatch[j] = j, i
		}
	}
	// Ids that live elsewhere on the other side are re-parented nodes:
	// the origin side skips them, the current side reports one `moved`.
	for i, o := range oKids {
		if oMatch[i] == -1 && w.cix.Has(o.ID) && !isSlide(w.cix.Node(o.ID)) {
			oMatch[i] = -2
		}
	}
	for j, c := range cKids {
		if cMatch[j] == -1 && w.oix.Has(c.ID) && !isSlide(w.oix.Node(c.ID)) {
			cMatch[j] = -2
		}
	}

	// (1) unique layer name, (2) text content, (3) type and order, each
	// among the nodes still unmatched.
	matchBy(oKids, cKids, oMatch, cMatch, func(n *scenegraph.Node) string { return n.Name })
	matchBy(oKids, cKids, oMatch, cMatch, func(n *scenegraph.Node) string { return normText(n.Characters) })
	matchByTypeOrder(oKids, cKids, oMatch, cMatch)

	// z_order: pairs whose relative order changed.
	var seq, seqC []int
	for j := range cKids {
		if i := cMatch[j]; i >= 0 {
			seq = append(seq, i)
			seqC = append(seqC, j)
		}
	}
	keep := lis(seq)
	zMoved := map[int]bool{}
	for k := range seq {
		if !keep[k] {
			zMoved[seqC[k]] = true
		}
	}

	for i, o := range oKids {
		if oMatch[i] == -1 {
			w.removed(o, parents)
		}
	}
	for j, c := range cKids {
		switch i := cMatch[j]; {
		case i >= 0:
			if zMoved[j] {
				w.emit(Entry{Kind: ZOrder, NodeID: c.ID, NodeType: string(c.Type), Name: c.Name, Parents: parents,
					Property: "zIndex", Before: i, After: j,
					Detail: fmt.Sprintf("stacking position among siblings %d -> %d (0 = back)", i, j)})
			}
			w.pair(oKids[i], c, parents)
		case i == -2:
			w.moved(c, parents)
		default:
			w.added(c, parents)
		}
	}
}

// moved reports a node that has a new parent and compares it with its
// origin self.
func (w *walker) moved(c *scenegraph.Node, parents []string) {
	o := w.oix.Node(c.ID)
	from, to := w.parentLabel(w.oix, o.ID), w.parentLabel(w.cix, c.ID)
	detail := fmt.Sprintf("moved from %s to %s", from, to)
	if os := w.oix.Slide(o.ID); os != nil && os.ID != w.slideID {
		_, oi := w.o.SlideByID(os.ID)
		detail += fmt.Sprintf(" (from slide %d)", oi+1)
	}
	w.emit(Entry{Kind: Moved, NodeID: c.ID, NodeType: string(c.Type), Name: c.Name, Parents: parents,
		Property: "parent", Before: parentID(w.oix, o.ID), After: parentID(w.cix, c.ID), Detail: detail,
		visual: isVisual(c)})
	w.pair(o, c, parents)
}

// added reports a new subtree as one entry; descendants that existed in
// the origin under another parent are reported as moved instead.
func (w *walker) added(c *scenegraph.Node, parents []string) {
	w.emit(Entry{Kind: Added, NodeID: nodeIDUnlessSlide(c), NodeType: string(c.Type), Name: c.Name, Parents: parents,
		After: w.summary(w.cix, c), Detail: "added" + w.summaryLine(w.cix, c), visual: subtreeVisual(c, w.oix)})
	for _, k := range c.Children {
		w.addedDescendants(k, childParents(parents, c))
	}
}

func (w *walker) addedDescendants(n *scenegraph.Node, parents []string) {
	if n == nil {
		return
	}
	if w.oix.Has(n.ID) && !isSlide(w.oix.Node(n.ID)) {
		w.moved(n, parents)
		return
	}
	for _, k := range n.Children {
		w.addedDescendants(k, childParents(parents, n))
	}
}

// removed reports a deleted subtree as one entry. Descendants that survive
// elsewhere are reported from the current side.
func (w *walker) removed(o *scenegraph.Node, parents []string) {
	w.emit(Entry{Kind: Removed, NodeID: nodeIDUnlessSlide(o), NodeType: string(o.Type), Name: o.Name, Parents: parents,
		Before: w.summary(w.oix, o), Detail: "removed" + w.summaryLine(w.oix, o), visual: isVisual(o)})
}

func nodeIDUnlessSlide(n *scenegraph.Node) string {
	if n.Type == scenegraph.TypeSlide {
		return ""
	}
	return n.ID
}

func isSlide(n *scenegraph.Node) bool { return n != nil && n.Type == scenegraph.TypeSlide }

func nonNil(ns []*scenegraph.Node) []*scenegraph.Node {
	out := ns[:0:0]
	for _, n := range ns {
		if n != nil {
			out = append(out, n)
		}
	}
	return out
}

// matchBy pairs unmatched nodes whose key is non-empty and unique among the
// unmatched nodes of both sides.
func matchBy(oKids, cKids []*scenegraph.Node, oMatch, cMatch []int, key func(*scenegraph.Node) string) {
	oCount, cCount := map[string]int{}, map[string]int{}
	oAt, cAt := map[string]int{}, map[string]int{}
	for i, o := range oKids {
		if oMatch[i] == -1 {
			if k := key(o); k != "" {
				oCount[k]++
				oAt[k] = i
			}
		}
	}
	for j, c := range cKids {
		if cMatch[j] == -1 {
			if k := key(c); k != "" {
				cCount[k]++
				cAt[k] = j
			}
		}
	}
	for k, n := range oCount {
		if n == 1 && cCount[k] == 1 {
			i, j := oAt[k], cAt[k]
			oMatch[i], cMatch[j] = j, i
		}
	}
}

// matchByTypeOrder pairs the remaining nodes of the same type class in
// order of appearance.
func matchByTypeOrder(oKids, cKids []*scenegraph.Node, oMatch, cMatch []int) {
	next := 0
	for i, o := range oKids {
		if oMatch[i] != -1 {
			continue
		}
		for j := next; j < len(cKids); j++ {
			if cMatch[j] == -1 && typeClass(cKids[j].Type) == typeClass(o.Type) {
				oMatch[i], cMatch[j] = j, i
				next = j + 1
				break
			}
		}
	}
}

// typeClass folds equivalent node types (ACE App. E.4: a shape with text
// and a frame are one kind of container).
func typeClass(t scenegraph.NodeType) string {
	switch t {
	case scenegraph.TypeFrame, scenegraph.TypeGroup, scenegraph.TypeSection,
		scenegraph.TypeComponent, scenegraph.TypeInstance:
		return "CONTAINER"
	}
	return string(t)
}

// lis marks the elements of a longest strictly increasing subsequence of
// seq (distinct values); the rest are the ones reported as moved. Among
// the longest, it keeps the most elements that sit at their own rank (the
// k-th element holding the k-th smallest value), so swapping two slides
// reports those two and not a bystander. O(n log n) with a Fenwick tree
// over values for the prefix maximum.
func lis(seq []int) []bool {
	n := len(seq)
	keep := make([]bool, n)
	if n == 0 {
		return keep
	}
	// rank of each value among seq's values
	sorted := append([]int(nil), seq...)
	sort.Ints(sorted)
	rank := make(map[int]int, n)
	for i, v := range sorted {
		rank[v] = i
	}
	type best struct {
		score int64
		at    int // index into seq, -1 none
	}
	tree := make([]best, n+1)
	for i := range tree {
		tree[i].at = -1
	}
	query := func(r int) best { // max over ranks [0, r)
		b := best{at: -1}
		for i := r; i > 0; i -= i & -i {
			if tree[i].score > b.score {
				b = tree[i]
			}
		}
		return b
	}
	update := func(r int, v best) {
		for i := r + 1; i <= n; i += i & -i {
			if v.score > tree[i].score {
				tree[i] = v
			}
		}
	}
	prev := make([]int, n)
	score := make([]int64, n)
	weight := int64(n + 1) // length first, fixed points second
	var top best
	top.at = -1
	for i, v := range seq {
		r := rank[v]
		p := query(r)
		w := weight
		if r == i {
			w++
		}
		score[i] = p.score + w
		prev[i] = p.at
		update(r, best{score: score[i], at: i})
		if score[i] > top.score {
			top = best{score: score[i], at: i}
		}
	}
	for k := top.at; k >= 0; k = prev[k] {
		keep[k] = true
	}
	return keep
}

func parentID(ix *scenegraph.Index, id string) string {
	if p := ix.Parent(id); p != nil {
		return p.ID
	}
	return ""
}

func (w *walker) parentLabel(ix *scenegraph.Index, id string) string {
	p := ix.Parent(id)
	if p == nil {
		return "(none)"
	}
	if p.Type == scenegraph.TypeSlide {
		return "the slide"
	}
	return fmt.Sprintf("%s %q [%s]", p.Type, p.Name, p.ID)
}
