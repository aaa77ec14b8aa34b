package tools

import (
	"encoding/json"
	"strings"
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
	if k, err := replaceText(n, "ACME", "Acme Insights", false); err != nil || k != 1 {
		t.Fatal(k, err)
	}
	if n.Characters != "go Acme Insights go" || n.StyleAt(3).FontWeight != 700 || n.StyleAt(15).FontWeight != 700 || n.StyleAt(16).FontWeight != 0 {
		t.Fatalf("%q %v", n.Characters, n.CharacterStyleOverrides)
	}
}

// replace_text across the deck: case folding by default, whole words,
// regular expressions with groups, the slides filter, and the style rule:
// a match spanning a bold and a plain run comes out bold (the style of
// the run where it starts), characters outside keep theirs.
func TestReplaceTextDeckWide(t *testing.T) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 3, Seed: 1})
	a, b := d.Slides[0].Children[0], d.Slides[2].Children[0]
	a.Characters = "Lorem Ipsum dolor"
	a.CharacterStyleOverrides = []int{1, 1, 1, 1, 1, 1, 1, 1, 0} // "Lorem Ip" bold
	a.StyleOverrideTable = map[string]sg.TypeStyle{"1": {FontWeight: 700}}
	b.Characters, b.CharacterStyleOverrides, b.StyleOverrideTable = "lorem ipsum; Loremipsum 2026-12-02", nil, nil
	run := func(d *sg.Deck, args map[string]any) (*sg.Deck, Result, error) {
		raw, _ := json.Marshal(args)
		out, res, err := Apply(d, []Call{{Tool: "replace_text", Args: raw}}, Options{})
		if err != nil {
			return nil, Result{}, err
		}
		return out, res[0], nil
	}
	out, r, err := run(d, map[string]any{"find": "lorem ipsum", "replace": "Acme Corp"})
	if err != nil {
		t.Fatal(err)
	}
	na, nb := sg.NewIndex(out).Node(a.ID), sg.NewIndex(out).Node(b.ID)
	if na.Characters != "Acme Corp dolor" || nb.Characters != "Acme Corp; Loremipsum 2026-12-02" {
		t.Fatalf("%q / %q", na.Characters, nb.Characters)
	}
	for i := range 9 {
		if na.StyleAt(i).FontWeight != 700 {
			t.Fatalf("char %d of the replacement is not bold: %v", i, na.CharacterStyleOverrides)
		}
	}
	if len(na.CharacterStyleOverrides) != 9 {
		t.Fatalf("dolor took the override: %v", na.CharacterStyleOverrides)
	}
	var got struct {
		Replaced int            `json:"replaced"`
		Slides   []replaceCount `json:"slides"`
	}
	if json.Unmarshal(r.Data, &got) != nil || got.Replaced != 2 || len(got.Slides) != 2 || got.Slides[0].Slide != 1 || got.Slides[1].Slide != 3 {
		t.Fatalf("result %s", r.Data)
	}
	// matchCase, slides and regex with groups.
	out, _, err = run(d, map[string]any{"find": `(\d{4})-(\d{2})-(\d{2})`, "replace": "$3.$2.$1", "regex": true, "slides": []int{3}})
	if err != nil || !strings.HasSuffix(sg.NewIndex(out).Node(b.ID).Characters, "02.12.2026") {
		t.Fatal(err, sg.NewIndex(out).Node(b.ID).Characters)
	}
	out, r, _ = run(d, map[string]any{"find": "lorem ipsum", "replace": "x", "matchCase": true, "slides": []int{1}})
	if sg.NewIndex(out).Node(a.ID).Characters != "Lorem Ipsum dolor" || !strings.Contains(string(r.Data), `"replaced":0`) || !strings.Contains(string(r.Data), "matchCase") {
		t.Fatalf("matchCase on slide 1: %s", r.Data)
	}
	out, _, _ = run(d, map[string]any{"find": "lorem", "replace": "L", "wholeWord": true})
	if got := sg.NewIndex(out).Node(b.ID).Characters; got != "L ipsum; Loremipsum 2026-12-02" {
		t.Fatalf("wholeWord: %q", got)
	}
	// Bad input is an error naming the fix.
	for args, want := range map[string]map[string]any{
		"not a slide number":        {"find": "x", "replace": "y", "slides": []int{4}},
		"not a valid regular":       {"find": "(", "replace": "y", "regex": true},
		"spans a paragraph break":   {"find": `dolor\s`, "replace": "y", "regex": true},
		"must not contain line bre": {"find": "x", "replace": "a\nb"},
	} {
		if args == "spans a paragraph break" {
			d.Slides[0].Children[0].Characters = "Lorem Ipsum dolor\nsit"
		}
		if _, _, err := run(d, want); err == nil || !strings.Contains(err.Error(), args) {
			t.Errorf("%v: error %v, want %q", want, err, args)
		}
	}
}

// set_text_content's find folds case with ignoreCase.
func TestSetTextContentFindIgnoreCase(t *testing.T) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 2, Seed: 1})
	n := d.Slides[0].Children[0]
	n.Characters, n.CharacterStyleOverrides, n.StyleOverrideTable = "LOREM ipsum", nil, nil
	args, _ := json.Marshal(map[string]any{"nodeId": n.ID, "find": "Lorem", "text": "Acme"})
	if _, _, err := Apply(d, []Call{{Tool: "set_text_content", Args: args}}, Options{}); err == nil || !strings.Contains(err.Error(), "ignoreCase") {
		t.Fatalf("case-sensitive find: %v", err)
	}
	args, _ = json.Marshal(map[string]any{"nodeId": n.ID, "find": "Lorem", "text": "Acme", "ignoreCase": true})
	out, _, err := Apply(d, []Call{{Tool: "set_text_content", Args: args}}, Options{})
	if err != nil || sg.NewIndex(out).Node(n.ID).Characters != "Acme ipsum" {
		t.Fatal(err)
	}
}
