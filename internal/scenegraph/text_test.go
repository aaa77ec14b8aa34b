package scenegraph_test

import (
	"reflect"
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// Paragraph runs never hold a '\n', an empty paragraph has none, a run
// that continues over a paragraph break is split there, and a field is
// a run of its own even when it shares its neighbours' style.
func TestParagraphRunsSplitAtBreaksAndFields(t *testing.T) {
	txt := sg.TextContent{
		Characters:              "Big sale\n\nSlide 3 of 9\nend",
		CharacterStyleOverrides: []int{1, 1, 1, 0, 0, 0, 0, 0, 1, 1},
		StyleOverrideTable:      map[string]sg.TypeStyle{"1": {FontWeight: 700}},
		Fields:                  []sg.TextField{{Start: 16, End: 17, Type: sg.FieldSlideNumber, ID: "{1}"}},
	}
	want := []sg.ParagraphRun{
		{Paragraph: 0, Start: 0, End: 3, Key: 1, Field: -1},
		{Paragraph: 0, Start: 3, End: 8, Key: 0, Field: -1},
		{Paragraph: 2, Start: 10, End: 16, Key: 0, Field: -1},
		{Paragraph: 2, Start: 16, End: 17, Key: 0, Field: 0},
		{Paragraph: 2, Start: 17, End: 22, Key: 0, Field: -1},
		{Paragraph: 3, Start: 23, End: 26, Key: 0, Field: -1},
	}
	if got := txt.ParagraphRuns(); !reflect.DeepEqual(got, want) {
		t.Fatalf("runs\n got %+v\nwant %+v", got, want)
	}
	if k := txt.ParagraphCount(); k != 4 {
		t.Fatalf("%d paragraphs, want 4", k)
	}
	empty := sg.TextContent{}
	if len(empty.ParagraphRuns()) != 0 || empty.ParagraphCount() != 1 {
		t.Fatalf("empty text: %+v, %d paragraphs", empty.ParagraphRuns(), empty.ParagraphCount())
	}
}
