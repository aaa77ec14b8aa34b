package scenegraph

import (
	"fmt"
	"strconv"
	"strings"
)

// Length units a tool argument or recipe value may carry, with their size
// in px (CSS Values 4 §6.2 absolute lengths: 1in = 96px = 72pt = 2.54cm).
var lengthUnits = map[string]float64{
	"px": 1,
	"pt": PxPerPt,
	"in": 96,
	"cm": 96 / 2.54,
	"mm": 96 / 25.4,
}

// ParseLength reads a length written as a number with an optional unit,
// "19pt", "0.5in", "2cm", "12.7mm", "24px" or "24" (spaces between number
// and unit are allowed; units are case-insensitive), and returns it in px
// (96 per inch; 1 pt = 4/3 px). A bare number is px, so existing inputs keep
// their meaning. The error names the value and the units it accepts, e.g.
// `"19 pts": unknown unit; use px, pt, in, cm or mm`; callers prefix the
// argument name.
func ParseLength(s string) (float64, error) {
	t := strings.TrimSpace(s)
	i := 0
	if i < len(t) && (t[i] == '-' || t[i] == '+') {
		i++
	}
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	num, unit := t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	v, err := strconv.ParseFloat(num, 64)
	if num == "" || err != nil {
		return 0, fmt.Errorf("%q: not a length; write a number with a unit, e.g. \"19pt\", \"0.5in\", \"2cm\", \"12.7mm\" or \"24px\" (a bare number is px)", s)
	}
	if unit == "" {
		return v, nil
	}
	f, ok := lengthUnits[unit]
	if !ok {
		return 0, fmt.Errorf("%q: unknown unit; use px, pt, in, cm or mm", s)
	}
	return v * f, nil
}
