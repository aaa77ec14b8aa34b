package tools

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/acecanvas/ace/internal/formats/pptx"
	sg "github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
)

// nonListReads are the read-only tools that return one object, not a
// list, and so take no limit or cursor. Every other read-only tool is a
// list read and must be in TestEveryListReadPagesToTheEnd.
var nonListReads = []string{
	"check_connection_status", // one status object
	"get_document_info",       // deck facts and counts
	"get_design_tokens",       // the theme: colours, fonts, styles
	"focus_slide",             // sets the current slide
	"export_json",             // one subtree, bounded by MaxExportBytes
	"export_slide_image",      // one picture
}

// pageOfResult is one page of a list read: its items (as JSON, for
// telling them apart), the total it reports and the next cursor.
type pageOfResult struct {
	items []string
	total int
	next  string
}

// envelope reads the shared paged envelope at key of a result ("" for
// the top level).
func envelope(key string) func(t *testing.T, data json.RawMessage) pageOfResult {
	return func(t *testing.T, data json.RawMessage) pageOfResult {
		t.Helper()
		if key != "" {
			var outer map[string]json.RawMessage
			if err := json.Unmarshal(data, &outer); err != nil {
				t.Fatal(err)
			}
			data = outer[key]
		}
		var p struct {
			Items      []json.RawMessage `json:"items"`
			Total      int               `json:"total"`
			NextCursor string            `json:"nextCursor"`
		}
		if err := json.Unmarshal(data, &p); err != nil {
			t.Fatalf("not a paged envelope: %v: %.300s", err, data)
		}
		out := pageOfResult{total: p.Total, next: p.NextCursor}
		for _, it := range p.Items {
			out.items = append(out.items, string(it))
		}
		return out
	}
}

