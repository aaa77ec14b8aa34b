package runner

import (
	"os"
	"testing"

	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/shareddecks"
)

// TestCriticSlidesCarryTitles: the critic's slide list names each slide by
// its title text. A .pptx slide has no name, and the list once showed
// "1 s1", "2 s2" ... with no title (found by a model answering the
// critic's requests through llm_relay).
func TestCriticSlidesCarryTitles(t *testing.T) {
	data, err := os.ReadFile(shareddecks.PPTXFile(t, "table-report.pptx"))
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := pptx.Import(data, "table-report.pptx")
	if err != nil {
		t.Fatal(err)
	}
	slides := criticSlides(d)
	titled := 0
	for i, s := range slides {
		if s.ID != d.Slides[i].ID {
			t.Fatalf("slide %d: id %s, want %s", i+1, s.ID, d.Slides[i].ID)
		}
		if s.Title != "" {
			titled++
		}
		if want := d.Slides[i].SlideTitle(); s.Title != want {
			t.Errorf("slide %d: title %q, want %q", i+1, s.Title, want)
		}
	}
	if titled != len(slides) {
		t.Fatalf("%d of %d slides have a title in the critic's list", titled, len(slides))
	}
}
