package bench

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// smallDeck is two slides: a title, a red box, a table, a chart, a
// picture and an equation on s1; a title, notes and a black background on
// s2. mutate, when given, edits it before it is returned.
func smallDeck(mutate func(d *sg.Deck, ix *sg.Index)) *sg.Deck {
	red := sg.MustHex("#FF0000")
	ink := sg.MustHex("#112233")
	text := func(id, s string, role string) *sg.Node {
		n := &sg.Node{ID: id, Type: sg.TypeText, Name: "Text " + id, Transform: sg.Translate(40, 20), Size: sg.Vector{X: 600, Y: 60}}
		n.Characters = s
		n.Style = &sg.TypeStyle{FontFamily: "Arial", FontSize: 40, FontWeight: 700, Fills: []sg.Paint{sg.Solid(ink)}}
		if role != "" {
			n.Placeholder = &sg.Placeholder{Role: role}
		}
		return n
	}
	cell := func(id string, r, c int, s string) *sg.Node {
		n := &sg.Node{ID: id, Type: sg.TypeTableCell, Cell: &sg.Cell{Row: r, Column: c}}
		n.Characters = s
		return n
	}
	table := &sg.Node{ID: "s1/4", Type: sg.TypeTable, Name: "Table", Transform: sg.Translate(40, 300), Size: sg.Vector{X: 400, Y: 120},
		Table: &sg.Table{Columns: []float64{200, 200}, Rows: []float64{40, 40, 40}},
		Children: []*sg.Node{
			cell("s1/4/r0c0", 0, 0, "Region"), cell("s1/4/r0c1", 0, 1, "Revenue"),
			cell("s1/4/r1c0", 1, 0, "Europe"), cell("s1/4/r1c1", 1, 1, "$1,200"),
			cell("s1/4/r2c0", 2, 0, "Africa"), cell("s1/4/r2c1", 2, 1, "840"),
		}}
	box := &sg.Node{ID: "s1/3", Type: sg.TypeRectangle, Name: "Box", Transform: sg.Translate(100, 150), Size: sg.Vector{X: 200, Y: 100}, Fills: []sg.Paint{sg.Solid(red)}}
	box2 := &sg.Node{ID: "s1/8", Type: sg.TypeRectangle, Name: "Box 2", Transform: sg.Translate(400, 150), Size: sg.Vector{X: 200, Y: 100}}
	box3 := &sg.Node{ID: "s1/9", Type: sg.TypeRectangle, Name: "Box 3", Transform: sg.Translate(700, 150), Size: sg.Vector{X: 200, Y: 100}}
	chart := &sg.Node{ID: "s1/5", Type: sg.TypeChart, Name: "Chart", Transform: sg.Translate(500, 300), Size: sg.Vector{X: 300, Y: 200},
		Chart: &sg.Chart{ChartType: sg.ChartBar, Categories: []string{"Q1", "Q2"}, Series: []sg.Series{{Name: "Revenue", Values: []float64{1, 2}}}}}
	pic := &sg.Node{ID: "s1/6", Type: sg.TypeImage, Name: "Picture", AltText: "A team meeting", Transform: sg.Translate(900, 300), Size: sg.Vector{X: 200, Y: 100},
		Fills: []sg.Paint{{Type: sg.PaintImage, ImageRef: "aaaa"}}}
	eq := &sg.Node{ID: "s1/7", Type: sg.TypeMath, Name: "Equation", Transform: sg.Translate(40, 500), Size: sg.Vector{X: 200, Y: 60},
		Math: &sg.Math{LaTeX: "E = m c^{2}"}}
	s1 := &sg.Node{ID: "s1", Type: sg.TypeSlide, Size: sg.Vector{X: 1280, Y: 720}, Slide: &sg.SlideProps{},
		Children: []*sg.Node{text("s1/2", "Quarterly Results", "title"), box, box2, box3, table, chart, pic, eq}}
	s2 := &sg.Node{ID: "s2", Type: sg.TypeSlide, Size: sg.Vector{X: 1280, Y: 720}, Slide: &sg.SlideProps{Notes: "Say hello\nto everyone"},
		Fills: []sg.Paint{sg.Solid(sg.MustHex("#000000"))}, Children: []*sg.Node{text("s2/2", "Next steps", "title")}}
	d := &sg.Deck{ID: "small", Width: 1280, Height: 720, Slides: []*sg.Node{s1, s2}}
	if mutate != nil {
		mutate(d, sg.NewIndex(d))
	}
	return d
}

