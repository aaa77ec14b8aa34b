package bench

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// Pos is a line and column in the suite file (1-based).
type Pos struct{ Line, Col int }

func (p Pos) String() string { return fmt.Sprintf("line %d, column %d", p.Line, p.Col) }

// Error is a suite problem at a position in the file.
type Error struct {
	Path string
	Pos  Pos
	Msg  string
}

func (e *Error) Error() string {
	where := e.Path
	if where == "" {
		where = "suite"
	}
	return fmt.Sprintf("%s:%d:%d: %s", where, e.Pos.Line, e.Pos.Col, e.Msg)
}

// Errors lists every problem found in one suite file.
type Errors []*Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// parser collects every problem of a file with its position, so one run
// reports them all.
type parser struct {
	path string
	errs Errors
}

func pos(n *yaml.Node) Pos { return Pos{Line: n.Line, Col: n.Column} }

func (p *parser) errAt(n *yaml.Node, format string, args ...any) {
	p.errs = append(p.errs, &Error{Path: p.path, Pos: pos(n), Msg: fmt.Sprintf(format, args...)})
}

// mapping calls the handler of each key; unknown and repeated keys are
// errors that list the known ones.
func (p *parser) mapping(n *yaml.Node, handlers map[string]func(*yaml.Node)) {
	if n.Kind != yaml.MappingNode {
		p.errAt(n, "want a mapping (key: value lines) with keys %s", keys(handlers))
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		h, ok := handlers[k.Value]
		switch {
		case !ok:
			p.errAt(k, "unknown key %q; want one of %s", k.Value, keys(handlers))
		case seen[k.Value]:
			p.errAt(k, "key %q given twice", k.Value)
		default:
			seen[k.Value] = true
			h(v)
		}
	}
}

func keys[V any](m map[string]V) string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ", ")
}

func (p *parser) str(n *yaml.Node) string {
	if n.Kind != yaml.ScalarNode {
		p.errAt(n, "want a text value")
		return ""
	}
	return n.Value
}

func (p *parser) seq(n *yaml.Node) []*yaml.Node {
	if n.Kind != yaml.SequenceNode {
		p.errAt(n, "want a list (lines starting with '- ', or [a, b])")
		return nil
	}
	return n.Content
}

func (p *parser) strs(n *yaml.Node) []string {
	var out []string
	for _, e := range p.seq(n) {
		out = append(out, p.str(e))
	}
	return out
}

func (p *parser) boolean(n *yaml.Node) bool {
	var b bool
	if n.Kind != yaml.ScalarNode || n.Decode(&b) != nil {
		p.errAt(n, "want true or false")
	}
	return b
}

func (p *parser) integer(n *yaml.Node) int {
	if n.Kind == yaml.ScalarNode {
		if v, err := strconv.Atoi(n.Value); err == nil {
			return v
		}
	}
	p.errAt(n, "want a whole number")
	return 0
}

// number reads a finite number.
func (p *parser) number(n *yaml.Node) float64 {
	if n.Kind == yaml.ScalarNode {
		if v, err := strconv.ParseFloat(n.Value, 64); err == nil && !math.IsInf(v, 0) && !math.IsNaN(v) {
			return v
		}
	}
	p.errAt(n, "want a number")
	return 0
}

// length reads a px length: a number, or a string with a unit ("24pt"),
// by the one length parser (sg.ParseLength).
func (p *parser) length(n *yaml.Node) float64 {
	if n.Kind != yaml.ScalarNode {
		p.errAt(n, "want a length: a number (px) or a string with a unit such as \"24pt\"")
		return 0
	}
	v, err := sg.ParseLength(n.Value)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		p.errAt(n, "want a length: a number (px) or a string with a unit such as \"24pt\" (%q)", n.Value)
		return 0
	}
	return v
}

// nonNegative reads a number that must be 0 or more (a tolerance).
func (p *parser) nonNegative(n *yaml.Node) float64 {
	v := p.number(n)
	if v < 0 {
		p.errAt(n, "want a number of 0 or more")
		return 0
	}
	return v
}

func (p *parser) color(n *yaml.Node) sg.Color {
	c, err := sg.ParseHex(p.str(n))
	if err != nil && n.Kind == yaml.ScalarNode {
		p.errAt(n, "want a colour #RRGGBB: %v", err)
	}
	return c
}
