package render

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/scenegraph"
)

func imageNode(id string, x, y, w, h float64, ref string) *scenegraph.Node {
	return &scenegraph.Node{ID: id, Type: scenegraph.TypeImage, Transform: scenegraph.Translate(x, y),
		Size: scenegraph.Vector{X: w, Y: h}, Fills: []scenegraph.Paint{{Type: scenegraph.PaintImage, ImageRef: ref}}}
}

func TestImageCropFitAndFill(t *testing.T) {
	blobs := scenegraph.Blobs{}
	d := deck()
	ref := d.AddAsset(blobs, twoTonePNG(t, 200, 100), "image/png", "two.png", 200, 100)
	stretch := imageNode("stretch", 0, 0, 200, 100, ref)
	crop := imageNode("crop", 300, 0, 200, 100, ref)
	crop.Fills[0].Crop = &scenegraph.Crop{Left: 0.5} // keep the blue half
	fit := imageNode("fit", 0, 200, 200, 200, ref)
	fit.Fills[0].ScaleMode = "FIT" // letterboxed: 200x100 centred
	fill := imageNode("fill", 300, 200, 100, 200, ref)
	fill.Fills[0].ScaleMode = "FILL" // covers: the middle of the picture
	d.Slides[0].Children = []*scenegraph.Node{stretch, crop, fit, fill}
	sr := renderOne(t, d, blobs, true)
	if len(sr.Errors) > 0 {
		t.Fatalf("errors: %v", sr.Errors)
	}
	img := decodePNG(t, sr.PNG)
	checks := []struct {
		x, y    int
		r, g, b uint8
		what    string
	}{
		{50, 50, 255, 0, 0, "stretch left half red"},
		{150, 50, 0, 0, 255, "stretch right half blue"},
		{310, 50, 0, 0, 255, "crop keeps only the blue half"},
		{490, 50, 0, 0, 255, "crop right edge blue"},
		{100, 210, 255, 255, 255, "fit leaves a white band above"},
		{50, 300, 255, 0, 0, "fit draws the picture in the middle"},
		{320, 300, 255, 0, 0, "fill covers: left part red"},
		{380, 300, 0, 0, 255, "fill covers: right part blue"},
	}
	for _, c := range checks {
		if got := pixel(img, c.x, c.y); !isColor(got, c.r, c.g, c.b) {
			t.Errorf("%s: pixel (%d,%d) = %v", c.what, c.x, c.y, got)
		}
	}
	if m := sr.Nodes["fill"]; m.Image == nil || m.Image.X != 200 || m.ImageFit != "cover" {
		t.Errorf("fill image measure: %+v", m)
	}
}

func TestMissingAndUndrawableImagesAreReported(t *testing.T) {
	blobs := scenegraph.Blobs{}
	d := deck()
	emf := d.AddAsset(blobs, []byte{1, 0, 0, 0, 0x6c, 0, 0, 0, 0, 0, 0, 0, 0x20, 0x45, 0x4d, 0x46}, "image/x-emf", "a.emf", 0, 0)
	d.Slides[0].Children = []*scenegraph.Node{imageNode("gone", 0, 0, 100, 100, strings.Repeat("ab", 32)), imageNode("emf", 200, 0, 100, 100, emf)}
	sr := renderOne(t, d, blobs, false)
	got := map[string]string{}
	for _, e := range sr.Errors {
		got[e.NodeID] = e.Message
	}
	if !strings.Contains(got["gone"], "not found") || !strings.Contains(got["emf"], "not drawable") {
		t.Errorf("errors = %v", sr.Errors)
	}
}

