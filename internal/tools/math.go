package tools

import (
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

type mathArgs struct {
	place
	LaTeX    string  `json:"latex" minLength:"1" desc:"Formula in LaTeX math mode, without $ delimiters, e.g. \\frac{a}{b} = \\sqrt{c}."`
	FontSize float64 `json:"fontSize,omitempty" exclusiveMin:"0" desc:"px; default 28"`
	Color    Hex     `json:"color,omitempty"`
}

func mathTools() []Tool {
	return []Tool{
		def(ModuleMath, "create_math", false,
			"Insert a mathematical formula as a MATH node that keeps its LaTeX source; the renderer typesets it (and reports LaTeX it cannot typeset). Give a box large enough for the formula.",
			func(e *Env, a *mathArgs) (Result, error) {
				n := e.newNode(sg.TypeMath, "Equation")
				n.Math = &sg.Math{LaTeX: strings.TrimSpace(strings.Trim(strings.TrimSpace(a.LaTeX), "$")), FontSize: a.FontSize}
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
