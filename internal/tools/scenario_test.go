package tools

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/formats/pptx"
	sg "github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
)

// Scenario tests on the real decks in ../shared/decks/pptx (ACE issue 4,
// Acceptance): each edit runs through Apply on the imported scene graph.

func decksDir(t testing.TB) string { return shareddecks.PPTXDir(t) }

func realDeck(t testing.TB, name string) *sg.Deck {
	d, _ := realDeckBlobs(t, name)
	return d
}

func realDeckBlobs(t testing.TB, name string) (*sg.Deck, sg.Blobs) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(decksDir(t), name))
	if err != nil {
		t.Fatal(err)
	}
	d, blobs, err := pptx.Import(data, name)
	if err != nil {
		t.Fatalf("import %s: %v", name, err)
	}
	return d, blobs
}

func realDecks(t *testing.T) map[string]*sg.Deck {
	entries, err := os.ReadDir(decksDir(t))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*sg.Deck{}
	for _, e := range entries {
		if filepath.Ext(e.Name()) == ".pptx" {
			out[e.Name()] = realDeck(t, e.Name())
		}
	}
	if len(out) == 0 {
		t.Skip("no real decks")
	}
	return out
}

// findTable returns the first table on which tableData succeeds.
func findDataTable(d *sg.Deck) *sg.Node {
	var found *sg.Node
	d.Walk(func(n, _ *sg.Node, _ int) bool {
		if found == nil && n.Type == sg.TypeTable && n.Table != nil {
			if _, _, _, err := tableData(n, false); err == nil {
				found = n
			}
		}
		return found == nil
	})
	return found
}

func TestScenarioTableBecomesBarChartWithLegend(t *testing.T) {
	d, blobs := realDeckBlobs(t, "career-tips.pptx")
	tb := findDataTable(d)
	if tb == nil {
		t.Fatal("career-tips.pptx has no numeric table")
	}
	cats, series, _, _ := tableData(tb, false)
	slide := sg.NewIndex(d).Slide(tb.ID)
	out, res := apply(t, d, Options{}, call("create_data_chart", map[string]any{
		"tableId": tb.ID, "chartType": "BAR", "legend": "RIGHT", "replaceTable": true, "title": "By colour"}))
	ch := nodeIn(t, out, res[0].Created[0])
	if ch.Chart.ChartType != sg.ChartBar || ch.Chart.Legend == nil || ch.Chart.Legend.Position != "RIGHT" {
		t.Errorf("chart %+v", ch.Chart)
	}
	if !slices.Equal(ch.Chart.Categories, cats) || len(ch.Chart.Series) != len(series) {
		t.Fatalf("categories %v series %d, want %v and %d", ch.Chart.Categories, len(ch.Chart.Series), cats, len(series))
	}
	for i, s := range series {
		if !slices.Equal(ch.Chart.Series[i].Values, s.Values) || ch.Chart.Series[i].Name != s.Name {
			t.Errorf("series %d: %+v want %+v", i, ch.Chart.Series[i], s)
		}
	}
	if sg.NewIndex(out).Has(tb.ID) {
		t.Error("the table is still on the slide")
	}
	if got := sg.NewIndex(out).Slide(ch.ID); got == nil || got.ID != slide.ID {
		t.Error("chart not on the table's slide")
	}
	if ch.Transform.X() != tb.Transform.X() || ch.Transform.Y() != tb.Transform.Y() {
		t.Error("chart not in the table's place")
	}
	// the edit survives the trip back to PowerPoint
	file, err := pptx.Export(out, blobs)
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	back, _, err := pptx.Import(file, "edited.pptx")
	if err != nil {
		t.Fatalf("re-import: %v", err)
	}
	var got *sg.Chart
	back.Walk(func(n *sg.Node, _ *sg.Node, _ int) bool {
		if n.Chart != nil {
			got = n.Chart
		}
		return got == nil
	})
	if got == nil || got.ChartType != sg.ChartBar || got.Legend == nil || !slices.Equal(got.Categories, cats) {
		t.Errorf("exported chart: %+v", got)
	}
}

