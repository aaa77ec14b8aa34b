package route

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// contextDeck: three slides with a coloured title, a filled card with a
// styled word, a background, and theme tokens.
func contextDeck() *scenegraph.Deck {
	d := pitchDeck(3)
	d.Tokens.Colors = map[string]scenegraph.Color{"accent1": scenegraph.MustHex("#0B6E4F")}
	d.Tokens.Fonts.Major.Latin = "Georgia"
	for i, s := range d.Slides {
		s.Fills = []scenegraph.Paint{scenegraph.Solid(scenegraph.MustHex("#F0F4F8"))}
		title := s.Children[0]
		title.Style = &scenegraph.TypeStyle{FontFamily: "Georgia", FontSize: 40, FontWeight: 700,
			Fills: []scenegraph.Paint{scenegraph.Solid(scenegraph.MustHex("#243B53"))}}
		card := &scenegraph.Node{ID: s.ID + "-card", Type: scenegraph.TypeRectangle, Name: "Card",
			Transform: scenegraph.Translate(100, 300), Size: scenegraph.Vector{X: 300, Y: 120}}
		p := scenegraph.Solid(scenegraph.MustHex("#0B6E4F"))
		p.ThemeColor = &scenegraph.ThemeColor{Name: "accent1"}
		card.Fills = []scenegraph.Paint{p}
		card.Characters = "Revenue up 12%"
		card.Style = &scenegraph.TypeStyle{FontFamily: "Inter", FontSize: 18}
		card.CharacterStyleOverrides = []int{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1}
		card.StyleOverrideTable = map[string]scenegraph.TypeStyle{"1": {FontWeight: 700,
			Fills: []scenegraph.Paint{scenegraph.Solid(scenegraph.MustHex("#C00000"))}}}
		s.Children = append(s.Children, card)
		_ = i
	}
	return d
}

func ctx(t *testing.T, d *scenegraph.Deck, dec Decision) (string, map[string]any) {
	t.Helper()
	s, err := Context(d, dec)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%s context is not JSON: %v\n%s", dec.Mode, err, s)
	}
	if strings.Contains(s, "null") {
		t.Errorf("%s context has nulls: %s", dec.Mode, s)
	}
	return s, v
}

func slidesOf(v map[string]any) []map[string]any {
	var out []map[string]any
	for _, s := range v["slides"].([]any) {
		out = append(out, s.(map[string]any))
	}
	return out
}

func has(t *testing.T, what, s string, subs ...string) {
	t.Helper()
	for _, x := range subs {
		if !strings.Contains(s, x) {
			t.Errorf("%s lacks %s:\n%s", what, x, s)
		}
	}
}

func lacks(t *testing.T, what, s string, subs ...string) {
	t.Helper()
	for _, x := range subs {
		if strings.Contains(s, x) {
			t.Errorf("%s must not carry %s:\n%s", what, x, s)
		}
	}
}

// Table 21, micro column: full scene graph of the target slides only.
func TestMicroContextCarriesTheTargetSlideInFull(t *testing.T) {
	d := contextDeck()
	s, v := ctx(t, d, Decision{Mode: Micro, TargetSlides: []int{1}})
	sl := slidesOf(v)
	if len(sl) != 3 {
		t.Fatalf("want 3 slides listed, got %d", len(sl))
	}
	for _, i := range []int{0, 2} {
		if len(sl[i]) != 3 || sl[i]["id"] == nil || sl[i]["n"] == nil { // id, i, n only
			t.Errorf("non-target slide %d should be id and name only: %v", i+1, sl[i])
		}
	}
	has(t, "micro target", s,
		`"txt":"Agenda"`, `"font":"Georgia 40 700"`, `"color":"#243B53"`, // text, typography, text colour
		`"fill":["#0B6E4F=accent1"]`, `"bg":["#F0F4F8"]`, // fill colour with token, slide background
		`"x":100,"y":300,"w":300,"h":120`,             // layout
		`"id":"s2-card","t":"RECTANGLE","n":"Card"`,   // node tree
		`"runs":[{"s":11,"e":14,"st":"700 #C00000"}]`) // per-character override
	lacks(t, "micro", s, "Georgia/", `"tokens"`, "s1-card", "s3-card")
}