// parseOne parses one check written as a suite would.
func parseOne(t *testing.T, src string) Check {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	p := &parser{path: "test.yaml"}
	c, ok := p.check(doc.Content[0])
	if !ok {
		t.Fatalf("%s: %v", src, p.errs)
	}
	return c
}

func TestEachCheckKindPassesAndFails(t *testing.T) {
	original := smallDeck(nil)
	for _, tc := range []struct {
		name, check string
		edit        func(d *sg.Deck, ix *sg.Index) // nil: the unedited deck
		want        Status
		failSays    string
	}{
		{"a present text passes", `text_present: {text: "quarterly results", slide: 1, ignore_case: true}`, nil, StatusPass, ""},
		{"a missing text fails naming the slide", `text_present: {text: "Annual", slide: 1}`, nil, StatusFail, "slide 1 (s1): no text contains"},
		{"text in a node", `text_present: {text: "Next", node: {slide: 2, placeholder: title}}`, nil, StatusPass, ""},
		{"text in another node fails", `text_present: {text: "Quarterly", node: {slide: 2, placeholder: title}}`, nil, StatusFail, "node s2/2"},
		{"case matters unless ignored", `text_present: {text: "QUARTERLY"}`, nil, StatusFail, "no text contains"},
		{"an absent text passes", `text_absent: {text: "Lorem"}`, nil, StatusPass, ""},
		{"a text still there fails naming its node", `text_absent: {text: "Africa"}`, nil, StatusFail, "slide 1 (s1), node s1/4/r2c0"},
		{"a cell equals", `table_cell: {table: {slide: 1, type: TABLE}, row: 2, col: 1, equals: "840"}`, nil, StatusPass, ""},
		{"a cell that differs", `table_cell: {table: s1/4, row: 1, col: 0, equals: "Asia"}`, nil, StatusFail, `reads "Europe"`},
		{"a cell outside the grid", `table_cell: {table: s1/4, row: 5, col: 0, contains: "x"}`, nil, StatusFail, "no cell at row 5"},
		{"a column in numeric descending order", `table_column_order: {table: s1/4, col: 1, order: desc, numeric: true}`, nil, StatusPass, ""},
		{"a column out of ascending order", `table_column_order: {table: s1/4, col: 1, order: asc, numeric: true}`, nil, StatusFail, "out of ascending order"},
		{"text order", `table_column_order: {table: s1/4, col: 0, order: desc}`, nil, StatusPass, ""},
		{"a fill within tolerance", `fill_color: {node: s1/3, color: "#FE0101"}`, nil, StatusPass, ""},
		{"another fill", `fill_color: {node: {slide: 1, text: "Quarterly"}, color: "#00FF00"}`, nil, StatusFail, "has no solid fill"},
		{"a background", `background_color: {slide: 2, color: "#000000"}`, nil, StatusPass, ""},
		{"a slide without its own background", `background_color: {slide: 1, color: "#000000"}`, nil, StatusFail, "no solid background"},
		{"notes contain", `notes: {slide: 2, contains: "hello to everyone"}`, nil, StatusPass, ""},
		{"notes differ", `notes: {slide: 2, equals: "Say hello"}`, nil, StatusFail, `notes are "Say hello to everyone"`},
		{"a rotation", `rotation: {node: s1/3, degrees: 30}`, func(d *sg.Deck, ix *sg.Index) {
			n := ix.Node("s1/3")
			n.Transform = n.Transform.Rotated(30)
		}, StatusPass, ""},
		{"no rotation", `rotation: {node: s1/3, degrees: 30}`, nil, StatusFail, "is rotated 0°"},
		{"-90 is 270", `rotation: {node: s1/3, degrees: 270}`, func(d *sg.Deck, ix *sg.Index) {
			n := ix.Node("s1/3")
			n.Transform = n.Transform.Rotated(-90)
		}, StatusPass, ""},
		{"a position", `position: {node: s1/3, x: 100, y: 150}`, nil, StatusPass, ""},
		{"a move from the original", `position: {node: s1/3, dx: 50}`, func(d *sg.Deck, ix *sg.Index) {
			n := ix.Node("s1/3")
			n.Transform = n.Transform.WithOffset(150, 150)
		}, StatusPass, ""},
		{"no move", `position: {node: s1/3, dx: 50, tolerance: 1}`, nil, StatusFail, "dx is 0.0 px, want 50"},
		{"a size", `size: {node: s1/3, width: 200, height: "75pt"}`, nil, StatusPass, ""},
		{"another size", `size: {node: s1/3, width: 250}`, nil, StatusFail, "width is 200.0 px, want 250"},
		{"aligned tops", `aligned: {nodes: [s1/3, s1/8, s1/9], edge: top}`, nil, StatusPass, ""},
		{"unaligned lefts", `aligned: {nodes: [s1/3, s1/8], edge: left}`, nil, StatusFail, "left edge is at 400.0 px"},
		{"evenly distributed", `distributed: {nodes: [s1/9, s1/3, s1/8], axis: horizontal}`, nil, StatusPass, ""},
		{"unevenly distributed", `distributed: {nodes: [s1/3, s1/8, s1/9], axis: horizontal}`, func(d *sg.Deck, ix *sg.Index) {
			n := ix.Node("s1/9")
			n.Transform = n.Transform.WithOffset(800, 150)
		}, StatusFail, "gap before it is 200.0 px"},
		{"a slide count", `slide_count: 2`, nil, StatusPass, ""},
		{"a slide count change", `slide_count: {delta: -1}`, nil, StatusFail, "a change of +0, want -1"},
		{"slide order by title", `slide_order: {titles: ["Quarterly Results", "next steps"]}`, nil, StatusPass, ""},
		{"slide order by id", `slide_order: {ids: [s2, s1]}`, nil, StatusFail, "is slide s1, want s2 here"},
		{"a reordered deck", `slide_order: {ids: [s2], from: 1}`, func(d *sg.Deck, ix *sg.Index) {
			d.Slides[0], d.Slides[1] = d.Slides[1], d.Slides[0]
		}, StatusPass, ""},
		{"chart data", `chart: {node: {slide: 1, type: CHART}, type: BAR, categories: [q1, q2], series: [{name: Revenue, values: [1, 2.0001]}]}`, nil, StatusPass, ""},
		{"chart type and values", `chart: {node: s1/5, type: PIE, series: [{name: Revenue, values: [1, 3]}]}`, nil, StatusFail, "chart type is BAR, want PIE"},
		{"a missing series", `chart: {node: s1/5, series: [{name: Costs}]}`, nil, StatusFail, `no series "Costs"`},
		{"a font", `font: {node: s1/2, family: arial, size: "30pt", bold: true, color: "#112233"}`, nil, StatusPass, ""},
		{"every text of a slide", `font: {slide: 2, family: Georgia}`, nil, StatusFail, `is set in "Arial", want "Georgia"`},
		{"not bold", `font: {node: {slide: 2, placeholder: title}, bold: false}`, nil, StatusFail, "has bold true, want false"},
		{"an equation", `math: {slide: 1, latex: "mc^2"}`, nil, StatusPass, ""},
		{"no such equation", `math: {slide: 1, latex: "\\frac{a}{b}"}`, nil, StatusFail, "no equation contains"},
		{"a picture count", `image: {slide: 1, count: 1}`, nil, StatusPass, ""},
		{"no picture on a slide", `image: {slide: 2, count: 1}`, nil, StatusFail, "has 0 picture(s), want 1"},
		{"alt text", `image: {node: {slide: 1, type: IMAGE}, alt_text: "team"}`, nil, StatusPass, ""},
		{"a replaced picture", `image: {node: s1/6, changed: true}`, func(d *sg.Deck, ix *sg.Index) {
			ix.Node("s1/6").Fills[0].ImageRef = "bbbb"
		}, StatusPass, ""},
		{"the same picture", `image: {node: s1/6, changed: true, aspect: 2}`, nil, StatusFail, "same picture as the original"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := parseOne(t, tc.check)
			r := c.Evaluate(Evidence{Result: smallDeck(tc.edit), Original: original})
			if r.Status != tc.want {
				t.Fatalf("%s: status %s, want %s\n%s", tc.check, r.Status, tc.want, r)
			}
			if tc.want == StatusFail {
				got := r.Failures[0].String()
				if !strings.Contains(got, tc.failSays) {
					t.Errorf("failure %q does not say %q", got, tc.failSays)
				}
			}
		})
	}
}

