package recipe

import (
	"fmt"
	"regexp"
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// References in step arguments: ${match.FIELD} for the matched node and
// ${deck.FIELD} for the deck. A string that is exactly one reference takes
// the referenced value's type (a number stays a number); references inside
// longer text are formatted into it.
var refPattern = regexp.MustCompile(`\$\{(match|deck)\.([A-Za-z]+)\}`)

// Fields a reference may name. Geometry is px: x, y relative to the parent;
// absX, absY on the slide; width, height the node's size.
var matchFields = []string{"id", "slideId", "slide", "name", "type", "text", "x", "y", "absX", "absY", "width", "height", "fontSize", "fontFamily", "fill"}
var deckFields = []string{"width", "height", "name", "slides"}

// lookup resolves one reference.
type lookup func(scope, field string) (any, bool)

// probeContext stands in for a real match when checking a recipe's
// arguments against tool schemas: strings for ids and text, numbers for
// geometry.
func probeContext(scope, field string) (any, bool) {
	switch field {
	case "x", "y", "absX", "absY", "width", "height", "fontSize", "slide", "slides":
		return 1.0, true
	}
	return "x", true
}

func matchContext(d *sg.Deck, ix *sg.Index, m Match) lookup {
	return func(scope, field string) (any, bool) {
		if scope == "deck" {
			switch field {
			case "width":
				return d.Width, true
			case "height":
				return d.Height, true
			case "name":
				return d.Name, true
			case "slides":
				return float64(len(d.Slides)), true
			}
			return nil, false
		}
		n := m.Node
		switch field {
		case "id":
			return n.ID, true
		case "slideId":
			return m.Slide.ID, true
		case "slide":
			return float64(m.SlideIndex + 1), true
		case "name":
			return n.Name, true
		case "type":
			return string(n.Type), true
		case "text":
			return n.Characters, true
		case "x":
			return n.Transform.X(), true
		case "y":
			return n.Transform.Y(), true
		case "absX":
			return ix.AbsoluteBounds(n.ID).X, true
		case "absY":
			return ix.AbsoluteBounds(n.ID).Y, true
		case "width":
			return n.Size.X, true
		case "height":
			return n.Size.Y, true
		case "fontSize":
			if n.Style != nil {
				return n.Style.FontSize, true
			}
			return 0.0, true
		case "fontFamily":
			if n.Style != nil {
				return n.Style.FontFamily, true
			}
			return "", true
		case "fill":
			for _, f := range n.Fills {
				if f.Type == sg.PaintSolid && f.Color != nil {
					return f.Color.Hex(), true
				}
			}
			return "", true
		}
		return nil, false
	}
}

// substitute returns a deep copy of v with references resolved.
func substitute(v any, look lookup) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = substitute(e, look)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = substitute(e, look)
		}
		return out
	case string:
		if m := refPattern.FindStringSubmatch(x); m != nil && m[0] == x {
			if val, ok := look(m[1], m[2]); ok {
				return val
			}
			return x
		}
		return refPattern.ReplaceAllStringFunc(x, func(ref string) string {
			m := refPattern.FindStringSubmatch(ref)
			if val, ok := look(m[1], m[2]); ok {
				return fmt.Sprint(val)
			}
			return ref
		})
	}
	return v
}

// badRefs lists references to unknown fields in v.
func badRefs(v any) []string {
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case string:
			for _, m := range refPattern.FindAllStringSubmatch(x, -1) {
				fields := matchFields
				if m[1] == "deck" {
					fields = deckFields
				}
				if !containsString(fields, m[2]) {
					out = append(out, fmt.Sprintf("%s (known: %s.%s)", m[0], m[1], strings.Join(fields, ", ")))
				}
			}
		}
	}
	walk(v)
	return out
}

// usesMatch reports whether any string in v references ${match.*}.
func usesMatch(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			if usesMatch(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if usesMatch(e) {
				return true
			}
		}
	case string:
		return strings.Contains(x, "${match.")
	}
	return false
}
