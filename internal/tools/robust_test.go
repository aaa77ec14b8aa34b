package tools

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/fonts"
	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// frameWithKids creates, on the section slide, a frame "f" with three
// rectangles a, b, c laid out loosely.
func frameWithKids() []Call {
	return []Call{
		{Tool: "create_frame", Args: js(map[string]any{"parentId": "slide-13", "x": 40, "y": 40, "width": 600, "height": 200}), As: "f"},
		{Tool: "create_rectangle", Args: js(map[string]any{"parentId": "$f", "x": 10, "y": 10, "width": 100, "height": 40}), As: "a"},
		{Tool: "create_rectangle", Args: js(map[string]any{"parentId": "$f", "x": 130, "y": 10, "width": 100, "height": 60}), As: "b"},
		{Tool: "create_rectangle", Args: js(map[string]any{"parentId": "$f", "x": 250, "y": 10, "width": 100, "height": 40}), As: "c"},
	}
}

func TestFillAndHugGiveTheSameLayoutWhateverTheCallOrder(t *testing.T) {
	layout := call("set_layout_mode", map[string]any{"nodeId": "$f", "layoutMode": "HORIZONTAL", "infer": false})
	pad := call("set_padding", map[string]any{"nodeId": "$f", "all": 12})
	gap := call("set_item_spacing", map[string]any{"nodeId": "$f", "itemSpacing": 8})
	fill := call("set_layout_sizing", map[string]any{"nodeId": "$b", "horizontal": "FILL", "vertical": "FILL"})
	hug := call("set_layout_sizing", map[string]any{"nodeId": "$f", "vertical": "HUG"})
	orders := [][]Call{
		{layout, pad, gap, fill, hug},
		{fill, hug, pad, gap, layout},
		{hug, gap, layout, fill, pad},
		{pad, fill, layout, hug, gap},
	}
	var first []byte
	for i, o := range orders {
		d := fixture(t)
		out, _ := apply(t, d, Options{}, append(frameWithKids(), o...)...)
		f := out.Slides[12].Children[len(out.Slides[12].Children)-1]
		got := js(f)
		if i == 0 {
			first = got
			a, b, c := f.Children[0], f.Children[1], f.Children[2]
			// FILL b takes what a and c leave: 600 - 24 padding - 200 - 16 gaps
			if b.Size.X != 360 || b.Transform.X() != 120 || c.Transform.X() != 488 {
				t.Fatalf("fill: b %v at %v, c at %v", b.Size, b.Transform.X(), c.Transform.X())
			}
			// HUG height: tallest fixed child (40) + padding; b fills it
			if f.Size.Y != 64 || b.Size.Y != 40 || a.Transform.Y() != 12 {
				t.Fatalf("hug: frame %v b %v", f.Size, b.Size)
			}
			continue
		}
		if !bytes.Equal(got, first) {
			t.Errorf("order %d gives a different frame:\n%s\nvs\n%s", i, got, first)
		}
	}
}

func TestEnablingAutoLayoutRederivesHugSizes(t *testing.T) {
	d := fixture(t)
	calls := append(frameWithKids(),
		call("set_layout_sizing", map[string]any{"nodeId": "$f", "horizontal": "HUG", "vertical": "HUG"}))
	out, _ := apply(t, d, Options{}, calls...)
	f := out.Slides[12].Children[len(out.Slides[12].Children)-1]
	if f.Size.X != 600 || f.Size.Y != 200 {
		t.Fatalf("HUG on a free frame changed its size to %v before auto-layout", f.Size)
	}
	out, _ = apply(t, d, Options{}, append(calls, call("set_layout_mode", map[string]any{"nodeId": "$f", "layoutMode": "VERTICAL"}))...)
	f = out.Slides[12].Children[len(out.Slides[12].Children)-1]
	// inferred: padding 10 left/top, children stacked with the inferred gap
	want := f.PaddingTop + 40 + 60 + 40 + 2*f.ItemSpacing + f.PaddingBottom
	if math.Abs(f.Size.Y-want) > 0.01 || f.Size.X != f.PaddingLeft+100+f.PaddingRight {
		t.Errorf("hug size %v, want height %v", f.Size, want)
	}
	// a child added later grows the hugging frame
	out2, _ := apply(t, out, Options{}, call("create_rectangle", map[string]any{"parentId": f.ID, "width": 300, "height": 10}))
	g := nodeIn(t, out2, f.ID)
	if g.Size.X != f.PaddingLeft+300+f.PaddingRight || math.Abs(g.Size.Y-(want+10+f.ItemSpacing)) > 0.01 {
		t.Errorf("frame did not grow with its new child: %v", g.Size)
	}
}