// chartPage reads get_chart_data's page: categories with their values.
func chartPage(t *testing.T, data json.RawMessage) pageOfResult {
	t.Helper()
	var v struct {
		Chart      sg.Chart `json:"chart"`
		Total      int      `json:"total"`
		NextCursor string   `json:"nextCursor"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	out := pageOfResult{total: v.Total, next: v.NextCursor}
	for i, c := range v.Chart.Categories {
		item := c
		for _, s := range v.Chart.Series {
			if i < len(s.Values) {
				b, _ := json.Marshal(s.Values[i])
				item += " " + string(b)
			}
		}
		out.items = append(out.items, item)
	}
	return out
}

// Every list-returning read tool honours limit with a cursor: called with
// limit 1 on a real deck and followed through nextCursor, each page holds
// one item, every page reports the same total, the pages hold that many
// distinct items, and the total is what the deck holds, counted here
// independently. The registry's read-only tools are all either here or
// named in nonListReads, so a new list read cannot skip paging.
func TestEveryListReadPagesToTheEnd(t *testing.T) {
	d := realDeck(t, "career-tips.pptx")
	ix := sg.NewIndex(d)
	data, err := os.ReadFile(shareddecks.PythonPPTX(t, "cht-axis-props.pptx")[0])
	if err != nil {
		t.Fatal(err)
	}
	charts, _, err := pptx.Import(data, "cht-axis-props.pptx")
	if err != nil {
		t.Fatal(err)
	}
	line := sg.NewIndex(charts).Node("s7/2")
	if line == nil || line.Chart == nil || len(line.Chart.Categories) < 5 {
		t.Fatal("cht-axis-props.pptx s7/2 is no longer a line chart with at least 5 categories")
	}

	count := func(root *sg.Node, depth int, keep func(*sg.Node) bool) int {
		k := 0
		var walk func(n *sg.Node, lvl int)
		walk = func(n *sg.Node, lvl int) {
			if keep(n) {
				k++
			}
			if depth < 0 || lvl < depth {
				for _, c := range n.Children {
					walk(c, lvl+1)
				}
			}
		}
		walk(root, 0)
		return k
	}
	all := func(*sg.Node) bool { return true }
	deckCount := func(depth int, keep func(*sg.Node) bool) int {
		k := 0
		for _, s := range d.Slides {
			k += count(s, depth, keep)
		}
		return k
	}
	texts := func(n *sg.Node) bool { return n.Type.CanHoldText() && n.Characters != "" }

	cases := []struct {
		tool string
		deck *sg.Deck
		args map[string]any
		read func(*testing.T, json.RawMessage) pageOfResult
		want int
	}{
		{"get_all_slides", d, map[string]any{}, envelope(""), len(d.Slides)},
		{"get_page_structure", d, map[string]any{"slideId": "s2"}, envelope(""), count(ix.Node("s2"), 3, all)},
		{"get_page_structure", d, map[string]any{"depth": 1}, envelope(""), deckCount(1, all)},
		{"get_node_info", d, map[string]any{"nodeId": "s2"}, envelope("children"), len(ix.Node("s2").Children)},
		{"get_node_info_by_types", d, map[string]any{"types": []string{"TEXT", "IMAGE"}}, envelope(""),
			deckCount(-1, func(n *sg.Node) bool { return n.Type == sg.TypeText || n.Type == sg.TypeImage })},
		{"get_text_node_info", d, map[string]any{"nodeId": "s2/79"}, envelope("runs"), len(ix.Node("s2/79").ParagraphRuns())},
		{"scan_text_nodes", d, map[string]any{}, envelope(""), deckCount(-1, texts)},
		{"scan_text_nodes", d, map[string]any{"nodeId": "s2"}, envelope(""), count(ix.Node("s2"), -1, texts)},
		{"get_chart_data", charts, map[string]any{"chartId": "s7/2"}, chartPage, len(line.Chart.Categories)},
		{"search_stock_images", d, map[string]any{"query": "logos photos"}, envelope(""), 3},
	}
	covered := map[string]bool{}
	for _, tc := range cases {
		covered[tc.tool] = true
		t.Run(tc.tool, func(t *testing.T) {
			if tc.want < 2 {
				t.Fatalf("the deck gives %s only %d items: the case cannot show paging", tc.tool, tc.want)
			}
			// One Env serves every page: reads leave the deck as it is,
			// and runAll is Apply's own argument check and execution
			// without a clone and validation of the deck per page.
			env := newEnv(tc.deck.Clone(), opts(t))
			var seen []string
			cursor := ""
			for pages := 0; ; pages++ {
				if pages > tc.want {
					t.Fatalf("%d pages for %d items: the cursor does not advance", pages, tc.want)
				}
				args := map[string]any{"limit": 1}
				for k, v := range tc.args {
					args[k] = v
				}
				if cursor != "" {
					args["cursor"] = cursor
				}
				res, err := env.runAll([]Call{call(tc.tool, args)})
				if err != nil {
					t.Fatalf("page %d: %v", pages, err)
				}
				p := tc.read(t, res[0].Data)
				if p.total != tc.want {
					t.Fatalf("page %d reports total %d, the deck holds %d", pages, p.total, tc.want)
				}
				if len(p.items) != 1 {
					t.Fatalf("page %d holds %d items with limit 1", pages, len(p.items))
				}
				if slices.Contains(seen, p.items[0]) {
					t.Fatalf("page %d repeats an item: %.200s", pages, p.items[0])
				}
				seen = append(seen, p.items[0])
				if p.next == "" {
					break
				}
				cursor = p.next
			}
			if len(seen) != tc.want {
				t.Errorf("followed the cursor through %d items, total %d", len(seen), tc.want)
			}
		})
	}
	for _, tl := range Registry().All() {
		if !tl.ReadOnly || slices.Contains(nonListReads, tl.Name) {
			continue
		}
		if !covered[tl.Name] {
			t.Errorf("read tool %s is neither paged here nor listed in nonListReads", tl.Name)
		}
		var s struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(tl.Schema, &s); err != nil {
			t.Fatal(err)
		}
		if s.Properties["limit"] == nil || s.Properties["cursor"] == nil {
			t.Errorf("list read %s takes no limit and cursor", tl.Name)
		}
	}
}

// Issue 17 item 9: a frame of 4,000 children (as a Figma import has)
// came back whole from get_page_structure with limit 200. Now the page
// is 200 nodes of the outline, in document order, with the rest behind
// the cursor; get_node_info of the frame pages its children the same way.
func TestPageStructureBoundsAFrameOfThousands(t *testing.T) {
	d := realDeck(t, "career-tips.pptx")
	frame := &sg.Node{ID: "big", Type: sg.TypeFrame, Name: "Grid", Transform: sg.Translate(0, 0), Size: sg.Vector{X: 1280, Y: 720}}
	for i := range 4000 {
		frame.Children = append(frame.Children, &sg.Node{ID: fmt.Sprintf("big/%d", i), Type: sg.TypeRectangle, Name: "Cell",
			Transform: sg.Translate(float64(i%80)*16, float64(i/80)*14), Size: sg.Vector{X: 12, Y: 10}})
	}
	s := d.Slides[1]
	s.Children = append(s.Children, frame)
	before := len(s.Children) // the slide's own nodes, then the frame
	_, res := apply(t, d, Options{},
		call("get_page_structure", map[string]any{"slideId": s.ID, "limit": 200}),
		call("get_page_structure", map[string]any{"slideId": s.ID, "limit": 200, "cursor": "3800"}),
		call("get_node_info", map[string]any{"nodeId": "big", "limit": 200}))
	var p struct {
		Items      []outlineNode `json:"items"`
		Total      int           `json:"total"`
		NextCursor string        `json:"nextCursor"`
	}
	decodeData(t, res[0], &p)
	if len(p.Items) != 200 || p.NextCursor != "200" || p.Total < 4000+before {
		t.Fatalf("first page: %d items, total %d, next %q", len(p.Items), p.Total, p.NextCursor)
	}
	if p.Items[0].ID != s.ID || p.Items[0].Depth != 0 || p.Items[1].Depth != 1 || p.Items[1].ParentID != s.ID {
		t.Errorf("the page does not start with the slide and its first child: %+v", p.Items[:2])
	}
	if len(res[0].Data) > 80_000 {
		t.Errorf("a 200-node page is %d bytes", len(res[0].Data))
	}
	decodeData(t, res[1], &p)
	if len(p.Items) != 200 || p.Items[0].ParentID != "big" || p.Items[0].Depth != 2 {
		t.Errorf("a later page: %d items, first %+v", len(p.Items), p.Items[0])
	}
	var info struct {
		Children struct {
			Items      []nodeSummary `json:"items"`
			Total      int           `json:"total"`
			NextCursor string        `json:"nextCursor"`
		} `json:"children"`
	}
	decodeData(t, res[2], &info)
	if c := info.Children; len(c.Items) != 200 || c.Total != 4000 || c.NextCursor != "200" {
		t.Errorf("get_node_info children: %d items, total %d, next %q", len(c.Items), c.Total, c.NextCursor)
	}
}
