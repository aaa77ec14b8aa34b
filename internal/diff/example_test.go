package diff_test

import (
	"fmt"

	"github.com/acecanvas/ace/internal/diff"
	"github.com/acecanvas/ace/internal/scenegraph"
)

func ExampleCompute() {
	title := &scenegraph.Node{ID: "t1", Type: scenegraph.TypeText, Name: "Title",
		Transform: scenegraph.Translate(80, 60), Size: scenegraph.Vector{X: 800, Y: 80}}
	title.Characters = "Quarterly review"
	origin := &scenegraph.Deck{ID: "d", Width: 1280, Height: 720, Slides: []*scenegraph.Node{{
		ID: "s1", Type: scenegraph.TypeSlide, Name: "Cover", Size: scenegraph.Vector{X: 1280, Y: 720},
		Children: []*scenegraph.Node{title}}}}

	current := origin.Clone()
	current.Slides[0].Children[0].Characters = "Quarterly business review"

	d := diff.Compute(origin, current)
	fmt.Print(d.Text(nil))
	// Output:
	// JsonDiff: 1 distinct edit(s), similarity score 0.990
	//
	// Slide 1 SLIDE "Cover" [s1] «Quarterly business review»
	//   ~ MODIFIED TEXT "Title" [t1]: text: "Quarterly review" -> "Quarterly business review"
}