func TestScenarioSortTableRowsByNumericColumn(t *testing.T) {
	d := realDeck(t, "career-tips.pptx")
	tb := findDataTable(d)
	g := tableGrid(tb)
	label := map[string]float64{}
	for r := 1; r < len(g.cells); r++ {
		v, _ := parseNumber(g.cells[r][2].Characters)
		label[g.cells[r][0].Characters] = v
	}
	out, _ := apply(t, d, Options{}, call("sort_table_rows", map[string]any{"tableId": tb.ID, "column": 2, "headerRows": 1, "descending": true}))
	g2 := tableGrid(nodeIn(t, out, tb.ID))
	prev := math.Inf(1)
	for r := 1; r < len(g2.cells); r++ {
		v, ok := parseNumber(g2.cells[r][2].Characters)
		if !ok || v > prev {
			t.Fatalf("row %d value %q breaks the descending order", r, g2.cells[r][2].Characters)
		}
		prev = v
		if label[g2.cells[r][0].Characters] != v {
			t.Errorf("row %d: label %q moved without its value", r, g2.cells[r][0].Characters)
		}
		if g2.cells[r][0].Transform.Y() <= g2.cells[r-1][0].Transform.Y() {
			t.Errorf("row %d not placed below row %d", r, r-1)
		}
	}
	if g2.cells[0][1].Characters != g.cells[0][1].Characters {
		t.Error("header row moved")
	}
}

// findRow finds k sibling nodes of equal size on one horizontal line.
func findRow(d *sg.Deck, k int) []*sg.Node {
	for _, s := range d.Slides {
		var out []*sg.Node
		s.Walk(func(n, _ *sg.Node, _ int) bool {
			if out != nil {
				return false
			}
			byKey := map[[3]int][]*sg.Node{}
			for _, c := range n.Children {
				if c.Type == sg.TypeTableCell || c.Type == sg.TypeConnector || c.Size.X < 20 {
					continue
				}
				key := [3]int{int(math.Round(c.Transform.Y())), int(math.Round(c.Size.X)), int(math.Round(c.Size.Y))}
				byKey[key] = append(byKey[key], c)
			}
			keys := make([][3]int, 0, len(byKey))
			for key := range byKey {
				keys = append(keys, key)
			}
			slices.SortFunc(keys, func(a, b [3]int) int { return cmpF(float64(a[0]*1e6+a[1]*1e3+a[2]), float64(b[0]*1e6+b[1]*1e3+b[2])) })
			for _, key := range keys {
				group := byKey[key]
				if len(group) >= k {
					slices.SortFunc(group, func(a, b *sg.Node) int { return cmpF(a.Transform.X(), b.Transform.X()) })
					apart := true // cards side by side, not stacked
					for i := 1; i < k; i++ {
						apart = apart && group[i].Transform.X() >= group[i-1].Transform.X()+group[i-1].Size.X
					}
					if apart {
						out = group[:k]
						return false
					}
				}
			}
			return true
		})
		if out != nil {
			return out
		}
	}
	return nil
}

func TestScenarioGrowAutoLayoutRowOfFiveCardsToSeven(t *testing.T) {
	decks := realDecks(t)
	var names []string
	for name := range decks {
		names = append(names, name)
	}
	slices.Sort(names)
	var d *sg.Deck
	var cards []*sg.Node
	for _, name := range names {
		if row := findRow(decks[name], 5); row != nil {
			d, cards = decks[name], row
			for _, c := range cards {
				t.Logf("card %s in %s at %v size %v", c.ID, name, c.Transform, c.Size)
			}
			break
		}
	}
	if cards == nil {
		t.Fatalf("no row of five equal cards in %v", names)
	}
	first, last := cards[0], cards[4]
	width := last.Transform.X() + last.Size.X - first.Transform.X()
	ids := make([]string, len(cards))
	for i, c := range cards {
		ids[i] = c.ID
	}
	// Make the five cards an auto-layout row of fixed width whose cards
	// fill it, then add two more: the agent never computes coordinates.
	calls := []Call{{Tool: "wrap_in_auto_layout", Args: js(map[string]any{"nodeIds": ids, "layoutMode": "HORIZONTAL"}), As: "row"},
		call("set_layout_sizing", map[string]any{"nodeId": "$row", "horizontal": "FIXED"}),
	}
	for _, id := range ids {
		calls = append(calls, call("set_layout_sizing", map[string]any{"nodeId": id, "horizontal": "FILL"}))
	}
	calls = append(calls, call("clone_node", map[string]any{"nodeId": ids[4]}), call("clone_node", map[string]any{"nodeId": ids[4]}))
	out, res := apply(t, d, Options{}, calls...)
	row := nodeIn(t, out, res[0].Created[0])
	if len(row.Children) != 7 {
		t.Fatalf("row has %d cards", len(row.Children))
	}
	if math.Abs(row.Size.X-width) > 0.05 {
		t.Errorf("row width changed: %v -> %v", width, row.Size.X)
	}
	w := row.Children[0].Size.X
	gap := row.ItemSpacing
	for i, c := range row.Children {
		if math.Abs(c.Size.X-w) > 0.05 {
			t.Errorf("card %d width %v, want %v", i, c.Size.X, w)
		}
		if want := row.PaddingLeft + float64(i)*(w+gap); math.Abs(c.Transform.X()-want) > 0.1 {
			t.Errorf("card %d at x=%v, want %v", i, c.Transform.X(), want)
		}
	}
	if end := row.Children[6].Transform.X() + w; math.Abs(end-(row.Size.X-row.PaddingRight)) > 0.1 {
		t.Errorf("seven cards end at %v, row inner edge %v", end, row.Size.X-row.PaddingRight)
	}
	if w >= cards[0].Size.X {
		t.Errorf("cards did not shrink to make room: %v vs %v", w, cards[0].Size.X)
	}
}

