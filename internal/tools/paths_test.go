package tools

import (
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// A vector's paths live in its local px space: resizing it rescales them,
// so the drawing follows the box (as Figma does), and a later edit that
// does not resize leaves them alone.
func TestResizeRescalesVectorPaths(t *testing.T) {
	d := &sg.Deck{ID: "d", Width: 1280, Height: 720, Slides: []*sg.Node{{ID: "s1", Type: sg.TypeSlide,
		Transform: sg.Identity, Size: sg.Vector{X: 1280, Y: 720}, Children: []*sg.Node{{
			ID: "arrow", Type: sg.TypeVector, Transform: sg.Translate(100, 100),
			Size: sg.Vector{X: 100, Y: 50}, Paths: []sg.VectorPath{{Path: "M0 0 L100 25 L0 50 Z"}},
			Fills: []sg.Paint{sg.Solid(sg.MustHex("#C00000"))}}}}}}
	out, _ := apply(t, d, Options{},
		call("resize_node", map[string]any{"nodeId": "arrow", "width": 300, "height": 100}),
		call("move_node", map[string]any{"nodeId": "arrow", "x": 10, "y": 10}))
	n := sg.NewIndex(out).Node("arrow")
	if got, want := n.Paths[0].Path, "M0 0 L300 50 L0 100 Z"; got != want {
		t.Fatalf("path after resize %q, want %q", got, want)
	}
	if d.Slides[0].Children[0].Paths[0].Path != "M0 0 L100 25 L0 50 Z" {
		t.Fatal("the input deck was modified")
	}
}

// On a real deck: every freeform drawn as a VECTOR, doubled in place,
// doubles its path coordinates.
func TestResizeRescalesImportedFreeforms(t *testing.T) {
	d := realDeck(t, "career-tips.pptx")
	var calls []Call
	before := map[string]string{}
	var vectors []*sg.Node
	for _, s := range d.Slides {
		s.Walk(func(n, _ *sg.Node, _ int) bool {
			if n.Type == sg.TypeVector && len(n.Paths) > 0 && n.Size.X > 1 && n.Size.Y > 1 && len(vectors) < 40 {
				vectors = append(vectors, n)
			}
			return true
		})
	}
	if len(vectors) < 10 {
		t.Fatalf("career-tips.pptx has %d vectors with paths; the importer changed?", len(vectors))
	}
	for _, n := range vectors {
		before[n.ID] = n.Paths[0].Path
		calls = append(calls, call("resize_node", map[string]any{"nodeId": n.ID, "width": n.Size.X * 2, "height": n.Size.Y * 2}))
	}
	out, _ := apply(t, d, Options{}, calls...)
	ix := sg.NewIndex(out)
	for _, n := range vectors {
		want, err := sg.ScalePath(before[n.ID], ix.Node(n.ID).Size.X/n.Size.X, ix.Node(n.ID).Size.Y/n.Size.Y)
		if err != nil {
			t.Fatalf("%s: imported path does not parse: %v", n.ID, err)
		}
		if got := ix.Node(n.ID).Paths[0].Path; got != want {
			t.Errorf("%s: path %q, want %q", n.ID, got, want)
		}
	}
}
