package recipe

import (
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	sg "github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/tools"
)

func mustParse(t *testing.T, y string) *Recipe {
	t.Helper()
	r, err := Parse("t.yaml", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func selectorOf(t *testing.T, y string) *Selector {
	t.Helper()
	r := mustParse(t, "steps:\n  - tool: delete_node\n    for_each: "+y+"\n    args: {nodeId: \"${match.id}\"}\n")
	return r.Steps[0].ForEach
}

func TestSelectors(t *testing.T) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 13, Seed: 1})
	count := func(sel string) int { return len(selectorOf(t, sel).Select(d)) }
	titles := 0
	d.Walk(func(n, _ *sg.Node, _ int) bool {
		if n.Placeholder != nil && (n.Placeholder.Role == "title" || n.Placeholder.Role == "ctrTitle") {
			titles++
		}
		return true
	})
	cases := []struct {
		sel  string
		want int
	}{
		{`{type: TABLE}`, 2},
		{`{type: [TABLE, CHART]}`, 4},
		{`{name: "Card*"}`, 2 + 2*countCards(d)/2}, // the rows and the cards
		{`{name: "/^card row$/i"}`, 2},
		{`{role: title}`, titles},
		{`{role: title, slides: "1"}`, 1},
		{`{role: title, slides: "2-4,last"}`, 0}, // "last" is not a number inside a list
		{`{every_slide: true}`, 13},
		{`{every_slide: true, layout: "Title*"}`, countLayouts(d, "Title")},
		{`{every_slide: true, slides: last}`, 1},
		{`{text: "Northwind Analytics"}`, 1},
		{`{text: "/^Q[1-4] 20\\d\\d/"}`, 0},
		{`{type: TEXT, font: "liberation sans"}`, countType(d, sg.TypeText)},
		{`{fill: "#0B6E4F"}`, countFill(d, "#0B6E4F")},
		{`{fill: {color: "#0C6F50", tolerance: 0.01}}`, countFill(d, "#0B6E4F")},
		{`{fill: {color: "#0C6F50", tolerance: 0.001}}`, 0},
		{`{text_color: "#FFFFFF", type: TABLE_CELL}`, 8},
	}
	for _, c := range cases {
		if strings.Contains(c.sel, "2-4,last") {
			if _, err := Parse("t.yaml", []byte("steps:\n  - tool: delete_node\n    for_each: "+c.sel+"\n    args: {nodeId: \"${match.id}\"}\n")); err == nil {
				t.Errorf("%s: accepted a list mixing numbers and last", c.sel)
			}
			continue
		}
		if got := count(c.sel); got != c.want {
			t.Errorf("%s selected %d nodes, want %d", c.sel, got, c.want)
		}
	}
}

func countCards(d *sg.Deck) int {
	n := 0
	d.Walk(func(x, _ *sg.Node, _ int) bool {
		if x.Name == "Card" {
			n++
		}
		return true
	})
	return n
}

func countType(d *sg.Deck, t sg.NodeType) int {
	n := 0
	d.Walk(func(x, _ *sg.Node, _ int) bool {
		if x.Type == t {
			n++
		}
		return true
	})
	return n
}

func countFill(d *sg.Deck, hex string) int {
	c := sg.MustHex(hex)
	n := 0
	d.Walk(func(x, _ *sg.Node, _ int) bool {
		if x.Type != sg.TypeSlide && paintsNear(x.Fills, &ColorMatch{Color: c, Tolerance: 0.02}) {
			n++
		}
		return true
	})
	return n
}

// countColour counts nodes with a fill or a text colour near hex, slides
// included (no_fill looks everywhere).
func countColour(d *sg.Deck, hex string) int {
	cm := &ColorMatch{Color: sg.MustHex(hex), Tolerance: DefaultTolerance}
	n := 0
	d.Walk(func(x, _ *sg.Node, _ int) bool {
		if paintsNear(x.Fills, cm) || textColorNear(x, cm) {
			n++
		}
		return true
	})
	return n
}

