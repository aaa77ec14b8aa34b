package tools_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/tools"
)

// A new slide and its content in one atomic batch: create_slide binds the
// new id to "s", and later commands use "$s".
func ExampleApply() {
	deck, _ := deckgen.Generate(deckgen.Options{Slides: 3, Seed: 1})
	calls := []tools.Call{
		{Tool: "create_slide", Args: json.RawMessage(`{"templateSlideId":"slide-2","title":"Next steps"}`), As: "s"},
		{Tool: "create_text", Args: json.RawMessage(`{"parentId":"$s","x":64,"y":200,"width":600,"text":"Ship the pilot in Q3"}`)},
	}
	next, results, err := tools.Apply(deck, calls, tools.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(deck.Slides), "->", len(next.Slides), "slides; new slide", results[0].Created[0] == next.Slides[1].ID) // after the focused (first) slide

	// A failing command leaves the deck as it was and says which one failed.
	_, _, err = tools.Apply(next, []tools.Call{
		{Tool: "set_fill_color", Args: json.RawMessage(`{"nodeId":"slide-1","color":"#112233"}`)},
		{Tool: "set_fill_color", Args: json.RawMessage(`{"nodeId":"gone","color":"#112233"}`)},
	}, tools.Options{})
	var be *tools.BatchError
	fmt.Println(errors.As(err, &be), be.Index, be.Call.Tool)
	// Output:
	// 3 -> 4 slides; new slide true
	// true 1 set_fill_color
}
