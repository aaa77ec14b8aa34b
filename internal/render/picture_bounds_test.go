package render

import (
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
)

// Issue 16 item 13: a scene-graph deck's picture over the bounds is not
// put into the page (no data: URI for the browser to decode); the node
// gets an error naming the picture. The asset table's size is checked
// before the store is read.
func TestOversizedPictureIsNotDrawn(t *testing.T) {
	d, blobs := deckgen.Generate(deckgen.Options{Slides: 1, Seed: 3})
	var logo string
	for ref, a := range d.Assets {
		if a.Name == "northwind-logo.png" {
			logo = ref
		}
	}
	if logo == "" {
		t.Fatal("the generated deck has no logo")
	}
	cases := []struct {
		name string
		edit func()
		want string
	}{
		{"header", func() { blobs[logo] = deckgen.PNGHeader(100000, 100000) }, "declares 100000 x 100000 pixels"},
		{"table", func() { a := d.Assets[logo]; a.Bytes = 500 << 20; d.Assets[logo] = a }, "is 500.0 MiB"},
	}
	for _, c := range cases {
		c.edit()
		page, errs, err := SlideHTML(d, 0, blobs)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(page, "data:image/png") {
			t.Errorf("%s: the oversized picture is in the page", c.name)
		}
		found := false
		for _, e := range errs {
			found = found || strings.Contains(e.Message, "northwind-logo.png") && strings.Contains(e.Message, c.want)
		}
		if !found {
			t.Errorf("%s: no node error naming the picture and %q: %+v", c.name, c.want, errs)
		}
	}
}