func countLayouts(d *sg.Deck, prefix string) int {
	n := 0
	for _, s := range d.Slides {
		if strings.HasPrefix(s.Slide.Layout, prefix) {
			n++
		}
	}
	return n
}

// compileAndApply compiles r on d, checks that applying the plan's calls as
// one batch reproduces the compiler's result, and returns that result.
func compileAndApply(t *testing.T, r *Recipe, d *sg.Deck) (*Plan, *sg.Deck) {
	t.Helper()
	plan, err := Compile(r, d, Options{Tools: tools.Options{Blobs: sg.Blobs{}}})
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := tools.Apply(d, plan.Calls, r.ToolOptions(tools.Options{Blobs: sg.Blobs{}}))
	if err != nil {
		t.Fatalf("applying the plan as one batch: %v", err)
	}
	h1, _ := sg.Hash(out)
	h2, _ := sg.Hash(plan.Result)
	if h1 != h2 {
		t.Fatal("one batch of the plan's calls gives a different deck than the compiler's step-by-step result")
	}
	return plan, out
}

func TestStepReferencesKeepTheMatchSize(t *testing.T) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 7, Seed: 2})
	r := mustParse(t, `
steps:
  - tool: resize_node
    for_each: {type: CHART}
    args: {nodeId: "${match.id}", width: "${match.width}", height: 300}
  - tool: rename_node
    for_each: {type: CHART}
    args: {nodeId: "${match.id}", name: "Chart on slide ${match.slide}"}
`)
	plan, out := compileAndApply(t, r, d)
	if plan.Steps[0].Matches != 1 || plan.Steps[0].Calls != 1 {
		t.Fatalf("step plan %+v", plan.Steps[0])
	}
	before := sg.NewIndex(d)
	n := 0
	out.Walk(func(x, _ *sg.Node, _ int) bool {
		if x.Type == sg.TypeChart {
			n++
			if x.Size.X != before.Node(x.ID).Size.X || x.Size.Y != 300 {
				t.Errorf("chart %s size %+v, want width kept and height 300", x.ID, x.Size)
			}
			if x.Name != "Chart on slide 6" {
				t.Errorf("chart name %q", x.Name)
			}
		}
		return true
	})
	if n != 1 {
		t.Fatalf("%d charts", n)
	}
}

func TestInstructionStepsNeedAModel(t *testing.T) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 3, Seed: 1})
	r := mustParse(t, `
steps:
  - instruction: Make the closing slide more persuasive.
  - tool: set_theme_fonts
    args: {heading: "Liberation Serif"}
`)
	plan, err := Compile(r, d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Instructions) != 0 || len(plan.Warnings) != 1 || !strings.Contains(plan.Warnings[0], "no model is configured") {
		t.Fatalf("without a model: instructions %v warnings %v", plan.Instructions, plan.Warnings)
	}
	if len(plan.Calls) != 1 {
		t.Fatalf("the tool step still compiles: %d calls", len(plan.Calls))
	}
	plan, _ = Compile(r, d, Options{HaveModel: true})
	if len(plan.Instructions) != 1 || len(plan.Warnings) != 0 {
		t.Fatalf("with a model: %v %v", plan.Instructions, plan.Warnings)
	}
}

func TestShippedRecipesHoldAndAreIdempotentOnGeneratedDecks(t *testing.T) {
	for _, name := range []string{"rebrand", "legal-footer", "logo-swap", "title-normalize"} {
		t.Run(name, func(t *testing.T) {
			r, err := Load("../../testdata/recipes/" + name + ".yaml")
			if err != nil {
				t.Fatal(err)
			}
			d, _ := deckgen.Generate(deckgen.Options{Slides: 25, Seed: 5})
			_, once := compileAndApply(t, r, d)
			gate := GateResult{Checked: true} // geometry is checked by the render tests
			if fs := Check(r, once, gate); len(fs) > 0 {
				t.Fatalf("expectations fail after one run: %v", fs)
			}
			_, twice := compileAndApply(t, r, once)
			h1, _ := sg.Hash(once)
			h2, _ := sg.Hash(twice)
			if h1 != h2 {
				t.Fatal("running the recipe a second time changed the deck")
			}
			if h0, _ := sg.Hash(d); h0 == h1 {
				t.Fatal("the recipe changed nothing")
			}
		})
	}
}

