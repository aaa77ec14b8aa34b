package pptx

import (
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// retheme sets a palette token and re-resolves every paint that refers to it,
// as a rebrand recipe does.
func retheme(d *sg.Deck, name string, c sg.Color) int {
	d.Tokens.Colors[name] = c
	n := 0
	fix := func(ps []sg.Paint) {
		for i := range ps {
			if tc := ps[i].ThemeColor; tc != nil && tc.Name == name {
				r := c
				for _, m := range tc.Mods {
					r = applyMod(r, m.Op, m.Val)
				}
				ps[i].Color = &r
				n++
			}
		}
	}
	d.Walk(func(x *sg.Node, _ *sg.Node, _ int) bool {
		fix(x.Fills)
		fix(x.Strokes)
		if x.Style != nil {
			fix(x.Style.Fills)
		}
		for k, st := range x.StyleOverrideTable {
			fix(st.Fills)
			x.StyleOverrideTable[k] = st
		}
		return true
	})
	return n
}

// TestRethemeWritesTheTheme: changing a palette token rewrites the theme's
// colour scheme, and every paint that follows the token comes back with the
// new colour and its theme reference.
func TestRethemeWritesTheTheme(t *testing.T) {
	data := readDeck(t, "Iphone16Pro.pptx")
	d, blobs, err := Import(data, "Iphone16Pro.pptx")
	if err != nil {
		t.Fatal(err)
	}
	brand := sg.MustHex("#C2185B")
	n := retheme(d, "accent1", brand)
	d.Tokens.Fonts.Major.Latin = "Georgia"
	if n == 0 {
		t.Fatal("no paint refers to accent1")
	}
	out, err := Export(d, blobs)
	if err != nil {
		t.Fatal(err)
	}
	d2, _, err := Import(out, "rethemed.pptx")
	if err != nil {
		t.Fatal(err)
	}
	if got := d2.Tokens.Colors["accent1"]; !got.Near(brand, 0.002) {
		t.Errorf("accent1 = %s after re-import, want %s", got.Hex(), brand.Hex())
	}
	if d2.Tokens.Fonts.Major.Latin != "Georgia" {
		t.Errorf("major font = %q, want Georgia", d2.Tokens.Fonts.Major.Latin)
	}
	ix2 := sg.NewIndex(d2)
	checked := 0
	d.Walk(func(x *sg.Node, _ *sg.Node, _ int) bool {
		y := ix2.Node(x.ID)
		if y == nil {
			t.Errorf("node %s lost", x.ID)
			return true
		}
		if x.Style != nil && len(x.Style.Fills) > 0 && x.Style.Fills[0].ThemeColor != nil && x.Style.Fills[0].ThemeColor.Name == "accent1" {
			checked++
			if !y.Style.Fills[0].Color.Near(*x.Style.Fills[0].Color, 0.002) || y.Style.Fills[0].ThemeColor == nil {
				t.Errorf("node %s text colour %s (theme %v), want %s", x.ID, y.Style.Fills[0].Color.Hex(), y.Style.Fills[0].ThemeColor, x.Style.Fills[0].Color.Hex())
			}
		}
		return true
	})
	t.Logf("%d paints re-themed, %d text colours checked", n, checked)
	if checked == 0 {
		t.Error("no accent1 text colour checked")
	}
}
