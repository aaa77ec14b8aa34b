package route

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
)

// routeCase is one instruction on a real deck with the mode and the
// 1-based target slides the heuristic router must give.
type routeCase struct {
	deck  string // file name under decks/pptx, or "py:" + a python-pptx file
	instr string
	mode  Mode
	want  []int // 1-based; nil = no particular slide
}

func loadRealDeck(t *testing.T, name string) *scenegraph.Deck {
	t.Helper()
	var path string
	if rest, ok := cutPrefix(name, "py:"); ok {
		path = shareddecks.PythonPPTX(t, rest)[0]
	} else {
		path = shareddecks.PPTXFile(t, name)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := pptx.Import(data, filepath.Base(path))
	if err != nil {
		t.Fatalf("import %s: %v", path, err)
	}
	return d
}

func cutPrefix(s, p string) (string, bool) {
	if len(s) >= len(p) && s[:len(p)] == p {
		return s[len(p):], true
	}
	return s, false
}

func runRouteCases(t *testing.T, cases []routeCase) {
	t.Helper()
	decks := map[string]*scenegraph.Deck{}
	for _, c := range cases {
		d := decks[c.deck]
		if d == nil {
			d = loadRealDeck(t, c.deck)
			decks[c.deck] = d
		}
		dec := Heuristic(c.instr, d)
		if dec.Mode != c.mode || !slices.Equal(dec.OneBased(), c.want) && !(len(c.want) == 0 && len(dec.TargetSlides) == 0) {
			t.Errorf("%s: %q\n  got  %s %v (%s)\n  want %s %v", c.deck, c.instr, dec.Mode, dec.OneBased(), dec.Reason, c.mode, c.want)
		}
	}
}

// Numbers that carry a unit or form a ratio are measures, not slides
// (issue 17, item 2): "19 pt", "45 degrees", "16:9", "2x".
func TestRealDeckRoutingIgnoresUnitsAndRatios(t *testing.T) {
	runRouteCases(t, []routeCase{
		{"career-tips.pptx", "set the title font size on slide 18 to 19 pt", Micro, []int{18}},
		{"career-tips.pptx", "Set the title font size on slide 18 to 19pt", Micro, []int{18}},
		{"career-tips.pptx", "Rotate the picture on slide 10 to 45 degrees", Micro, []int{10}},
		{"career-tips.pptx", "Rotate the picture on slide 10 to 45°", Micro, []int{10}},
		{"career-tips.pptx", "Zoom the photo on slide 3 to 4x", Micro, []int{3}},
		{"career-tips.pptx", "Set the line spacing on slide 2 to 12 px", Micro, []int{2}},
		{"career-tips.pptx", "Set the left margin of the text box on slide 9 to 20 mm", Micro, []int{9}},
		{"career-tips.pptx", "Change the table on slide 13 to 30% narrower", Micro, []int{13}},
		{"career-tips.pptx", "Make the slides 16:9 widescreen", Macro, nil},
		{"career-tips.pptx", "Change the deck's aspect ratio to 4:3", Macro, nil},
		{"table-report.pptx", "Make the text on slides 4 and 6 14 pt", Micro, []int{4, 6}},
		{"table-report.pptx", "Move the table on slide 4 to 0.5in from the left edge", Micro, []int{4}},
		// still references: a bare number, a range, "in" as a word
		{"career-tips.pptx", "Put the quote of slide 5 in italics", Micro, []int{5}},
		{"career-tips.pptx", "Bold the titles on slides 20 to 22", Micro, []int{20, 21, 22}},
		{"career-tips.pptx", "Make the logo on slide 6 2x larger", Micro, []int{6}},
	})
}

// The LLM router over real HTTP: the heuristic's explicit references are
// added to the model's targets, so a unit read as a slide ("19 pt") would
// have put slide 19 back after a correct model answer.
func TestLLMRouteKeepsUnitsOutOfTargets(t *testing.T) {
	srv, cl := scriptedRouter(t, "units", `
  - model: router-model
    text: '{"mode": "MICRO_SPATIAL", "target_slides": [18], "reason": "the title of slide 18"}'
`)
	d := loadRealDeck(t, "career-tips.pptx")
	instr := "set the title font size on slide 18 to 19 pt"
	dec := Route(context.Background(), instr, d, cl)
	if dec.Mode != Micro || !slices.Equal(dec.OneBased(), []int{18}) || dec.Source != "llm" {
		t.Fatalf("decision %+v, want MICRO_SPATIAL on slide 18 only", dec)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || !strings.Contains(reqs[0].Chat.Messages[1].Content, "Instruction: "+instr) ||
		!strings.Contains(reqs[0].Chat.Messages[1].Content, "Presentation: 37 slide(s)") {
		t.Fatalf("router request: %+v", reqs)
	}
}

// References by content kind resolve against the slide summaries (issue 17,
// item 1). The six real decks hold tables and pictures but no chart; the
// python-pptx files hold charts of every type.
func TestRealDeckRoutingByContentKind(t *testing.T) {
	runRouteCases(t, []routeCase{
		{"blockchain-pitch.pptx", "Make the first table in the deck easier to read", Micro, []int{6}},
		{"blockchain-pitch.pptx", "Bold the header row of the slide with the first table", Micro, []int{6}},
		{"blockchain-pitch.pptx", "Add a total row to the last table", Micro, []int{9}},
		{"blockchain-pitch.pptx", "Add a column to the second table", Micro, []int{8}},
		{"career-tips.pptx", "Shade every other row of the first table", Micro, []int{13}},
		{"table-report.pptx", "Widen the first column of the second table", Micro, []int{7}},
		{"Iphone16Pro.pptx", "Put a thin border around the photo of the camera", Micro, []int{4}},
		{"Iphone16Pro.pptx", "Crop the slide with the photo of the battery to a square", Micro, []int{6}},
		{"default_template.pptx", "Move the picture of the Lingaraj temple to the left", Micro, []int{9}},
		{"default_template.pptx", "Add a caption under the photo of the Mukteswara temple", Micro, []int{8}},
		{"py:ph-populated-placeholders.pptx", "Give the slide with the chart a title", Micro, []int{4}},
		{"py:ph-populated-placeholders.pptx", "Recolour the chart slide in our brand blue", Micro, []int{4}},
		{"py:ph-populated-placeholders.pptx", "Add a header row to the table slide", Micro, []int{3}},
		{"py:cht-series.pptx", "Add data labels to the doughnut chart", Micro, []int{10}},
		{"py:cht-series.pptx", "Add data labels to the slide with the doughnut chart", Micro, []int{10}},
		{"py:cht-replace-data.pptx", "Change the first pie chart to a bar chart", Micro, []int{5}},
		{"py:cht-series.pptx", "Give the last area chart a legend", Micro, []int{9}},
		{"py:sld-notes.pptx", "Shorten the speaker notes on the slide with notes", Micro, []int{1}},
	})
}

// The router prompt carries each slide's content summary, so a model can
// resolve "the first table" (issue 17, item 1): a scripted model over real
// HTTP receives it and its answer is adopted.
func TestLLMRouterSeesSlideContents(t *testing.T) {
	srv, cl := scriptedRouter(t, "kinds", `
  - model: router-model
    text: '{"mode": "MICRO_SPATIAL", "target_slides": [4], "reason": "slide 4 holds the only chart"}'
`)
	d := loadRealDeck(t, "py:ph-populated-placeholders.pptx")
	dec := Route(context.Background(), "Turn the chart into a doughnut", d, cl)
	if dec.Mode != Micro || !slices.Equal(dec.OneBased(), []int{4}) {
		t.Fatalf("decision %+v", dec)
	}
	user := srv.Requests()[0].Chat.Messages[1].Content
	for _, want := range []string{"\n1. (no title) | 1 picture (\"monty-truth.png\")\n", "\n3. (no title) | table 3x2\n", "\n4. (no title) | chart pie\n", "\n5. Title Text\n"} {
		if !strings.Contains(user, want) {
			t.Errorf("router prompt lacks %q:\n%s", want, user)
		}
	}
	d = loadRealDeck(t, "blockchain-pitch.pptx")
	up := UserPrompt("x", d)
	for _, want := range []string{"\n6. Write the problem here and elaborate on it. | table 3x2", "\n9. Cost Structure and Revenue Stream | table 7x5"} {
		if !strings.Contains(up, want) {
			t.Errorf("router prompt lacks %q:\n%s", want, up)
		}
	}
	if n := strings.Count(UserPrompt("x", loadRealDeck(t, "py:sld-notes.pptx")), "| notes"); n != 1 {
		t.Errorf("sld-notes.pptx: %d slides marked with notes, want 1", n)
	}
}

// TestRouterMarksUntitledSlides: in career-tips, whose slides mostly have
// title placeholders, slide 5 (a quotation in a body box) is listed as
// having no title, its first text given as such, so "every slide title
// on slides 5-8" does not read the quotation as a title; blockchain-pitch
// has no title placeholder at all and lists first texts plainly.
func TestRouterMarksUntitledSlides(t *testing.T) {
	up := UserPrompt("x", loadRealDeck(t, "career-tips.pptx"))
	if !strings.Contains(up, "\n5. (no title; first text \"Quotations are commonly") {
		t.Errorf("slide 5 not marked untitled:\n%s", up)
	}
	if !strings.Contains(up, "\n6. This is a slide title") {
		t.Errorf("slide 6's title placeholder is not its title:\n%s", up)
	}
	if b := UserPrompt("x", loadRealDeck(t, "blockchain-pitch.pptx")); strings.Contains(b, "no title;") {
		t.Errorf("a deck without title placeholders marks its slides:\n%s", b)
	}
}

// TestMacroShowsSpeakerNotes: the MACRO skeleton of python-pptx's
// sld-notes.pptx carries the slide's speaker notes, so a deck-wide
// "replace every X" can see whether the notes hold X (a relay model had
// to guess includeNotes).
func TestMacroShowsSpeakerNotes(t *testing.T) {
	d := loadRealDeck(t, "py:sld-notes.pptx")
	var notes string
	for _, s := range d.Slides {
		if s.Slide != nil && strings.TrimSpace(s.Slide.Notes) != "" {
			notes = strings.Join(strings.Fields(s.Slide.Notes), " ")
			break
		}
	}
	if notes == "" {
		t.Fatal("sld-notes.pptx has no notes")
	}
	got, err := Context(d, Decision{Mode: Macro})
	if err != nil {
		t.Fatal(err)
	}
	want := notes
	if r := []rune(want); len(r) > macroNotesRunes {
		want = string(r[:macroNotesRunes-1])
	}
	if !strings.Contains(got, `"notes":`) || !strings.Contains(got, want) {
		t.Fatalf("the MACRO context lacks the notes %q:\n%s", notes, got)
	}
}

// TestRouterSummaryGivesTableHeaders: a table in the router summary shows
// its first row, so "the revenue table" or "the planner" can be routed
// without the scene graph (a relay model could not tell two 5x4 tables
// apart); wide tables are cut with "…".
func TestRouterSummaryGivesTableHeaders(t *testing.T) {
	up := UserPrompt("x", loadRealDeck(t, "career-tips.pptx"))
	for _, want := range []string{
		"\n13. And tables to compare data | table 4x4 ( | A | B | C)\n",
		"\n35. Weekly Planner | table 8x8 ( | SUNDAY | MONDAY | TUESDAY | …)\n",
	} {
		if !strings.Contains(up, want) {
			t.Errorf("router prompt lacks %q:\n%s", want, up)
		}
	}
}
