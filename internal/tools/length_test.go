package tools

import (
	"math"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// Lengths and font sizes take a number (px) or a string with a unit; a bad
// unit is an error naming the argument, before anything runs.
func TestLengthArguments(t *testing.T) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 2, Seed: 1})
	n := d.Slides[0].Children[0]
	out, _, err := Apply(d, []Call{
		call("set_text_font", map[string]any{"nodeId": n.ID, "fontSize": "19pt"}),
		call("resize_node", map[string]any{"nodeId": n.ID, "width": "5in", "height": 100}),
		call("create_rectangle", map[string]any{"parentId": d.Slides[0].ID, "x": "2cm", "y": "12.7mm", "width": "24px", "height": 30, "name": "R"}),
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := sg.NewIndex(out).Node(n.ID)
	if fs := got.StyleAt(0).FontSize; math.Abs(fs-19*4.0/3) > 1e-9 {
		t.Errorf("fontSize \"19pt\" gave %v px, want 25.333", fs)
	}
	if got.Size.X != 480 || got.Size.Y != 100 {
		t.Errorf("size %v, want 480x100", got.Size)
	}
	r := out.Slides[0].Find(func(n *sg.Node) bool { return n.Name == "R" })
	if math.Abs(r.Transform.X()-2*96/2.54) > 1e-9 || math.Abs(r.Transform.Y()-48) > 1e-9 || r.Size.X != 24 {
		t.Errorf("rectangle at %v,%v size %v", r.Transform.X(), r.Transform.Y(), r.Size)
	}
	for args, want := range map[string]map[string]any{
		`set_text_font: fontSize "19 pts": unknown unit; use px, pt, in, cm or mm`: {"nodeId": n.ID, "fontSize": "19 pts"},
		`set_text_font: fontSize "-2pt" is -2.6`:                                   {"nodeId": n.ID, "fontSize": "-2pt"},
		`set_text_font: fontSize "big": not a length`:                              {"nodeId": n.ID, "fontSize": "big"},
	} {
		_, _, err := Apply(d, []Call{call("set_text_font", want)}, Options{})
		if err == nil || !strings.Contains(err.Error(), args) {
			t.Errorf("%v: error %v, want %q", want, err, args)
		}
		tool, _ := Registry().Get("set_text_font")
		if err := tool.ValidateArgs(js(want)); err == nil || !strings.Contains(err.Error(), args) {
			t.Errorf("ValidateArgs %v: %v", want, err)
		}
	}
	// Nested lengths are named by their path.
	_, _, err = Apply(d, []Call{call("create_table", map[string]any{"parentId": d.Slides[0].ID, "rows": 1, "columns": 2, "columnWidths": []any{100, "1 ft"}})}, Options{})
	if err == nil || !strings.Contains(err.Error(), `columnWidths/1 "1 ft": unknown unit`) {
		t.Errorf("columnWidths: %v", err)
	}
}
