package scenegraph_test

import (
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/deckio"
	"github.com/acecanvas/ace/internal/shareddecks"
)

// TestTitleTextSkipsSlideNumbers: career-tips slide 21 has no title
// placeholder and its slide-number placeholder ("21") comes first; the
// critic once listed it as "21. 21". The slide's first real text stands
// in, marked as not a title; slide 6's title placeholder is a title.
func TestTitleTextSkipsSlideNumbers(t *testing.T) {
	d, _, err := deckio.Load(shareddecks.PPTXFile(t, "career-tips.pptx"))
	if err != nil {
		t.Fatal(err)
	}
	text, isTitle := d.Slides[20].TitleText()
	if isTitle || !strings.HasPrefix(text, "Tablet project") {
		t.Fatalf("slide 21: %q (title placeholder %v), want its first text \"Tablet project...\", not a title", text, isTitle)
	}
	if got := d.Slides[20].SlideTitle(); got != text {
		t.Fatalf("SlideTitle %q, TitleText %q", got, text)
	}
	if text, isTitle = d.Slides[5].TitleText(); !isTitle || text != "This is a slide title" {
		t.Fatalf("slide 6: %q (title placeholder %v), want its title placeholder's text", text, isTitle)
	}
}
