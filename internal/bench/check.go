package bench

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// Kind names a check kind, the key that starts a check in the suite.
type Kind string

// Check kinds (docs/bench.md gives each one's keys).
const (
	KindTextPresent      Kind = "text_present"       // a text occurs on a slide, in a node or anywhere
	KindTextAbsent       Kind = "text_absent"        // a text occurs nowhere (on a slide or in the deck)
	KindTableCell        Kind = "table_cell"         // a cell's text equals or contains a value
	KindTableColumnOrder Kind = "table_column_order" // a column's body rows are sorted
	KindFillColor        Kind = "fill_color"         // a node's solid fill
	KindBackgroundColor  Kind = "background_color"   // a slide's solid background
	KindNotes            Kind = "notes"              // a slide's speaker notes
	KindRotation         Kind = "rotation"           // a node's rotation, degrees clockwise
	KindPosition         Kind = "position"           // a node's box on the slide, or its move from the original
	KindSize             Kind = "size"               // a node's width and height
	KindAligned          Kind = "aligned"            // nodes share an edge or centre line
	KindDistributed      Kind = "distributed"        // nodes are evenly spaced along an axis
	KindSlideCount       Kind = "slide_count"        // number of slides, or change from the original
	KindSlideOrder       Kind = "slide_order"        // slides in order, by title or id
	KindChart            Kind = "chart"              // a chart's type, categories and series
	KindFont             Kind = "font"               // family, size, bold, italic, colour of text
	KindMath             Kind = "math"               // an equation's LaTeX
	KindImage            Kind = "image"              // a picture's presence, alt text, crop
	KindNoNewViolations  Kind = "no_new_violations"  // the render found no layout violation the original lacked
)

// Status is a check's verdict.
type Status string

const (
	StatusPass Status = "pass"
	StatusFail Status = "fail"
	// StatusNotRendered: the check needs the renderer's verdict and the
	// Evidence carries none; it neither passes nor fails.
	StatusNotRendered Status = "not_rendered"
)

// Evidence is what a check looks at.
type Evidence struct {
	// Result is the edited deck as a user opens it: exported to .pptx and
	// imported again (Reimport). Required.
	Result *sg.Deck
	// Original is the task's deck as imported, for relative checks
	// (position dx/dy, slide_count delta). Required by those.
	Original *sg.Deck
	// Render is the renderer's verdict on Result against Original, for
	// no_new_violations; nil when no render ran.
	Render *RenderEvidence
}

// RenderEvidence is what the render step found: the layout violations the
// result has that the original lacked (judge.Gate's New), one line each.
type RenderEvidence struct {
	NewViolations []string
}

// Failure is one way a check does not hold, naming the slide (1-based
// number and id) and node it concerns; Slide is 0 for the whole deck.
type Failure struct {
	Slide    int    `json:"slide,omitempty"`
	SlideID  string `json:"slideId,omitempty"`
	NodeID   string `json:"nodeId,omitempty"`
	NodeName string `json:"nodeName,omitempty"`
	Message  string `json:"message"`
}

func (f Failure) String() string {
	var where []string
	if f.Slide > 0 {
		where = append(where, fmt.Sprintf("slide %d (%s)", f.Slide, f.SlideID))
	}
	if f.NodeID != "" {
		n := "node " + f.NodeID
		if f.NodeName != "" {
			n += fmt.Sprintf(" %q", f.NodeName)
		}
		where = append(where, n)
	}
	if len(where) == 0 {
		return "deck: " + f.Message
	}
	return strings.Join(where, ", ") + ": " + f.Message
}

// Result is one check evaluated.
type Result struct {
	Kind     Kind      `json:"kind"`
	Line     int       `json:"line"`
	Check    string    `json:"check"` // the check as a person reads it
	Status   Status    `json:"status"`
	Failures []Failure `json:"failures,omitempty"`
}

func (r Result) String() string {
	s := fmt.Sprintf("%s (line %d) %s", r.Check, r.Line, r.Status)
	for _, f := range r.Failures {
		s += "\n    " + f.String()
	}
	return s
}

