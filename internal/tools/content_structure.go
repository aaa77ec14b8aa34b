package tools

import (
	"fmt"
	"math"
	"slices"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

type nodeIDArg struct {
	NodeID string `json:"nodeId" desc:"Id of the node."`
}

type groupArgs struct {
	NodeIDs []string `json:"nodeIds" minItems:"1" desc:"Siblings to group (same parent)."`
	Name    string   `json:"name,omitempty"`
}

type cloneArgs struct {
	NodeID   string  `json:"nodeId" desc:"Node to copy with all its children."`
	ParentID string  `json:"parentId,omitempty" desc:"Where to put the copy; default next to the original."`
	Index    *int    `json:"index,omitempty" min:"0" desc:"Position among the new parent's children; default right after the original (or frontmost in another parent)."`
	X        *Length `json:"x,omitempty" desc:"Left edge of the copy in its parent, px; default the original's."`
	Y        *Length `json:"y,omitempty"`
	Name     string  `json:"name,omitempty"`
}

type deleteArgs struct {
	NodeID  string   `json:"nodeId,omitempty" desc:"Node to delete."`
	NodeIDs []string `json:"nodeIds,omitempty" desc:"Several nodes to delete at once."`
}

type reparentArgs struct {
	NodeID       string `json:"nodeId"`
	ParentID     string `json:"parentId" desc:"New parent: slide, frame or group."`
	Index        *int   `json:"index,omitempty" min:"0" desc:"Slot among the new parent's children (0 = first/backmost); default last. In an auto-layout row this is where the node lands and the row reflows."`
	KeepPosition *bool  `json:"keepPosition,omitempty" desc:"Keep the node where it is on the slide (default true; ignored in auto-layout parents)."`
}

type renameArgs struct {
	NodeID string `json:"nodeId"`
	Name   string `json:"name" minLength:"1"`
}

type zOrderArgs struct {
	NodeID       string `json:"nodeId"`
	Action       string `json:"action" enum:"BRING_TO_FRONT,SEND_TO_BACK,BRING_FORWARD,SEND_BACKWARD,BEHIND,IN_FRONT_OF" desc:"BEHIND/IN_FRONT_OF place the node directly below/above relativeToId (e.g. a picture behind text)."`
	RelativeToID string `json:"relativeToId,omitempty" desc:"Sibling for BEHIND and IN_FRONT_OF."`
}

func contentStructureTools() []Tool {
	return []Tool{
		def(ModuleContent, "group_nodes", false,
			"Group sibling nodes into a GROUP so they move and scale together. The group's box is the union of the nodes; their positions on the slide do not change.",
			func(e *Env, a *groupArgs) (Result, error) {
				var nodes []*sg.Node
				var parent *sg.Node
				for _, id := range a.NodeIDs {
					n, err := e.node(id)
					if err != nil {
						return Result{}, err
					}
					if n.Type == sg.TypeSlide || n.Type == sg.TypeTableCell {
						return Result{}, fmt.Errorf("node %q is a %s and cannot be grouped", id, n.Type)
					}
					p := e.parent(n)
					if parent != nil && p != parent {
						return Result{}, fmt.Errorf("nodes %q and %q have different parents; group siblings only (move_to_parent first)", a.NodeIDs[0], id)
					}
					parent = p
					if !slices.Contains(nodes, n) {
						nodes = append(nodes, n)
					}
				}
				r := nodes[0].Transform.Bounds(nodes[0].Size)
				at := slices.Index(parent.Children, nodes[0])
				for _, n := range nodes[1:] {
					r = r.Union(n.Transform.Bounds(n.Size))
					at = max(at, slices.Index(parent.Children, n))
				}
				g := e.newNode(sg.TypeGroup, orStr(a.Name, "Group"))
				g.Transform = sg.Translate(round2(r.X), round2(r.Y))
				g.Size = sg.Vector{X: round2(r.Width), Y: round2(r.Height)}
				// keep z-order: children in their current stacking order
				slices.SortFunc(nodes, func(x, y *sg.Node) int {
					return slices.Index(parent.Children, x) - slices.Index(parent.Children, y)
				})
				at -= len(nodes) - 1
				for _, n := range nodes {
					e.detachForMove(n)
				}
				e.insert(parent, g, at)
				for _, n := range nodes {
					n.Transform[0][2] = round2(n.Transform[0][2] - r.X)
					n.Transform[1][2] = round2(n.Transform[1][2] - r.Y)
					n.LayoutPositioning = ""
					e.insert(g, n, -1)
				}
				return Result{Created: []string{g.ID}, Changed: append(a.NodeIDs, parent.ID)}, nil
			}),
		def(ModuleContent, "ungroup_node", false,
			"Dissolve a GROUP (or a plain FRAME): its children move up to its parent at the same place on the slide, in the same stacking position, and the group is removed.",
			func(e *Env, a *nodeIDArg) (Result, error) {
				g, err := e.nodeOf(a.NodeID, sg.TypeGroup, sg.TypeFrame, sg.TypeSection)
				if err != nil {
					return Result{}, err
				}
				parent := e.parent(g)
				at := slices.Index(parent.Children, g)
				kids := g.Children
				g.Children = nil
				e.reindex()
				e.detach(g)
				var ids []string
				for i, c := range kids {
					c.Transform = g.Transform.Mul(c.Transform)
					if !parent.HasAutoLayout() {
						c.LayoutPositioning = ""
					}
					e.insert(parent, c, at+i)
					ids = append(ids, c.ID)
				}
				return Result{Deleted: []string{g.ID}, Changed: append(ids, parent.ID)}, nil
			}),
		def(ModuleContent, "clone_node", false,
			"Duplicate a node with all its children (fresh ids). By default the copy sits right after the original in the same parent (in an auto-layout row it becomes the next item and the row reflows); give parentId, index, x and y to put it elsewhere. Returns the copy's id in created[0].",
			func(e *Env, a *cloneArgs) (Result, error) {
				src, err := e.node(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				if src.Type == sg.TypeSlide {
					return Result{}, fmt.Errorf("node %q is a slide; use duplicate_slide", a.NodeID)
				}
				if src.Type == sg.TypeTableCell {
					return Result{}, fmt.Errorf("node %q is a table cell; add rows or columns with edit_table_structure", a.NodeID)
				}
				parent := e.parent(src)
				at := slices.Index(parent.Children, src) + 1
				if a.ParentID != "" {
					if parent, err = e.container(a.ParentID); err != nil {
						return Result{}, err
					}
					at = -1
				}
				if a.Index != nil {
					at = *a.Index
				}
				c := src.Clone()
				e.reID(c)
				if a.Name != "" {
					c.Name = a.Name
				}
				if a.X != nil {
					c.Transform[0][2] = float64(*a.X)
				}
				if a.Y != nil {
					c.Transform[1][2] = float64(*a.Y)
				}
				if c.LayoutPositioning == sg.PositioningAbsolute && !parent.HasAutoLayout() {
					c.LayoutPositioning = ""
				}
				e.insert(parent, c, at)
				return Result{Created: []string{c.ID}, Changed: []string{parent.ID}}, nil
			}),
		def(ModuleContent, "delete_node", false,
			"Delete one node (nodeId) or several (nodeIds) with their children. Connectors attached to a deleted node are deleted too. After this, the deleted ids and their children's ids are stale: do not refer to them later in the same batch. Slides are deleted with delete_slide, table rows and columns with edit_table_structure.",
			func(e *Env, a *deleteArgs) (Result, error) {
				ids := a.NodeIDs
				if a.NodeID != "" {
					ids = append([]string{a.NodeID}, ids...)
				}
				if len(ids) == 0 {
					return Result{}, fmt.Errorf("give nodeId or nodeIds")
				}
				var res Result
				for _, id := range ids {
					n, err := e.node(id)
					if err != nil {
						return Result{}, err
					}
					switch n.Type {
					case sg.TypeSlide:
						return Result{}, fmt.Errorf("node %q is a slide; use delete_slide", id)
					case sg.TypeTableCell:
						return Result{}, fmt.Errorf("node %q is a table cell; use edit_table_structure to delete its row or column, or set_table_cells to clear it", id)
					}
					p := e.parent(n)
					gone := e.deleteWithConnectors(n)
					res.Deleted = append(res.Deleted, gone...)
					res.Changed = append(res.Changed, p.ID)
				}
				return res, nil
			}),
		def(ModuleContent, "move_to_parent", false,
			"Move a node into another parent (frame, group or slide) at a given child index. Into an auto-layout frame this inserts the node as item number index and the row or column reflows; elsewhere the node keeps its place on the slide unless keepPosition is false.",
			func(e *Env, a *reparentArgs) (Result, error) {
				n, err := e.node(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				if n.Type == sg.TypeSlide || n.Type == sg.TypeTableCell {
					return Result{}, fmt.Errorf("node %q is a %s and cannot be re-parented", a.NodeID, n.Type)
				}
				np, err := e.container(a.ParentID)
				if err != nil {
					return Result{}, err
				}
				if np == n || n.Find(func(x *sg.Node) bool { return x == np }) != nil {
					return Result{}, fmt.Errorf("parentId %q is %q itself or inside it", a.ParentID, a.NodeID)
				}
				old := e.parent(n)
				abs := e.Index().AbsoluteTransform(n.ID)
				at := -1
				if a.Index != nil {
					at = *a.Index
				}
				if old == np && at >= 0 && slices.Index(np.Children, n) < at {
					at-- // the node's own slot disappears first
				}
				e.detachForMove(n)
				if (a.KeepPosition == nil || *a.KeepPosition) && np.Type != sg.TypeSlide {
					x, y := e.toLocal(np, abs.X(), abs.Y())
					inv := e.Index().AbsoluteTransform(np.ID)
					lin := sg.Transform{{inv[0][0], inv[0][1], 0}, {inv[1][0], inv[1][1], 0}}
					n.Transform = invertLinear(lin).Mul(abs).WithOffset(round2(x), round2(y))
				} else if np.Type == sg.TypeSlide && (a.KeepPosition == nil || *a.KeepPosition) {
					n.Transform = abs
				}
				if !np.HasAutoLayout() && n.LayoutPositioning == sg.PositioningAbsolute {
					n.LayoutPositioning = ""
				}
				e.insert(np, n, at)
				return Result{Changed: []string{n.ID, old.ID, np.ID}}, nil
			}),
		def(ModuleContent, "rename_node", false,
			"Rename a node's layer name (what lists and diffs show; screen readers use alt text, not names).",
			func(e *Env, a *renameArgs) (Result, error) {
				n, err := e.node(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				n.Name = a.Name
				return changed(n.ID), nil
			}),
		def(ModuleContent, "set_z_order", false,
			"Change a node's stacking order among its siblings: bring to front, send to back, one step forward or backward, or directly behind / in front of a named sibling (e.g. send a picture behind a text box). In an auto-layout parent this also changes the item's slot in the row.",
			func(e *Env, a *zOrderArgs) (Result, error) {
				n, err := e.node(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				p := e.parent(n)
				if p == nil {
					return Result{}, fmt.Errorf("node %q is a slide; reorder slides with reorder_slides", a.NodeID)
				}
				i := slices.Index(p.Children, n)
				ch := slices.Delete(slices.Clone(p.Children), i, i+1)
				var at int
				switch a.Action {
				case "BRING_TO_FRONT":
					at = len(ch)
				case "SEND_TO_BACK":
					at = 0
				case "BRING_FORWARD":
					at = min(i+1, len(ch))
				case "SEND_BACKWARD":
					at = max(i-1, 0)
				case "BEHIND", "IN_FRONT_OF":
					ref, err := e.node(a.RelativeToID)
					if err != nil {
						return Result{}, fmt.Errorf("relativeToId: %w", err)
					}
					j := slices.Index(ch, ref)
					if j < 0 || ref == n {
						return Result{}, fmt.Errorf("relativeToId %q is not a sibling of %q; both must share a parent", a.RelativeToID, a.NodeID)
					}
					at = j
					if a.Action == "IN_FRONT_OF" {
						at = j + 1
					}
				}
				p.Children = slices.Insert(ch, at, n)
				return Result{Changed: []string{n.ID, p.ID}}, nil
			}),
	}
}

// detachForMove takes n out of the tree to re-insert it elsewhere; its ids
// stay valid.
func (e *Env) detachForMove(n *sg.Node) {
	e.detach(n)
	n.Walk(func(c, _ *sg.Node, _ int) bool { delete(e.deleted, c.ID); return true })
}

// deleteWithConnectors removes n and any connector of its slide attached to
// n or its descendants, returning the removed top-level ids.
func (e *Env) deleteWithConnectors(n *sg.Node) []string {
	ids := map[string]bool{}
	n.Walk(func(c, _ *sg.Node, _ int) bool { ids[c.ID] = true; return true })
	slide := e.Index().Slide(n.ID)
	var attached []*sg.Node
	if slide != nil {
		slide.Walk(func(c, _ *sg.Node, _ int) bool {
			if c.Connector != nil && !ids[c.ID] && (ids[c.Connector.Start.NodeID] || ids[c.Connector.End.NodeID]) {
				attached = append(attached, c)
			}
			return true
		})
	}
	out := []string{n.ID}
	e.detach(n)
	for _, c := range attached {
		if e.Index().Has(c.ID) {
			e.detach(c)
			out = append(out, c.ID)
		}
	}
	return out
}

// invertLinear inverts the 2x2 part of t (translation dropped).
func invertLinear(t sg.Transform) sg.Transform {
	det := t[0][0]*t[1][1] - t[0][1]*t[1][0]
	if math.Abs(det) < 1e-12 {
		return sg.Identity
	}
	return sg.Transform{{t[1][1] / det, -t[0][1] / det, 0}, {-t[1][0] / det, t[0][0] / det, 0}}
}