func TestVectorPathIsFilled(t *testing.T) {
	v := &scenegraph.Node{ID: "tri", Type: scenegraph.TypeVector, Transform: scenegraph.Translate(100, 100),
		Size:  scenegraph.Vector{X: 200, Y: 200},
		Paths: []scenegraph.VectorPath{{Path: "M0 200 L100 0 L200 200 Z"}},
		Fills: []scenegraph.Paint{scenegraph.Solid(scenegraph.MustHex("#00AA00"))}}
	bad := &scenegraph.Node{ID: "bad", Type: scenegraph.TypeVector, Transform: scenegraph.Translate(400, 100),
		Size: scenegraph.Vector{X: 10, Y: 10}, Paths: []scenegraph.VectorPath{{Path: `M0 0"/><script>x</script>`}}}
	sr := renderOne(t, deck(v, bad), nil, true)
	img := decodePNG(t, sr.PNG)
	if c := pixel(img, 200, 250); !isColor(c, 0, 0xAA, 0) {
		t.Errorf("inside the triangle: %v", c)
	}
	if c := pixel(img, 110, 110); !isColor(c, 255, 255, 255) {
		t.Errorf("outside the triangle: %v", c)
	}
	if len(sr.Errors) != 1 || sr.Errors[0].NodeID != "bad" {
		t.Errorf("unsafe path should be skipped with an error: %v", sr.Errors)
	}
}

func TestTableGridPlacesCellsAndSpans(t *testing.T) {
	cell := func(id string, r, c, cs int, s string) *scenegraph.Node {
		n := &scenegraph.Node{ID: id, Type: scenegraph.TypeTableCell, Cell: &scenegraph.Cell{Row: r, Column: c, ColSpan: cs}}
		n.Characters = s
		n.Style = &scenegraph.TypeStyle{FontSize: 16}
		return n
	}
	tb := &scenegraph.Node{ID: "tb", Type: scenegraph.TypeTable, Transform: scenegraph.Translate(100, 100),
		Size:  scenegraph.Vector{X: 300, Y: 80},
		Table: &scenegraph.Table{Columns: []float64{100, 200}, Rows: []float64{40, 40}},
		Children: []*scenegraph.Node{cell("h", 0, 0, 2, "Header"), cell("a", 1, 0, 1, "a"),
			cell("b", 1, 1, 1, "A long cell text that must wrap onto several lines in its column")}}
	sr := renderOne(t, deck(tb), nil, false)
	assertRect(t, "header spans both columns", sr.Nodes["h"].Bounds, 100, 100, 300, 40, 0.01)
	assertRect(t, "a", sr.Nodes["a"].Bounds, 100, 140, 100, sr.Nodes["b"].Bounds.Height, 0.01)
	if b := sr.Nodes["b"]; b.Bounds.Height <= 40 || b.Overflow {
		t.Errorf("the row grows to fit its wrapped cell: %+v", b)
	}
	if tbm := sr.Nodes["tb"]; tbm.Bounds.Height <= 80 {
		t.Errorf("table grows with its row: %+v", tbm.Bounds)
	}
}

// Cell borders are centred on the grid lines as DrawingML draws them: two
// cells sharing an edge show one line of the stated weight, and the lines
// take no room from the cells' layout.
func TestTableCellBordersAreCentredOnGridLines(t *testing.T) {
	blue := scenegraph.MustHex("#0000FF")
	bd := &scenegraph.Border{Color: blue, Weight: 4}
	cell := func(id string, c int) *scenegraph.Node {
		return &scenegraph.Node{ID: id, Type: scenegraph.TypeTableCell, Cell: &scenegraph.Cell{Row: 0, Column: c,
			Borders: &scenegraph.Borders{Left: bd, Top: bd, Right: bd, Bottom: bd}}}
	}
	tb := &scenegraph.Node{ID: "tb", Type: scenegraph.TypeTable, Transform: scenegraph.Translate(100, 100),
		Size: scenegraph.Vector{X: 400, Y: 100}, Table: &scenegraph.Table{Columns: []float64{200, 200}, Rows: []float64{100}},
		Children: []*scenegraph.Node{cell("a", 0), cell("b", 1)}}
	sr := renderOne(t, deck(tb), nil, true)
	assertRect(t, "a", sr.Nodes["a"].Bounds, 100, 100, 200, 100, 0.01)
	assertRect(t, "b", sr.Nodes["b"].Bounds, 300, 100, 200, 100, 0.01)
	img := decodePNG(t, sr.PNG)
	blueRun := 0
	for x := 290; x < 310; x++ {
		if isColor(pixel(img, x, 150), 0, 0, 255) {
			blueRun++
		}
	}
	if blueRun != 4 {
		t.Errorf("the shared edge at x=300 is %d px of blue, want one 4 px line", blueRun)
	}
	if !isColor(pixel(img, 299, 150), 0, 0, 255) || !isColor(pixel(img, 300, 150), 0, 0, 255) || isColor(pixel(img, 303, 150), 0, 0, 255) {
		t.Error("the shared line should be centred on x=300 (298..302)")
	}
}