// Table 21, macro column: whole deck; text, typography and node tree; no
// colours or background; bounds on targets only.
func TestMacroContextIsTheSkeleton(t *testing.T) {
	d := contextDeck()
	s, v := ctx(t, d, Decision{Mode: Macro, TargetSlides: []int{2}})
	has(t, "macro", s, `"fonts":{"1":"Georgia 40 700","2":"Inter 18","3":"700"}`,
		`{"id":"s1-title","ph":"title","txt":"Title","f":1}`, `"txt":"Agenda"`, `"txt":"Problem"`,
		`{"id":"s1-card","t":"RECTANGLE","n":"Card","txt":"Revenue up 12%","f":2,"runs":[[11,14,3]]}`, `"targets":"3"`)
	lacks(t, "macro", s, "#", `"bg"`, `"fill"`, `"color"`, `"x":`, `"t":"TEXT"`)
	for i, sl := range slidesOf(v) {
		raw, _ := json.Marshal(sl)
		if got := strings.Contains(string(raw), `"b":[`); got != (i == 2) {
			t.Errorf("slide %d bounds present = %v, want %v", i+1, got, i == 2)
		}
	}
	has(t, "macro target bounds", s, `"b":[100,300,300,120]`)
}

// The skeleton keeps only the root of a subtree without text or names (an
// icon drawn as a group of vectors), counting what it folded; a group
// holding text keeps its children.
func TestMacroFoldsTextlessSubtrees(t *testing.T) {
	d := pitchDeck(1)
	vec := func(id string) *scenegraph.Node {
		return &scenegraph.Node{ID: id, Type: scenegraph.TypeVector, Name: "Vector " + id[len(id)-1:], Size: scenegraph.Vector{X: 10, Y: 10}}
	}
	inner := &scenegraph.Node{ID: "g2", Type: scenegraph.TypeGroup, Children: []*scenegraph.Node{vec("v3"), vec("v4")}}
	icon := &scenegraph.Node{ID: "g1", Type: scenegraph.TypeGroup, Name: "Group 7", Children: []*scenegraph.Node{vec("v1"), vec("v2"), inner}}
	label := &scenegraph.Node{ID: "g5", Type: scenegraph.TypeGroup, Children: []*scenegraph.Node{vec("v5"),
		{ID: "t6", Type: scenegraph.TypeText, TextContent: scenegraph.TextContent{Characters: "Step 1"}}}}
	d.Slides[0].Children = append(d.Slides[0].Children, icon, label)
	s, _ := ctx(t, d, Decision{Mode: Macro})
	has(t, "macro", s, `{"id":"g1","t":"GROUP","+":5}`, `{"id":"g5","t":"GROUP","kids":[{"id":"v5","t":"VECTOR"},{"id":"t6","txt":"Step 1"}]}`)
	lacks(t, "macro", s, `"v1"`, `"g2"`, `"v3"`)
}

// A plain table is rows of [id, text(, font key)] with the commonest cell
// font on the table; a table with merged cells keeps one node per cell.
func TestMacroTables(t *testing.T) {
	cell := func(id string, r, c int, txt string, size float64, span int) *scenegraph.Node {
		n := &scenegraph.Node{ID: id, Type: scenegraph.TypeTableCell, Cell: &scenegraph.Cell{Row: r, Column: c, ColSpan: span}}
		if txt != "" {
			n.Characters = txt
			n.Style = &scenegraph.TypeStyle{FontFamily: "Inter", FontSize: size}
		}
		return n
	}
	d := pitchDeck(1)
	plain := &scenegraph.Node{ID: "tb", Type: scenegraph.TypeTable, Children: []*scenegraph.Node{
		cell("a", 0, 0, "Region", 14, 0), cell("b", 0, 1, "Sales", 14, 0),
		cell("c", 1, 0, "EMEA", 12, 0), cell("d", 1, 1, "", 0, 0),
		cell("e", 2, 0, "APAC", 12, 0), cell("f", 2, 1, "7", 12, 0)}}
	merged := &scenegraph.Node{ID: "tm", Type: scenegraph.TypeTable, Children: []*scenegraph.Node{
		cell("m1", 0, 0, "Week 1", 12, 2), cell("m2", 1, 0, "Mon", 12, 0), cell("m3", 1, 1, "Tue", 10, 0)}}
	d.Slides[0].Children = append(d.Slides[0].Children, plain, merged)
	s, v := ctx(t, d, Decision{Mode: Macro})
	fonts := v["fonts"].(map[string]any)
	key := func(f string) string {
		for k, v := range fonts {
			if v == f {
				return k
			}
		}
		t.Fatalf("font %q not in table %v", f, fonts)
		return ""
	}
	has(t, "plain table", s, `{"id":"tb","t":"TABLE","f":`+key("Inter 12")+`,"rows":[[["a","Region",`+key("Inter 14")+`],["b","Sales",`+key("Inter 14")+`]],[["c","EMEA"],["d",""]],[["e","APAC"],["f","7"]]]}`)
	has(t, "merged table", s, `{"id":"m1","cell":[0,0],"txt":"Week 1"}`, `{"id":"m3","cell":[1,1],"txt":"Tue","f":`+key("Inter 10")+`}`)
	lacks(t, "tables", s, "TABLE_CELL")
}

