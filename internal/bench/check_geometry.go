package bench

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// Default geometry tolerances.
const (
	DefaultPxTolerance  = 2.0 // px: EMU rounding and a tool's snapping stay inside it
	DefaultDegTolerance = 1.0 // degrees
)

// box is the node's unrotated box in slide px: what PowerPoint stores as
// a:xfrm off/ext (ECMA-376 §20.1.7.6) and what move_node and resize_node
// set, composed through its groups.
func box(ix *sg.Index, n *sg.Node) sg.Rect {
	return ix.AbsoluteTransform(n.ID).UnrotatedBox(n.Size)
}

// rotationCheck is rotation: the node's clockwise rotation in degrees,
// compared modulo 360.
//
//	rotation: {node: s7/134, degrees: 15, tolerance: 1}
type rotationCheck struct {
	node    Selector
	degrees float64
	tol     float64
}

func parseRotation(p *parser, v *yaml.Node) checker {
	c := &rotationCheck{tol: DefaultDegTolerance}
	var hasNode, hasDeg bool
	p.mapping(v, map[string]func(*yaml.Node){
		"node":      func(n *yaml.Node) { c.node = p.selector(n); hasNode = true },
		"degrees":   func(n *yaml.Node) { c.degrees = p.number(n); hasDeg = true },
		"tolerance": func(n *yaml.Node) { c.tol = p.nonNegative(n) },
	})
	if v.Kind == yaml.MappingNode && (!hasNode || !hasDeg) {
		p.errAt(v, "rotation needs node and degrees")
	}
	return c
}

func (c *rotationCheck) describe() string {
	return fmt.Sprintf("%g° of %s (±%g°)", c.degrees, c.node, c.tol)
}

func (c *rotationCheck) eval(e *env) []Failure {
	l, f := c.node.resolve(e.Result, e.res)
	if f != nil {
		return []Failure{*f}
	}
	got := l.node.Transform.Rotation()
	diff := math.Mod(math.Abs(got-c.degrees), 360)
	if diff > 180 {
		diff = 360 - diff
	}
	if diff > c.tol {
		return []Failure{l.failure("is rotated %.4g°, want %g° (±%g°)", got, c.degrees, c.tol)}
	}
	return nil
}

// positionCheck is position: the top-left of the node's unrotated box on
// the slide (x, y), or its move from where the same node id was in the
// original deck (dx, dy). Give any of them.
//
//	position: {node: s4/3, x: 64, y: 200, tolerance: 2}
//	position: {node: s1/4, dx: -40}
type positionCheck struct {
	node          Selector
	x, y, dx, dy  *float64
	tol           float64
	needsOriginal bool
}

func parsePosition(p *parser, v *yaml.Node) checker {
	c := &positionCheck{tol: DefaultPxTolerance}
	var hasNode bool
	num := func(dst **float64) func(*yaml.Node) {
		return func(n *yaml.Node) { f := p.length(n); *dst = &f }
	}
	p.mapping(v, map[string]func(*yaml.Node){
		"node":      func(n *yaml.Node) { c.node = p.selector(n); hasNode = true },
		"x":         num(&c.x),
		"y":         num(&c.y),
		"dx":        num(&c.dx),
		"dy":        num(&c.dy),
		"tolerance": func(n *yaml.Node) { c.tol = p.nonNegative(n) },
	})
	c.needsOriginal = c.dx != nil || c.dy != nil
	if v.Kind == yaml.MappingNode && (!hasNode || (c.x == nil && c.y == nil && !c.needsOriginal)) {
		p.errAt(v, "position needs node and at least one of x, y, dx, dy")
	}
	if c.needsOriginal && c.node.ID == "" && v.Kind == yaml.MappingNode {
		p.errAt(v, "dx and dy compare with the original deck: select the node by id")
	}
	return c
}

func (c *positionCheck) describe() string {
	var parts []string
	for _, f := range []struct {
		name string
		v    *float64
	}{{"x", c.x}, {"y", c.y}, {"dx", c.dx}, {"dy", c.dy}} {
		if f.v != nil {
			parts = append(parts, fmt.Sprintf("%s %g", f.name, *f.v))
		}
	}
	return fmt.Sprintf("%s of %s (±%g px)", strings.Join(parts, ", "), c.node, c.tol)
}

