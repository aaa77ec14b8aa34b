package render

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/libreoffice"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
)

// pythonPPTX reads one of python-pptx's PowerPoint-made files, with the
// replacements given applied to one part (old, new, old, new, ...): a
// real chart with one stored property changed.
func pythonPPTX(t *testing.T, name, part string, repl ...string) []byte {
	t.Helper()
	data, err := os.ReadFile(shareddecks.PythonPPTX(t, name)[0])
	if err != nil {
		t.Fatal(err)
	}
	if part == "" {
		return data
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if f.Name == part {
			for i := 0; i+1 < len(repl); i += 2 {
				if !bytes.Contains(b, []byte(repl[i])) {
					t.Fatalf("%s %s has no %q", name, part, repl[i])
				}
				b = bytes.Replace(b, []byte(repl[i]), []byte(repl[i+1]), 1)
			}
		}
		w, err := zw.Create(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(b)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// chartSVG imports a deck and returns its first chart node and the SVG
// the renderer draws for it.
func chartSVG(t *testing.T, data []byte, part string) (*scenegraph.Chart, string) {
	t.Helper()
	d, _, err := pptx.Import(data, "deck.pptx")
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range d.Slides {
		var ch *scenegraph.Node
		s.Walk(func(n, _ *scenegraph.Node, _ int) bool {
			if ch == nil && n.Type == scenegraph.TypeChart && n.Chart != nil && n.Chart.Part == part {
				ch = n
			}
			return ch == nil
		})
		if ch == nil {
			continue
		}
		h, err := HTML(d, i, nil)
		if err != nil {
			t.Fatal(err)
		}
		at := strings.Index(h, `data-id="`+ch.ID+`"`)
		if at < 0 {
			t.Fatalf("chart %s not in the slide's HTML", ch.ID)
		}
		svg := h[at:]
		svg = svg[strings.Index(svg, `<svg class="vl"`):]
		return ch.Chart, svg[:strings.Index(svg, "</svg>")]
	}
	t.Fatalf("no chart shows %s", part)
	return nil, ""
}

var svgText = regexp.MustCompile(`<text x="([-0-9.]+)" y="([-0-9.]+)"[^>]*>([^<]*)</text>`)

// labelY returns the y of each text label of the SVG by its text.
func labelY(svg string) map[string]float64 {
	out := map[string]float64{}
	for _, m := range svgText.FindAllStringSubmatch(svg, -1) {
		y, _ := strconv.ParseFloat(m[2], 64)
		out[m[3]] = y
	}
	return out
}

// pdfLabelY returns the top of each word LibreOffice placed on the first
// page of the PDF of data (pdftotext -bbox), by word.
func pdfLabelY(t *testing.T, files map[string][]byte) map[string]map[string]float64 {
	t.Helper()
	if _, err := libreoffice.Binary(); err != nil {
		t.Skip(err)
	}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed (poppler-utils)")
	}
	pdfs, err := libreoffice.ToPDF(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]float64{}
	word := regexp.MustCompile(`<word xMin="[-0-9.]+" yMin="([-0-9.]+)"[^>]*>([^<]*)</word>`)
	for name, pdf := range pdfs {
		p := filepath.Join(t.TempDir(), "x.pdf")
		if err := os.WriteFile(p, pdf, 0o644); err != nil {
			t.Fatal(err)
		}
		html, err := exec.Command("pdftotext", "-bbox", "-f", "1", "-l", "1", p, "-").Output()
		if err != nil {
			t.Fatal(err)
		}
		ys := map[string]float64{}
		var prev string
		for _, m := range word.FindAllStringSubmatch(string(html), -1) {
			y, _ := strconv.ParseFloat(m[1], 64)
			if prev == "Category" { // "Category" "1" are two words
				ys["Category "+m[2]] = y
			}
			prev = m[2]
		}
		out[name] = ys
	}
	return out
}

// TestHorizontalBarCategoriesFromTheBottom: a horizontal bar chart
// (c:barDir="bar", python-pptx's cht-charts.pptx made by PowerPoint) draws
// its first category at the bottom, as PowerPoint and LibreOffice do,
// and at the top once its category axis is c:orientation maxMin. The
// order is checked against LibreOffice's PDF of the same two files.
func TestHorizontalBarCategoriesFromTheBottom(t *testing.T) {
	const part = "ppt/charts/chart1.xml"
	asStored := pythonPPTX(t, "cht-charts.pptx", "")
	reversed := pythonPPTX(t, "cht-charts.pptx", part, `<c:catAx><c:axId val="2124523624"/><c:scaling><c:orientation val="minMax"/>`, `<c:catAx><c:axId val="2124523624"/><c:scaling><c:orientation val="maxMin"/>`)
	cats := []string{"Category 1", "Category 2", "Category 3", "Category 4"}
	order := func(ys map[string]float64) string { // "up" when Category 1 is lowest
		up, down := true, true
		for i := 1; i < len(cats); i++ {
			a, okA := ys[cats[i-1]]
			b, okB := ys[cats[i]]
			if !okA || !okB {
				return "missing"
			}
			up = up && a > b
			down = down && a < b
		}
		switch {
		case up:
			return "up"
		case down:
			return "down"
		}
		return "mixed"
	}
	ch, svg := chartSVG(t, asStored, part)
	if ch.ChartType != scenegraph.ChartBar || ch.CategoryAxis == nil || ch.CategoryAxis.Reversed {
		t.Fatalf("imported %s with category axis %+v, want BAR in order", ch.ChartType, ch.CategoryAxis)
	}
	if got := order(labelY(svg)); got != "up" {
		t.Errorf("as stored: categories run %s, want up (Category 1 at the bottom)", got)
	}
	ch, svg = chartSVG(t, reversed, part)
	if !ch.CategoryAxis.Reversed {
		t.Fatal("maxMin not imported as a reversed category axis")
	}
	if got := order(labelY(svg)); got != "down" {
		t.Errorf("maxMin: categories run %s, want down (Category 1 at the top)", got)
	}
	if testing.Short() {
		return
	}
	lo := pdfLabelY(t, map[string][]byte{"stored.pptx": asStored, "reversed.pptx": reversed})
	if got := order(lo["stored.pptx"]); got != "up" {
		t.Errorf("LibreOffice draws the stored chart's categories %s; this test expects up", got)
	}
	if got := order(lo["reversed.pptx"]); got != "down" {
		t.Errorf("LibreOffice draws the maxMin chart's categories %s; this test expects down", got)
	}
}

var pieSliceFill = regexp.MustCompile(`<path d="M[^"]*" fill="([^"]+)"`)

// TestPieVaryColors: a pie with c:varyColors="1" (cht-series.pptx) draws
// each slice in its own colour; the same pie stored with varyColors="0"
// draws every slice in the series' one colour.
func TestPieVaryColors(t *testing.T) {
	const part = "ppt/charts/chart11.xml"
	distinct := func(svg string) int {
		seen := map[string]bool{}
		for _, m := range pieSliceFill.FindAllStringSubmatch(svg, -1) {
			seen[m[1]] = true
		}
		return len(seen)
	}
	ch, svg := chartSVG(t, pythonPPTX(t, "cht-series.pptx", ""), part)
	if ch.ChartType != scenegraph.ChartPie || ch.VaryColors == nil || !*ch.VaryColors {
		t.Fatalf("imported %s varyColors %v, want a PIE varying colours", ch.ChartType, ch.VaryColors)
	}
	if n := distinct(svg); n != 4 {
		t.Errorf("varyColors=1: %d slice colours, want 4", n)
	}
	ch, svg = chartSVG(t, pythonPPTX(t, "cht-series.pptx", part, `<c:varyColors val="1"/>`, `<c:varyColors val="0"/>`), part)
	if ch.VaryColors == nil || *ch.VaryColors {
		t.Fatal("varyColors=0 not imported")
	}
	if n, slices := distinct(svg), len(pieSliceFill.FindAllString(svg, -1)); n != 1 || slices != 4 {
		t.Errorf("varyColors=0: %d slices in %d colours, want 4 in 1", slices, n)
	}
}

// TestGridlinesAsStored: value-axis gridlines are drawn only where the
// chart stores c:majorGridlines (cht-charts.pptx has them: one per value
// tick), none once removed; c:minorGridlines (cht-axis-props.pptx) add
// lighter lines between them.
func TestGridlinesAsStored(t *testing.T) {
	major := func(svg string) int { return strings.Count(svg, `stroke="#D9D9D9"`) }
	minor := func(svg string) int { return strings.Count(svg, `stroke="#EDEDED"`) }
	_, svg := chartSVG(t, pythonPPTX(t, "cht-charts.pptx", ""), "ppt/charts/chart1.xml")
	if n := major(svg); n < 3 || minor(svg) != 0 {
		t.Errorf("stored major gridlines: %d major and %d minor lines drawn, want one per tick (at least 3) and no minor", n, minor(svg))
	}
	_, svg = chartSVG(t, pythonPPTX(t, "cht-charts.pptx", "ppt/charts/chart1.xml", `<c:majorGridlines/>`, ``), "ppt/charts/chart1.xml")
	if n := major(svg); n != 0 {
		t.Errorf("no c:majorGridlines: %d gridlines drawn, want 0", n)
	}
	ch, svg := chartSVG(t, pythonPPTX(t, "cht-axis-props.pptx", ""), "ppt/charts/chart1.xml")
	if ch.ValueAxis == nil || !ch.ValueAxis.MinorGridlines {
		t.Fatalf("value axis %+v, want minor gridlines imported", ch.ValueAxis)
	}
	if minor(svg) == 0 {
		t.Error("stored minor gridlines not drawn")
	}
}

// TestChartNumberFormats: tick labels follow the value axis' own number
// format (cht-charts.pptx stored with c:numFmt "0.00" not linked to the
// source), and data labels their series' format: a value of 0.16 with
// "0.0%" reads 16.0%, as PowerPoint shows it.
func TestChartNumberFormats(t *testing.T) {
	const part = "ppt/charts/chart1.xml"
	ch, svg := chartSVG(t, pythonPPTX(t, "cht-charts.pptx", part, `<c:numFmt formatCode="General" sourceLinked="1"/>`, `<c:numFmt formatCode="0.00" sourceLinked="0"/>`), part)
	if ch.ValueAxis == nil || ch.ValueAxis.NumberFormat != "0.00" {
		t.Fatalf("value axis %+v, want its 0.00 format imported", ch.ValueAxis)
	}
	for _, want := range []string{"0.00", "1.00", "2.00", "5.00"} {
		if _, ok := labelY(svg)[want]; !ok {
			t.Errorf("no tick label %q (labels %v)", want, labelY(svg))
		}
	}
	n := &scenegraph.Node{ID: "c", Type: scenegraph.TypeChart, Size: scenegraph.Vector{X: 600, Y: 400},
		Chart: &scenegraph.Chart{ChartType: scenegraph.ChartColumn, DataLabels: true, Categories: []string{"a", "b"},
			Series: []scenegraph.Series{{Name: "share", Values: []float64{0.16, 0.125}, FormatCode: "0.0%"}}}}
	h, err := HTML(deck(n), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h, ">16.0%</text>") || !strings.Contains(h, ">12.5%</text>") {
		t.Errorf("data labels not in the series' 0.0%% format")
	}
}

// TestPercentStackedBars: a bar chart stacked to 100% (c:grouping
// percentStacked, cht-chart-type.pptx's chart9) is drawn on an axis from
// 0% to 100% with each category's bars filling it, as PowerPoint and
// LibreOffice draw it, not on the sum of its values.
func TestPercentStackedBars(t *testing.T) {
	ch, svg := chartSVG(t, pythonPPTX(t, "cht-chart-type.pptx", ""), "ppt/charts/chart9.xml")
	if !ch.Stacked || !ch.PercentStacked {
		t.Fatalf("grouping imported as stacked=%v percent=%v, want a stack to 100%%", ch.Stacked, ch.PercentStacked)
	}
	labels := labelY(svg)
	for _, want := range []string{"0%", "20%", "100%"} {
		if _, ok := labels[want]; !ok {
			t.Errorf("no tick %q (labels %v)", want, labels)
		}
	}
	if _, ok := labels["120%"]; ok {
		t.Error("the axis runs past 100%")
	}
}