func TestFontChangeSetsEveryScriptSlotTheTextNeeds(t *testing.T) {
	d := fixture(t)
	title := named(t, d, 1, "Title")
	out, _ := apply(t, d, Options{},
		call("set_text_content", map[string]any{"nodeId": title.ID, "text": "売上 Revenue مبيعات"}),
		call("set_text_font", map[string]any{"nodeId": title.ID, "fontFamily": "Noto Sans"}))
	st := nodeIn(t, out, title.ID).StyleAt(0)
	if st.FontFamily != "Noto Sans" || st.FontFamilyEastAsian != "Noto Sans" || st.FontFamilyComplex != "Noto Sans" {
		t.Errorf("mixed-script text: %q / %q / %q", st.FontFamily, st.FontFamilyEastAsian, st.FontFamilyComplex)
	}
	// Latin-only text leaves the other slots alone
	out, _ = apply(t, d, Options{}, call("set_text_font", map[string]any{"nodeId": title.ID, "fontFamily": "Noto Sans"}))
	if st := nodeIn(t, out, title.ID).StyleAt(0); st.FontFamilyEastAsian != "" {
		t.Errorf("Latin text got an East Asian face %q", st.FontFamilyEastAsian)
	}
	// a CJK range styled separately is reached by a whole-text change
	out, _ = apply(t, d, Options{},
		call("set_text_content", map[string]any{"nodeId": title.ID, "text": "Plan 計画"}),
		call("set_text_range_style", map[string]any{"nodeId": title.ID, "substring": "計画", "fontFamily": "MS Mincho"}),
		call("set_text_font", map[string]any{"nodeId": title.ID, "fontFamily": "Arial"}))
	n := nodeIn(t, out, title.ID)
	for i := 0; i < n.RuneCount(); i++ {
		if st := n.StyleAt(i); st.FontFamily != "Arial" || st.FontFamilyEastAsian != "Arial" {
			t.Errorf("char %d keeps %q/%q", i, st.FontFamily, st.FontFamilyEastAsian)
		}
	}
}

func TestReplaceColorMatchesWithinToleranceAndRewritesThemeRefs(t *testing.T) {
	d := fixture(t)
	card := named(t, d, 3, "Card")
	near := "#0C6F50" // one step from accent1 #0B6E4F on each channel
	out, res := apply(t, d, Options{},
		call("set_fill_color", map[string]any{"nodeId": card.ID, "color": near}),
		call("replace_color", map[string]any{"from": "#0B6E4F", "to": "#3E7CB1", "nodeId": "slide-4"}))
	if got := hexOf(nodeIn(t, out, card.ID).Fills); got != "#3E7CB1" {
		t.Errorf("near colour not replaced: %s", got)
	}
	metric := named(t, out, 3, "Metric")
	p := metric.Style.Fills[0]
	if p.Color.Hex() != "#3E7CB1" || p.ThemeColor == nil || p.ThemeColor.Name != "accent3" {
		t.Errorf("scoped replace: %s ref %+v (want the accent3 token that holds the new colour)", p.Color.Hex(), p.ThemeColor)
	}
	if out.Tokens.Colors["accent1"].Hex() != "#0B6E4F" {
		t.Error("a scoped replace must not change the theme")
	}
	if len(res[1].Changed) == 0 {
		t.Error("no changes reported")
	}
	// a far colour is not touched
	out, res = apply(t, d, Options{}, call("replace_color", map[string]any{"from": "#0C6F50", "to": "#000000", "tolerance": 0.001, "nodeId": card.ID}))
	if len(res[0].Warnings) == 0 || len(res[0].Changed) != 0 || !bytes.Equal(encode(t, out), encode(t, d)) {
		t.Errorf("replace with nothing within tolerance changed %v", res[0].Changed)
	}
}