func (c *positionCheck) eval(e *env) []Failure {
	l, f := c.node.resolve(e.Result, e.res)
	if f != nil {
		return []Failure{*f}
	}
	b := box(e.res, l.node)
	var why []string
	test := func(name string, got float64, want *float64) {
		if want != nil && math.Abs(got-*want) > c.tol {
			why = append(why, fmt.Sprintf("%s is %.1f px, want %g", name, got, *want))
		}
	}
	test("x", b.X, c.x)
	test("y", b.Y, c.y)
	if c.needsOriginal {
		if e.Original == nil {
			return []Failure{l.failure("dx/dy need the original deck in the evidence")}
		}
		on := e.orig.Node(l.node.ID)
		if on == nil {
			return []Failure{l.failure("the original deck has no node %s to measure the move from", l.node.ID)}
		}
		ob := box(e.orig, on)
		test("dx", b.X-ob.X, c.dx)
		test("dy", b.Y-ob.Y, c.dy)
	}
	if len(why) > 0 {
		return []Failure{l.failure("%s (±%g px)", strings.Join(why, "; "), c.tol)}
	}
	return nil
}

// sizeCheck is size: the node's width and/or height in px.
//
//	size: {node: s3/3, width: 400, height: 300, tolerance: 2}
type sizeCheck struct {
	node          Selector
	width, height *float64
	tol           float64
}

func parseSize(p *parser, v *yaml.Node) checker {
	c := &sizeCheck{tol: DefaultPxTolerance}
	var hasNode bool
	num := func(dst **float64) func(*yaml.Node) {
		return func(n *yaml.Node) { f := p.length(n); *dst = &f }
	}
	p.mapping(v, map[string]func(*yaml.Node){
		"node":      func(n *yaml.Node) { c.node = p.selector(n); hasNode = true },
		"width":     num(&c.width),
		"height":    num(&c.height),
		"tolerance": func(n *yaml.Node) { c.tol = p.nonNegative(n) },
	})
	if v.Kind == yaml.MappingNode && (!hasNode || (c.width == nil && c.height == nil)) {
		p.errAt(v, "size needs node and width and/or height")
	}
	return c
}

func (c *sizeCheck) describe() string {
	var parts []string
	if c.width != nil {
		parts = append(parts, fmt.Sprintf("width %g", *c.width))
	}
	if c.height != nil {
		parts = append(parts, fmt.Sprintf("height %g", *c.height))
	}
	return fmt.Sprintf("%s of %s (±%g px)", strings.Join(parts, ", "), c.node, c.tol)
}

func (c *sizeCheck) eval(e *env) []Failure {
	l, f := c.node.resolve(e.Result, e.res)
	if f != nil {
		return []Failure{*f}
	}
	var why []string
	if c.width != nil && math.Abs(l.node.Size.X-*c.width) > c.tol {
		why = append(why, fmt.Sprintf("width is %.1f px, want %g", l.node.Size.X, *c.width))
	}
	if c.height != nil && math.Abs(l.node.Size.Y-*c.height) > c.tol {
		why = append(why, fmt.Sprintf("height is %.1f px, want %g", l.node.Size.Y, *c.height))
	}
	if len(why) > 0 {
		return []Failure{l.failure("%s (±%g px)", strings.Join(why, "; "), c.tol)}
	}
	return nil
}

// edges a node's box can be aligned on, with the coordinate each reads.
var edges = map[string]func(r sg.Rect) float64{
	"left":   func(r sg.Rect) float64 { return r.X },
	"center": func(r sg.Rect) float64 { return r.X + r.Width/2 },
	"right":  func(r sg.Rect) float64 { return r.Right() },
	"top":    func(r sg.Rect) float64 { return r.Y },
	"middle": func(r sg.Rect) float64 { return r.Y + r.Height/2 },
	"bottom": func(r sg.Rect) float64 { return r.Bottom() },
}

func (p *parser) selectors(n *yaml.Node) []Selector {
	var out []Selector
	for _, e := range p.seq(n) {
		out = append(out, p.selector(e))
	}
	return out
}

// resolveAll finds every node; the failures name those not found.
func resolveAll(e *env, sels []Selector) ([]located, []Failure) {
	var ls []located
	var fs []Failure
	for _, s := range sels {
		l, f := s.resolve(e.Result, e.res)
		if f != nil {
			fs = append(fs, *f)
			continue
		}
		ls = append(ls, l)
	}
	return ls, fs
}