// Check is one parsed check of a task.
type Check struct {
	Kind Kind
	Pos  Pos
	c    checker
}

// checker is one kind's parsed arguments: what it tests and how.
type checker interface {
	eval(e *env) []Failure
	describe() string
}

// env is the evidence with the indexes checks share.
type env struct {
	Evidence
	res, orig *sg.Index
}

func newEnv(ev Evidence) *env {
	e := &env{Evidence: ev}
	if ev.Result != nil {
		e.res = sg.NewIndex(ev.Result)
	}
	if ev.Original != nil {
		e.orig = sg.NewIndex(ev.Original)
	}
	return e
}

// String is the check as a person reads it: `text_present "Q3" on slide 2`.
func (c Check) String() string { return string(c.Kind) + " " + c.c.describe() }

// NeedsRender reports whether the check reads Evidence.Render.
func (c Check) NeedsRender() bool { return c.Kind == KindNoNewViolations }

// Evaluate runs the check on the evidence.
func (c Check) Evaluate(ev Evidence) Result {
	return c.evaluate(newEnv(ev))
}

func (c Check) evaluate(e *env) Result {
	r := Result{Kind: c.Kind, Line: c.Pos.Line, Check: c.String(), Status: StatusPass}
	switch {
	case c.NeedsRender() && e.Render == nil:
		r.Status = StatusNotRendered
		return r
	case e.Result == nil:
		r.Status, r.Failures = StatusFail, []Failure{{Message: "no result deck to check"}}
		return r
	}
	if fs := c.c.eval(e); len(fs) > 0 {
		r.Status, r.Failures = StatusFail, fs
	}
	return r
}

// Evaluate runs every check of the task on the evidence, in suite order.
func (t *Task) Evaluate(ev Evidence) []Result {
	e := newEnv(ev)
	out := make([]Result, len(t.Checks))
	for i, c := range t.Checks {
		out[i] = c.evaluate(e)
	}
	return out
}

// Passed reports whether every result passed (a not-rendered check does
// not count either way) and how many did.
func Passed(rs []Result) (all bool, passed int) {
	all = true
	for _, r := range rs {
		switch r.Status {
		case StatusPass:
			passed++
		case StatusFail:
			all = false
		}
	}
	return all, passed
}

// kinds maps a check key to its parser.
var kinds = map[Kind]func(p *parser, v *yaml.Node) checker{
	KindTextPresent:      parseTextPresent,
	KindTextAbsent:       parseTextAbsent,
	KindTableCell:        parseTableCell,
	KindTableColumnOrder: parseColumnOrder,
	KindFillColor:        parseFillColor,
	KindBackgroundColor:  parseBackground,
	KindNotes:            parseNotes,
	KindRotation:         parseRotation,
	KindPosition:         parsePosition,
	KindSize:             parseSize,
	KindAligned:          parseAligned,
	KindDistributed:      parseDistributed,
	KindSlideCount:       parseSlideCount,
	KindSlideOrder:       parseSlideOrder,
	KindChart:            parseChart,
	KindFont:             parseFont,
	KindMath:             parseMath,
	KindImage:            parseImage,
	KindNoNewViolations:  parseNoNewViolations,
}

// KindNames lists the check keys, sorted.
func KindNames() string {
	m := make(map[string]bool, len(kinds))
	for k := range kinds {
		m[string(k)] = true
	}
	return keys(m)
}

// check parses one list entry: a mapping with one key, the kind.
func (p *parser) check(n *yaml.Node) (Check, bool) {
	before := len(p.errs)
	if n.Kind != yaml.MappingNode || len(n.Content) != 2 {
		p.errAt(n, "a check is one key, its kind (%s), with its arguments", KindNames())
		return Check{}, false
	}
	k, v := n.Content[0], n.Content[1]
	parse, ok := kinds[Kind(k.Value)]
	if !ok {
		p.errAt(k, "unknown check %q; want one of %s", k.Value, KindNames())
		return Check{}, false
	}
	c := Check{Kind: Kind(k.Value), Pos: pos(k), c: parse(p, v)}
	return c, len(p.errs) == before
}