// Table 21, systemic column: tokens, colours and fonts with usage and
// backgrounds; no text, boxes or node tree.
func TestSystemicContextIsDesignTokensAndUsage(t *testing.T) {
	d := contextDeck()
	s, _ := ctx(t, d, Decision{Mode: Systemic})
	has(t, "systemic", s, `"accent1":"#0B6E4F"`, `"majorFont":"Georgia"`,
		`{"c":"#0B6E4F","token":"accent1","fill":3,"slides":"1-3"}`, `"bg":3`, `"#C00000"`,
		`"f":"Georgia","sizes":[40],"weights":[700],"n":3,"slides":"1-3"`)
	lacks(t, "systemic", s, "Agenda", "Revenue", `"kids"`, "s1-card", `"x":`, `"b":`)
}

func TestFullContextCarriesEverythingAndOffNothing(t *testing.T) {
	d := contextDeck()
	s, v := ctx(t, d, Decision{Mode: Full})
	has(t, "full", s, `"tokens":{"colors":{"accent1":"#0B6E4F"}`, `"txt":"Problem"`, `"bg":["#F0F4F8"]`, `"x":100,"y":300`)
	if len(slidesOf(v)) != 3 {
		t.Fatal("full must list every slide")
	}
	off, _ := ctx(t, d, Decision{Mode: Off})
	if off != `{"deck":{"id":"pitch3","w":1280,"h":720,"slides":3},"slides":[]}` {
		t.Fatalf("off context: %s", off)
	}
}

func TestContextErrors(t *testing.T) {
	d := contextDeck()
	for _, c := range []struct {
		d   *scenegraph.Deck
		dec Decision
		msg string
	}{
		{nil, Decision{Mode: Full}, "nil"},
		{d, Decision{Mode: Micro}, "at least one target"},
		{d, Decision{Mode: Micro, TargetSlides: []int{3}}, "outside deck"},
		{d, Decision{Mode: "TINY"}, "unknown mode"},
	} {
		if _, err := Context(c.d, c.dec); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%+v: error %v, want %q", c.dec, err, c.msg)
		}
	}
}

func TestContextIsDeterministic(t *testing.T) {
	d := contextDeck()
	for _, m := range []Mode{Micro, Macro, Systemic, Full} {
		a, _ := Context(d, Decision{Mode: m, TargetSlides: []int{0}})
		b, _ := Context(d.Clone(), Decision{Mode: m, TargetSlides: []int{0}})
		if a != b {
			t.Errorf("%s context differs between equal decks", m)
		}
	}
}

func TestModeBlocksNameTheirMode(t *testing.T) {
	for _, m := range []Mode{Micro, Macro, Systemic, Full} {
		if !strings.Contains(ModeBlock(m, 9), string(m)) {
			t.Errorf("block for %s does not name it", m)
		}
	}
	if !strings.Contains(ModeBlock(Off, 9), "9 slide(s)") {
		t.Error("OFF block must give the slide count")
	}
}
