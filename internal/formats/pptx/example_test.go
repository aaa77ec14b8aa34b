package pptx_test

import (
	"fmt"

	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/formats/pptx"
)

// A deck with no .pptx source is written as a fresh package; importing it
// gives stable ids "s<slide part>/<shape id>" and keeps the original bytes
// in the blobs, so an unedited export is byte-identical.
func Example() {
	gen, genBlobs := deckgen.Generate(deckgen.Options{Slides: 3, Seed: 1})
	file, err := pptx.Export(gen, genBlobs)
	if err != nil {
		panic(err)
	}
	d, blobs, err := pptx.Import(file, "generated.pptx")
	if err != nil {
		panic(err)
	}
	fmt.Println(len(d.Slides), "slides; first slide id", d.Slides[0].ID, "; first shape id", d.Slides[0].Children[0].ID)
	again, _ := pptx.Export(d, blobs)
	d2, _, _ := pptx.Import(again, "again.pptx")
	same := len(d.Slides) == len(d2.Slides)
	for i := range d.Slides {
		same = same && d.Slides[i].Source.Digest == d2.Slides[i].Source.Digest
	}
	fmt.Println("unedited round trip gives the same slides:", same, "; same assets:", len(d.Assets) == len(d2.Assets))
	// Output:
	// 3 slides; first slide id s1 ; first shape id s1/2
	// unedited round trip gives the same slides: true ; same assets: true
}
