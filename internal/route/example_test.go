package route_test

import (
	"fmt"

	"github.com/acecanvas/ace/internal/route"
	"github.com/acecanvas/ace/internal/scenegraph"
)

func ExampleHeuristic() {
	d := &scenegraph.Deck{ID: "d", Width: 1280, Height: 720}
	for i := range 10 {
		d.Slides = append(d.Slides, &scenegraph.Node{ID: fmt.Sprintf("s%d", i+1), Type: scenegraph.TypeSlide})
	}
	for _, in := range []string{
		"Apply the layout from slide 1 to slides 2 through 5",
		"Translate the entire presentation into Spanish",
		"Switch the deck to a dark theme",
	} {
		dec := route.Heuristic(in, d)
		fmt.Println(dec.Mode, dec.OneBased())
	}
	// Output:
	// MICRO_SPATIAL [1 2 3 4 5]
	// MACRO_PROGRAMMATIC []
	// SYSTEMIC_TOKEN []
}
