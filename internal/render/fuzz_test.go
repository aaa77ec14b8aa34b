package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// allowedTags are the only elements the generator writes.
var allowedTags = map[string]bool{
	"div": true, "p": true, "span": true, "br": true, "img": true, "svg": true, "path": true,
	"defs": true, "marker": true, "circle": true, "rect": true, "text": true, "line": true,
	"polyline": true, "polygon": true,
}

// checkMarkup fails when markup holds an element or attribute the generator
// never writes, an event handler, or a URL that is not a data: URI.
func checkMarkup(t *testing.T, markup string) {
	t.Helper()
	z := html.NewTokenizer(strings.NewReader(markup))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken && tt != html.EndTagToken {
			continue
		}
		name, hasAttr := z.TagName()
		if !allowedTags[string(name)] {
			t.Fatalf("unexpected element <%s> in %q", name, markup)
		}
		for hasAttr {
			var k, v []byte
			k, v, hasAttr = z.TagAttr()
			key, val := strings.ToLower(string(k)), strings.ToLower(string(v))
			if strings.HasPrefix(key, "on") || key == "href" || key == "xlink:href" || key == "srcdoc" {
				t.Fatalf("attribute %s=%q on <%s>", key, v, name)
			}
			if key == "src" && !strings.HasPrefix(val, "data:image/") {
				t.Fatalf("src %q is not a data: image", v)
			}
			if strings.Contains(val, "javascript:") || strings.Contains(val, "url(http") || strings.Contains(val, "url(file") ||
				strings.Contains(val, "url(//") || strings.Contains(val, "@import") || strings.Contains(val, "expression(") {
				t.Fatalf("attribute %s carries a fetchable or scriptable value %q", key, v)
			}
		}
	}
}

// FuzzHTML feeds arbitrary scene-graph JSON through Decode and HTML: the
// generator must never panic and never emit markup outside its own
// vocabulary, whatever the deck says.
func FuzzHTML(f *testing.F) {
	seed := func(d *scenegraph.Deck) {
		b, err := json.Marshal(d)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	n := text("t", 1, 2, 300, 40, `<script>x</script></div><img src=x onerror=y>`, 20, "#000000")
	n.Style.FontFamily = `a"; background:url(http://127.0.0.1/)`
	n.Paragraphs = []scenegraph.Paragraph{{ListType: scenegraph.ListUnordered, Bullet: `"><b>`}}
	seed(deck(n))
	v := &scenegraph.Node{ID: "v", Type: scenegraph.TypeVector, Size: scenegraph.Vector{X: 5, Y: 5},
		Paths: []scenegraph.VectorPath{{Path: `M0 0"/><script>`}}}
	seed(deck(v))
	c := &scenegraph.Node{ID: "c", Type: scenegraph.TypeChart, Size: scenegraph.Vector{X: 200, Y: 100},
		Chart: &scenegraph.Chart{ChartType: "PIE", Title: "</svg><script>", Categories: []string{"<a>"}, Series: []scenegraph.Series{{Name: "<b>", Values: []float64{1, 2}}}}}
	seed(deck(c))
	m := &scenegraph.Node{ID: `m" onload="x`, Type: scenegraph.TypeMath, Size: scenegraph.Vector{X: 9, Y: 9}, Math: &scenegraph.Math{LaTeX: `"><img src=x>`}}
	seed(deck(m))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := scenegraph.Decode(data)
		if err != nil || d.Width <= 0 || d.Height <= 0 || d.Width > 1e5 || d.Height > 1e5 {
			return
		}
		for i := range d.Slides {
			out, err := HTML(d, i, scenegraph.Blobs{})
			if err != nil {
				continue
			}
			checkMarkup(t, out)
			if bytes.Contains(bytes.ToLower([]byte(out)), []byte("<script")) {
				t.Fatalf("script element in output")
			}
		}
	})
}
