package tools

import (
	"encoding/json"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// Find-and-replace keeps every other character's style, and the replacement
// takes the style of what it replaced.
func TestSetTextContentFindKeepsStyles(t *testing.T) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 3, Seed: 1})
	body := d.Slides[1].Children[1] // bullets; the first word is bold via an override
	word := []rune(body.Characters)[:len(body.CharacterStyleOverrides)]
	body.Characters = string(word) + " at Northwind, then Northwind again"
	args, _ := json.Marshal(map[string]any{"nodeId": body.ID, "find": "Northwind", "text": "Acme Insights"})
	out, _, err := Apply(d, []Call{{Tool: "set_text_content", Args: args}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := sg.NewIndex(out).Node(body.ID)
	want := string(word) + " at Acme Insights, then Acme Insights again"
	if n.Characters != want {
		t.Fatalf("text %q, want %q", n.Characters, want)
	}
	if len(n.CharacterStyleOverrides) != len(word) || n.StyleAt(0).FontWeight != 700 || n.StyleAt(len(word)+5).FontWeight == 700 {
		t.Fatalf("styles moved: overrides %v", n.CharacterStyleOverrides)
	}
	// A find that is not there is an error the model can act on.
	args, _ = json.Marshal(map[string]any{"nodeId": body.ID, "find": "Contoso", "text": "x"})
	if _, _, err := Apply(out, []Call{{Tool: "set_text_content", Args: args}}, Options{}); err == nil {
		t.Fatal("replacing absent text succeeded")
	}
}

func TestReplaceTextCarriesTheReplacedStyle(t *testing.T) {
	n := &sg.Node{ID: "t", Type: sg.TypeText, TextContent: sg.TextContent{
		Characters:              "go ACME go",
		CharacterStyleOverrides: []int{0, 0, 0, 1, 1, 1, 1},
		StyleOverrideTable:      map[string]sg.TypeStyle{"1": {FontWeight: 700}},
	}}
	if k, err := replaceText(n, "ACME", "Acme Insights"); err != nil || k != 1 {
		t.Fatal(k, err)
	}
	if n.Characters != "go Acme Insights go" || n.StyleAt(3).FontWeight != 700 || n.StyleAt(15).FontWeight != 700 || n.StyleAt(16).FontWeight != 0 {
		t.Fatalf("%q %v", n.Characters, n.CharacterStyleOverrides)
	}
}
