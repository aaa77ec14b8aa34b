package diff

import (
	"math"
	"strings"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// Tolerances of ACE App. E.4.
const (
	// RelTol is the relative tolerance on numbers (font size, line
	// height, boxes): values within 1% of the larger are equal.
	RelTol = 0.01
	// ColorTol is the absolute tolerance on 0..1 colour channels
	// (about 2/255, PPTArena's hex tolerance).
	ColorTol = 0.01
	// GeomFloor is an absolute floor for px and degrees, below which a
	// difference is rounding noise (EMU <-> px, matrix round-off); a
	// relative tolerance alone flags 0 -> 0.001.
	GeomFloor = 0.5
)

// sameNum reports a and b equal within RelTol.
func sameNum(a, b float64) bool {
	d := math.Abs(a - b)
	return d <= 1e-9 || d <= RelTol*math.Max(math.Abs(a), math.Abs(b))
}

// sameGeom is sameNum with the GeomFloor.
func sameGeom(a, b float64) bool { return math.Abs(a-b) <= GeomFloor || sameNum(a, b) }

func sameColor(a, b *scenegraph.Color) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Near(*b, ColorTol)
}

// normText folds the empty text forms (empty, "None", "null") into "" and trims
// trailing whitespace (ACE App. E.4).
func normText(s string) string {
	t := strings.TrimRight(s, " \t\r\n")
	switch strings.ToLower(strings.TrimSpace(t)) {
	case "none", "null", "nil":
		return ""
	}
	return t
}

func f64(p *float64, def float64) float64 {
	if p == nil {
		return def
	}
	return *p
}

// round2 keeps two decimals for display.
func round2(v float64) float64 { return math.Round(v*100) / 100 }
