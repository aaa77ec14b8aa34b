package tools

import (
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
)

// set_slide_properties replaces notes by default and appends them as new
// paragraphs with notesMode append; notesMode without notes is refused.
func TestSlideNotesReplaceAndAppend(t *testing.T) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 2, Seed: 1})
	id := d.Slides[1].ID
	out, _, err := Apply(d, []Call{
		call("set_slide_properties", map[string]any{"slideId": id, "notes": "First point"}),
		call("set_slide_properties", map[string]any{"slideId": id, "notes": "Second point\nThird", "notesMode": "append"}),
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Slides[1].Slide.Notes; got != "First point\nSecond point\nThird" {
		t.Fatalf("after append: %q", got)
	}
	// get_node_info of the slide shows its notes.
	_, res, err := Apply(out, []Call{call("get_node_info", map[string]any{"nodeId": id})}, Options{})
	if err != nil || !strings.Contains(string(res[0].Data), `"notes":"First point\nSecond point\nThird"`) {
		t.Fatalf("get_node_info: %v %.300s", err, res[0].Data)
	}
	out, _, err = Apply(out, []Call{call("set_slide_properties", map[string]any{"slideId": id, "notes": "Only this", "notesMode": "replace"})}, Options{})
	if err != nil || out.Slides[1].Slide.Notes != "Only this" {
		t.Fatalf("replace: %v %+v", err, out.Slides[1].Slide)
	}
	out, _, err = Apply(out, []Call{call("set_slide_properties", map[string]any{"slideId": id, "notes": ""})}, Options{})
	if err != nil || out.Slides[1].Slide != nil && out.Slides[1].Slide.Notes != "" {
		t.Fatalf("clear: %v %+v", err, out.Slides[1].Slide)
	}
	_, _, err = Apply(d, []Call{call("set_slide_properties", map[string]any{"slideId": id, "notesMode": "append"})}, Options{})
	if err == nil || !strings.Contains(err.Error(), "needs notes") {
		t.Fatalf("notesMode alone: %v", err)
	}
}