func isTitle(n *sg.Node) bool {
	return n.Placeholder != nil && isTitleRole(n.Placeholder.Role) && n.Characters != ""
}

func TestScenarioEveryTitleSameFontAndSize(t *testing.T) {
	for name, d := range realDecks(t) {
		t.Run(name, func(t *testing.T) {
			var calls []Call
			d.Walk(func(n, _ *sg.Node, _ int) bool {
				if isTitle(n) {
					calls = append(calls, call("set_text_font", map[string]any{"nodeId": n.ID, "fontFamily": "Georgia", "fontSize": 40}))
				}
				return true
			})
			if len(calls) == 0 {
				t.Skip("no title placeholders")
			}
			out, _ := apply(t, d, Options{}, call("batch_execute", map[string]any{"operations": toOps(calls)}))
			k := 0
			out.Walk(func(n, _ *sg.Node, _ int) bool {
				if !isTitle(n) {
					return true
				}
				k++
				ea, cs := hasScript(n.Characters)
				for i := 0; i < n.RuneCount(); i++ {
					st := n.StyleAt(i)
					if st.FontFamily != "Georgia" || st.FontSize != 40 {
						t.Fatalf("%s char %d: %q %v px", n.ID, i, st.FontFamily, st.FontSize)
					}
					if (ea && st.FontFamilyEastAsian != "Georgia") || (cs && st.FontFamilyComplex != "Georgia") {
						t.Fatalf("%s char %d: script slots not set (%q, %q)", n.ID, i, st.FontFamilyEastAsian, st.FontFamilyComplex)
					}
				}
				return true
			})
			if k != len(calls) {
				t.Errorf("%d titles after, %d before", k, len(calls))
			}
		})
	}
}

func toOps(calls []Call) []any {
	out := make([]any, len(calls))
	for i, c := range calls {
		out[i] = map[string]any{"command": c.Tool, "params": c.Args}
	}
	return out
}

func TestScenarioFooterOnEverySlide(t *testing.T) {
	for name, d := range realDecks(t) {
		t.Run(name, func(t *testing.T) {
			args := map[string]any{"text": "Northwind · Confidential", "slideNumber": true}
			out, res := apply(t, d, Options{}, call("add_footer", args))
			// new footer boxes stay clear of text, pictures, tables and charts
			env := NewEnv(d, Options{})
			ix := sg.NewIndex(out)
			warned := strings.Join(res[0].Warnings, "\n")
			for _, id := range res[0].Created {
				slide := ix.Slide(id)
				if strings.Contains(warned, "slide "+slide.ID+":") {
					continue
				}
				s, _ := d.SlideByID(slide.ID)
				box := ix.AbsoluteBounds(id)
				for _, r := range env.footerObstacles(s, nil) {
					if ov := box.Intersect(r); ov.Area() > 0 {
						t.Errorf("%s on %s overlaps content at %v", id, slide.ID, r)
					}
				}
				if box.Bottom() > out.Height || box.Y < out.Height*0.75 {
					t.Errorf("%s at %v is not along the bottom edge", id, box)
				}
			}
			t.Logf("%d footer boxes placed, warnings: %v", len(res[0].Created), res[0].Warnings)
			// a second call updates the same placeholders, adding nothing
			again, _ := apply(t, out, Options{}, call("add_footer", args))
			if again.Count() != out.Count() {
				t.Errorf("second add_footer added %d nodes", again.Count()-out.Count())
			}
			for i, s := range out.Slides {
				var ftr, num int
				for _, c := range s.Children {
					switch placeholderRole(c) {
					case "ftr":
						if c.Characters == "Northwind · Confidential" {
							ftr++
						}
					case "sldNum":
						if c.Characters == itoa(i+1) {
							num++
						}
					}
				}
				if ftr != 1 || num != 1 {
					t.Errorf("slide %d (%s): %d footers, %d slide numbers", i, s.ID, ftr, num)
				}
			}
		})
	}
}

func itoa(i int) string { return sgItoa(i) }