func TestChartDrawsBarsFromData(t *testing.T) {
	red := scenegraph.MustHex("#FF0000")
	ch := &scenegraph.Node{ID: "ch", Type: scenegraph.TypeChart, Transform: scenegraph.Translate(100, 100),
		Size: scenegraph.Vector{X: 600, Y: 400},
		Chart: &scenegraph.Chart{ChartType: scenegraph.ChartColumn, Title: "Revenue <b>",
			Categories: []string{"Q1", "Q2", "Q3"},
			Series:     []scenegraph.Series{{Name: "2025", Values: []float64{10, 20, 30}, Color: &red}}}}
	d := deck(ch)
	h, err := HTML(d, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(h, `fill="rgba(255,0,0,1)"`); n != 3 {
		t.Errorf("want 3 red bars in the SVG, got %d", n)
	}
	if !strings.Contains(h, "Revenue &lt;b&gt;") {
		t.Error("chart title must be escaped")
	}
	sr := renderOne(t, d, nil, true)
	img := decodePNG(t, sr.PNG)
	// The tallest bar (Q3 = 30) reaches high; find red in the right third.
	found := false
	for y := 150; y < 480 && !found; y += 4 {
		for x := 500; x < 690; x += 4 {
			if isColor(pixel(img, x, y), 255, 0, 0) {
				found = true
				break
			}
		}
	}
	if !found {
		t.Error("no red bar pixels in the Q3 column")
	}
	for _, kind := range []string{scenegraph.ChartBar, scenegraph.ChartLine, scenegraph.ChartPie, scenegraph.ChartDoughnut, scenegraph.ChartArea, scenegraph.ChartScatter} {
		ch.Chart.ChartType = kind
		h, err := HTML(d, 0, nil)
		if err != nil || !strings.Contains(h, "<svg") {
			t.Errorf("%s: no SVG (%v)", kind, err)
		}
	}
}

func TestConnectorAndLineDraw(t *testing.T) {
	a := rect("a", 100, 100, 100, 100, "#DDDDDD")
	b := rect("b", 500, 100, 100, 100, "#DDDDDD")
	conn := &scenegraph.Node{ID: "conn", Type: scenegraph.TypeConnector, Transform: scenegraph.Translate(0, 0),
		Strokes: []scenegraph.Paint{scenegraph.Solid(scenegraph.MustHex("#0000FF"))}, StrokeWeight: 4,
		Connector: &scenegraph.Connector{Start: scenegraph.Endpoint{NodeID: "a", Magnet: "RIGHT"}, End: scenegraph.Endpoint{NodeID: "b", Magnet: "LEFT"}, EndCap: "ARROW_EQUILATERAL"}}
	line := &scenegraph.Node{ID: "line", Type: scenegraph.TypeLine, Transform: scenegraph.Translate(100, 400),
		Size: scenegraph.Vector{X: 400, Y: 0}, Strokes: []scenegraph.Paint{scenegraph.Solid(scenegraph.MustHex("#FF0000"))}, StrokeWeight: 4}
	sr := renderOne(t, deck(a, b, conn, line), nil, true)
	img := decodePNG(t, sr.PNG)
	if c := pixel(img, 350, 150); !isColor(c, 0, 0, 255) {
		t.Errorf("connector midpoint: %v, want blue", c)
	}
	if c := pixel(img, 300, 400); !isColor(c, 255, 0, 0) {
		t.Errorf("line midpoint: %v, want red", c)
	}
}

func TestPresetGeometryIsDrawn(t *testing.T) {
	chev := rect("chev", 100, 100, 200, 100, "#0000FF")
	chev.Type, chev.Preset = scenegraph.TypeVector, "chevron"
	arrow := rect("arrow", 400, 100, 200, 100, "#00AA00")
	arrow.Preset = "rightArrow"
	round := rect("round", 700, 100, 200, 100, "#FF0000")
	round.Preset = "roundRect"
	sr := renderOne(t, deck(chev, arrow, round), nil, true)
	img := decodePNG(t, sr.PNG)
	checks := []struct {
		x, y    int
		r, g, b uint8
		what    string
	}{
		{200, 150, 0, 0, 255, "chevron body"},
		{110, 150, 255, 255, 255, "chevron notch on the left"},
		{295, 150, 0, 0, 255, "chevron tip"},
		{295, 105, 255, 255, 255, "chevron top-right corner cut"},
		{450, 150, 0, 0xAA, 0, "arrow shaft"},
		{450, 105, 255, 255, 255, "above the arrow shaft"},
		{560, 125, 0, 0xAA, 0, "arrow head"},
		{702, 102, 255, 255, 255, "rounded corner"},
		{800, 150, 255, 0, 0, "rounded rect body"},
	}
	for _, c := range checks {
		if got := pixel(img, c.x, c.y); !isColor(got, c.r, c.g, c.b) {
			t.Errorf("%s: pixel (%d,%d) = %v", c.what, c.x, c.y, got)
		}
	}
	if _, ok := presetPath("someUnknownPreset", 10, 10); ok {
		t.Error("unknown presets fall back to the box")
	}
}

// A large photo (several MB as PNG) travels to the page as a data: URI in
// the slide markup and still decodes and paints.
func TestLargeImageRenders(t *testing.T) {
	if testing.Short() {
		t.Skip("large image")
	}
	const w, h = 1100, 1100
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	x := uint32(2463534242)
	for i := range img.Pix {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		img.Pix[i] = byte(x)
	}
	for y := 0; y < h; y++ { // a solid green band to find in the render
		for xx := 0; xx < 200; xx++ {
			img.SetRGBA(xx, y, color.RGBA{0, 200, 0, 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if buf.Len() < 3<<20 {
		t.Fatalf("test image only %d bytes", buf.Len())
	}
	blobs := scenegraph.Blobs{}
	d := deck()
	ref := d.AddAsset(blobs, buf.Bytes(), "image/png", "big.png", w, h)
	d.Slides[0].Children = []*scenegraph.Node{imageNode("big", 0, 0, 700, 700, ref)}
	sr := renderOne(t, d, blobs, true)
	if len(sr.Errors) > 0 {
		t.Fatal(sr.Errors)
	}
	t.Logf("%d-byte image: slide rendered in %s", buf.Len(), sr.Duration)
	if c := pixel(decodePNG(t, sr.PNG), 50, 300); !isColor(c, 0, 200, 0) {
		t.Errorf("the big image's green band: %v", c)
	}
}

// TestFramePresetLeavesTheMiddleOpen: a:prstGeom "frame" (career-tips'
// layouts 10 and 11 draw their white border with it) paints a border, not
// the whole box: what lies under the middle shows.
func TestFramePresetLeavesTheMiddleOpen(t *testing.T) {
	under := rect("under", 100, 100, 400, 200, "#0000CC")
	fr := rect("frame", 100, 100, 400, 200, "#00AA00")
	fr.Type, fr.Preset = scenegraph.TypeVector, "frame"
	img := decodePNG(t, renderOne(t, deck(under, fr), nil, true).PNG)
	if c := pixel(img, 105, 200); !isColor(c, 0, 0xAA, 0) { // border: 12.5% of 200 = 25 px
		t.Errorf("on the border: %v", c)
	}
	if c := pixel(img, 300, 200); !isColor(c, 0, 0, 0xCC) {
		t.Errorf("in the middle: %v, want the blue under it", c)
	}
}
