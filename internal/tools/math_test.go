package tools

import (
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// create_math takes its style from the display argument, else from the
// delimiters ($$ and \[ display, $ and \( inline), else display style;
// the delimiters are stripped either way.
func TestCreateMathDisplayStyle(t *testing.T) {
	f := false
	tr := true
	cases := []struct {
		latex   string
		display *bool
		want    bool
		source  string
	}{
		{`\sum_{i=1}^{n} x_i`, nil, true, `\sum_{i=1}^{n} x_i`},
		{`\sum_{i=1}^{n} x_i`, &f, false, `\sum_{i=1}^{n} x_i`},
		{`$x^2$`, nil, false, `x^2`},
		{`$$x^2$$`, nil, true, `x^2`},
		{` \[ \frac{a}{b} \] `, nil, true, `\frac{a}{b}`},
		{`\(a+b\)`, nil, false, `a+b`},
		{`$x^2$`, &tr, true, `x^2`},
	}
	for _, c := range cases {
		args := map[string]any{"parentId": "slide-13", "latex": c.latex}
		if c.display != nil {
			args["display"] = *c.display
		}
		d, res := apply(t, fixture(t), opts(t), call("create_math", args))
		n := nodeIn(t, d, res[0].Created[0])
		if n.Type != sg.TypeMath || n.Math.Display != c.want || n.Math.LaTeX != c.source {
			t.Errorf("create_math %q display %v: got %q display %v, want %q display %v", c.latex, c.display, n.Math.LaTeX, n.Math.Display, c.source, c.want)
		}
	}
}
