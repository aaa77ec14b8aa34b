package recipe

import (
	"fmt"
	"math"
	"strings"

	"gopkg.in/yaml.v3"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// Expectation is a post-condition checked deterministically on the result.
// With no model configured the expectations are the judge: a failed one
// fails the edit with the list of offending nodes.
//
//   - no_text: "Northwind"                      no text contains it ("/re/i" for a regexp)
//   - no_fill: "#0B6E4F" | {color, tolerance}   no visible solid fill or text colour near it
//   - every_slide_has: <selector>               each slide has at least one match
//   - all: {select: <selector>, font: F, size: N, color: C}   every match uses font F, size N (px, or "27pt"), colour C
//   - no_new_violations: true                   the render found no geometry violation the original lacked
type Expectation struct {
	Pos       Pos
	Kind      string
	Text      *Pattern
	Color     *ColorMatch
	Select    *Selector
	Font      string
	Size      float64
	TextColor *ColorMatch
}

// Expectation kinds.
const (
	ExpectNoText          = "no_text"
	ExpectNoFill          = "no_fill"
	ExpectEverySlideHas   = "every_slide_has"
	ExpectAll             = "all"
	ExpectNoNewViolations = "no_new_violations"
)

func (p *parser) expectation(n *yaml.Node) (Expectation, bool) {
	ex := Expectation{Pos: pos(n)}
	before := len(p.errs)
	if n.Kind != yaml.MappingNode || len(n.Content) != 2 {
		p.errAt(n, "an expectation is one key: no_text, no_fill, every_slide_has, all or no_new_violations")
		return ex, false
	}
	k, v := n.Content[0], n.Content[1]
	ex.Kind = k.Value
	switch ex.Kind {
	case ExpectNoText:
		ex.Text = p.pattern(v, false)
	case ExpectNoFill:
		ex.Color = p.colorMatch(v)
	case ExpectEverySlideHas:
		ex.Select = p.selector(v)
	case ExpectAll:
		p.mapping(v, map[string]func(*yaml.Node){
			"select": func(sv *yaml.Node) { ex.Select = p.selector(sv) },
			"font":   func(fv *yaml.Node) { ex.Font = p.str(fv) },
			"size": func(zv *yaml.Node) {
				// A number is px; a string may carry a unit ("27pt"),
				// read by the one length parser (sg.ParseLength).
				px, err := sg.ParseLength(zv.Value)
				switch {
				case zv.Kind != yaml.ScalarNode:
					p.errAt(zv, "size is a font size: a number (px) or a string with a unit, e.g. \"27pt\"")
				case err != nil:
					p.errAt(zv, "size %v", err)
				case px <= 0:
					p.errAt(zv, "size %q must be more than 0", zv.Value)
				default:
					ex.Size = px
				}
			},
			"color": func(cv *yaml.Node) { ex.TextColor = p.colorMatch(cv) },
		})
		if ex.Select == nil && len(p.errs) == before {
			p.errAt(v, "all: needs select: (which nodes) and at least one of font, size, color")
		}
	case ExpectNoNewViolations:
		var on bool
		if err := v.Decode(&on); err != nil || !on {
			p.errAt(v, "no_new_violations takes true")
		}
	default:
		p.errAt(k, "unknown expectation %q; want one of no_text, no_fill, every_slide_has, all, no_new_violations", ex.Kind)
	}
	return ex, len(p.errs) == before
}

// Failure is an expectation that does not hold, with the nodes that break it.
type Failure struct {
	Kind    string    `json:"kind"`
	Line    int       `json:"line"`
	Message string    `json:"message"`
	Nodes   []NodeRef `json:"nodes,omitempty"`
}

// NodeRef names an offending node for a person: id, layer name, slide (1-based).
type NodeRef struct {
	ID    string `json:"id"`
	Name  string `json:"name,omitempty"`
	Slide int    `json:"slide"`
}

func (f Failure) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "expectation %s (line %d) failed: %s", f.Kind, f.Line, f.Message)
	for i, n := range f.Nodes {
		if i == 10 {
			fmt.Fprintf(&b, "\n    ... and %d more", len(f.Nodes)-10)
			break
		}
		fmt.Fprintf(&b, "\n    slide %d: %s %q", n.Slide, n.ID, n.Name)
	}
	return b.String()
}

