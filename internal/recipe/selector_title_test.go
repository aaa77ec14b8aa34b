package recipe

import (
	"os"
	"testing"

	"github.com/acecanvas/ace/internal/formats/pptx"
	sg "github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
)

func importShared(t *testing.T, name string) *sg.Deck {
	t.Helper()
	b, err := os.ReadFile(shareddecks.PPTXFile(t, name))
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := pptx.Import(b, name)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestRoleTitleTakesVisibleTitles: table-report and blockchain-pitch build
// their slides from text boxes, with no title placeholder; role: title
// takes the text that reads as each slide's title there, not a big number
// or a heading run inside a longer text, and on a deck with title
// placeholders it takes those and nothing else.
func TestRoleTitleTakesVisibleTitles(t *testing.T) {
	title := &Selector{Role: "title"}
	got := map[int]string{}
	for _, m := range title.Select(importShared(t, "table-report.pptx")) {
		got[m.SlideIndex+1] = m.Node.Characters
	}
	for slide, want := range map[int]string{3: "Table of contents", 4: "Key features", 7: "Add a Roadmap Page"} {
		if got[slide] != want {
			t.Errorf("table-report slide %d: title %q, want %q", slide, got[slide], want)
		}
	}
	got = map[int]string{}
	for _, m := range title.Select(importShared(t, "blockchain-pitch.pptx")) {
		got[m.SlideIndex+1] = m.Node.Characters
	}
	if got[7] != "Solution" {
		t.Errorf("blockchain-pitch slide 7: title %q, want Solution", got[7])
	}
	if s, ok := got[8]; ok {
		t.Errorf("blockchain-pitch slide 8: the big %q taken as a title", s)
	}
	// Iphone16Pro has title placeholders on every slide: only those.
	d := importShared(t, "Iphone16Pro.pptx")
	ms := title.Select(d)
	if len(ms) != len(d.Slides) {
		t.Errorf("Iphone16Pro: %d titles on %d slides", len(ms), len(d.Slides))
	}
	for _, m := range ms {
		if m.Node.Placeholder == nil {
			t.Errorf("Iphone16Pro slide %d: %q taken though the slide has a title placeholder", m.SlideIndex+1, m.Node.Characters)
		}
	}
	t.Logf("table-report %d titles, blockchain-pitch %d, Iphone16Pro %d", len(title.Select(importShared(t, "table-report.pptx"))), len(got), len(ms))
}
