package diff

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/internal/tools"
)

// styled builds a text from (text, override) parts; override 0 is the
// base style (Inter 24px regular).
func styled(table map[string]scenegraph.TypeStyle, parts ...any) *scenegraph.TextContent {
	t := &scenegraph.TextContent{Style: &scenegraph.TypeStyle{FontFamily: "Inter", FontSize: 24, FontWeight: 400}, StyleOverrideTable: table}
	for i := 0; i+1 < len(parts); i += 2 {
		s, k := parts[i].(string), parts[i+1].(int)
		t.Characters += s
		for range []rune(s) {
			t.CharacterStyleOverrides = append(t.CharacterStyleOverrides, k)
		}
	}
	return t
}

func TestLostRangeStyles(t *testing.T) {
	table := map[string]scenegraph.TypeStyle{
		"1": {FontWeight: 700},
		"2": {TextDecoration: scenegraph.DecorationUnderline, Link: &scenegraph.Link{URL: "https://example.com"}},
		"3": {FontSize: 16},
	}
	for _, tc := range []struct {
		name     string
		old, new *scenegraph.TextContent
		want     string // the losses, one per line, as "style texts before->after"
	}{
		{"a bold phrase flattened (the plain text merging around it is no loss)",
			styled(table, "Grow ", 0, "20%", 1, " now", 0), styled(table, "Crecer un 20% ya", 0),
			`bold ["20%"] 1->0`},
		{"the bold kept on its translation",
			styled(table, "Grow ", 0, "20%", 1, " now", 0), styled(table, "Crecer ", 0, "un 20%", 1, " ya", 0), ``},
		{"two bold labels, one left",
			styled(table, "Revenue", 1, ": up twelve percent\n", 0, "Costs", 1, ": down four percent", 0),
			styled(table, "Ingresos", 1, ": suben un doce por ciento\nCostes: bajan un cuatro por ciento", 0),
			`bold ["Revenue" "Costs"] 2->1`},
		{"a link and a smaller author line",
			styled(table, "See ", 0, "example.com", 2, "\n", 0, "by Ada", 3), styled(table, "Voir example.com\npar Ada", 0),
			"size 16px [\"by Ada\"] 1->0\nunderline [\"example.com\"] 1->0\nlink https://example.com [\"example.com\"] 1->0"},
		{"everything made bold: the regular part is lost",
			styled(table, "Title\n", 1, "body text", 0), styled(table, "Titre\ntexte", 1),
			`regular weight ["body text"] 1->0`},
		{"a bold space is no range style",
			styled(table, "one", 0, " ", 1, "two", 0), styled(table, "uno dos", 0), ``},
		{"a uniform text has no range styles", styled(table, "Plain", 0), styled(table, "Llano", 1), ``},
		{"a cleared text says so itself", styled(table, "Grow ", 0, "20%", 1), styled(table, "", 0), ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, l := range lostRangeStyles(tc.old, tc.new) {
				got = append(got, fmt.Sprintf("%s %q %d->%d", l.Style, l.Texts, l.Before, l.After))
			}
			if g := strings.Join(got, "\n"); g != tc.want {
				t.Errorf("losses\n got %s\nwant %s", g, tc.want)
			}
		})
	}
}

// On career-tips.pptx, set_text_content (a whole-text replace) of three
// styled texts yields entries that name what was lost, in the text the
// judge reads and in the JSON. The deck's base style is bold and the
// plain sentences are overrides, so the replace makes every text bold:
// slide 4 and 18 lose their regular sentences (18's also its 16 px
// size), slide 2 its underlined, coloured link. rewrite_text of the same
// texts run by run yields none.
func TestRangeStylesLostByAWholeTextReplace(t *testing.T) {
	data, err := os.ReadFile(shareddecks.PPTXFile(t, "career-tips.pptx"))
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := pptx.Import(data, "career-tips.pptx")
	if err != nil {
		t.Fatal(err)
	}
	ix := scenegraph.NewIndex(d)
	ids := []string{"s4/96", "s2/79", "s18/324"}
	var replace, rewrite []tools.Call
	for _, id := range ids {
		n := ix.Node(id)
		rs := []rune(n.Characters)
		var runs []string
		for _, r := range n.ParagraphRuns() {
			runs = append(runs, "«"+string(rs[r.Start:r.End])+"»")
		}
		a, _ := json.Marshal(map[string]any{"nodeId": id, "text": "«" + strings.ReplaceAll(n.Characters, "\n", "»\n«") + "»"})
		replace = append(replace, tools.Call{Tool: "set_text_content", Args: a})
		a, _ = json.Marshal(map[string]any{"nodeId": id, "runs": runs})
		rewrite = append(rewrite, tools.Call{Tool: "rewrite_text", Args: a})
	}

	flat, _, err := tools.Apply(d, replace, tools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	df := Compute(d, flat)
	text := df.Text(nil)
	for _, want := range []string{
		`TEXT "Google Shape;96;p16" [s4/96]: range styles lost (the new text has fewer parts in their own style): regular weight on "I am here because I love to give presentations. ", "You can find me at @username" (2 ranges -> 0)`,
		`underline, colour #413A3A, link #s25 on "Presentation design slide" (1 range -> 0)`,
		`size 16px, regular weight on "Is the color of gold, butter and ripe lemons. In the spectr…" (1 range -> 0)`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the judge's diff lacks %q:\n%s", want, text)
		}
	}
	found := 0
	for _, e := range df.Entries {
		if e.Property == "rangeStyles" {
			found++
			if ls, ok := e.After.([]RangeStyleLoss); !ok || len(ls) == 0 {
				t.Errorf("%s: After %#v", e.NodeID, e.After)
			}
		}
	}
	if found != len(ids) {
		t.Errorf("%d rangeStyles entries, want %d: %v", found, len(ids), kinds(df))
	}
	js, _ := json.Marshal(df)
	if !strings.Contains(string(js), `"property":"rangeStyles","after":[{"style":"regular weight","texts":["I am here because I love to give presentations. ","You can find me at @username"],"before":2,"after":0}]`) {
		t.Errorf("JSON lacks the loss: %.2000s", js)
	}

	kept, _, err := tools.Apply(d, rewrite, tools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dk := Compute(d, kept)
	for _, e := range dk.Entries {
		if e.Property == "rangeStyles" {
			t.Errorf("rewrite_text lost range styles: %s", e.Detail)
		}
	}
	if got := len(dk.Entries); got < len(ids) {
		t.Errorf("the rewrite shows %d entries: %v", got, kinds(dk))
	}
}