// GateResult is what the render step found for the deck the expectations
// are checked on, for no_new_violations.
type GateResult struct {
	// Checked is false when no render ran (no renderer configured).
	Checked bool `json:"checked"`
	// Origin says the deck is the original (no iteration was kept): it has
	// no violation beyond its own by definition.
	Origin bool `json:"origin,omitempty"`
	// NewViolations are one line each.
	NewViolations []string `json:"newViolations,omitempty"`
}

// Check evaluates every expectation on d and returns the failures (nil when
// all hold).
func Check(r *Recipe, d *sg.Deck, gate GateResult) []Failure {
	var out []Failure
	for _, ex := range r.Expect {
		if f, failed := ex.check(d, gate); failed {
			out = append(out, f)
		}
	}
	return out
}

func (ex Expectation) check(d *sg.Deck, gate GateResult) (Failure, bool) {
	f := Failure{Kind: ex.Kind, Line: ex.Pos.Line}
	walkAll := func(fn func(n *sg.Node, slide int)) {
		for i, s := range d.Slides {
			s.Walk(func(n, _ *sg.Node, _ int) bool { fn(n, i); return true })
		}
	}
	ref := func(n *sg.Node, slide int) NodeRef { return NodeRef{ID: n.ID, Name: n.Name, Slide: slide + 1} }
	switch ex.Kind {
	case ExpectNoText:
		walkAll(func(n *sg.Node, s int) {
			if n.Characters != "" && ex.Text.matchText(n.Characters) {
				f.Nodes = append(f.Nodes, ref(n, s))
			}
		})
		f.Message = fmt.Sprintf("%d node(s) still contain %q", len(f.Nodes), ex.Text.Src)
	case ExpectNoFill:
		walkAll(func(n *sg.Node, s int) {
			if paintsNear(n.Fills, ex.Color) || textColorNear(n, ex.Color) {
				f.Nodes = append(f.Nodes, ref(n, s))
			}
		})
		f.Message = fmt.Sprintf("%d node(s) still use %s (tolerance %.3g)", len(f.Nodes), ex.Color.Color.Hex(), ex.Color.Tolerance)
	case ExpectEverySlideHas:
		for i, s := range d.Slides {
			one := *ex.Select
			one.Slides = fmt.Sprint(i + 1)
			if len(one.Select(d)) == 0 {
				f.Nodes = append(f.Nodes, ref(s, i))
			}
		}
		f.Message = fmt.Sprintf("%d slide(s) have no node matching the selector", len(f.Nodes))
	case ExpectAll:
		for _, m := range ex.Select.Select(d) {
			if !ex.styleHolds(m.Node) {
				f.Nodes = append(f.Nodes, ref(m.Node, m.SlideIndex))
			}
		}
		f.Message = fmt.Sprintf("%d matching node(s) do not use%s", len(f.Nodes), ex.want())
	case ExpectNoNewViolations:
		if gate.Origin {
			return f, false
		}
		if !gate.Checked {
			f.Message = "the deck was not rendered, so geometry was not checked"
			return f, true
		}
		if len(gate.NewViolations) > 0 {
			f.Message = fmt.Sprintf("%d new geometry violation(s): %s", len(gate.NewViolations), strings.Join(gate.NewViolations, "; "))
			return f, true
		}
		return f, false
	}
	return f, len(f.Nodes) > 0
}

func (ex Expectation) want() string {
	var parts []string
	if ex.Font != "" {
		parts = append(parts, " font "+ex.Font)
	}
	if ex.Size > 0 {
		parts = append(parts, fmt.Sprintf(" size %g px", ex.Size))
	}
	if ex.TextColor != nil {
		parts = append(parts, " colour "+ex.TextColor.Color.Hex())
	}
	return strings.Join(parts, ",")
}

// styleHolds checks the base style and every run of a text node; a node
// without text only needs to match on nothing.
func (ex Expectation) styleHolds(n *sg.Node) bool {
	styles := textStyles(n)
	if len(styles) == 0 {
		return true
	}
	base := styles[0]
	for i, s := range styles {
		eff := s
		if i > 0 {
			eff = base.Merge(s)
		}
		if ex.Font != "" && !strings.EqualFold(eff.FontFamily, ex.Font) {
			return false
		}
		// ±1% relative, as JsonDiff treats sizes (ACE App. E.4).
		if ex.Size > 0 && math.Abs(eff.FontSize-ex.Size) > 0.01*ex.Size {
			return false
		}
		if ex.TextColor != nil && !paintsNear(eff.Fills, ex.TextColor) {
			return false
		}
	}
	return true
}
