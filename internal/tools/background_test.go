package tools

import (
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// A footer line that crosses a white area and a dark band gets a colour
// that reads on both where one exists, else the better of black and white.
func TestReadableOnAllBackgrounds(t *testing.T) {
	white, navy := sg.MustHex("#FFFFFF"), sg.MustHex("#102040")
	if c := readableOnAll([]sg.Color{white, white}); c.Hex() != "#404040" {
		t.Errorf("on white: %s, want the quiet dark grey", c.Hex())
	}
	mixed := []sg.Color{white, navy}
	c := readableOnAll(mixed)
	worst := min(contrast(c, white), contrast(c, navy))
	for _, other := range []sg.Color{sg.MustHex("#000000"), sg.MustHex("#FFFFFF"), sg.MustHex("#404040"), sg.MustHex("#F2F2F2")} {
		if w := min(contrast(other, white), contrast(other, navy)); w > worst+1e-9 {
			t.Errorf("chose %s (worst %.2f) but %s reads better on both (worst %.2f)", c.Hex(), worst, other.Hex(), w)
		}
	}
}

// A backdrop that is light in one place and dark in another (a photo under
// the footer line) has no text colour that reads on all of it: white on a
// translucent black plate does, at the least opacity that lifts every part
// to WCAG AA. A uniform backdrop needs no plate.
func TestCaptionPlateOnABusyPhoto(t *testing.T) {
	dark, light, mid := sg.MustHex("#101010"), sg.MustHex("#E8E0D0"), sg.MustHex("#8A7F70")
	busy := []sg.Color{dark, light, mid, dark}
	col := readableOnAll(busy)
	a, ok := captionPlate(col, busy)
	if !ok {
		t.Fatalf("no plate for %s over light and dark", col.Hex())
	}
	white := sg.MustHex("#FFFFFF")
	for _, bg := range busy {
		under := sg.Color{R: bg.R * (1 - a), G: bg.G * (1 - a), B: bg.B * (1 - a), A: 1}
		if c := contrast(white, under); c < 4.5 {
			t.Errorf("plate %.2f over %s: white reads at %.2f:1", a, bg.Hex(), c)
		}
	}
	if a > 0.45 {
		lighter := a - 0.1
		under := sg.Color{R: light.R * (1 - lighter), G: light.G * (1 - lighter), B: light.B * (1 - lighter), A: 1}
		if contrast(white, under) >= 4.5 {
			t.Errorf("plate %.2f is heavier than needed: %.2f already reads", a, lighter)
		}
	}
	t.Logf("busy photo: plate opacity %.2f", a)
	for _, bg := range []sg.Color{dark, light} {
		if _, ok := captionPlate(readableOn(bg), []sg.Color{bg, bg}); ok {
			t.Errorf("uniform %s got a plate", bg.Hex())
		}
	}
}

// TestNewSlideTextReadsOnADarkDeck: a slide created on a dark deck takes
// the neighbour's background, so its title and body must not be the
// default black: they take the neighbour's title and body colours.
func TestNewSlideTextReadsOnADarkDeck(t *testing.T) {
	d := &sg.Deck{ID: "d", Width: 1280, Height: 720}
	s1 := &sg.Node{ID: "s1", Type: sg.TypeSlide, Transform: sg.Identity, Size: sg.Vector{X: 1280, Y: 720},
		Fills: []sg.Paint{sg.Solid(sg.MustHex("#1E2A33"))}}
	title := &sg.Node{ID: "t1", Type: sg.TypeText, Transform: sg.Translate(64, 48), Size: sg.Vector{X: 800, Y: 60},
		Placeholder: &sg.Placeholder{Role: "title"}}
	title.Characters = "Dark deck"
	title.Style = &sg.TypeStyle{FontSize: 40, Fills: []sg.Paint{sg.Solid(sg.MustHex("#8DC63F"))}}
	s1.Children = []*sg.Node{title}
	d.Slides = []*sg.Node{s1}
	out, res, err := Apply(d, []Call{{Tool: "create_slide", Args: []byte(`{"title":"Added","body":"One point"}`)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s2, _ := out.SlideByID(res[0].Created[0])
	bg, _ := paintColor(s2.Fills)
	for _, c := range s2.Children {
		col, ok := firstSolid(c.StyleAt(0).Fills)
		if !ok {
			col = sg.MustHex("#000000")
		}
		if r := contrast(col, bg); r < 4.5 {
			t.Errorf("%s %q: %s on %s reads at %.2f:1", placeholderRole(c), c.Characters, col.Hex(), bg.Hex(), r)
		}
		if placeholderRole(c) == "title" && col.Hex() != "#8DC63F" {
			t.Errorf("title %s, want the neighbour's title colour #8DC63F", col.Hex())
		}
	}
}
