package render

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// hitCounter is a local HTTP server that counts every request it gets.
func hitCounter(t *testing.T) (*httptest.Server, *atomic.Int64) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		t.Logf("server got %s %s", r.Method, r.URL)
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(twoTonePNG(t, 4, 4))
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func TestDeckCannotMakeTheRendererFetch(t *testing.T) {
	srv, hits := hitCounter(t)
	u := srv.URL
	blobs := scenegraph.Blobs{}
	d := deck()
	svg := fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">
<style>@import url(%[1]s/svg-import.css); rect{fill:url(%[1]s/svg-fill.png)}</style>
<image href="%[1]s/svg-image.png" width="10" height="10"/><image xlink:href="%[1]s/svg-xlink.png"/>
<rect width="10" height="10"/></svg>`, u)
	svgRef := d.AddAsset(blobs, []byte(svg), "image/svg+xml", "evil.svg", 10, 10)
	htmlRef := d.AddAsset(blobs, []byte(`<html><img src="`+u+`/html-asset.png"></html>`), "text/html", "evil.html", 0, 0)
	txt := text("t", 50, 50, 800, 200, `<script>fetch("`+u+`/script")</script></div><img src="`+u+`/text-img.png"><link rel=stylesheet href="`+u+`/x.css">`, 20, "#000000")
	txt.Style.FontFamily = `Evil'); src: url(` + u + `/font.woff2`
	txt.Style.FontFamilyEastAsian = `"; background-image: url(` + u + `/ea.png); x:"`
	txt.Link = &scenegraph.Link{URL: u + "/link"}
	txt.Style.Link = &scenegraph.Link{URL: u + "/style-link"}
	remote := imageNode("remote", 50, 300, 100, 100, u+"/as-ref.png")
	svgImg := imageNode("svg", 200, 300, 100, 100, svgRef)
	htmlImg := imageNode("html", 350, 300, 100, 100, htmlRef)
	tile := imageNode("tile", 500, 300, 100, 100, svgRef)
	tile.Fills[0].ScaleMode = "TILE"
	math := &scenegraph.Node{ID: "m", Type: scenegraph.TypeMath, Transform: scenegraph.Translate(50, 450), Size: scenegraph.Vector{X: 600, Y: 100},
		Math: &scenegraph.Math{LaTeX: `\href{` + u + `/href}{x} + \url{` + u + `/url} + \includegraphics{` + u + `/inc.png}`}}
	// Formulas that MathJax accepts but that carry a URL into the SVG's
	// paint or font: a colour given as url(...), a \unicode font name, a
	// \require of an extension by URL.
	mathColor := &scenegraph.Node{ID: "mc", Type: scenegraph.TypeMath, Transform: scenegraph.Translate(50, 560), Size: scenegraph.Vector{X: 600, Y: 60},
		Math: &scenegraph.Math{LaTeX: `\color{url(` + u + `/color.svg#p)}{x} + \unicode[url(` + u + `/font.woff)]{x41} + \require{` + u + `/ext.js}`}}
	vec := &scenegraph.Node{ID: "v", Type: scenegraph.TypeVector, Transform: scenegraph.Translate(700, 300), Size: scenegraph.Vector{X: 10, Y: 10},
		Paths: []scenegraph.VectorPath{{Path: `M0 0" fill="url(` + u + `/path.png)`}}}
	ch := &scenegraph.Node{ID: "c", Type: scenegraph.TypeChart, Transform: scenegraph.Translate(800, 300), Size: scenegraph.Vector{X: 300, Y: 200},
		Chart: &scenegraph.Chart{ChartType: scenegraph.ChartColumn, Categories: []string{`<image href="` + u + `/chart.png"/>`}, Series: []scenegraph.Series{{Name: "s", Values: []float64{1}}}}}
	d.Slides[0].Children = []*scenegraph.Node{txt, remote, svgImg, htmlImg, tile, math, mathColor, vec, ch}

	sr := renderOne(t, d, blobs, true)
	time.Sleep(300 * time.Millisecond) // let any stray request arrive
	if n := hits.Load(); n != 0 {
		t.Fatalf("the local server got %d requests from rendering a deck", n)
	}
	// The markup-looking text renders as text.
	h, _ := HTML(d, 0, blobs)
	if !strings.Contains(h, "&lt;script&gt;fetch(") || !strings.Contains(h, "&lt;/div&gt;&lt;img") {
		t.Error("text with <script> and </div> must be escaped literally")
	}
	if m := sr.Nodes["t"]; !m.HasText || m.Lines < 2 {
		t.Errorf("the escaped text should be laid out as text: %+v", m)
	}
	if m := sr.Nodes["t"]; m.TextBounds == nil || m.TextBounds.Width < 300 {
		t.Errorf("the literal markup text should be drawn, ink %+v", m.TextBounds)
	}
}

// The second wall holds on its own: a document without the CSP meta (as if
// the policy were lost) that points at the server is stopped by request
// interception, and the pool counts the blocked requests.
func TestInterceptionBlocksWithoutCSP(t *testing.T) {
	srv, hits := hitCounter(t)
	p := sharedPool(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tb, err := p.acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer p.release(tb, true) // the tab lost its shell page: replace it
	before := p.Blocked()
	doc := `<!DOCTYPE html><html><head><link rel="stylesheet" href="` + srv.URL + `/x.css"></head><body><img src="` + srv.URL + `/direct.png"><div style="background-image:url(` + srv.URL + `/bg.png);width:10px;height:10px"></div></body></html>`
	err = chromedp.Do(tb.ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		// A fresh document: document.open keeps the old policy, navigation
		// does not.
		if _, err := chromedp.Navigate("about:blank")(ctx, tg); err != nil {
			return err
		}
		tree, err := cdp.Call(ctx, tg, page.GetFrameTree, cdp.Empty{})
		if err != nil {
			return err
		}
		if _, err := cdp.Call(ctx, tg, page.SetDocumentContent, page.SetDocumentContentParams{FrameID: tree.FrameTree.Frame.ID, HTML: doc}); err != nil {
			return err
		}
		_, err = chromedp.Evaluate[chromedp.Void](`Promise.all([...document.images].map(i => i.decode().catch(() => 0)))`, chromedp.EvalAwaitPromise)(ctx, tg)
		return err
	}))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(3 * time.Second)
	for p.Blocked() == before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("server got %d requests from a page without CSP", n)
	}
	if p.Blocked() == before {
		t.Fatal("interception saw no request to block")
	}
}
