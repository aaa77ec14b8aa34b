package bench

import (
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// SlideRef names a slide: by 1-based position in the deck being checked
// (slide: 3) or by slide id (slide: s3). Ids survive export and import
// (a .pptx slide part slideN.xml imports as sN), so an id names the same
// slide after a reorder; a position names whatever slide is there now.
type SlideRef struct {
	Number int
	ID     string
}

func (r SlideRef) set() bool { return r.Number > 0 || r.ID != "" }

func (r SlideRef) String() string {
	if r.ID != "" {
		return "slide " + r.ID
	}
	return "slide " + strconv.Itoa(r.Number)
}

// find returns the 0-based index of the slide in d, or an error naming it.
func (r SlideRef) find(d *sg.Deck) (int, error) {
	if r.ID != "" {
		for i, s := range d.Slides {
			if s.ID == r.ID {
				return i, nil
			}
		}
		return -1, fmt.Errorf("no slide has id %s (the deck has %d slides)", r.ID, len(d.Slides))
	}
	if r.Number < 1 || r.Number > len(d.Slides) {
		return -1, fmt.Errorf("no slide %d: the deck has %d slides", r.Number, len(d.Slides))
	}
	return r.Number - 1, nil
}

func (p *parser) slideRef(n *yaml.Node) SlideRef {
	s := p.str(n)
	if v, err := strconv.Atoi(s); err == nil {
		if v < 1 {
			p.errAt(n, "slide numbers start at 1")
		}
		return SlideRef{Number: v}
	}
	if s == "" {
		p.errAt(n, "want a slide: its 1-based number (3) or its id (s3)")
	}
	return SlideRef{ID: s}
}

// Selector picks exactly one node:
//
//	node: s3/65                                   by id (ids are stable across export and import)
//	node: {slide: 3, text: "Revenue"}             the node on the slide whose text contains this (case-insensitive)
//	node: {slide: 3, placeholder: title}          the placeholder of that role: title, subtitle, body, footer, date, slide_number, picture
//	node: {slide: 3, type: TABLE, index: 0}       the index-th (0-based, document order) node of that type
//
// text, placeholder and type combine (all must hold). Without index, more
// than one match is an error: a check names one node.
type Selector struct {
	Pos         Pos
	ID          string
	Slide       SlideRef
	Text        string
	Placeholder string
	Type        sg.NodeType
	Index       *int
}

// placeholderRoles maps a selector's role to the PresentationML roles
// (ECMA-376 §19.7.10 ST_PlaceholderType) it covers.
var placeholderRoles = map[string][]string{
	"title":        {"title", "ctrTitle"},
	"subtitle":     {"subTitle"},
	"body":         {"body", "obj"},
	"footer":       {"ftr"},
	"date":         {"dt"},
	"slide_number": {"sldNum"},
	"picture":      {"pic"},
}

func (s Selector) String() string {
	if s.ID != "" {
		return "node " + s.ID
	}
	parts := []string{s.Slide.String()}
	if s.Placeholder != "" {
		parts = append(parts, "placeholder "+s.Placeholder)
	}
	if s.Type != "" {
		parts = append(parts, "type "+string(s.Type))
	}
	if s.Text != "" {
		parts = append(parts, fmt.Sprintf("text %q", s.Text))
	}
	if s.Index != nil {
		parts = append(parts, fmt.Sprintf("index %d", *s.Index))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func (p *parser) selector(n *yaml.Node) Selector {
	s := Selector{Pos: pos(n)}
	if n.Kind == yaml.ScalarNode {
		if s.ID = n.Value; s.ID == "" {
			p.errAt(n, "empty node id")
		}
		return s
	}
	hasSlide := false
	p.mapping(n, map[string]func(*yaml.Node){
		"id":    func(v *yaml.Node) { s.ID = p.str(v) },
		"slide": func(v *yaml.Node) { s.Slide = p.slideRef(v); hasSlide = true },
		"text": func(v *yaml.Node) {
			if s.Text = p.str(v); s.Text == "" {
				p.errAt(v, "empty text")
			}
		},
		"placeholder": func(v *yaml.Node) {
			s.Placeholder = p.str(v)
			if _, ok := placeholderRoles[s.Placeholder]; !ok {
				p.errAt(v, "unknown placeholder %q; want one of %s", s.Placeholder, keys(placeholderRoles))
			}
		},
		"type": func(v *yaml.Node) {
			s.Type = sg.NodeType(strings.ToUpper(p.str(v)))
			if !s.Type.Known() || s.Type == sg.TypeSlide {
				p.errAt(v, "unknown node type %q (TEXT, TABLE, CHART, IMAGE, RECTANGLE, ...)", v.Value)
			}
		},
		"index": func(v *yaml.Node) {
			i := p.integer(v)
			if i < 0 {
				p.errAt(v, "index is 0-based: 0 or more")
			}
			s.Index = &i
		},
	})
	if n.Kind == yaml.MappingNode {
		switch {
		case s.ID != "" && (hasSlide || s.Text != "" || s.Placeholder != "" || s.Type != "" || s.Index != nil):
			p.errAt(n, "a node id selects on its own: drop slide, text, placeholder, type and index")
		case s.ID == "" && !hasSlide:
			p.errAt(n, "a node selector needs an id, or a slide with text, placeholder or type")
		case s.ID == "" && s.Text == "" && s.Placeholder == "" && s.Type == "":
			p.errAt(n, "a node selector with a slide needs text, placeholder or type")
		}
	}
	return s
}

// located is a node found in a deck, with its slide.
type located struct {
	node  *sg.Node
	slide *sg.Node
	index int // 0-based slide index
}

// where names the node for a failure: "slide 3 (s3), node s3/5 "Title 1"".
func (l located) failure(format string, args ...any) Failure {
	return Failure{Slide: l.index + 1, SlideID: l.slide.ID, NodeID: l.node.ID, NodeName: l.node.Name, Message: fmt.Sprintf(format, args...)}
}

// resolve finds the one node the selector names in d.
func (s Selector) resolve(d *sg.Deck, ix *sg.Index) (located, *Failure) {
	if s.ID != "" {
		n := ix.Node(s.ID)
		if n == nil || n.Type == sg.TypeSlide {
			return located{}, &Failure{Message: fmt.Sprintf("no node has id %s", s.ID)}
		}
		slide := ix.Slide(s.ID)
		return located{node: n, slide: slide, index: slideIndex(d, slide)}, nil
	}
	si, err := s.Slide.find(d)
	if err != nil {
		return located{}, &Failure{Message: fmt.Sprintf("%s: %v", s, err)}
	}
	slide := d.Slides[si]
	var hits []*sg.Node
	slide.Walk(func(n, _ *sg.Node, depth int) bool {
		if depth > 0 && s.matches(n) {
			hits = append(hits, n)
		}
		return true
	})
	slideFail := func(format string, args ...any) *Failure {
		return &Failure{Slide: si + 1, SlideID: slide.ID, Message: fmt.Sprintf(format, args...)}
	}
	switch {
	case s.Index != nil && *s.Index < len(hits):
		return located{node: hits[*s.Index], slide: slide, index: si}, nil
	case s.Index != nil:
		return located{}, slideFail("%s: only %d node(s) match", s, len(hits))
	case len(hits) == 0:
		return located{}, slideFail("no node matches %s", s)
	case len(hits) > 1:
		ids := make([]string, len(hits))
		for i, h := range hits {
			ids[i] = h.ID
		}
		return located{}, slideFail("%d nodes match %s (%s): add index or a narrower text", len(hits), s, strings.Join(ids, ", "))
	}
	return located{node: hits[0], slide: slide, index: si}, nil
}

func (s Selector) matches(n *sg.Node) bool {
	if s.Type != "" && n.Type != s.Type {
		return false
	}
	if s.Placeholder != "" {
		if n.Placeholder == nil || !contains(placeholderRoles[s.Placeholder], n.Placeholder.Role) {
			return false
		}
	}
	if s.Text != "" && !strings.Contains(normText(n.Characters, true), normText(s.Text, true)) {
		return false
	}
	return true
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func slideIndex(d *sg.Deck, slide *sg.Node) int {
	for i, s := range d.Slides {
		if s == slide {
			return i
		}
	}
	return -1
}

// normText collapses every run of white space (line and paragraph breaks,
// non-breaking and vertical-tab line breaks included) to one space and
// trims the ends, so a check reads text as a person does; fold also
// lower-cases it.
func normText(s string, fold bool) string {
	s = strings.Join(strings.Fields(s), " ")
	if fold {
		s = strings.ToLower(s)
	}
	return s
}
