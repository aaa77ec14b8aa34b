package recipe

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/shareddecks"
)

// Font sizes in a recipe: "27pt" is 36 px in the deck and in expect's
// size; a bare 36 stays px (back-compatible); a bad unit is reported with
// the argument's name, line and column before any deck is touched.
func TestRecipeFontSizesTakeUnits(t *testing.T) {
	data, err := os.ReadFile(shareddecks.PPTXFile(t, "career-tips.pptx"))
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := pptx.Import(data, "career-tips.pptx")
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []string{`"27pt"`, `36`, `"0.375in"`} {
		r := mustParse(t, `
steps:
  - for_each: {role: title}
    tool: set_text_font
    args: {nodeId: "${match.id}", fontSize: `+size+`}
expect:
  - all: {select: {role: title}, size: "27pt"}
`)
		plan, out := compileAndApply(t, r, d)
		if plan.Steps[0].Calls == 0 {
			t.Fatal("no title matched")
		}
		n := 0
		sel := r.Steps[0].ForEach
		for _, m := range sel.Select(out) {
			n++
			if fs := m.Node.StyleAt(0).FontSize; math.Abs(fs-36) > 1e-9 {
				t.Errorf("fontSize %s: %s is %v px, want 36", size, m.Node.ID, fs)
			}
		}
		if n == 0 {
			t.Fatal("no title after the edit")
		}
		if fs := Check(r, out, GateResult{Checked: true}); len(fs) != 0 {
			t.Errorf("fontSize %s: expectation failed: %+v", size, fs)
		}
	}
	_, err = Parse("units.yaml", []byte("steps:\n  - tool: set_text_font\n    args: {nodeId: s1/66, fontSize: \"36 pts\"}\nexpect:\n  - all: {select: {role: title}, size: 12em}\n"))
	for _, want := range []string{`units.yaml:3:11: set_text_font: fontSize "36 pts": unknown unit; use px, pt, in, cm or mm`, `units.yaml:5:40: size "12em": unknown unit`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want %q", err, want)
		}
	}
}
