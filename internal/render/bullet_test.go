package render

import (
	"image"
	"testing"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// inkBox returns the bounding box of the pixels in r that match, and how
// many there are.
func inkBox(img image.Image, r image.Rectangle, match func(x, y int) bool) (image.Rectangle, int) {
	box, n := image.Rectangle{}, 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if match(x, y) {
				n++
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return box, n
}

// A bullet with BulletSize 0.5 and a red BulletColor is drawn half the
// height of a plain bullet (which takes the text's size and colour), in
// red, on the same baseline; the text after it is unchanged.
func TestBulletSizeAndColor(t *testing.T) {
	mk := func(id string, y float64, p scenegraph.Paragraph) *scenegraph.Node {
		n := text(id, 100, y, 800, 100, "Item text", 40, "#000000")
		p.ListType, p.Bullet, p.MarginLeft, p.Indent = scenegraph.ListUnordered, "■", 80, -80
		n.Paragraphs = []scenegraph.Paragraph{p}
		return n
	}
	red := scenegraph.MustHex("#FF0000")
	plain := mk("plain", 100, scenegraph.Paragraph{})
	small := mk("small", 300, scenegraph.Paragraph{BulletSize: 0.5, BulletColor: &red})
	sr := renderOne(t, deck(plain, small), nil, true)
	if len(sr.Errors) != 0 {
		t.Fatalf("errors: %v", sr.Errors)
	}
	// A bullet is not a text run: the smallest font and the contrast are
	// the text's (40 px black on white), not the 20 px red bullet's.
	for _, id := range []string{"plain", "small"} {
		if m := sr.Nodes[id]; m.MinFontSize != 40 || m.Contrast < 20 {
			t.Errorf("%s: min font %g px, contrast %g; want the text's 40 px and 21:1", id, m.MinFontSize, m.Contrast)
		}
	}
	img := decodePNG(t, sr.PNG)
	dark := func(x, y int) bool { c := pixel(img, x, y); return c.R < 80 && c.G < 80 && c.B < 80 }
	isRed := func(x, y int) bool { c := pixel(img, x, y); return c.R > 200 && c.G < 60 && c.B < 60 }
	// The bullet column is the 80 px hanging indent.
	pb, pn := inkBox(img, image.Rect(100, 100, 180, 200), dark)
	sb, sn := inkBox(img, image.Rect(100, 300, 180, 400), isRed)
	if _, n := inkBox(img, image.Rect(100, 300, 180, 400), dark); n != 0 {
		t.Errorf("the coloured bullet has %d dark pixels", n)
	}
	if pn < 100 || sn < 20 {
		t.Fatalf("bullet ink: plain %d dark px, small %d red px", pn, sn)
	}
	if r := float64(sb.Dy()) / float64(pb.Dy()); r < 0.4 || r > 0.6 {
		t.Errorf("bullet heights %d (plain) and %d (0.5): ratio %.2f, want 0.5", pb.Dy(), sb.Dy(), r)
	}
	// Both squares sit on their line's baseline: bottoms 200 px apart.
	if d := (sb.Max.Y - 300) - (pb.Max.Y - 100); d < -2 || d > 2 {
		t.Errorf("bullet bottoms at %d and %d below their boxes, want equal", pb.Max.Y-100, sb.Max.Y-300)
	}
	// The text after the bullet keeps its size and colour.
	tp, _ := inkBox(img, image.Rect(180, 100, 900, 200), dark)
	ts, _ := inkBox(img, image.Rect(180, 300, 900, 400), dark)
	if tp.Dy() != ts.Dy() || tp.Dx() != ts.Dx() || tp.Min.X != ts.Min.X {
		t.Errorf("text ink %v vs %v, want the same size and place", tp, ts.Sub(image.Pt(0, 200)))
	}
}
