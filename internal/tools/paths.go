package tools

import (
	"fmt"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// pathState is what a node's vector paths were drawn for.
type pathState struct {
	size  scenegraph.Vector
	first string // the first path's data, to tell a rescale from a replacement
}

// recordPaths notes every node with vector paths in n's subtree.
func (e *Env) recordPaths(n *scenegraph.Node) {
	n.Walk(func(c, _ *scenegraph.Node, _ int) bool {
		if len(c.Paths) > 0 {
			e.paths[c] = pathState{size: c.Size, first: c.Paths[0].Path}
		}
		return true
	})
}

// rescalePaths keeps vector paths in step with their node's size: after a
// call resized a node (resize_node, a group scale, an auto-layout FILL),
// its paths, which live in the node's local px space, are scaled by the
// change, as Figma rewrites a vector network on resize. A call that
// replaced the paths is taken as drawn for the new size. Nodes the call
// created are recorded as drawn. Paths that are not SVG path data are left
// as they were, with a warning.
func (e *Env) rescalePaths(created []string) (warnings []string) {
	for n, st := range e.paths {
		if len(n.Paths) == 0 {
			delete(e.paths, n)
			continue
		}
		if n.Paths[0].Path != st.first || n.Size == st.size {
			e.paths[n] = pathState{size: n.Size, first: n.Paths[0].Path}
			continue
		}
		if st.size.X <= 0 || st.size.Y <= 0 {
			e.paths[n] = pathState{size: n.Size, first: n.Paths[0].Path}
			continue
		}
		sx, sy := n.Size.X/st.size.X, n.Size.Y/st.size.Y
		scaled := make([]string, len(n.Paths))
		var err error
		for i, p := range n.Paths {
			if scaled[i], err = scenegraph.ScalePath(p.Path, sx, sy); err != nil {
				break
			}
		}
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s was resized but its vector paths were not rescaled: %v", n.ID, err))
		} else {
			for i := range n.Paths {
				n.Paths[i].Path = scaled[i]
			}
		}
		e.paths[n] = pathState{size: n.Size, first: n.Paths[0].Path}
	}
	for _, id := range created {
		if n := e.Index().Node(id); n != nil {
			e.recordPaths(n)
		}
	}
	return warnings
}