func TestExpectationsReportOffendingNodes(t *testing.T) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 13, Seed: 1})
	r := mustParse(t, `
steps:
  - tool: set_theme_fonts
    args: {heading: Inter}
expect:
  - no_text: "Northwind"
  - no_fill: "#0B6E4F"
  - every_slide_has: {role: title}
  - all: {select: {role: title}, font: "Inter", size: 40}
  - no_new_violations: true
`)
	fs := Check(r, d, GateResult{Checked: true, NewViolations: []string{"text_overflow on s2-t5"}})
	kinds := map[string]Failure{}
	for _, f := range fs {
		kinds[f.Kind] = f
	}
	if f := kinds[ExpectNoText]; len(f.Nodes) != 1 || f.Nodes[0].Slide != 1 {
		t.Errorf("no_text: %+v", f)
	}
	if f := kinds[ExpectNoFill]; len(f.Nodes) != countColour(d, "#0B6E4F") || len(f.Nodes) <= countFill(d, "#0B6E4F") {
		t.Errorf("no_fill: %+v", f)
	}
	if _, ok := kinds[ExpectEverySlideHas]; ok {
		t.Errorf("every slide of a generated deck has a title: %+v", kinds[ExpectEverySlideHas])
	}
	if f := kinds[ExpectAll]; len(f.Nodes) == 0 || !strings.Contains(f.String(), "font Inter") {
		t.Errorf("all: %+v", f)
	}
	if f, ok := kinds[ExpectNoNewViolations]; !ok || !strings.Contains(f.Message, "text_overflow on s2-t5") {
		t.Errorf("no_new_violations: %+v", f)
	}
	if fs := Check(r, d, GateResult{}); !strings.Contains(fs[len(fs)-1].Message, "not rendered") {
		t.Errorf("unrendered deck: %+v", fs[len(fs)-1])
	}
}

func TestSelectorStringReadsLikeTheRecipe(t *testing.T) {
	r, err := Parse("s.yaml", []byte("steps:\n  - for_each: {type: IMAGE, name: \"/logo/i\", slides: \"1-3\"}\n    tool: delete_node\n    args: {nodeId: \"${match.id}\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.Steps[0].ForEach.String(), `type IMAGE, name "/logo/i", slides 1-3`; got != want {
		t.Fatalf("selector %q, want %q", got, want)
	}
}

// Two create_slide steps without an index: each goes after the slide the
// previous one created, in the compiler's step-by-step run as in the one
// batch the Apply step replays (the second slide went before the first in
// the compile, so replaying "gave another snapshot" and the edit failed).
func TestCreateSlideStepsCompileAsTheReplayedBatch(t *testing.T) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 4, Seed: 2})
	r := mustParse(t, `
steps:
  - tool: create_slide
    args: {title: "Alpha"}
  - tool: create_slide
    args: {title: "Beta"}
  - tool: create_slide
    args: {title: "Gamma", index: 0}
  - tool: create_slide
    args: {title: "Delta"}
`)
	_, out := compileAndApply(t, r, d) // fails when the two differ
	var titles []string
	for _, s := range out.Slides {
		title := ""
		s.Walk(func(n, _ *sg.Node, _ int) bool {
			if title == "" && n.Placeholder != nil && n.Placeholder.Role == "title" {
				title = n.Characters
			}
			return title == ""
		})
		titles = append(titles, title)
	}
	// Alpha after the first (focused) slide, Beta after Alpha, Gamma at
	// the front, Delta after Gamma.
	if len(titles) != 8 || titles[0] != "Gamma" || titles[1] != "Delta" || titles[3] != "Alpha" || titles[4] != "Beta" {
		t.Fatalf("slide titles in order: %q", titles)
	}
}
