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
