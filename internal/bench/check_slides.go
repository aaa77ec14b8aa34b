package bench

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// countCheck is slide_count: the number of slides, or its change from
// the original deck.
//
//	slide_count: 12
//	slide_count: {equals: 12}
//	slide_count: {delta: -1}
type countCheck struct {
	equals *int
	delta  *int
}

func parseSlideCount(p *parser, v *yaml.Node) checker {
	c := &countCheck{}
	if v.Kind == yaml.ScalarNode {
		n := p.integer(v)
		c.equals = &n
		return c
	}
	p.mapping(v, map[string]func(*yaml.Node){
		"equals": func(n *yaml.Node) { i := p.integer(n); c.equals = &i },
		"delta":  func(n *yaml.Node) { i := p.integer(n); c.delta = &i },
	})
	if v.Kind == yaml.MappingNode && (c.equals == nil) == (c.delta == nil) {
		p.errAt(v, "slide_count takes a number, or one of equals and delta")
	}
	return c
}

func (c *countCheck) describe() string {
	if c.delta != nil {
		return fmt.Sprintf("changes by %+d", *c.delta)
	}
	return fmt.Sprintf("is %d", *c.equals)
}

func (c *countCheck) eval(e *env) []Failure {
	got := len(e.Result.Slides)
	if c.equals != nil {
		if got != *c.equals {
			return []Failure{{Message: fmt.Sprintf("has %d slides, want %d", got, *c.equals)}}
		}
		return nil
	}
	if e.Original == nil {
		return []Failure{{Message: "slide_count delta needs the original deck in the evidence"}}
	}
	was := len(e.Original.Slides)
	if got-was != *c.delta {
		return []Failure{{Message: fmt.Sprintf("has %d slides, the original %d: a change of %+d, want %+d", got, was, got-was, *c.delta)}}
	}
	return nil
}

// orderSlidesCheck is slide_order: the slides from position from (1-based,
// default 1) on are, in order, the ones listed, by title (the title
// placeholder's text, else the slide's first text; compared whole,
// case-insensitively, white space collapsed) or by slide id. Without
// from, the list covers the whole deck.
//
//	slide_order: {titles: ["Agenda", "Results", "Next steps"], from: 2}
//	slide_order: {ids: [s1, s3, s2]}
type orderSlidesCheck struct {
	titles, ids []string
	from        int
}

func parseSlideOrder(p *parser, v *yaml.Node) checker {
	c := &orderSlidesCheck{}
	p.mapping(v, map[string]func(*yaml.Node){
		"titles": func(n *yaml.Node) { c.titles = p.strs(n) },
		"ids":    func(n *yaml.Node) { c.ids = p.strs(n) },
		"from": func(n *yaml.Node) {
			if c.from = p.integer(n); c.from < 1 {
				p.errAt(n, "from is a 1-based slide number")
			}
		},
	})
	if v.Kind == yaml.MappingNode && (len(c.titles) == 0) == (len(c.ids) == 0) {
		p.errAt(v, "slide_order needs one of titles and ids (a non-empty list)")
	}
	return c
}

func (c *orderSlidesCheck) list() (string, []string) {
	if c.ids != nil {
		return "ids", c.ids
	}
	return "titles", c.titles
}

func (c *orderSlidesCheck) describe() string {
	what, l := c.list()
	s := fmt.Sprintf("%s %q", what, l)
	if c.from > 0 {
		s += fmt.Sprintf(" from slide %d", c.from)
	}
	return s
}

func (c *orderSlidesCheck) eval(e *env) []Failure {
	d := e.Result
	what, want := c.list()
	start := 0
	if c.from > 0 {
		start = c.from - 1
	} else if len(d.Slides) != len(want) {
		return []Failure{{Message: fmt.Sprintf("has %d slides, the order lists %d %s", len(d.Slides), len(want), what)}}
	}
	var out []Failure
	for i, w := range want {
		si := start + i
		if si >= len(d.Slides) {
			out = append(out, Failure{Message: fmt.Sprintf("no slide %d for %s %q: the deck has %d slides", si+1, what[:len(what)-1], w, len(d.Slides))})
			continue
		}
		s := d.Slides[si]
		if c.ids != nil {
			if s.ID != w {
				out = append(out, Failure{Slide: si + 1, SlideID: s.ID, Message: fmt.Sprintf("is slide %s, want %s here", s.ID, w)})
			}
			continue
		}
		if got := s.SlideTitle(); normText(got, true) != normText(w, true) {
			out = append(out, Failure{Slide: si + 1, SlideID: s.ID, Message: fmt.Sprintf("title is %s, want %q here", quoteShort(got), w)})
		}
	}
	return out
}