func TestNoNewViolationsReadsTheRender(t *testing.T) {
	c := parseOne(t, `no_new_violations: true`)
	d := smallDeck(nil)
	if !c.NeedsRender() {
		t.Fatal("no_new_violations must ask for a render")
	}
	if r := c.Evaluate(Evidence{Result: d}); r.Status != StatusNotRendered {
		t.Errorf("without a render: %s, want not_rendered", r.Status)
	}
	if r := c.Evaluate(Evidence{Result: d, Render: &RenderEvidence{}}); r.Status != StatusPass {
		t.Errorf("with no new violation: %s", r)
	}
	r := c.Evaluate(Evidence{Result: d, Render: &RenderEvidence{NewViolations: []string{"text_overflow on slide s1 (s1/2)"}}})
	if r.Status != StatusFail || !strings.Contains(r.Failures[0].String(), "text_overflow on slide s1") {
		t.Errorf("with a new violation: %s", r)
	}
}

func TestSelectorsNameOneNode(t *testing.T) {
	d := smallDeck(nil)
	ix := sg.NewIndex(d)
	for _, tc := range []struct {
		src, want, fail string
	}{
		{`s1/3`, "s1/3", ""},
		{`{slide: 1, placeholder: title}`, "s1/2", ""},
		{`{slide: s2, text: "next"}`, "s2/2", ""},
		{`{slide: 1, type: RECTANGLE, index: 2}`, "s1/9", ""},
		{`{slide: 1, type: RECTANGLE}`, "", "3 nodes match"},
		{`{slide: 1, type: RECTANGLE, index: 3}`, "", "only 3 node(s) match"},
		{`{slide: 3, type: TABLE}`, "", "no slide 3: the deck has 2 slides"},
		{`{slide: 2, type: CHART}`, "", "slide 2 (s2): no node matches"},
		{`s9/9`, "", "no node has id s9/9"},
	} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(tc.src), &doc); err != nil {
			t.Fatal(err)
		}
		p := &parser{}
		s := p.selector(doc.Content[0])
		if len(p.errs) > 0 {
			t.Fatalf("%s: %v", tc.src, p.errs)
		}
		l, f := s.resolve(d, ix)
		switch {
		case tc.fail == "" && f != nil:
			t.Errorf("%s: %s", tc.src, f)
		case tc.fail == "" && l.node.ID != tc.want:
			t.Errorf("%s picked %s, want %s", tc.src, l.node.ID, tc.want)
		case tc.fail != "" && (f == nil || !strings.Contains(f.String(), tc.fail)):
			t.Errorf("%s: failure %v, want one saying %q", tc.src, f, tc.fail)
		}
	}
}
