package recipe

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// MaxRecipeBytes bounds a recipe file; recipes are short.
const MaxRecipeBytes = 1 << 20

// Load reads and parses a recipe file.
func Load(path string) (*Recipe, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("recipe %s: %w", path, err)
	}
	return Parse(path, data)
}

// Parse parses recipe YAML. Every problem (unknown key or step kind, bad
// selector, bad colour, unknown tool, arguments that fail the tool's schema)
// is reported with its line and column, all at once, as Errors.
func Parse(path string, data []byte) (*Recipe, error) {
	if len(data) > MaxRecipeBytes {
		return nil, fmt.Errorf("recipe %s is %d bytes, over the %d-byte limit", path, len(data), MaxRecipeBytes)
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) { // nothing but blanks and comments
			return nil, &Error{Path: path, Pos: Pos{1, 1}, Msg: "empty recipe: want a mapping with steps (see docs/recipes.md)"}
		}
		return nil, yamlSyntaxError(path, err)
	}
	p := &parser{path: path}
	r := &Recipe{Path: path, Gate: GatePerDeck}
	if len(doc.Content) == 0 {
		return nil, &Error{Path: path, Pos: Pos{1, 1}, Msg: "empty recipe: want a mapping with steps"}
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, p.errAt(root, "a recipe is a mapping with name, steps and expect")
	}
	p.mapping(root, map[string]func(*yaml.Node){
		"name":        func(v *yaml.Node) { r.Name = p.str(v) },
		"description": func(v *yaml.Node) { r.Description = p.str(v) },
		"assets": func(v *yaml.Node) {
			dir := p.str(v)
			if dir != "" && !filepath.IsAbs(dir) {
				dir = filepath.Join(filepath.Dir(path), dir)
			}
			if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				p.errAt(v, "assets: %q is not a directory (paths are relative to the recipe file)", dir)
			}
			r.AssetDir = dir
		},
		"gate": func(v *yaml.Node) {
			switch g := GateMode(p.str(v)); g {
			case GatePerDeck, GatePerSlide:
				r.Gate = g
			default:
				p.errAt(v, "gate: %q is not a gate; want per_deck (the default: a new layout violation anywhere keeps the original deck) or per_slide (revert only the slides that add one)", v.Value)
			}
		},
		"steps": func(v *yaml.Node) {
			for _, s := range p.seq(v) {
				if st, ok := p.step(s); ok {
					r.Steps = append(r.Steps, st)
				}
			}
		},
		"expect": func(v *yaml.Node) {
			for _, e := range p.seq(v) {
				if ex, ok := p.expectation(e); ok {
					r.Expect = append(r.Expect, ex)
				}
			}
		},
	})
	if len(r.Steps) == 0 && len(p.errs) == 0 {
		p.errs = append(p.errs, &Error{Path: path, Pos: pos(root), Msg: "recipe has no steps"})
	}
	if len(p.errs) > 0 {
		return nil, p.errs
	}
	return r, nil
}

func yamlSyntaxError(path string, err error) error {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		return fmt.Errorf("recipe %s: %s", path, strings.Join(te.Errors, "; "))
	}
	// yaml.v3 syntax errors read "yaml: line N: ..."; keep them, name the file.
	return fmt.Errorf("recipe %s: %v", path, err)
}

type parser struct {
	path string
	errs Errors
}

func pos(n *yaml.Node) Pos { return Pos{Line: n.Line, Col: n.Column} }

func (p *parser) errAt(n *yaml.Node, format string, args ...any) *Error {
	e := &Error{Path: p.path, Pos: pos(n), Msg: fmt.Sprintf(format, args...)}
	p.errs = append(p.errs, e)
	return e
}

// mapping calls the handler of each key; unknown keys are errors that list
// the known ones.
func (p *parser) mapping(n *yaml.Node, handlers map[string]func(*yaml.Node)) {
	if n.Kind != yaml.MappingNode {
		p.errAt(n, "want a mapping (key: value lines)")
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
		p.errAt(n, "want a list (lines starting with '- ')")
		return nil
	}
	return n.Content
}

// value decodes any YAML node into plain Go values (maps, slices, strings,
// numbers, bools) for tool arguments.
func (p *parser) value(n *yaml.Node) any {
	var v any
	if err := n.Decode(&v); err != nil {
		p.errAt(n, "cannot read value: %v", err)
		return nil
	}
	return normalize(v)
}

// normalize turns map[string]any from yaml into JSON-friendly values.
func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normalize(e)
		}
		return x
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = normalize(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = normalize(e)
		}
		return x
	}
	return v
}
