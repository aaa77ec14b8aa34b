package bench

import (
	"fmt"
	"math"
	"strings"

	"gopkg.in/yaml.v3"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// imageCheck is image: the pictures of a slide, or one picture.
//
//	image: {slide: 3, count: 2}                      # visible IMAGE nodes on the slide
//	image: {node: s8/2, alt_text: "flowchart"}        # alt text contains (case-insensitive)
//	image: {node: s1/4, changed: true}                # shows other bytes than in the original
//	image: {node: s7/3, aspect: 1.0, tolerance: 0.01} # box width / height
type imageCheck struct {
	slide   SlideRef
	count   *int
	node    *Selector
	alt     string
	changed *bool
	aspect  float64
	tol     float64
}

func parseImage(p *parser, v *yaml.Node) checker {
	c := &imageCheck{tol: 0.01}
	p.mapping(v, map[string]func(*yaml.Node){
		"slide":    func(n *yaml.Node) { c.slide = p.slideRef(n) },
		"count":    func(n *yaml.Node) { i := p.integer(n); c.count = &i },
		"node":     func(n *yaml.Node) { s := p.selector(n); c.node = &s },
		"alt_text": func(n *yaml.Node) { c.alt = p.str(n) },
		"changed":  func(n *yaml.Node) { b := p.boolean(n); c.changed = &b },
		"aspect": func(n *yaml.Node) {
			if c.aspect = p.number(n); c.aspect <= 0 {
				p.errAt(n, "aspect is width / height, more than 0")
			}
		},
		"tolerance": func(n *yaml.Node) { c.tol = p.nonNegative(n) },
	})
	if v.Kind != yaml.MappingNode {
		return c
	}
	switch {
	case c.slide.set() && c.count != nil && c.node == nil && c.alt == "" && c.changed == nil && c.aspect == 0:
	case c.node != nil && !c.slide.set() && c.count == nil && (c.alt != "" || c.changed != nil || c.aspect > 0):
		if c.changed != nil && c.node.ID == "" {
			p.errAt(v, "changed compares with the original deck: select the node by id")
		}
	default:
		p.errAt(v, "image takes slide with count, or node with alt_text, changed and/or aspect")
	}
	return c
}

func (c *imageCheck) describe() string {
	if c.count != nil {
		return fmt.Sprintf("%d picture(s) on %s", *c.count, c.slide)
	}
	var parts []string
	if c.alt != "" {
		parts = append(parts, fmt.Sprintf("alt text %q", c.alt))
	}
	if c.changed != nil {
		parts = append(parts, fmt.Sprintf("changed %t", *c.changed))
	}
	if c.aspect > 0 {
		parts = append(parts, fmt.Sprintf("aspect %g", c.aspect))
	}
	return fmt.Sprintf("%s: %s", c.node, strings.Join(parts, ", "))
}

// imageRef is the asset a picture shows: its top visible IMAGE paint.
func imageRef(n *sg.Node) string {
	for i := len(n.Fills) - 1; i >= 0; i-- {
		if p := n.Fills[i]; p.IsVisible() && p.Type == sg.PaintImage {
			return p.ImageRef
		}
	}
	return ""
}

func (c *imageCheck) eval(e *env) []Failure {
	if c.count != nil {
		i, err := c.slide.find(e.Result)
		if err != nil {
			return []Failure{{Message: err.Error()}}
		}
		s := e.Result.Slides[i]
		got := 0
		s.Walk(func(n, _ *sg.Node, _ int) bool {
			if !n.IsVisible() {
				return false
			}
			if n.Type == sg.TypeImage {
				got++
			}
			return true
		})
		if got != *c.count {
			return []Failure{{Slide: i + 1, SlideID: s.ID, Message: fmt.Sprintf("has %d picture(s), want %d", got, *c.count)}}
		}
		return nil
	}
	l, f := c.node.resolve(e.Result, e.res)
	if f != nil {
		return []Failure{*f}
	}
	ref := imageRef(l.node)
	if ref == "" {
		return []Failure{l.failure("shows no picture (a %s without an image fill)", l.node.Type)}
	}
	var why []string
	if c.alt != "" && !strings.Contains(normText(l.node.AltText, true), normText(c.alt, true)) {
		why = append(why, fmt.Sprintf("alt text is %s, want it to contain %q", quoteShort(l.node.AltText), c.alt))
	}
	if c.aspect > 0 && l.node.Size.Y > 0 {
		if got := l.node.Size.X / l.node.Size.Y; math.Abs(got-c.aspect) > c.tol*c.aspect {
			why = append(why, fmt.Sprintf("box aspect is %.3f, want %g", got, c.aspect))
		}
	}
	if c.changed != nil {
		if e.Original == nil {
			return []Failure{l.failure("changed needs the original deck in the evidence")}
		}
		on := e.orig.Node(l.node.ID)
		if on == nil {
			return []Failure{l.failure("the original deck has no node %s", l.node.ID)}
		}
		if was := imageRef(on); (was != ref) != *c.changed {
			if *c.changed {
				why = append(why, "shows the same picture as the original, want another")
			} else {
				why = append(why, "shows another picture than the original")
			}
		}
	}
	if len(why) > 0 {
		return []Failure{l.failure("%s", strings.Join(why, "; "))}
	}
	return nil
}
