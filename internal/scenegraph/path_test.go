package scenegraph

import (
	"strings"
	"testing"
)

func TestScalePath(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"M0 0 L10 0 L10 20 Z", "M0 0 L20 0 L20 60 Z"},
		{"M0,0 10,0 10,20z", "M0 0 20 0 20 60 z"},   // implicit line-to after M
		{"m1 1 h10 v5 H0 V0", "m2 3 h20 v15 H0 V0"}, // horizontal and vertical lengths
		{"M0 0C1 2 3 4 5 6S7 8 9 10Q1 1 2 2T3 3", "M0 0 C2 6 6 12 10 18 S14 24 18 30 Q2 3 4 6 T6 9"},
		{"M0 0a5 5 30 0110 10", "M0 0 a10 15 30 0 1 20 30"}, // arc: radii scale, rotation and flags kept
		{"M.5-1e1L-2.5.25", "M1 -30 L-5 0.75"},              // compact numbers
		{"", ""},
	} {
		got, err := ScalePath(c.in, 2, 3)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got != c.want {
			t.Errorf("ScalePath(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, bad := range []string{"M0 0 X5", "10 10", "M0", "M0 0 A5 5 0 2 1 3 3"} {
		if _, err := ScalePath(bad, 2, 2); err == nil || !strings.Contains(err.Error(), "path") {
			t.Errorf("ScalePath(%q) error = %v, want one naming the path", bad, err)
		}
	}
	// Scaling back restores the path (up to the 3-decimal rounding).
	in := "M10 20 C30 40 50 60 70 80 L5 5 Z"
	up, _ := ScalePath(in, 4, 0.5)
	back, _ := ScalePath(up, 0.25, 2)
	if want := "M10 20 C30 40 50 60 70 80 L5 5 Z"; back != want {
		t.Errorf("round trip %q -> %q -> %q", in, up, back)
	}
}

func FuzzScalePath(f *testing.F) {
	for _, s := range []string{"M0 0 L10 0 Z", "m1 1 h10 v5", "M0 0a5 5 30 0110 10", "M.5-1e1L-2.5.25", "M0 0C1 2 3 4 5 6", "M0 0 L1e305 0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, d string) {
		out, err := ScalePath(d, 2, 3)
		if err != nil {
			return
		}
		// Output is itself a valid path that scales again.
		if _, err := ScalePath(out, 0.5, 1.0/3); err != nil {
			t.Fatalf("ScalePath(%q) = %q, which does not parse: %v", d, out, err)
		}
	})
}
