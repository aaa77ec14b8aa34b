package pptx

import (
	"bytes"
	"strings"
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// TestInheritedDecorations: with Options.Inherited, layout and master
// shapes appear as locked nodes at the back of each slide; export leaves
// them in the layout (unedited export stays byte-identical, an edited slide
// does not get copies of them) and a re-import gives the same deck.
func TestInheritedDecorations(t *testing.T) {
	data := readDeck(t, "table-report.pptx")
	d, blobs, _, err := ImportWithOptions(data, "table-report.pptx", Options{Inherited: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := sg.Validate(d); err != nil {
		t.Fatal(err)
	}
	plain, _, err := Import(data, "table-report.pptx")
	if err != nil {
		t.Fatal(err)
	}
	deco := 0
	d.Walk(func(n, p *sg.Node, _ int) bool {
		if strings.Contains(n.ID, "/layout/") || strings.Contains(n.ID, "/master/") {
			deco++
			if !n.Locked || !inheritedNode(n, "ppt/slides/x.xml") {
				t.Errorf("decoration %s: locked %v, source %+v", n.ID, n.Locked, n.Source)
			}
		}
		return true
	})
	t.Logf("table-report: %d nodes with decorations, %d without; %d decoration nodes", d.Count(), plain.Count(), deco)
	if deco == 0 || d.Count() != plain.Count()+deco {
		t.Fatalf("decorations: %d, counts %d vs %d", deco, d.Count(), plain.Count())
	}
	// Unedited export: every part byte-identical.
	out, err := Export(d, blobs)
	if err != nil {
		t.Fatal(err)
	}
	op, np := zipParts(t, data), zipParts(t, out)
	for name, b := range op {
		if !bytes.Equal(b, np[name]) {
			t.Errorf("part %s changed in an unedited export", name)
		}
	}
	// Edit a slide that has decorations: they are not copied into it.
	var s *sg.Node
	for _, x := range d.Slides {
		if len(x.Children) > 0 && strings.Contains(x.Children[0].ID, "/") && inheritedNode(x.Children[0], x.Source.Part) {
			s = x
			break
		}
	}
	if s == nil {
		t.Fatal("no slide with decorations")
	}
	target := s.Children[len(s.Children)-1]
	target.Transform[0][2] += 12
	out, err = Export(d, blobs)
	if err != nil {
		t.Fatal(err)
	}
	checkPackage(t, out)
	d2, _, _, err := ImportWithOptions(out, "edited.pptx", Options{Inherited: true})
	if err != nil {
		t.Fatal(err)
	}
	if d2.Count() != d.Count() {
		t.Errorf("re-import has %d nodes, edited deck %d (decorations copied into the slide?)", d2.Count(), d.Count())
	}
	m := sg.NewIndex(d2).Node(target.ID)
	if m == nil || m.Transform.X()-target.Transform.X() > 1e-3 || target.Transform.X()-m.Transform.X() > 1e-3 {
		t.Errorf("moved shape %s came back at %v, want x %g", target.ID, m, target.Transform.X())
	}
}
