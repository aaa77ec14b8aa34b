package scenegraph

import "testing"

func TestColorModsFollowDrawingML(t *testing.T) {
	cases := []struct {
		base string
		mods []ColorMod
		want string
	}{
		{"#FF0000", []ColorMod{{"lumMod", 0.5}}, "#800000"},                  // lightness 0.5 -> 0.25
		{"#000000", []ColorMod{{"lumMod", 0.5}, {"lumOff", 0.5}}, "#808080"}, // "lighter 50%"
		// tint and shade work on linear channels (gamma 2.3): half of
		// white's light is 0.5^(1/2.3) = 0.74 of its sRGB value.
		{"#FFFFFF", []ColorMod{{"shade", 0.5}}, "#BDBDBD"},
		{"#000000", []ColorMod{{"tint", 0.25}}, "#E1E1E1"},
		{"#C0504D", []ColorMod{{"hue", 120}}, "#4DC04D"},
		{"#C0504D", []ColorMod{{"comp", 0}}, "#4DBDC0"},
		{"#C0504D", []ColorMod{{"gray", 0}}, "#686868"},
		{"#3366CC", []ColorMod{{"alpha", 0.5}, {"alphaMod", 0.5}}, "#3366CC40"},
		{"#3366CC", []ColorMod{{"alpha", 0.5}}, "#3366CC80"},
		{"#808080", []ColorMod{{"satMod", 2}}, "#808080"}, // grey has no saturation to scale
		{"#3366CC", []ColorMod{{"unknown", 9}}, "#3366CC"},
	}
	for _, c := range cases {
		if got := MustHex(c.base).WithMods(c.mods).Hex(); got != c.want {
			t.Errorf("%s %v = %s, want %s", c.base, c.mods, got, c.want)
		}
	}
	h, s, l := RGBToHSL(0.2, 0.4, 0.8)
	r, g, b := HSLToRGB(h, s, l)
	if round6(r) != 0.2 || round6(g) != 0.4 || round6(b) != 0.8 {
		t.Fatalf("HSL round trip gave %v %v %v", r, g, b)
	}
}
