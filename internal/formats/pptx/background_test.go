package pptx

import (
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

func importShared(t *testing.T, name string) *sg.Deck {
	t.Helper()
	d, _, _, err := ImportWithOptions(readDeck(t, name), name, Options{Inherited: true})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// A bare <a:alphaModFix/> (amt omitted, default 100000 per ECMA-376
// §20.1.8.4) leaves the picture opaque: career-tips slide 11's background
// photo must not import at opacity 0.
func TestAlphaModFixWithoutAmountIsOpaque(t *testing.T) {
	d := importShared(t, "career-tips.pptx")
	s, _ := d.SlideByID("s11")
	if s == nil || len(s.Fills) != 1 || s.Fills[0].Type != sg.PaintImage {
		t.Fatalf("slide 11 background: %+v", s)
	}
	if o := s.Fills[0].Opacity; o != nil && *o < 1 {
		t.Errorf("background picture opacity %g, want opaque", *o)
	}
}
