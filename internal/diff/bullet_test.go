package diff

import (
	"fmt"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// Recolouring or resizing a list's bullets is a paragraphs change whose
// before and after name the bullet size (percent of the text) and colour.
func TestBulletLookIsAParagraphsChange(t *testing.T) {
	a := sample()
	b2 := find(t, a, "b2")
	b2.Paragraphs = []scenegraph.Paragraph{
		{ListType: scenegraph.ListUnordered, Bullet: "•"},
		{ListType: scenegraph.ListUnordered, Bullet: "•"},
	}
	b := a.Clone()
	red := scenegraph.MustHex("#C00000")
	p := &find(t, b, "b2").Paragraphs[1]
	p.BulletSize, p.BulletColor = 0.6, &red
	d := Compute(a, b)
	want(t, d, "modified:paragraphs")
	e := d.Entries[0]
	if before, after := fmt.Sprint(e.Before), fmt.Sprint(e.After); strings.Contains(before, "bu") || !strings.Contains(after, "UNORDERED bu60% bu#C00000") {
		t.Errorf("paragraphs %s -> %s, want the second to gain bu60%% bu#C00000", before, after)
	}
}

// Switching a formula between inline and display style is one mathStyle
// change; its LaTeX is unchanged.
func TestMathDisplayIsAMathStyleChange(t *testing.T) {
	a := sample()
	f := node("eq", scenegraph.TypeMath, "Equation", 100, 400, 300, 80)
	f.Math = &scenegraph.Math{LaTeX: `\sum_i x_i`, FontSize: 28}
	a.Slides[1].Children = append(a.Slides[1].Children, f)
	b := a.Clone()
	find(t, b, "eq").Math.Display = true
	d := Compute(a, b)
	want(t, d, "modified:mathStyle")
	if e := d.Entries[0]; e.Before != "inline" || e.After != "display" {
		t.Errorf("mathStyle %v -> %v, want inline -> display", e.Before, e.After)
	}
}
