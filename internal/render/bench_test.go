package render

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// BenchmarkColdBrowserStart measures starting one browser with the shell
// page, MathJax and the page script loaded, and closing it.
func BenchmarkColdBrowserStart(b *testing.B) {
	for b.Loop() {
		p, err := NewPool(context.Background(), Options{Size: 1})
		if err != nil {
			b.Fatal(err)
		}
		p.Close()
	}
}

// slide1080 is a realistic 1920x1080 slide: gradient background, title,
// bullets, a picture and a chart.
func slide1080(tb testing.TB) (*scenegraph.Deck, scenegraph.Blobs) {
	blobs := scenegraph.Blobs{}
	d := deck()
	d.Width, d.Height = 1920, 1080
	s := d.Slides[0]
	s.Size = scenegraph.Vector{X: 1920, Y: 1080}
	s.Fills = []scenegraph.Paint{{Type: scenegraph.PaintGradientLinear, GradientAngle: 30, GradientStops: []scenegraph.ColorStop{
		{Position: 0, Color: scenegraph.MustHex("#F4F7FB")}, {Position: 1, Color: scenegraph.MustHex("#DCE6F2")}}}}
	title := text("title", 120, 80, 1680, 120, "Quarterly business review: growth, margins and outlook", 64, "#1B2A41")
	body := text("body", 120, 260, 860, 700, "Revenue grew 18% year over year\nGross margin steady at 61%\nThree new regions opened\nHeadcount flat; hiring resumes in Q3\nCustomer churn down to 2.1%", 36, "#22313F")
	for range 5 {
		body.Paragraphs = append(body.Paragraphs, scenegraph.Paragraph{ListType: scenegraph.ListUnordered})
	}
	ref := d.AddAsset(blobs, twoTonePNG(tb, 800, 500), "image/png", "p.png", 800, 500)
	pic := imageNode("pic", 1040, 260, 760, 400, ref)
	pic.Fills[0].ScaleMode = "FILL"
	ch := &scenegraph.Node{ID: "chart", Type: scenegraph.TypeChart, Transform: scenegraph.Translate(1040, 700), Size: scenegraph.Vector{X: 760, Y: 300},
		Chart: &scenegraph.Chart{ChartType: scenegraph.ChartColumn, Categories: []string{"Q1", "Q2", "Q3", "Q4"},
			Series: []scenegraph.Series{{Name: "2025", Values: []float64{12, 15, 14, 19}}, {Name: "2026", Values: []float64{14, 17, 18, 22}}}}}
	s.Children = []*scenegraph.Node{title, body, pic, ch}
	return d, blobs
}

// BenchmarkWarmSlide1080 renders one 1920x1080 slide to PNG on a warm tab
// and reports the median and 95th-percentile time per slide.
func BenchmarkWarmSlide1080(b *testing.B) {
	p := sharedPool(b)
	d, blobs := slide1080(b)
	ctx := context.Background()
	if _, err := p.Render(ctx, d, blobs, Request{Images: true}); err != nil { // warm up
		b.Fatal(err)
	}
	var times []time.Duration
	for b.Loop() {
		t0 := time.Now()
		if _, err := p.Render(ctx, d, blobs, Request{Images: true}); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(t0))
	}
	reportPercentiles(b, times)
}

// BenchmarkWarmSlide1080Geometry is the same slide without the screenshot:
// layout and measurement only (what the geometry gate needs).
func BenchmarkWarmSlide1080Geometry(b *testing.B) {
	p := sharedPool(b)
	d, blobs := slide1080(b)
	ctx := context.Background()
	var times []time.Duration
	for b.Loop() {
		t0 := time.Now()
		if _, err := p.Render(ctx, d, blobs, Request{}); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(t0))
	}
	reportPercentiles(b, times)
}

func reportPercentiles(b *testing.B, times []time.Duration) {
	if len(times) == 0 {
		return
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(times[len(times)/2]), "median-ms")
	b.ReportMetric(ms(times[min(len(times)-1, len(times)*95/100)]), "p95-ms")
}

func BenchmarkHTMLGeneration(b *testing.B) {
	d, blobs := slide1080(b)
	for b.Loop() {
		if _, err := HTML(d, 0, blobs); err != nil {
			b.Fatal(err)
		}
	}
}

// mathSlide1080 is a 1920x1080 slide with a title and four formulas of
// everyday size (fractions, sums, integrals, matrices).
func mathSlide1080() *scenegraph.Deck {
	d := deck()
	d.Width, d.Height = 1920, 1080
	s := d.Slides[0]
	s.Size = scenegraph.Vector{X: 1920, Y: 1080}
	title := text("title", 120, 80, 1680, 120, "Four results worth remembering", 64, "#1B2A41")
	formulas := []string{
		`E = mc^2 + \frac{1}{2} m v^2`,
		`\sum_{k=1}^{n} k^2 = \frac{n(n+1)(2n+1)}{6}`,
		`\int_{-\infty}^{\infty} e^{-x^2}\,dx = \sqrt{\pi}`,
		`\det\begin{pmatrix} a & b \\ c & d \end{pmatrix} = ad - bc`,
	}
	s.Children = []*scenegraph.Node{title}
	for i, f := range formulas {
		s.Children = append(s.Children, &scenegraph.Node{ID: "m" + string(rune('1'+i)), Type: scenegraph.TypeMath,
			Transform: scenegraph.Translate(160, float64(260+190*i)), Size: scenegraph.Vector{X: 1600, Y: 160},
			Math: &scenegraph.Math{LaTeX: f, FontSize: 48}})
	}
	return d
}

// BenchmarkWarmMathSlide1080 renders the formula slide to PNG on a warm
// tab: typesetting four formulas plus the screenshot.
func BenchmarkWarmMathSlide1080(b *testing.B) {
	p := sharedPool(b)
	d := mathSlide1080()
	ctx := context.Background()
	sr, err := p.Render(ctx, d, nil, Request{Images: true}) // warm up
	if err != nil {
		b.Fatal(err)
	}
	if errs := sr.Slides[0].Errors; len(errs) > 0 {
		b.Fatalf("the formulas should typeset: %v", errs)
	}
	var times []time.Duration
	for b.Loop() {
		t0 := time.Now()
		if _, err := p.Render(ctx, d, nil, Request{Images: true}); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(t0))
	}
	reportPercentiles(b, times)
}
