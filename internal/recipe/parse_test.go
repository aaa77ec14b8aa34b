package recipe

import (
	"errors"
	"strings"
	"testing"
)

func TestParseErrorsCarryLineAndColumn(t *testing.T) {
	cases := []struct {
		name, yaml string
		want       []string // "line:col: fragment"
	}{
		{"unknown step key", `
steps:
  - tool: set_theme_fonts
    colour: red
    args: {heading: Inter}
`, []string{`4:5: unknown key "colour"`}},
		{"unknown tool", `
steps:
  - tool: paint_it_black
`, []string{`3:5: unknown tool "paint_it_black"`}},
		{"misspelt tool", `
steps:
  - tool: set_fill_colour
    args: {nodeId: s1, color: "#FFFFFF"}
`, []string{`3:5: unknown tool "set_fill_colour" (did you mean set_fill_color?)`}},
		{"misspelt argument", `
steps:
  - tool: set_fill_color
    args: {nodeId: s1, colour: "#FFFFFF"}
`, []string{`4:11: set_fill_color: invalid arguments: at /: additional properties 'colour' not allowed ("colour": did you mean "color"?); this tool takes: color, nodeId`}},
		{"bad selector type", `
steps:
  - tool: set_text_font
    for_each: {type: TXT}
    args: {nodeId: "${match.id}", fontFamily: Inter}
`, []string{`4:22: unknown node type "TXT"`}},
		{"bad colour", `
steps:
  - tool: set_text_font
    for_each: {fill: "#12345"}
    args: {nodeId: "${match.id}", fontFamily: Inter}
`, []string{`4:22: colour "#12345"`}},
		{"bad regexp", `
steps:
  - tool: set_text_font
    for_each: {text: "/(unclosed/"}
    args: {nodeId: "${match.id}", fontFamily: Inter}
`, []string{`4:22: bad regular expression`}},
		{"schema failure", `
steps:
  - tool: set_text_font
    for_each: {role: title}
    args: {nodeId: "${match.id}", fontWeight: "bold"}
`, []string{`5:11: set_text_font: invalid arguments: at /fontWeight`}},
		{"bad length", `
steps:
  - tool: set_text_font
    for_each: {role: title}
    args: {nodeId: "${match.id}", fontSize: "big"}
`, []string{`5:11: set_text_font: fontSize "big": not a length`}},
		{"bad gate", `
gate: per-slide
steps:
  - tool: set_theme_fonts
    args: {heading: Inter}
`, []string{`2:7: gate: "per-slide" is not a gate; want per_deck`}},
		{"unknown reference", `
steps:
  - tool: set_text_font
    for_each: {role: title}
    args: {nodeId: "${match.identifier}", fontFamily: Inter}
`, []string{`5:11: unknown reference ${match.identifier}`}},
		{"match without for_each", `
steps:
  - tool: set_text_font
    args: {nodeId: "${match.id}", fontFamily: Inter}
`, []string{`4:11: ${match.*} needs for_each`}},
		{"bad role and slide range in one file", `
steps:
  - tool: set_text_font
    for_each: {role: headline, slides: "5-2"}
    args: {nodeId: "${match.id}", fontFamily: Inter}
`, []string{`4:22: unknown placeholder role "headline"`, `4:40: bad slide range "5-2"`}},
		{"unknown expectation", `
steps:
  - instruction: tidy up
expect:
  - no_typos: true
`, []string{`5:5: unknown expectation "no_typos"`}},
		{"step kind missing", `
steps:
  - label: nothing here
`, []string{`3:5: a step needs either tool:`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("r.yaml", []byte(c.yaml))
			if err == nil {
				t.Fatal("parse succeeded")
			}
			var es Errors
			if !errors.As(err, &es) {
				t.Fatalf("want recipe.Errors, got %T: %v", err, err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), "r.yaml:"+w) {
					t.Errorf("missing %q in:\n%v", w, err)
				}
			}
			if len(es) != len(c.want) {
				t.Errorf("want %d problems, got %d:\n%v", len(c.want), len(es), err)
			}
		})
	}
}

func TestParseGate(t *testing.T) {
	for yml, want := range map[string]GateMode{
		"steps:\n  - tool: set_theme_fonts\n    args: {heading: Inter}\n":                  GatePerDeck,
		"gate: per_deck\nsteps:\n  - tool: set_theme_fonts\n    args: {heading: Inter}\n":  GatePerDeck,
		"gate: per_slide\nsteps:\n  - tool: set_theme_fonts\n    args: {heading: Inter}\n": GatePerSlide,
	} {
		r, err := Parse("g.yaml", []byte(yml))
		if err != nil {
			t.Fatal(err)
		}
		if r.Gate != want || r.PerSlide() != (want == GatePerSlide) {
			t.Errorf("%q: gate %q, want %q", yml, r.Gate, want)
		}
	}
}

func TestParseYAMLSyntaxError(t *testing.T) {
	_, err := Parse("broken.yaml", []byte("steps:\n  - tool: [unclosed\n"))
	if err == nil || !strings.Contains(err.Error(), "broken.yaml") || !strings.Contains(err.Error(), "line") {
		t.Fatalf("got %v", err)
	}
}

func TestLoadShippedRecipes(t *testing.T) {
	for _, name := range []string{"rebrand", "legal-footer", "logo-swap", "title-normalize"} {
		r, err := Load("../../testdata/recipes/" + name + ".yaml")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(r.Steps) == 0 || len(r.Expect) == 0 {
			t.Fatalf("%s: %d steps, %d expectations", name, len(r.Steps), len(r.Expect))
		}
	}
}
