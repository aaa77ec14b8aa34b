package report

import (
	"fmt"
	"strings"

	"github.com/acecanvas/ace/internal/render"
)

// MaxRejected bounds the refused slides one page shows.
const MaxRejected = 24

// Rejected is one slide of an attempt the hard geometry gate refused, as
// the edit loop's Render step pictured it, with the violations that failed
// the gate to be outlined on it.
type Rejected struct {
	Iteration int // the loop's iteration N
	Number    int // 1-based slide number in the attempt
	PNG       []byte
	// Width and Height are the slide's size in px: the coordinate space of
	// the marks (the PNG may be at another scale).
	Width, Height float64
	Marks         []Mark
	// Lines are the violations, one line each.
	Lines []string
	// Reverted says the per-slide gate put the slide back as it was in the
	// original (the rest of the attempt was kept); else the whole attempt
	// was refused.
	Reverted bool
}

// Mark is one measured box of a violation (slide px) and the violation's
// kind as its label.
type Mark struct {
	Kind           string
	X, Y, W, H     float64
	LabelX, LabelY float64
}

// Reverted is a slide the per-slide gate put back, with its violations.
type Reverted struct {
	Number     int
	SlideID    string
	Violations []string
}

// NewRejected is the Rejected of slide number of iteration n: png is the
// loop's picture of it, w x h the slide's size in px, vs the violations
// that failed the gate on it (render.Violation bounds, slide px).
func NewRejected(n, number int, png []byte, w, h float64, vs []render.Violation, reverted bool) Rejected {
	r := Rejected{Iteration: n, Number: number, PNG: png, Width: w, Height: h, Reverted: reverted}
	for _, v := range vs {
		line := v.Kind
		if len(v.NodeIDs) > 0 {
			line += " (" + strings.Join(v.NodeIDs, ", ") + ")"
		}
		if v.Reason != "" {
			line += ": " + v.Reason
		}
		r.Lines = append(r.Lines, line)
		for _, b := range v.Bounds {
			m := Mark{Kind: v.Kind, X: b.X, Y: b.Y, W: b.Width, H: b.Height, LabelX: b.X + 2, LabelY: b.Y - 4}
			if m.LabelY < 14 { // inside the box when it starts at the top edge
				m.LabelY = b.Y + 16
			}
			r.Marks = append(r.Marks, m)
		}
	}
	return r
}

// viewBox is the SVG viewBox of a rejected slide's marks.
func (r Rejected) ViewBox() string {
	return fmt.Sprintf("0 0 %g %g", r.Width, r.Height)
}