func TestStaleIDsAfterADeleteGiveAClearError(t *testing.T) {
	d := fixture(t)
	pic := named(t, d, 6, "Picture")
	before := encode(t, d)
	_, _, err := Apply(d, []Call{
		call("delete_node", map[string]any{"nodeId": pic.ID}),
		call("set_fill_color", map[string]any{"nodeId": pic.ID, "color": "#000000"}),
	}, Options{})
	var be *BatchError
	if !errors.As(err, &be) || be.Index != 1 || be.Call.Tool != "set_fill_color" {
		t.Fatalf("want a BatchError at 1, got %v", err)
	}
	if !strings.Contains(err.Error(), "stale") || !strings.Contains(err.Error(), "deleted") {
		t.Errorf("error does not explain the stale id: %v", err)
	}
	if !bytes.Equal(before, encode(t, d)) {
		t.Error("failed batch changed the input")
	}
	// a child of a deleted slide is stale too
	card := named(t, d, 3, "Card")
	_, _, err = Apply(d, []Call{call("delete_slide", map[string]any{"slideId": "slide-4"}), call("rename_node", map[string]any{"nodeId": card.ID, "name": "x"})}, Options{})
	if err == nil || !strings.Contains(err.Error(), "stale") {
		t.Errorf("child of deleted slide: %v", err)
	}
}

