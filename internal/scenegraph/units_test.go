package scenegraph

import (
	"math"
	"strings"
	"testing"
)

func TestParseLength(t *testing.T) {
	for in, want := range map[string]float64{
		"24": 24, "24px": 24, "19pt": 19 * 4.0 / 3, "19 pt": 19 * 4.0 / 3, "0.5in": 48, "2cm": 2 * 96 / 2.54,
		"12.7mm": 48, " 36PT ": 48, "-3px": -3, ".5in": 48,
	} {
		got, err := ParseLength(in)
		if err != nil || math.Abs(got-want) > 1e-9 {
			t.Errorf("ParseLength(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for in, msg := range map[string]string{
		"19 pts":  `"19 pts": unknown unit; use px, pt, in, cm or mm`,
		"19em":    "unknown unit",
		"pt":      "not a length",
		"":        "not a length",
		"1.2.3pt": "not a length",
	} {
		if _, err := ParseLength(in); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("ParseLength(%q) error = %v; want it to contain %q", in, err, msg)
		}
	}
}
