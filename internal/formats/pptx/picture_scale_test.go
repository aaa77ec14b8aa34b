package pptx

import (
	"archive/zip"
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"regexp"
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// stripes are the four vertical bands, left to right, of stripePNG.
var stripes = []color.RGBA{{230, 30, 30, 255}, {30, 180, 30, 255}, {30, 30, 230, 255}, {240, 220, 20, 255}}

// stripePNG is a 200x100 px picture of four 50 px wide vertical bands.
func stripePNG(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 200, 100))
	for x := 0; x < 200; x++ {
		for y := 0; y < 100; y++ {
			img.Set(x, y, stripes[x/50])
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestFitAndFillPicturesKeepTheirAspect (issue 16 item 11): a 2:1 picture
// in a square box exported with scaleMode FIT is letterboxed (negative
// a:srcRect top and bottom), with FILL it is cropped to its middle half
// (a:srcRect left and right 25%), never stretched. The file re-imports as
// the equivalent crop, and LibreOffice draws it that way: the FIT box has
// empty bands above and below the picture, the FILL box starts with the
// second stripe.
func TestFitAndFillPicturesKeepTheirAspect(t *testing.T) {
	d, blobs, err := Import(readDeck(t, "table-report.pptx"), "table-report.pptx")
	if err != nil {
		t.Fatal(err)
	}
	ix := sg.NewIndex(d)
	ref := d.AddAsset(blobs, stripePNG(t), "image/png", "stripes.png", 200, 100)
	slide := d.Slides[0]
	fit := &sg.Node{ID: d.NewID(ix), Type: sg.TypeImage, Name: "Fit", Transform: sg.Translate(40, 120), Size: sg.Vector{X: 300, Y: 300},
		Fills: []sg.Paint{{Type: sg.PaintImage, ImageRef: ref, ScaleMode: "FIT"}}}
	fill := &sg.Node{ID: d.NewID(ix), Type: sg.TypeImage, Name: "Fill", Transform: sg.Translate(420, 120), Size: sg.Vector{X: 300, Y: 300},
		Fills: []sg.Paint{{Type: sg.PaintImage, ImageRef: ref, ScaleMode: "FILL"}}}
	slide.Children = append(slide.Children, fit, fill)
	out, _, err := ExportDetailed(d, blobs)
	if err != nil {
		t.Fatal(err)
	}
	d2, _, err := Import(out, "pictures.pptx")
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*sg.Node{}
	for _, n := range d2.Slides[0].Children {
		byName[n.Name] = n
	}
	want := map[string]sg.Crop{"Fit": {Top: -0.5, Bottom: -0.5}, "Fill": {Left: 0.25, Right: 0.25}}
	for id, c := range want {
		n := byName[id]
		if n == nil || len(n.Fills) == 0 || n.Fills[0].Crop == nil {
			t.Fatalf("picture %s re-imported without a crop: %+v", id, n)
		}
		if got := *n.Fills[0].Crop; got != c {
			t.Errorf("picture %s: crop %+v, want %+v", id, got, c)
		}
	}

	img := libreOfficeFirstSlide(t, out, 96)
	stripe := func(x, y float64) int {
		r, g, b, _ := img.At(int(x), int(y)).RGBA()
		for i, s := range stripes {
			if abs(int(r>>8)-int(s.R)) < 40 && abs(int(g>>8)-int(s.G)) < 40 && abs(int(b>>8)-int(s.B)) < 40 {
				return i
			}
		}
		return -1
	}
	// FIT: the picture is 300x150 px, centred: y 195..345 of the box 120..420.
	for _, p := range []struct {
		name string
		x, y float64
		want int
	}{
		{"FIT above the picture", 40 + 150, 120 + 30, -1},
		{"FIT first stripe", 40 + 20, 120 + 150, 0},
		{"FIT last stripe", 40 + 280, 120 + 150, 3},
		{"FIT below the picture", 40 + 150, 120 + 270, -1},
		{"FILL left edge (second stripe)", 420 + 20, 120 + 20, 1},
		{"FILL right edge (third stripe)", 420 + 280, 120 + 280, 2},
	} {
		if got := stripe(p.x, p.y); got != p.want {
			t.Errorf("LibreOffice at %s (%v,%v): stripe %d, want %d", p.name, p.x, p.y, got, p.want)
		}
	}
}

// TestShapesOnAnEmptySlideGetFreshIDs (issue 16 item 11): a slide whose
// shape tree is empty still has the tree's own cNvPr id (1); a shape
// added there gets another id, so every cNvPr id of the part is unique.
func TestShapesOnAnEmptySlideGetFreshIDs(t *testing.T) {
	parts := zipParts(t, readDeck(t, "table-report.pptx"))
	slide := parts["ppt/slides/slide1.xml"]
	empty := regexp.MustCompile(`(?s)(</p:grpSpPr>).*(</p:spTree>)`).ReplaceAll(slide, []byte("$1$2"))
	if bytes.Equal(empty, slide) {
		t.Fatal("slide 1 has no shapes to remove")
	}
	// PowerPoint numbers the tree itself 1; ACE's generator did not.
	empty = regexp.MustCompile(`<p:cNvPr id="\d+"`).ReplaceAll(empty, []byte(`<p:cNvPr id="1"`))
	parts["ppt/slides/slide1.xml"] = empty
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, b := range parts {
		fw, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	d, blobs, err := Import(buf.Bytes(), "empty-slide.pptx")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(d.Slides[0].Children); n != 0 {
		t.Fatalf("slide 1 still holds %d shapes", n)
	}
	ix := sg.NewIndex(d)
	for i := range 2 {
		d.Slides[0].Children = append(d.Slides[0].Children, &sg.Node{ID: d.NewID(ix), Type: sg.TypeRectangle, Name: fmt.Sprintf("New %d", i),
			Transform: sg.Translate(float64(40+200*i), 40), Size: sg.Vector{X: 160, Y: 90}, Fills: []sg.Paint{sg.Solid(sg.MustHex("#3949AB"))}})
	}
	out, _, err := ExportDetailed(d, blobs)
	if err != nil {
		t.Fatal(err)
	}
	ids := regexp.MustCompile(`<p:cNvPr id="(\d+)"`).FindAllSubmatch(zipParts(t, out)["ppt/slides/slide1.xml"], -1)
	if len(ids) != 3 {
		t.Fatalf("%d cNvPr elements, want the tree's and two shapes'", len(ids))
	}
	seen := map[string]bool{}
	for _, m := range ids {
		if seen[string(m[1])] {
			t.Errorf("cNvPr id %s used twice in slide 1", m[1])
		}
		seen[string(m[1])] = true
	}
}