func TestBatchExecuteNamesTheFailingOperation(t *testing.T) {
	d := fixture(t)
	before := encode(t, d)
	_, _, err := Apply(d, []Call{call("batch_execute", map[string]any{"operations": []any{
		map[string]any{"command": "create_slide", "params": map[string]any{"title": "New"}, "as": "s"},
		map[string]any{"command": "create_text", "params": map[string]any{"parentId": "$s", "text": "ok", "width": 100}},
		map[string]any{"command": "set_fill_color", "params": map[string]any{"nodeId": "$s", "color": "red"}},
	}})}, Options{})
	if err == nil {
		t.Fatal("bad colour accepted")
	}
	for _, want := range []string{"operation 2", "set_fill_color", "/color"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if !bytes.Equal(before, encode(t, d)) {
		t.Error("failed batch changed the input")
	}
}

func TestSymbolicNames(t *testing.T) {
	d := fixture(t)
	out, res := apply(t, d, Options{},
		Call{Tool: "create_slide", Args: js(map[string]any{"title": "Prices"}), As: "s"},
		call("create_text", map[string]any{"parentId": "$s", "text": "$5 or $x", "width": 200}))
	n := nodeIn(t, out, res[1].Created[0])
	if n.Characters != "$5 or $x" || sg.NewIndex(out).Parent(n.ID).ID != res[0].Created[0] {
		t.Errorf("text %q parent wrong", n.Characters)
	}
	_, _, err := Apply(d, []Call{call("create_text", map[string]any{"parentId": "$later", "text": "x"})}, Options{})
	if err == nil || !strings.Contains(err.Error(), `"$later" is not bound`) {
		t.Errorf("forward reference: %v", err)
	}
}

func TestReadsAreBoundedOnALargeDeck(t *testing.T) {
	d := fixture(t)
	for len(d.Slides) < 120 {
		c := d.Slides[len(d.Slides)%13].Clone()
		(&Env{Deck: d, deleted: map[string]int{}}).reID(c)
		d.Slides = append(d.Slides, c)
	}
	_, res := apply(t, d, Options{}, call("scan_text_nodes", map[string]any{"limit": 200}), call("get_all_slides", map[string]any{}), call("get_page_structure", map[string]any{"depth": 8}))
	for _, r := range res {
		if len(r.Data) > 400_000 {
			t.Errorf("%s returned %d bytes", r.Tool, len(r.Data))
		}
		var p paged
		decodeData(t, r, &p)
		if p.NextCursor == "" {
			t.Errorf("%s returned everything (%d) without a next page", r.Tool, p.Total)
		}
	}
	if _, _, err := Apply(d, []Call{call("scan_text_nodes", map[string]any{"limit": 5000})}, Options{}); err == nil {
		t.Error("limit above 200 accepted")
	}
}

func TestArgumentsAreValidatedBeforeTheToolRuns(t *testing.T) {
	d := fixture(t)
	for _, c := range []Call{
		call("set_fill_color", map[string]any{"nodeId": "slide-1", "color": "blue"}),
		call("set_fill_color", map[string]any{"nodeid": "slide-1", "color": "#000000"}),
		call("rotate_node", map[string]any{"nodeId": "slide-1", "angle": "90"}),
		call("create_table", map[string]any{"rows": 0, "columns": 2}),
		{Tool: "set_fil_color", Args: js(map[string]any{})},
	} {
		_, _, err := Apply(d, []Call{c}, Options{})
		if err == nil {
			t.Errorf("%s %s accepted", c.Tool, c.Args)
			continue
		}
		if c.Tool == "set_fil_color" && !strings.Contains(err.Error(), "did you mean set_fill_color") {
			t.Errorf("no suggestion: %v", err)
		}
	}
}

func TestOpenAIFunctionsCarryEverySchema(t *testing.T) {
	fns := Registry().OpenAIFunctions()
	if len(fns) != 100 {
		t.Fatalf("%d functions", len(fns))
	}
	for _, f := range fns {
		b := js(f.Parameters)
		if bytes.Contains(b, []byte(`"$schema"`)) || !bytes.Contains(b, []byte(`"type":"object"`)) {
			t.Errorf("%s parameters %s", f.Name, clip(string(b), 80))
		}
	}
}

func TestHuggingTextFollowsItsContent(t *testing.T) {
	d := fixture(t)
	out, res := apply(t, d, Options{}, call("create_text", map[string]any{"parentId": "slide-13", "text": "Hi", "fontSize": 20}))
	id := res[0].Created[0]
	w0 := nodeIn(t, out, id).Size.X
	out, _ = apply(t, out, Options{}, call("set_text_content", map[string]any{"nodeId": id, "text": "Hello there, everyone"}))
	if w1 := nodeIn(t, out, id).Size.X; w1 <= w0 {
		t.Errorf("hugging text did not grow: %v -> %v", w0, w1)
	}
}

func TestAnImportedDeckWithProblemsStillAcceptsEdits(t *testing.T) {
	d := fixture(t)
	// a problem the deck arrived with: a section naming a missing slide
	d.Sections = []sg.Section{{Name: "Old", SlideIDs: []string{"slide-99"}}}
	if sg.Validate(d) == nil {
		t.Fatal("setup: deck should be invalid")
	}
	out, _, err := Apply(d, []Call{call("rename_node", map[string]any{"nodeId": "slide-1", "name": "Cover"})}, Options{})
	if err != nil || out.Slides[0].Name != "Cover" {
		t.Fatalf("edit refused because of an old problem: %v", err)
	}
	// but an edit that adds a problem is refused and blamed
	_, _, err = Apply(d, []Call{
		call("rename_node", map[string]any{"nodeId": "slide-1", "name": "Cover"}),
		call("import_json", map[string]any{"parentId": "slide-2", "nodes": map[string]any{"id": "x", "type": "IMAGE", "relativeTransform": [][]float64{{1, 0, 0}, {0, 1, 0}}, "size": map[string]float64{"x": 1, "y": 1}}}),
	}, Options{})
	var be *BatchError
	if !errors.As(err, &be) || be.Index != 1 {
		t.Errorf("want the import blamed, got %v", err)
	}
}

func TestFocusSlideDecidesWhereCreatesLand(t *testing.T) {
	d := fixture(t)
	out, res := apply(t, d, Options{},
		call("focus_slide", map[string]any{"slideId": "slide-13"}),
		call("create_text", map[string]any{"text": "here", "width": 100}))
	if p := sg.NewIndex(out).Parent(res[1].Created[0]); p.ID != "slide-13" {
		t.Errorf("landed on %s", p.ID)
	}
	out, res = apply(t, d, Options{Focus: "slide-3"}, call("create_text", map[string]any{"text": "there", "width": 100}))
	if p := sg.NewIndex(out).Parent(res[0].Created[0]); p.ID != "slide-3" {
		t.Errorf("Options.Focus ignored: landed on %s", p.ID)
	}
}

func TestMatchSlideCopiesTemplateLook(t *testing.T) {
	d := fixture(t)
	// slide 13 (section header) restyled like slide 2 (content slide)
	out, _ := apply(t, d, Options{}, call("set_slide_properties", map[string]any{"slideId": "slide-13", "matchSlideId": "slide-2"}))
	src, dst := named(t, d, 1, "Title"), named(t, out, 12, "Title")
	if dst.Transform != src.Transform || dst.Size != src.Size || dst.Style.FontSize != src.Style.FontSize || hexOf(dst.Style.Fills) != hexOf(src.Style.Fills) {
		t.Errorf("title not restyled: %v %v %v", dst.Transform, dst.Style.FontSize, hexOf(dst.Style.Fills))
	}
	if dst.Characters != named(t, d, 12, "Title").Characters {
		t.Error("text changed")
	}
	if hexOf(out.Slides[12].Fills) != hexOf(d.Slides[1].Fills) {
		t.Error("background not copied")
	}
}

// TestApplyIsSafeForConcurrentUse: activities apply batches to the same
// snapshot from several goroutines; run with -race.
func TestApplyIsSafeForConcurrentUse(t *testing.T) {
	d := fixture(t)
	before := encode(t, d)
	calls := []Call{
		call("clone_node", map[string]any{"nodeId": named(t, d, 3, "Card").ID}),
		call("set_text_font", map[string]any{"nodeId": named(t, d, 1, "Title").ID, "fontFamily": "Inter"}),
		call("replace_color", map[string]any{"from": "#0B6E4F", "to": "#000000"}),
	}
	done := make(chan []byte, 6)
	for i := 0; i < 6; i++ {
		go func() {
			out, _, err := Apply(d, calls, Options{})
			if err != nil {
				done <- nil
				return
			}
			b, _ := sg.Encode(out)
			done <- b
		}()
	}
	var first []byte
	for i := 0; i < 6; i++ {
		b := <-done
		if b == nil {
			t.Fatal("apply failed")
		}
		if first == nil {
			first = b
		} else if !bytes.Equal(first, b) {
			t.Error("concurrent applies gave different decks")
		}
	}
	if !bytes.Equal(before, encode(t, d)) {
		t.Error("input changed")
	}
}

func TestReplaceColorDeckWideMovesTintsOfTheToken(t *testing.T) {
	d := fixture(t)
	card := named(t, d, 3, "Card")
	base := d.Tokens.Colors["accent1"]
	tint := applyMods(base, []sg.ColorMod{{Op: "lumMod", Val: 0.75}})
	card.Fills = []sg.Paint{{Type: sg.PaintSolid, Color: &tint, ThemeColor: &sg.ThemeColor{Name: "accent1", Mods: []sg.ColorMod{{Op: "lumMod", Val: 0.75}}}}}
	out, _ := apply(t, d, Options{}, call("replace_color", map[string]any{"from": "#0B6E4F", "to": "#3366CC"}))
	want := applyMods(sg.MustHex("#3366CC"), []sg.ColorMod{{Op: "lumMod", Val: 0.75}})
	if got := *named(t, out, 3, "Card").Fills[0].Color; !got.Near(want, 0.002) {
		t.Errorf("darkened accent1 is %s, want %s", got.Hex(), want.Hex())
	}
}

func TestBatchExecuteAcceptsParamsSentAsAJSONString(t *testing.T) {
	d := fixture(t)
	out, _ := apply(t, d, Options{}, call("batch_execute", map[string]any{"operations": []any{
		map[string]any{"command": "rename_node", "params": `{"nodeId":"slide-1","name":"Cover"}`},
	}}))
	if out.Slides[0].Name != "Cover" {
		t.Error("stringified params not applied")
	}
}

// With Options.Measure, add_footer also avoids what the renderer says a
// node paints beyond its authored box.
func TestAddFooterAvoidsMeasuredPaint(t *testing.T) {
	d := fixture(t)
	title := named(t, d, 12, "Title") // section slide: the bottom band is free
	spill := sg.Rect{X: 0, Y: 600, Width: 1280, Height: 90}
	o := Options{Measure: func(*sg.Deck) (map[string]sg.Rect, error) {
		return map[string]sg.Rect{title.ID: spill}, nil
	}}
	out, res := apply(t, d, o, call("add_footer", map[string]any{"text": "Confidential", "slideIds": []string{"slide-13"}}))
	box := sg.NewIndex(out).AbsoluteBounds(res[0].Created[0])
	if box.Intersect(spill).Area() > 0 {
		t.Errorf("footer %v overlaps the measured paint %v", box, spill)
	}
	plain, res2 := apply(t, d, Options{}, call("add_footer", map[string]any{"text": "Confidential", "slideIds": []string{"slide-13"}}))
	if b2 := sg.NewIndex(plain).AbsoluteBounds(res2[0].Created[0]); b2 == box {
		t.Error("the measurement made no difference")
	}
}

// TestFontStyleAndFamilyAreChecked (issue 16 item 10): a style with an
// unknown weight word is refused with the known words; "Oblique" is
// italic; a family that is neither installed nor has a metric-compatible
// substitute is applied with a warning naming the face drawn instead.
func TestFontStyleAndFamilyAreChecked(t *testing.T) {
	d := fixture(t)
	title := named(t, d, 1, "Title")
	_, _, err := Apply(d, []Call{call("set_text_font", map[string]any{"nodeId": title.ID, "fontStyle": "UltraHeavyOblique"})}, Options{})
	if err == nil || !strings.Contains(err.Error(), `fontStyle "UltraHeavyOblique"`) || !strings.Contains(err.Error(), "SemiBold") {
		t.Fatalf("unknown style: %v", err)
	}
	out, _ := apply(t, d, Options{}, call("set_text_font", map[string]any{"nodeId": title.ID, "fontStyle": "Light Oblique"}))
	if st := nodeIn(t, out, title.ID).StyleAt(0); st.FontWeight != 300 || st.Italic == nil || !*st.Italic {
		t.Errorf("Light Oblique gave weight %d italic %v", st.FontWeight, st.Italic)
	}
	if _, ok := fonts.Installed("Noto Sans"); !ok {
		t.Skip("fontconfig not installed")
	}
	_, res := apply(t, d, Options{}, call("set_text_font", map[string]any{"nodeId": title.ID, "fontFamily": "Gill Sans MT"}))
	if len(res) != 1 || len(res[0].Warnings) != 1 || !strings.Contains(res[0].Warnings[0], `"Gill Sans MT" is not installed`) || !strings.Contains(res[0].Warnings[0], "Noto Sans") {
		t.Errorf("unknown family warnings: %+v", res)
	}
	_, res = apply(t, d, Options{}, call("set_text_font", map[string]any{"nodeId": title.ID, "fontFamily": "Calibri"}))
	if len(res[0].Warnings) != 0 {
		t.Errorf("Calibri (drawn as Carlito, metric-compatible) warned: %v", res[0].Warnings)
	}
}
