package tools

import (
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

type mathArgs struct {
	place
	LaTeX    string `json:"latex" minLength:"1" desc:"Formula in LaTeX math mode, e.g. \\frac{a}{b} = \\sqrt{c}; delimiters are optional: $$...$$ or \\[...\\] set display style, $...$ or \\(...\\) inline style."`
	FontSize Length `json:"fontSize,omitempty" exclusiveMin:"0" desc:"px; default 28"`
	Color    Hex    `json:"color,omitempty"`
	Display  *bool  `json:"display,omitempty" desc:"true: display style, as LaTeX \\[...\\] or a PowerPoint equation on its own line (sums with their limits above and below, full-size fractions); false: inline style, as $...$ in running text. Overrides the delimiters; default display style unless the LaTeX is wrapped in $...$ or \\(...\\)."`
}

func mathTools() []Tool {
	return []Tool{
		def(ModuleMath, "create_math", false,
			"Insert a mathematical formula as a MATH node that keeps its LaTeX source; the renderer typesets it (and reports LaTeX it cannot typeset). Give a box large enough for the formula.",
			func(e *Env, a *mathArgs) (Result, error) {
				n := e.newNode(sg.TypeMath, "Equation")
				latex, display := mathSource(a.LaTeX)
				if a.Display != nil {
					display = *a.Display
				}
				n.Math = &sg.Math{LaTeX: latex, FontSize: float64(a.FontSize), Display: display}
				if n.Math.FontSize == 0 {
					n.Math.FontSize = 28
				}
				if a.Color != "" {
					c, err := color(a.Color, nil)
					if err != nil {
						return Result{}, err
					}
					n.Math.Color = &c
				}
				if _, err := e.put(a.place, n, 320, n.Math.FontSize*2); err != nil {
					return Result{}, err
				}
				res := Result{Created: []string{n.ID}}
				if d := braceDepth(n.Math.LaTeX); d != 0 {
					res.Warnings = append(res.Warnings, "the LaTeX has unbalanced braces; the renderer will report it")
				}
				return res, nil
			}),
	}
}

// mathSource strips TeX math delimiters from a formula and returns the
// style they ask for: $$...$$ and \[...\] display, $...$ and \(...\)
// inline; a formula without delimiters is display style, a formula on its
// own (PowerPoint's Insert Equation makes such an m:oMathPara).
func mathSource(s string) (latex string, display bool) {
	s = strings.TrimSpace(s)
	switch {
	case strings.HasPrefix(s, "$$") && strings.HasSuffix(s, "$$") && len(s) >= 4:
		return strings.TrimSpace(s[2 : len(s)-2]), true
	case len(s) >= 4 && strings.HasPrefix(s, `\[`) && strings.HasSuffix(s, `\]`):
		return strings.TrimSpace(s[2 : len(s)-2]), true
	case len(s) >= 4 && strings.HasPrefix(s, `\(`) && strings.HasSuffix(s, `\)`):
		return strings.TrimSpace(s[2 : len(s)-2]), false
	case strings.HasPrefix(s, "$") && strings.HasSuffix(s, "$") && len(s) >= 2:
		return strings.TrimSpace(strings.Trim(s, "$")), false
	}
	return strings.TrimSpace(strings.Trim(s, "$")), true
}

// braceDepth returns the unmatched { minus } count, ignoring escaped braces.
func braceDepth(s string) int {
	d := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '{':
			d++
		case '}':
			d--
		}
	}
	return d
}