// alignedCheck is aligned: the nodes' axis-aligned boxes on the slide
// share an edge or centre line.
//
//	aligned: {nodes: [s4/4, s4/8, s4/12], edge: top, tolerance: 2}
type alignedCheck struct {
	nodes []Selector
	edge  string
	tol   float64
}

func parseAligned(p *parser, v *yaml.Node) checker {
	c := &alignedCheck{tol: DefaultPxTolerance}
	p.mapping(v, map[string]func(*yaml.Node){
		"nodes": func(n *yaml.Node) { c.nodes = p.selectors(n) },
		"edge": func(n *yaml.Node) {
			if c.edge = p.str(n); edges[c.edge] == nil {
				p.errAt(n, "unknown edge %q; want one of %s", c.edge, keys(edges))
			}
		},
		"tolerance": func(n *yaml.Node) { c.tol = p.nonNegative(n) },
	})
	if v.Kind == yaml.MappingNode && (len(c.nodes) < 2 || c.edge == "") {
		p.errAt(v, "aligned needs nodes (two or more) and edge")
	}
	return c
}

func (c *alignedCheck) describe() string {
	return fmt.Sprintf("%s edges of %d nodes (±%g px)", c.edge, len(c.nodes), c.tol)
}

func (c *alignedCheck) eval(e *env) []Failure {
	ls, fs := resolveAll(e, c.nodes)
	if len(fs) > 0 {
		return fs
	}
	at := edges[c.edge]
	ref := at(e.res.AbsoluteBounds(ls[0].node.ID))
	var out []Failure
	for _, l := range ls[1:] {
		if got := at(e.res.AbsoluteBounds(l.node.ID)); math.Abs(got-ref) > c.tol {
			out = append(out, l.failure("%s edge is at %.1f px, %s's at %.1f px (±%g px)", c.edge, got, ls[0].node.ID, ref, c.tol))
		}
	}
	return out
}

// distributedCheck is distributed: the gaps between the nodes' boxes,
// taken in order along the axis, are equal.
//
//	distributed: {nodes: [a, b, c], axis: horizontal, tolerance: 2}
type distributedCheck struct {
	nodes []Selector
	axis  string
	tol   float64
}

func parseDistributed(p *parser, v *yaml.Node) checker {
	c := &distributedCheck{tol: DefaultPxTolerance}
	p.mapping(v, map[string]func(*yaml.Node){
		"nodes": func(n *yaml.Node) { c.nodes = p.selectors(n) },
		"axis": func(n *yaml.Node) {
			if c.axis = p.str(n); c.axis != "horizontal" && c.axis != "vertical" {
				p.errAt(n, "axis is horizontal or vertical")
			}
		},
		"tolerance": func(n *yaml.Node) { c.tol = p.nonNegative(n) },
	})
	if v.Kind == yaml.MappingNode && (len(c.nodes) < 3 || c.axis == "") {
		p.errAt(v, "distributed needs nodes (three or more) and axis")
	}
	return c
}

func (c *distributedCheck) describe() string {
	return fmt.Sprintf("%d nodes evenly %s (±%g px)", len(c.nodes), c.axis, c.tol)
}

func (c *distributedCheck) eval(e *env) []Failure {
	ls, fs := resolveAll(e, c.nodes)
	if len(fs) > 0 {
		return fs
	}
	type span struct {
		l      located
		lo, hi float64
	}
	spans := make([]span, len(ls))
	for i, l := range ls {
		b := e.res.AbsoluteBounds(l.node.ID)
		if c.axis == "horizontal" {
			spans[i] = span{l, b.X, b.Right()}
		} else {
			spans[i] = span{l, b.Y, b.Bottom()}
		}
	}
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].lo < spans[j].lo })
	first := spans[1].lo - spans[0].hi
	var out []Failure
	for i := 2; i < len(spans); i++ {
		if gap := spans[i].lo - spans[i-1].hi; math.Abs(gap-first) > c.tol {
			out = append(out, spans[i].l.failure("gap before it is %.1f px, the first gap %.1f px (±%g px)", gap, first, c.tol))
		}
	}
	return out
}
