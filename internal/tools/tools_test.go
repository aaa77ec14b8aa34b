package tools

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// toolCase exercises one tool: calls (the last one is the tool under test;
// earlier ones set the scene, and may bind names with As) and a check of
// the resulting deck and the tool's result.
type toolCase struct {
	tool  string
	calls func(t *testing.T, d *sg.Deck) []Call
	check func(t *testing.T, before, after *sg.Deck, r Result)
}

func one(tool string, args func(d *sg.Deck) any) func(*testing.T, *sg.Deck) []Call {
	return func(_ *testing.T, d *sg.Deck) []Call { return []Call{call(tool, args(d))} }
}

func created(t *testing.T, d *sg.Deck, r Result) *sg.Node {
	t.Helper()
	if len(r.Created) == 0 {
		t.Fatalf("%s created nothing", r.Tool)
	}
	return nodeIn(t, d, r.Created[0])
}

var toolCases = []toolCase{
	// ---- content: create
	{"create_frame", one("create_frame", func(d *sg.Deck) any {
		return map[string]any{"parentId": "slide-2", "x": 10, "y": 20, "width": 300, "height": 100, "fill": map[string]any{"color": "#112233"}, "layoutMode": "HORIZONTAL", "padding": 8}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		n := created(t, d, r)
		if n.Type != sg.TypeFrame || n.LayoutMode != sg.LayoutHorizontal || n.PaddingLeft != 8 || hexOf(n.Fills) != "#112233" || n.Transform.X() != 10 || n.Size.X != 300 {
			t.Errorf("frame: %+v", n)
		}
	}},
	{"create_text", one("create_text", func(d *sg.Deck) any {
		return map[string]any{"parentId": "slide-2", "x": 64, "y": 600, "width": 500, "text": "Hello 世界", "fontSize": 24, "fontFamily": "Inter", "color": "#FF0000"}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		n := created(t, d, r)
		if n.Characters != "Hello 世界" || n.Style.FontSize != 24 || n.Style.FontFamily != "Inter" || n.Style.FontFamilyEastAsian != "Inter" || hexOf(n.Style.Fills) != "#FF0000" {
			t.Errorf("text: %+v %+v", n, n.Style)
		}
		if n.Size.Y <= 0 {
			t.Errorf("hug height not derived: %v", n.Size)
		}
	}},
	{"create_rectangle", one("create_rectangle", func(d *sg.Deck) any {
		return map[string]any{"parentId": "slide-2", "width": 80, "height": 40, "fill": map[string]any{"themeColor": "accent2"}, "cornerRadius": 6, "text": "Go"}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		n := created(t, d, r)
		if n.Type != sg.TypeRectangle || n.Fills[0].ThemeColor == nil || n.Fills[0].ThemeColor.Name != "accent2" || n.CornerRadius != 6 || n.Characters != "Go" {
			t.Errorf("rect: %+v", n)
		}
	}},
	{"create_ellipse", one("create_ellipse", func(d *sg.Deck) any {
		return map[string]any{"parentId": "slide-2", "width": 50, "height": 50, "strokeColor": "#000000"}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		n := created(t, d, r)
		if n.Type != sg.TypeEllipse || len(n.Strokes) != 1 || n.StrokeWeight != 1 {
			t.Errorf("ellipse: %+v", n)
		}
	}},
	{"create_line", one("create_line", func(d *sg.Deck) any {
		return map[string]any{"parentId": "slide-2", "x1": 0, "y1": 0, "x2": 30, "y2": 40, "endCap": "ARROW_LINES"}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		n := created(t, d, r)
		if n.Type != sg.TypeLine || math.Abs(n.Size.X-50) > 0.01 || math.Abs(n.Transform.Rotation()-53.13) > 0.01 || n.Connector.EndCap != "ARROW_LINES" {
			t.Errorf("line: size %v rot %v", n.Size, n.Transform.Rotation())
		}
	}},
	{"create_image", one("create_image", func(d *sg.Deck) any {
		return map[string]any{"parentId": "slide-2", "query": "acme logo", "width": 100, "altText": "ACME"}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		n := created(t, d, r)
		p := imagePaint(n)
		if n.Type != sg.TypeImage || p == nil || d.Assets[p.ImageRef].Width != 200 || n.Size.Y != 40 || n.AltText != "ACME" {
			t.Errorf("image: %+v size %v", n, n.Size)
		}
	}},
	{"create_graphics", one("create_graphics", func(d *sg.Deck) any {
		return map[string]any{"parentId": "slide-2", "width": 400, "height": 300, "chart": map[string]any{"kind": "COLUMN", "categories": []string{"A", "B"}, "series": []any{map[string]any{"name": "S", "values": []float64{1, 2}}}, "legend": true, "labels": true}}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		f := created(t, d, r)
		var bars []*sg.Node
		for _, c := range f.Children {
			if c.Type == sg.TypeRectangle {
				bars = append(bars, c)
			}
		}
		if len(bars) != 2 || bars[1].Size.Y <= bars[0].Size.Y || math.Abs(bars[1].Size.Y-2*bars[0].Size.Y) > 0.1 {
			t.Fatalf("bars: %d", len(bars))
		}
		if named(t, d, 1, "Legend").LayoutMode != sg.LayoutHorizontal {
			t.Error("legend not an auto-layout row")
		}
	}},
	{"create_connector", func(_ *testing.T, d *sg.Deck) []Call {
		return []Call{
			{Tool: "create_rectangle", Args: js(map[string]any{"parentId": "slide-2", "x": 0, "y": 0, "width": 10, "height": 10}), As: "a"},
			{Tool: "create_rectangle", Args: js(map[string]any{"parentId": "slide-2", "x": 100, "y": 100, "width": 10, "height": 10}), As: "b"},
			call("create_connector", map[string]any{"startNodeId": "$a", "endNodeId": "$b"}),
		}
	}, func(t *testing.T, _, d *sg.Deck, r Result) {
		n := created(t, d, r)
		if n.Connector == nil || n.Connector.Start.NodeID == "" || n.Size.X != 110 {
			t.Errorf("connector: %+v", n)
		}
	}},
	// ---- content: structure
	{"group_nodes", one("group_nodes", func(d *sg.Deck) any {
		return map[string]any{"nodeIds": []string{slideN(d, 2).Children[1].ID, slideN(d, 2).Children[2].ID}, "name": "Columns"}
	}), func(t *testing.T, before, d *sg.Deck, r Result) {
		g := created(t, d, r)
		ix := sg.NewIndex(d)
		if g.Type != sg.TypeGroup || len(g.Children) != 2 {
			t.Fatalf("group: %+v", g)
		}
		for _, c := range g.Children {
			was := sg.NewIndex(before).AbsoluteBounds(c.ID)
			if now := ix.AbsoluteBounds(c.ID); now != was {
				t.Errorf("%s moved on the slide: %v -> %v", c.ID, was, now)
			}
		}
	}},
	{"ungroup_node", func(_ *testing.T, d *sg.Deck) []Call {
		return []Call{
			{Tool: "group_nodes", Args: js(map[string]any{"nodeIds": []string{slideN(d, 2).Children[1].ID, slideN(d, 2).Children[2].ID}}), As: "g"},
			call("ungroup_node", map[string]any{"nodeId": "$g"}),
		}
	}, func(t *testing.T, _, d *sg.Deck, r Result) {
		before := fixture(t)
		if len(slideN(d, 2).Children) != 3 {
			t.Fatalf("children after ungroup: %d", len(slideN(d, 2).Children))
		}
		for i, c := range slideN(d, 2).Children {
			if c.ID != slideN(before, 2).Children[i].ID || c.Transform != slideN(before, 2).Children[i].Transform {
				t.Errorf("child %d: %s %v", i, c.ID, c.Transform)
			}
		}
	}},
	{"clone_node", one("clone_node", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 3, "Card").ID}
	}), func(t *testing.T, before, d *sg.Deck, r Result) {
		row, was := named(t, d, 3, "Card Row"), named(t, before, 3, "Card Row")
		if len(row.Children) != len(was.Children)+1 {
			t.Fatalf("cards %d -> %d", len(was.Children), len(row.Children))
		}
		last := row.Children[len(row.Children)-1]
		if right := last.Transform.X() + last.Size.X; math.Abs(right-row.Size.X) > 0.05 {
			t.Errorf("row did not reflow: last card ends at %v of %v", right, row.Size.X)
		}
	}},
	{"delete_node", one("delete_node", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 6, "Picture").ID}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		if d.Slides[6].Find(func(n *sg.Node) bool { return n.Name == "Picture" }) != nil || len(r.Deleted) != 1 {
			t.Error("picture still there")
		}
	}},
	{"move_to_parent", one("move_to_parent", func(d *sg.Deck) any {
		row := named(nil, d, 3, "Card Row")
		return map[string]any{"nodeId": row.Children[len(row.Children)-1].ID, "parentId": row.ID, "index": 0}
	}), func(t *testing.T, before, d *sg.Deck, r Result) {
		row, was := named(t, d, 3, "Card Row"), named(t, before, 3, "Card Row")
		if row.Children[0].ID != was.Children[len(was.Children)-1].ID || row.Children[0].Transform.X() != 0 {
			t.Errorf("last card not first: %s at %v", row.Children[0].ID, row.Children[0].Transform.X())
		}
	}},
	{"rename_node", one("rename_node", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 6, "Picture").ID, "name": "Hero"}
	}), func(t *testing.T, _, d *sg.Deck, r Result) { named(t, d, 6, "Hero") }},
	{"set_z_order", one("set_z_order", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 6, "Caption").ID, "action": "BEHIND", "relativeToId": named(nil, d, 6, "Picture").ID}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		kids := d.Slides[6].Children
		if indexOf(kids, named(t, d, 6, "Caption")) != indexOf(kids, named(t, d, 6, "Picture"))-1 {
			t.Errorf("caption not directly behind picture")
		}
	}},
	// ---- content: geometry
	{"move_node", one("move_node", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 6, "Picture").ID, "x": 10, "y": -5, "relative": true}
	}), func(t *testing.T, before, d *sg.Deck, r Result) {
		a, b := named(t, before, 6, "Picture"), named(t, d, 6, "Picture")
		if b.Transform.X() != a.Transform.X()+10 || b.Transform.Y() != a.Transform.Y()-5 {
			t.Errorf("moved to %v,%v", b.Transform.X(), b.Transform.Y())
		}
	}},
	{"resize_node", one("resize_node", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 4, "Results Table").ID, "width": 576}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		tb := named(t, d, 4, "Results Table")
		if tb.Size.X != 576 || tb.Table.Columns[0] != 144 || tb.Children[1].Transform.X() != 144 {
			t.Errorf("table %v cols %v", tb.Size, tb.Table.Columns)
		}
	}},
	{"rotate_node", one("rotate_node", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 6, "Picture").ID, "angle": 90}
	}), func(t *testing.T, before, d *sg.Deck, r Result) {
		a, b := named(t, before, 6, "Picture"), named(t, d, 6, "Picture")
		ca := a.Transform.Apply(sg.Vector{X: a.Size.X / 2, Y: a.Size.Y / 2})
		cb := b.Transform.Apply(sg.Vector{X: b.Size.X / 2, Y: b.Size.Y / 2})
		if math.Abs(b.Transform.Rotation()-90) > 1e-6 || math.Abs(ca.X-cb.X) > 0.01 || math.Abs(ca.Y-cb.Y) > 0.01 {
			t.Errorf("rotation %v centre %v -> %v", b.Transform.Rotation(), ca, cb)
		}
	}},
	{"align_nodes", one("align_nodes", func(d *sg.Deck) any {
		return map[string]any{"nodeIds": []string{named(nil, d, 6, "Picture").ID}, "align": "CENTER"}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		p := named(t, d, 6, "Picture")
		if c := p.Transform.X() + p.Size.X/2; math.Abs(c-640) > 0.01 {
			t.Errorf("centre at %v", c)
		}
	}},
	{"distribute_nodes", func(_ *testing.T, d *sg.Deck) []Call {
		return []Call{
			{Tool: "create_rectangle", Args: js(map[string]any{"parentId": "slide-13", "x": 0, "width": 10, "height": 10}), As: "a"},
			{Tool: "create_rectangle", Args: js(map[string]any{"parentId": "slide-13", "x": 15, "width": 10, "height": 10}), As: "b"},
			{Tool: "create_rectangle", Args: js(map[string]any{"parentId": "slide-13", "x": 100, "width": 10, "height": 10}), As: "c"},
			call("distribute_nodes", map[string]any{"nodeIds": []string{"$a", "$b", "$c"}, "direction": "HORIZONTAL"}),
		}
	}, func(t *testing.T, _, d *sg.Deck, r Result) {
		ix := sg.NewIndex(d)
		if x := ix.Node(r.Changed[1]).Transform.X(); x != 50 {
			t.Errorf("middle at %v, want 50", x)
		}
	}},
	// ---- content: style
	{"set_fill_color", one("set_fill_color", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 3, "Card").ID, "color": "#ABCDEF", "opacity": 0.5}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		n := named(t, d, 3, "Card")
		if hexOf(n.Fills) != "#ABCDEF" || *n.Fills[0].Opacity != 0.5 {
			t.Errorf("fills %+v", n.Fills)
		}
	}},
	{"set_gradient_fill", one("set_gradient_fill", func(d *sg.Deck) any {
		return map[string]any{"nodeId": "slide-13", "angle": 90, "stops": []any{map[string]any{"position": 0, "color": "#000000"}, map[string]any{"position": 1, "color": "#FFFFFF"}}}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		f := d.Slides[12].Fills[0]
		if f.Type != sg.PaintGradientLinear || len(f.GradientStops) != 2 || f.GradientAngle != 90 {
			t.Errorf("gradient %+v", f)
		}
	}},
	{"set_stroke", one("set_stroke", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 6, "Picture").ID, "color": "#00FF00", "weight": 3, "dashes": []float64{4, 2}}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		n := named(t, d, 6, "Picture")
		if hexOf(n.Strokes) != "#00FF00" || n.StrokeWeight != 3 || len(n.StrokeDashes) != 2 {
			t.Errorf("stroke %+v", n.Strokes)
		}
	}},
	{"set_corner_radius", one("set_corner_radius", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 6, "Picture").ID, "radius": 4, "corners": []float64{1, 2, 3, 4}}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		n := named(t, d, 6, "Picture")
		if n.CornerRadius != 4 || n.CornerRadii == nil || n.CornerRadii[2] != 3 {
			t.Errorf("radius %v %v", n.CornerRadius, n.CornerRadii)
		}
	}},
	{"set_opacity", one("set_opacity", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 3, "Card").ID, "visible": false}
	}), func(t *testing.T, before, d *sg.Deck, r Result) {
		row := named(t, d, 3, "Card Row")
		if row.Children[0].IsVisible() {
			t.Fatal("still visible")
		}
		if row.Children[1].Transform.X() != 0 {
			t.Errorf("hidden card still takes space: next card at %v", row.Children[1].Transform.X())
		}
	}},
	{"set_drop_shadow", one("set_drop_shadow", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 3, "Card").ID, "color": "#00000080", "offsetY": 6, "radius": 12}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		e := named(t, d, 3, "Card").Effects
		if len(e) != 1 || e[0].Type != sg.EffectDropShadow || e[0].Radius != 12 || e[0].Offset.Y != 6 {
			t.Errorf("effects %+v", e)
		}
	}},
	{"replace_color", one("replace_color", func(d *sg.Deck) any {
		return map[string]any{"from": "#0B6E4F", "to": "#FF5500"}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		if d.Tokens.Colors["accent1"].Hex() != "#FF5500" {
			t.Errorf("token accent1 = %s", d.Tokens.Colors["accent1"].Hex())
		}
		if hexOf(d.Slides[12].Fills) != "#FF5500" || d.Slides[12].Fills[0].ThemeColor.Name != "accent1" {
			t.Errorf("section background %s", hexOf(d.Slides[12].Fills))
		}
	}},
	// ---- content: text
	{"set_text_content", one("set_text_content", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 1, "Title").ID, "text": "New title"}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		if named(t, d, 1, "Title").Characters != "New title" {
			t.Error("text not set")
		}
	}},
	{"replace_text", func(_ *testing.T, d *sg.Deck) []Call {
		return []Call{
			call("set_text_content", map[string]any{"nodeId": named(nil, d, 1, "Title").ID, "text": "Acme and ACME, not Acmes"}),
			call("set_slide_properties", map[string]any{"slideId": "slide-2", "notes": "acme notes"}),
			call("replace_text", map[string]any{"find": "acme", "replace": "Beta", "wholeWord": true, "includeNotes": true}),
		}
	}, func(t *testing.T, _, d *sg.Deck, r Result) {
		if got := named(t, d, 1, "Title").Characters; got != "Beta and Beta, not Acmes" {
			t.Errorf("title %q", got)
		}
		if d.Slides[1].Slide.Notes != "Beta notes" {
			t.Errorf("notes %q", d.Slides[1].Slide.Notes)
		}
		if string(r.Data) != `{"replaced":3,"slides":[{"slide":2,"slideId":"slide-2","text":2,"notes":1}]}` {
			t.Errorf("result %s", r.Data)
		}
	}},
	{"rewrite_text", one("rewrite_text", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 1, "Content").ID, "runs": []string{"Soporte", " satisfacción en el 94 por ciento",
			"Infrastructure cost per customer dropped 12 percent", "", "Contratación centrada en ingeniería de soluciones"}}
	}), func(t *testing.T, before, d *sg.Deck, r Result) {
		n := named(t, d, 1, "Content")
		if want := "Soporte satisfacción en el 94 por ciento\nInfrastructure cost per customer dropped 12 percent\n\nContratación centrada en ingeniería de soluciones"; n.Characters != want {
			t.Fatalf("text %q", n.Characters)
		}
		if n.StyleAt(0).FontWeight != 700 || n.StyleAt(6).FontWeight != 700 || n.StyleAt(7).FontWeight == 700 || len(n.Paragraphs) != len(named(t, before, 1, "Content").Paragraphs) {
			t.Errorf("bold run or paragraphs lost: %+v", n.TextContent)
		}
		if string(r.Data) != `{"unit":"runs","total":5,"rewritten":4}` {
			t.Errorf("result %s", r.Data)
		}
	}},
	{"set_multiple_text_contents", one("set_multiple_text_contents", func(d *sg.Deck) any {
		return map[string]any{"items": []any{map[string]any{"nodeId": named(nil, d, 1, "Title").ID, "text": "A"}, map[string]any{"nodeId": named(nil, d, 2, "Title").ID, "text": "B"}}}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		if named(t, d, 1, "Title").Characters != "A" || named(t, d, 2, "Title").Characters != "B" {
			t.Error("texts not set")
		}
	}},
	{"set_text_font", one("set_text_font", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 1, "Content").ID, "fontFamily": "Georgia", "fontSize": 30}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		n := named(t, d, 1, "Content")
		for i := 0; i < n.RuneCount(); i++ {
			st := n.StyleAt(i)
			if st.FontFamily != "Georgia" || st.FontSize != 30 {
				t.Fatalf("char %d: %s %v", i, st.FontFamily, st.FontSize)
			}
		}
		if n.StyleAt(0).FontWeight != 700 {
			t.Error("bold override on first word lost")
		}
	}},
	{"set_text_color", one("set_text_color", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 1, "Title").ID, "color": "#123456", "start": 0, "end": 3}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		n := named(t, d, 1, "Title")
		if hexOf(n.StyleAt(0).Fills) != "#123456" || hexOf(n.StyleAt(3).Fills) == "#123456" {
			t.Errorf("range colour wrong")
		}
	}},
	{"set_text_range_style", func(_ *testing.T, d *sg.Deck) []Call {
		return []Call{
			call("set_text_content", map[string]any{"nodeId": named(nil, d, 1, "Title").ID, "text": "Revenue grew 12% in Q3"}),
			call("set_text_range_style", map[string]any{"nodeId": named(nil, d, 1, "Title").ID, "substring": "12%", "fontWeight": 800, "color": "#C00000", "textDecoration": "UNDERLINE"}),
		}
	}, func(t *testing.T, _, d *sg.Deck, r Result) {
		n := named(t, d, 1, "Title")
		i := strings.Index(n.Characters, "12%")
		if st := n.StyleAt(i); st.FontWeight != 800 || st.TextDecoration != "UNDERLINE" || hexOf(st.Fills) != "#C00000" {
			t.Errorf("substring style %+v", st)
		}
		if st := n.StyleAt(0); st.FontWeight == 800 {
			t.Error("style leaked outside the range")
		}
	}},
	{"set_text_decoration", one("set_text_decoration", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 1, "Title").ID, "decoration": "STRIKETHROUGH"}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		if named(t, d, 1, "Title").Style.TextDecoration != "STRIKETHROUGH" {
			t.Error("not struck")
		}
	}},
	{"set_text_align", one("set_text_align", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 1, "Title").ID, "horizontal": "CENTER", "vertical": "BOTTOM"}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		st := named(t, d, 1, "Title").Style
		if st.TextAlignHorizontal != "CENTER" || st.TextAlignVertical != "BOTTOM" {
			t.Errorf("align %+v", st)
		}
	}},
	{"set_paragraph_style", one("set_paragraph_style", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 1, "Content").ID, "listType": "ORDERED", "spaceAfter": 12}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		for i, p := range named(t, d, 1, "Content").Paragraphs {
			if p.ListType != "ORDERED" || p.SpaceAfter != 12 {
				t.Errorf("paragraph %d: %+v", i, p)
			}
		}
	}},
	{"set_text_box", one("set_text_box", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 1, "Content").ID, "autoResize": "TRUNCATE", "padding": 6}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		b := named(t, d, 1, "Content").TextBox
		if b == nil || b.AutoResize != "TRUNCATE" || b.Insets.Left != 6 {
			t.Errorf("text box %+v", b)
		}
	}},
	{"apply_text_style", one("apply_text_style", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 1, "Content").ID, "style": "title"}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		if st := named(t, d, 1, "Content").StyleAt(0); st.FontSize != 40 || st.FontWeight != 700 {
			t.Errorf("style %+v", st)
		}
	}},
	// ---- content: layout
	{"set_layout_mode", func(_ *testing.T, d *sg.Deck) []Call {
		return []Call{
			{Tool: "create_frame", Args: js(map[string]any{"parentId": "slide-13", "x": 100, "y": 100, "width": 500, "height": 200}), As: "f"},
			call("create_rectangle", map[string]any{"parentId": "$f", "x": 220, "y": 30, "width": 100, "height": 50}),
			call("create_rectangle", map[string]any{"parentId": "$f", "x": 20, "y": 30, "width": 100, "height": 80}),
			call("set_layout_sizing", map[string]any{"nodeId": "$f", "horizontal": "HUG", "vertical": "HUG"}),
			call("set_layout_mode", map[string]any{"nodeId": "$f", "layoutMode": "HORIZONTAL"}),
		}
	}, func(t *testing.T, _, d *sg.Deck, r Result) {
		f := nodeIn(t, d, r.Changed[0])
		// children ordered by x, padding 20/30, spacing 100 inferred; frame hugs
		if f.Children[0].Size.Y != 80 || f.PaddingLeft != 20 || f.ItemSpacing != 100 {
			t.Fatalf("inferred %v %v %v", f.Children[0].Size, f.PaddingLeft, f.ItemSpacing)
		}
		if want := 20 + 100 + 100 + 100 + f.PaddingRight; f.Size.X != want {
			t.Errorf("hug width %v, want %v", f.Size.X, want)
		}
	}},
	{"set_padding", one("set_padding", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 3, "Card Row").ID, "horizontal": 40}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		row := named(t, d, 3, "Card Row")
		if row.Children[0].Transform.X() != 40 {
			t.Errorf("first card at %v", row.Children[0].Transform.X())
		}
		last := row.Children[len(row.Children)-1]
		if math.Abs(last.Transform.X()+last.Size.X-(row.Size.X-40)) > 0.05 {
			t.Errorf("last card ends at %v", last.Transform.X()+last.Size.X)
		}
	}},
	{"set_axis_align", one("set_axis_align", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 3, "Card").ID, "primaryAxisAlignItems": "MAX"}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		c := named(t, d, 3, "Card")
		last := c.Children[len(c.Children)-1]
		if math.Abs(last.Transform.Y()+last.Size.Y-(c.Size.Y-c.PaddingBottom)) > 0.05 {
			t.Errorf("bottom-aligned child ends at %v", last.Transform.Y()+last.Size.Y)
		}
	}},
	{"set_layout_sizing", one("set_layout_sizing", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 3, "Card Row").ID, "vertical": "HUG"}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		row := named(t, d, 3, "Card Row")
		// cards FILL vertically inside a hugging row: they keep their height
		if row.Size.Y != 300 || row.LayoutSizingVertical != sg.SizingHug {
			t.Errorf("row height %v", row.Size.Y)
		}
	}},
	{"set_item_spacing", one("set_item_spacing", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 3, "Card Row").ID, "itemSpacing": 0}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		row := named(t, d, 3, "Card Row")
		k := float64(len(row.Children))
		if math.Abs(row.Children[0].Size.X-row.Size.X/k) > 0.05 {
			t.Errorf("card width %v of %v", row.Children[0].Size.X, row.Size.X)
		}
	}},
	{"set_layout_positioning", one("set_layout_positioning", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 3, "Card").ID, "positioning": "ABSOLUTE", "x": 500, "y": 10}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		row := named(t, d, 3, "Card Row")
		if row.Children[0].Transform.X() != 500 || row.Children[1].Transform.X() != 0 {
			t.Errorf("absolute %v, next %v", row.Children[0].Transform.X(), row.Children[1].Transform.X())
		}
	}},
	{"wrap_in_auto_layout", one("wrap_in_auto_layout", func(d *sg.Deck) any {
		return map[string]any{"nodeIds": []string{named(nil, d, 2, "Right Column").ID, named(nil, d, 2, "Left Column").ID}, "layoutMode": "HORIZONTAL"}
	}), func(t *testing.T, before, d *sg.Deck, r Result) {
		f := created(t, d, r)
		if f.Children[0].Name != "Left Column" || f.ItemSpacing != 48 || f.Transform.X() != 64 {
			t.Errorf("wrapped: first %s spacing %v x %v", f.Children[0].Name, f.ItemSpacing, f.Transform.X())
		}
		ix, bx := sg.NewIndex(d), sg.NewIndex(before)
		for _, c := range f.Children {
			if a, b := bx.AbsoluteBounds(c.ID), ix.AbsoluteBounds(c.ID); math.Abs(a.X-b.X) > 0.05 || math.Abs(a.Y-b.Y) > 0.05 {
				t.Errorf("%s moved %v -> %v", c.Name, a, b)
			}
		}
	}},
	// ---- content: images
	{"replace_image", one("replace_image", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 6, "Picture").ID, "imageId": "local:photos/city.png", "scaleMode": "FIT"}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		p := imagePaint(named(t, d, 6, "Picture"))
		if d.Assets[p.ImageRef].Name != "city.png" || p.ScaleMode != "FIT" {
			t.Errorf("paint %+v", p)
		}
	}},
	{"crop_image", one("crop_image", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 6, "Picture").ID, "aspectRatio": "1:1"}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		n := named(t, d, 6, "Picture")
		p := imagePaint(n)
		// 480x320 source to 1:1: a third of the width goes, a sixth each side
		if p.Crop == nil || math.Abs(p.Crop.Left-1.0/6) > 1e-3 || n.Size.X != n.Size.Y {
			t.Errorf("crop %+v size %v", p.Crop, n.Size)
		}
	}},
	// ---- content: accessibility, links
	{"set_alt_text", one("set_alt_text", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 5, "Chart").ID, "altText": "Revenue by quarter"}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		if named(t, d, 5, "Chart").AltText != "Revenue by quarter" {
			t.Error("alt text")
		}
	}},
	{"set_hyperlink", one("set_hyperlink", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 1, "Title").ID, "slideId": "#5"}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		if l := named(t, d, 1, "Title").Link; l == nil || l.NodeID != "slide-5" {
			t.Errorf("link %+v", l)
		}
	}},
	{"enforce_min_font_size", one("enforce_min_font_size", func(d *sg.Deck) any {
		return map[string]any{"minSize": 24}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		d.Walk(func(n, _ *sg.Node, _ int) bool {
			if n.Characters != "" {
				for i := 0; i < n.RuneCount(); i++ {
					if s := n.StyleAt(i).FontSize; s < 24 {
						t.Fatalf("%s char %d at %v px", n.ID, i, s)
					}
				}
			}
			return true
		})
		if len(r.Changed) == 0 {
			t.Error("nothing reported")
		}
	}},
	{"fix_text_contrast", func(_ *testing.T, d *sg.Deck) []Call {
		return []Call{call("set_fill_color", map[string]any{"nodeId": "slide-13", "color": "#FFFFFF"}), call("fix_text_contrast", map[string]any{"nodeId": "slide-13"})}
	}, func(t *testing.T, _, d *sg.Deck, r Result) {
		n := named(t, d, 12, "Title")
		if hexOf(n.Style.Fills) != "#000000" || !slices.Contains(r.Changed, n.ID) {
			t.Errorf("white-on-white title now %s", hexOf(n.Style.Fills))
		}
	}},
	// ---- content: reads
	{"get_node_info", one("get_node_info", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 3, "Card Row").ID, "limit": 2}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		var v struct {
			Node     sg.Node `json:"node"`
			Children paged   `json:"children"`
		}
		decodeData(t, r, &v)
		if v.Node.LayoutMode != sg.LayoutHorizontal || v.Children.NextCursor != "2" || v.Children.Total < 3 {
			t.Errorf("info %+v", v.Children)
		}
	}},
	{"get_node_info_by_types", one("get_node_info_by_types", func(d *sg.Deck) any {
		return map[string]any{"types": []string{"TABLE", "CHART"}}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		var v struct {
			Items []nodeSummary `json:"items"`
			Total int           `json:"total"`
		}
		decodeData(t, r, &v)
		if v.Total != 4 || v.Items[0].SlideID != "slide-5" {
			t.Errorf("by types %+v", v)
		}
	}},
	{"get_text_node_info", one("get_text_node_info", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 1, "Content").ID}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		var v struct {
			Runs struct {
				Items []textRun `json:"items"`
			} `json:"runs"`
		}
		decodeData(t, r, &v)
		it := v.Runs.Items
		if len(it) != 5 || it[0].Text != "Support" || it[0].Style.FontWeight != 700 || it[0].Summary != "Liberation Sans 22px bold #0B6E4F" ||
			it[1].Style.FontWeight != 400 || it[2].Run != 2 || it[2].Paragraph != 1 || it[2].Text != "Infrastructure cost per customer dropped 12 percent" {
			t.Errorf("runs %+v", it)
		}
	}},
	{"scan_text_nodes", one("scan_text_nodes", func(d *sg.Deck) any { return map[string]any{"limit": 5} }),
		func(t *testing.T, _, d *sg.Deck, r Result) {
			var v paged
			decodeData(t, r, &v)
			if v.NextCursor != "5" || v.Total < 40 {
				t.Errorf("scan total %d cursor %q", v.Total, v.NextCursor)
			}
		}},
	// ---- content: theme
	{"set_theme_colors", one("set_theme_colors", func(d *sg.Deck) any {
		return map[string]any{"colors": map[string]string{"dk2": "#000080"}}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		if hexOf(d.Slides[0].Fills) != "#000080" || hexOf(named(t, d, 1, "Title").Style.Fills) != "#000080" {
			t.Errorf("dk2 references did not follow: %s", hexOf(d.Slides[0].Fills))
		}
	}},
	{"set_theme_fonts", one("set_theme_fonts", func(d *sg.Deck) any {
		return map[string]any{"heading": "Montserrat", "body": "Montserrat"}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		if named(t, d, 1, "Title").Style.FontFamily != "Montserrat" || d.Tokens.Fonts.Major.Latin != "Montserrat" {
			t.Error("theme fonts not applied")
		}
	}},
	// ---- slide
	{"create_slide", one("create_slide", func(d *sg.Deck) any {
		return map[string]any{"index": 2, "templateSlideId": "slide-2", "title": "Next steps", "body": "Ship it"}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		s := d.Slides[2]
		if s.ID != r.Created[0] || s.SlideTitle() != "Next steps" || hexOf(s.Fills) != hexOf(d.Slides[1].Fills) {
			t.Errorf("new slide %s title %q", s.ID, s.SlideTitle())
		}
		if !slices.Contains(texts(s), "Ship it") {
			t.Error("body missing")
		}
	}},
	{"duplicate_slide", one("duplicate_slide", func(d *sg.Deck) any { return map[string]any{"slideId": "slide-4"} }),
		func(t *testing.T, before, d *sg.Deck, r Result) {
			if len(d.Slides) != 14 || d.Slides[4].ID != r.Created[0] || !slices.Equal(texts(d.Slides[4]), texts(d.Slides[3])) {
				t.Error("duplicate not after original")
			}
		}},
	{"delete_slide", one("delete_slide", func(d *sg.Deck) any { return map[string]any{"slideId": "slide-4"} }),
		func(t *testing.T, _, d *sg.Deck, r Result) {
			if s, _ := d.SlideByID("slide-4"); s != nil || len(d.Slides) != 12 {
				t.Error("slide not deleted")
			}
		}},
	{"reorder_slides", one("reorder_slides", func(d *sg.Deck) any {
		var ids []string
		for _, s := range d.Slides {
			ids = append(ids, s.ID)
		}
		slices.Reverse(ids)
		return map[string]any{"slideIds": ids}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		if d.Slides[0].ID != "slide-13" || d.Slides[12].ID != "slide-1" {
			t.Error("not reversed")
		}
	}},
	{"focus_slide", one("focus_slide", func(d *sg.Deck) any { return map[string]any{"slideId": "#13"} }),
		func(t *testing.T, _, d *sg.Deck, r Result) {
			var v struct {
				Focused string
				Index   int
			}
			decodeData(t, r, &v)
			if v.Focused != "slide-13" || v.Index != 12 {
				t.Errorf("%+v", v)
			}
		}},
	{"get_all_slides", one("get_all_slides", func(d *sg.Deck) any { return map[string]any{"limit": 3, "cursor": "3"} }),
		func(t *testing.T, _, d *sg.Deck, r Result) {
			var v struct {
				Items []struct {
					ID, Title string
					Index     int
				} `json:"items"`
				NextCursor string `json:"nextCursor"`
			}
			decodeData(t, r, &v)
			if len(v.Items) != 3 || v.Items[0].ID != "slide-4" || v.Items[0].Title == "" || v.NextCursor != "6" {
				t.Errorf("%+v", v)
			}
		}},
	{"get_page_structure", one("get_page_structure", func(d *sg.Deck) any { return map[string]any{"slideId": "slide-4", "depth": 2} }),
		func(t *testing.T, _, d *sg.Deck, r Result) {
			if !bytes.Contains(r.Data, []byte(`"Card Row"`)) || !bytes.Contains(r.Data, []byte(`"Card"`)) || bytes.Contains(r.Data, []byte(`"Metric"`)) {
				t.Errorf("structure: %s", r.Data)
			}
		}},
	{"set_slide_background", one("set_slide_background", func(d *sg.Deck) any {
		return map[string]any{"slideIds": []string{"slide-2", "slide-3"}, "themeColor": "lt2"}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		if d.Slides[1].Fills[0].ThemeColor.Name != "lt2" || d.Slides[3].Fills[0].ThemeColor.Name != "lt1" {
			t.Error("background")
		}
	}},
	{"set_slide_transition", one("set_slide_transition", func(d *sg.Deck) any {
		return map[string]any{"type": "fade", "durationMs": 500}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		for _, s := range d.Slides {
			if s.Slide.Transition == nil || s.Slide.Transition.Type != "fade" {
				t.Fatalf("%s without fade", s.ID)
			}
		}
	}},
	{"set_slide_properties", one("set_slide_properties", func(d *sg.Deck) any {
		return map[string]any{"slideId": "slide-3", "hidden": true, "notes": "Say hi"}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		if p := d.Slides[2].Slide; !p.Hidden || p.Notes != "Say hi" {
			t.Errorf("%+v", p)
		}
	}},
	{"set_sections", one("set_sections", func(d *sg.Deck) any {
		return map[string]any{"sections": []any{map[string]any{"name": "Intro", "slideIds": []string{"slide-1", "slide-2"}}}}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		if len(d.Sections) != 1 || d.Slides[1].Slide.Section != "Intro" {
			t.Errorf("%+v", d.Sections)
		}
	}},
	{"add_footer", one("add_footer", func(d *sg.Deck) any {
		return map[string]any{"text": "Confidential", "slideNumber": true, "skipFirst": true}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		for i, s := range d.Slides {
			has := slices.Contains(texts(s), "Confidential")
			if has != (i > 0) {
				t.Errorf("slide %d footer %v", i, has)
			}
		}
	}},
	{"export_slide_image", one("export_slide_image", func(d *sg.Deck) any { return map[string]any{"slideId": "slide-4", "format": "SVG"} }),
		func(t *testing.T, _, d *sg.Deck, r Result) {
			var v struct{ MimeType, Svg string }
			decodeData(t, r, &v)
			if v.MimeType != "image/svg+xml" || !strings.HasPrefix(v.Svg, "<svg") || strings.Count(v.Svg, "<rect") < 5 {
				t.Errorf("svg %q", clip(v.Svg, 100))
			}
		}},
	// ---- chart
	{"create_chart", one("create_chart", func(d *sg.Deck) any {
		return map[string]any{"parentId": "slide-13", "chartType": "LINE", "categories": []string{"a", "b"}, "series": []any{map[string]any{"name": "x", "values": []float64{1, 2}}, map[string]any{"name": "y", "values": []float64{3, 4}}}}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		n := created(t, d, r)
		if n.Chart.ChartType != "LINE" || n.Chart.Legend == nil || len(n.Chart.Series) != 2 {
			t.Errorf("%+v", n.Chart)
		}
	}},
	{"set_chart_type", one("set_chart_type", func(d *sg.Deck) any {
		return map[string]any{"chartId": named(nil, d, 5, "Chart").ID, "chartType": "AREA", "stacked": true}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		if c := named(t, d, 5, "Chart").Chart; c.ChartType != "AREA" || !c.Stacked {
			t.Errorf("%+v", c)
		}
	}},
	{"update_chart_data", one("update_chart_data", func(d *sg.Deck) any {
		return map[string]any{"chartId": named(nil, d, 5, "Chart").ID, "set": []any{map[string]any{"series": "Costs", "category": "Q2", "value": 999}}}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		if v := named(t, d, 5, "Chart").Chart.Series[1].Values[1]; v != 999 {
			t.Errorf("value %v", v)
		}
	}},
	{"set_series_color", one("set_series_color", func(d *sg.Deck) any {
		return map[string]any{"chartId": named(nil, d, 5, "Chart").ID, "series": "Revenue", "color": "#111111"}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		if c := named(t, d, 5, "Chart").Chart.Series[0].Color.Hex(); c != "#111111" {
			t.Error(c)
		}
	}},
	{"set_chart_legend", one("set_chart_legend", func(d *sg.Deck) any {
		return map[string]any{"chartId": named(nil, d, 5, "Chart").ID, "position": "NONE"}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		if named(t, d, 5, "Chart").Chart.Legend != nil {
			t.Error("legend still shown")
		}
	}},
	{"set_chart_labels", one("set_chart_labels", func(d *sg.Deck) any {
		return map[string]any{"chartId": named(nil, d, 5, "Chart").ID, "title": "Revenue", "yAxisTitle": "$k", "dataLabels": true}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		if c := named(t, d, 5, "Chart").Chart; c.Title != "Revenue" || c.YAxisTitle != "$k" || !c.DataLabels {
			t.Errorf("%+v", c)
		}
	}},
	{"get_chart_data", one("get_chart_data", func(d *sg.Deck) any { return map[string]any{"chartId": named(nil, d, 5, "Chart").ID} }),
		func(t *testing.T, _, d *sg.Deck, r Result) {
			var v struct{ Chart sg.Chart }
			decodeData(t, r, &v)
			if len(v.Chart.Categories) != 4 || v.Chart.Series[0].Name != "Revenue" {
				t.Errorf("%+v", v)
			}
		}},
	// ---- dataChart
	{"create_data_chart", one("create_data_chart", func(d *sg.Deck) any {
		return map[string]any{"tableId": named(nil, d, 4, "Results Table").ID, "chartType": "BAR", "replaceTable": true}
	}), func(t *testing.T, before, d *sg.Deck, r Result) {
		c := created(t, d, r)
		if d.Slides[4].Find(func(n *sg.Node) bool { return n.Type == sg.TypeTable }) != nil {
			t.Error("table still there")
		}
		if c.Chart.ChartType != "BAR" || c.Chart.Legend == nil || len(c.Chart.Series) != 3 || len(c.Chart.Categories) != 4 || c.Chart.Series[0].Name != "Revenue ($k)" {
			t.Errorf("%+v", c.Chart)
		}
		if c.Transform != named(t, before, 4, "Results Table").Transform {
			t.Error("chart not in the table's place")
		}
	}},
	{"sync_chart_from_table", func(_ *testing.T, d *sg.Deck) []Call {
		tb := named(nil, d, 4, "Results Table")
		return []Call{
			{Tool: "create_data_chart", Args: js(map[string]any{"tableId": tb.ID, "parentId": "slide-5"}), As: "c"},
			call("set_table_cells", map[string]any{"tableId": tb.ID, "cells": []any{map[string]any{"row": 1, "column": 1, "text": "12345"}}}),
			call("sync_chart_from_table", map[string]any{"chartId": "$c", "tableId": tb.ID}),
		}
	}, func(t *testing.T, _, d *sg.Deck, r Result) {
		if v := nodeIn(t, d, r.Changed[0]).Chart.Series[0].Values[0]; v != 12345 {
			t.Errorf("value %v", v)
		}
	}},
	{"sort_chart_data", one("sort_chart_data", func(d *sg.Deck) any {
		return map[string]any{"chartId": named(nil, d, 5, "Chart").ID, "by": "Revenue", "descending": true}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		v := named(t, d, 5, "Chart").Chart.Series[0].Values
		if !slices.IsSortedFunc(v, func(a, b float64) int { return -cmpF(a, b) }) {
			t.Errorf("not sorted: %v", v)
		}
	}},
	{"chart_to_table", one("chart_to_table", func(d *sg.Deck) any {
		return map[string]any{"chartId": named(nil, d, 5, "Chart").ID, "replaceChart": true}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		tb := created(t, d, r)
		if tb.Type != sg.TypeTable || len(tb.Table.Rows) != 5 || len(tb.Table.Columns) != 3 || d.Slides[5].Find(func(n *sg.Node) bool { return n.Type == sg.TypeChart }) != nil {
			t.Errorf("table %v", tb.Table)
		}
	}},
	// ---- smartArt
	{"create_smartart", one("create_smartart", func(d *sg.Deck) any {
		return map[string]any{"parentId": "slide-13", "x": 40, "y": 40, "width": 900, "height": 200, "kind": "PROCESS", "items": []any{map[string]any{"text": "Plan"}, map[string]any{"text": "Build"}, map[string]any{"text": "Ship"}}}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		f := created(t, d, r)
		var cards []*sg.Node
		for _, c := range f.Children {
			if c.Name == "Card" {
				cards = append(cards, c)
			}
		}
		if len(cards) != 3 || cards[2].Transform.X() <= cards[1].Transform.X() || math.Abs(cards[2].Transform.X()+cards[2].Size.X-900) > 0.1 {
			t.Errorf("process cards %d", len(cards))
		}
	}},
	{"add_smartart_item", func(_ *testing.T, d *sg.Deck) []Call {
		return []Call{
			{Tool: "create_smartart", Args: js(map[string]any{"parentId": "slide-13", "width": 600, "height": 300, "kind": "LIST", "items": []any{map[string]any{"text": "A"}, map[string]any{"text": "C"}}}), As: "sa"},
			call("add_smartart_item", map[string]any{"smartArtId": "$sa", "text": "B", "index": 1}),
		}
	}, func(t *testing.T, _, d *sg.Deck, r Result) {
		root := nodeIn(t, d, r.Changed[0])
		if got := readItems(root, "LIST"); len(got) != 3 || got[1].Text != "B" {
			t.Errorf("items %+v", got)
		}
	}},
	{"text_to_smartart", one("text_to_smartart", func(d *sg.Deck) any {
		return map[string]any{"nodeId": named(nil, d, 1, "Content").ID, "kind": "HIERARCHY"}
	}), func(t *testing.T, before, d *sg.Deck, r Result) {
		root := created(t, d, r)
		items := readItems(root, "HIERARCHY")
		want := itemsFromText(named(t, before, 1, "Content"))
		if len(items) != len(want) || items[0].Text != want[0].Text {
			t.Errorf("items %+v want %+v", items, want)
		}
	}},
	{"set_smartart_layout", func(_ *testing.T, d *sg.Deck) []Call {
		return []Call{
			{Tool: "create_smartart", Args: js(map[string]any{"parentId": "slide-13", "width": 600, "height": 400, "kind": "LIST", "items": []any{map[string]any{"text": "A"}, map[string]any{"text": "B"}, map[string]any{"text": "C"}}}), As: "sa"},
			call("set_smartart_layout", map[string]any{"smartArtId": "$sa", "kind": "CYCLE"}),
		}
	}, func(t *testing.T, _, d *sg.Deck, r Result) {
		root := nodeIn(t, d, r.Changed[0])
		conns := 0
		for _, c := range root.Children {
			if c.Type == sg.TypeConnector {
				conns++
			}
		}
		if root.Name != "SmartArt/CYCLE" || conns != 3 || len(readItems(root, "CYCLE")) != 3 {
			t.Errorf("cycle %s with %d connectors", root.Name, conns)
		}
	}},
	// ---- table
	{"create_table", one("create_table", func(d *sg.Deck) any {
		return map[string]any{"parentId": "slide-13", "rows": 3, "columns": 2, "data": [][]string{{"Name", "Score"}, {"a", "1"}, {"b", "2"}}, "headerRow": true, "width": 400}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		tb := created(t, d, r)
		if len(tb.Children) != 6 || tb.Children[3].Characters != "1" || tb.Children[3].Transform.X() != 200 || tb.Children[0].Style.FontWeight != 700 {
			t.Errorf("table cells %d", len(tb.Children))
		}
	}},
	{"set_table_cells", one("set_table_cells", func(d *sg.Deck) any {
		return map[string]any{"tableId": named(nil, d, 4, "Results Table").ID, "rule": map[string]any{"column": 1, "op": "max", "fill": "#FFFF00", "wholeRow": true}}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		tb := named(t, d, 4, "Results Table")
		g := tableGrid(tb)
		best, bestRow := -1.0, -1
		for row := 1; row < len(g.cells); row++ {
			if v, _ := parseNumber(g.cells[row][1].Characters); v > best {
				best, bestRow = v, row
			}
		}
		for row := 1; row < len(g.cells); row++ {
			hl := hexOf(g.cells[row][3].Fills) == "#FFFF00"
			if hl != (row == bestRow) {
				t.Errorf("row %d highlighted=%v (max row %d)", row, hl, bestRow)
			}
		}
	}},
	{"edit_table_structure", one("edit_table_structure", func(d *sg.Deck) any {
		return map[string]any{"tableId": named(nil, d, 4, "Results Table").ID, "action": "insert_rows", "index": 2, "data": [][]string{{"New", "1", "2", "3"}}}
	}), func(t *testing.T, before, d *sg.Deck, r Result) {
		tb := named(t, d, 4, "Results Table")
		g := tableGrid(tb)
		if len(g.cells) != 6 || g.cells[2][0].Characters != "New" || g.cells[3][0].Characters != tableGrid(named(t, before, 4, "Results Table")).cells[2][0].Characters {
			t.Errorf("rows %d", len(g.cells))
		}
		if tb.Size.Y != 6*56 {
			t.Errorf("height %v", tb.Size.Y)
		}
	}},
	{"sort_table_rows", one("sort_table_rows", func(d *sg.Deck) any {
		return map[string]any{"tableId": named(nil, d, 4, "Results Table").ID, "column": 1, "descending": true}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		g := tableGrid(named(t, d, 4, "Results Table"))
		var vals []float64
		for row := 1; row < len(g.cells); row++ {
			v, _ := parseNumber(g.cells[row][1].Characters)
			vals = append(vals, v)
		}
		if !slices.IsSortedFunc(vals, func(a, b float64) int { return -cmpF(a, b) }) || g.cells[0][0].Characters != "Region" {
			t.Errorf("not sorted: %v", vals)
		}
	}},
	// ---- connection
	{"check_connection_status", one("check_connection_status", func(d *sg.Deck) any { return map[string]any{} }),
		func(t *testing.T, _, d *sg.Deck, r Result) {
			var v struct {
				Connected bool
				Slides    int
			}
			decodeData(t, r, &v)
			if !v.Connected || v.Slides != 13 {
				t.Errorf("%+v", v)
			}
		}},
	{"get_document_info", one("get_document_info", func(d *sg.Deck) any { return map[string]any{} }),
		func(t *testing.T, _, d *sg.Deck, r Result) {
			var v struct {
				Width       float64
				NodesByType map[string]int
			}
			decodeData(t, r, &v)
			if v.Width != 1280 || v.NodesByType["TABLE"] != 2 {
				t.Errorf("%+v", v)
			}
		}},
	{"get_design_tokens", one("get_design_tokens", func(d *sg.Deck) any { return map[string]any{} }),
		func(t *testing.T, _, d *sg.Deck, r Result) {
			var v struct{ Colors map[string]string }
			decodeData(t, r, &v)
			if v.Colors["accent1"] != "#0B6E4F" {
				t.Errorf("%+v", v)
			}
		}},
	// ---- importExport
	{"clear_canvas", one("clear_canvas", func(d *sg.Deck) any { return map[string]any{"slideId": "slide-7", "keepPlaceholders": true} }),
		func(t *testing.T, _, d *sg.Deck, r Result) {
			for _, c := range d.Slides[6].Children {
				if c.Placeholder == nil {
					t.Errorf("%s kept", c.Name)
				}
			}
			if len(r.Deleted) != 1 {
				t.Errorf("deleted %v", r.Deleted)
			}
		}},
	{"export_json", one("export_json", func(d *sg.Deck) any { return map[string]any{"nodeId": named(nil, d, 3, "Card").ID} }),
		func(t *testing.T, _, d *sg.Deck, r Result) {
			var n sg.Node
			decodeData(t, r, &n)
			if n.Name != "Card" || len(n.Children) != 2 {
				t.Errorf("%+v", n)
			}
		}},
	{"import_json", func(_ *testing.T, d *sg.Deck) []Call {
		card := named(nil, d, 3, "Card")
		b, _ := json.Marshal(card)
		return []Call{call("import_json", map[string]any{"parentId": "slide-13", "nodes": json.RawMessage(b), "x": 5, "y": 6})}
	}, func(t *testing.T, before, d *sg.Deck, r Result) {
		n := created(t, d, r)
		orig := named(t, before, 3, "Card")
		if n.ID == orig.ID || n.Transform.X() != 5 || len(n.Children) != 2 || n.Children[0].ID == orig.Children[0].ID {
			t.Errorf("imported %s", n.ID)
		}
	}},
	// ---- unsplash (image library)
	{"search_stock_images", one("search_stock_images", func(d *sg.Deck) any { return map[string]any{"query": "skyline"} }),
		func(t *testing.T, _, d *sg.Deck, r Result) {
			var v struct{ Items []struct{ ID string } }
			decodeData(t, r, &v)
			if len(v.Items) != 1 || v.Items[0].ID != "local:photos/city.png" {
				t.Errorf("%+v", v)
			}
		}},
	{"insert_stock_image", one("insert_stock_image", func(d *sg.Deck) any { return map[string]any{"parentId": "slide-13", "query": "team"} }),
		func(t *testing.T, _, d *sg.Deck, r Result) {
			n := created(t, d, r)
			if d.Assets[imagePaint(n).ImageRef].Name != "team-meeting.png" || n.AltText == "" || n.Size.X/n.Size.Y != 1.5 {
				t.Errorf("%+v %v", n, n.Size)
			}
		}},
	// ---- batch, math
	{"batch_execute", one("batch_execute", func(d *sg.Deck) any {
		return map[string]any{"operations": []any{
			map[string]any{"command": "create_slide", "params": map[string]any{"name": "Agenda"}, "as": "s"},
			map[string]any{"command": "create_text", "params": map[string]any{"parentId": "$s", "text": "Agenda", "width": 400}, "as": "t"},
			map[string]any{"command": "set_text_font", "params": map[string]any{"nodeId": "$t", "fontSize": 44}},
		}}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		s := nodeIn(t, d, r.Created[0])
		if s.Type != sg.TypeSlide || len(s.Children) != 1 || s.Children[0].Style.FontSize != 44 {
			t.Errorf("batch result %+v", s)
		}
	}},
	{"create_math", one("create_math", func(d *sg.Deck) any {
		return map[string]any{"parentId": "slide-13", "latex": `$E = mc^2$`}
	}), func(t *testing.T, _, d *sg.Deck, r Result) {
		n := created(t, d, r)
		if n.Type != sg.TypeMath || n.Math.LaTeX != "E = mc^2" {
			t.Errorf("%+v", n.Math)
		}
	}},
}

// TestEveryToolChangesADeckOrReturnsData runs one scenario per tool: the
// deck must validate, a mutating tool must change it (compared to the deck
// before its own call), a read tool must return data and leave it as it was,
// and the case's check must pass.
func TestEveryToolChangesADeckOrReturnsData(t *testing.T) {
	covered := map[string]bool{}
	for _, tc := range toolCases {
		covered[tc.tool] = true
		t.Run(tc.tool, func(t *testing.T) {
			d := fixture(t)
			o := opts(t)
			calls := tc.calls(t, d)
			if last := calls[len(calls)-1].Tool; last != tc.tool {
				t.Fatalf("case for %s ends with %s", tc.tool, last)
			}
			mid, _ := apply(t, d, o, calls[:len(calls)-1]...)
			after, res := apply(t, d, o, calls...)
			r := res[len(res)-1]
			tool, _ := Registry().Get(tc.tool)
			same := bytes.Equal(encode(t, mid), encode(t, after))
			if tool.ReadOnly {
				if len(r.Data) == 0 {
					t.Errorf("read tool %s returned no data", tc.tool)
				}
				if !same {
					t.Errorf("read tool %s changed the deck", tc.tool)
				}
			} else if same {
				t.Errorf("%s did not change the deck", tc.tool)
			}
			tc.check(t, mid, after, r)
		})
	}
	for _, name := range Registry().Names() {
		if !covered[name] {
			t.Errorf("tool %s has no test case", name)
		}
	}
}
