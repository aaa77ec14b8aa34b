package tools

import (
	"bytes"
	"strings"
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// TestPPTArenaEditTypesAreShortCallSequences lists the edit types of the
// PPTArena benchmark (ACE issue 4, Coverage) with the short call sequence
// that performs each on the generated deck. Each sequence must apply, change
// the deck and stay within four calls (one batch_execute in practice).
func TestPPTArenaEditTypesAreShortCallSequences(t *testing.T) {
	d := fixture(t)
	id := func(slide int, name string) string { return named(t, d, slide, name).ID }
	title, body := id(1, "Title"), id(1, "Content")
	table, chart, pic, caption := id(4, "Results Table"), id(5, "Chart"), id(6, "Picture"), id(6, "Caption")
	row, card := id(3, "Card Row"), id(3, "Card")
	cases := []struct {
		category, edit string
		calls          []Call
	}{
		{"text", "rewrite a title", []Call{call("set_text_content", map[string]any{"nodeId": title, "text": "FY26 outlook"})}},
		{"text", "find and replace a company name", []Call{call("set_text_content", map[string]any{"nodeId": id(0, "Subtitle"), "find": "Northwind Analytics", "text": "Acme"})}},
		{"typography", "bold one word", []Call{call("set_text_range_style", map[string]any{"nodeId": body, "substring": lastWord(named(t, d, 1, "Content").Characters), "fontWeight": 700})}},
		{"typography", "CJK-aware font change", []Call{call("set_text_content", map[string]any{"nodeId": title, "text": "東京 office"}), call("set_text_font", map[string]any{"nodeId": title, "fontFamily": "Noto Sans"})}},
		{"typography", "superscript a footnote mark", []Call{call("set_text_content", map[string]any{"nodeId": title, "text": "Growth1"}), call("set_text_range_style", map[string]any{"nodeId": title, "start": 6, "end": 7, "baselineShift": 0.3})}},
		{"typography", "bulleted list to numbered", []Call{call("set_paragraph_style", map[string]any{"nodeId": body, "listType": "ORDERED"})}},
		{"chart", "create a chart from data", []Call{call("create_chart", map[string]any{"parentId": "slide-13", "chartType": "PIE", "categories": []string{"A", "B"}, "series": []any{map[string]any{"name": "Share", "values": []float64{60, 40}}}})}},
		{"chart", "change chart type", []Call{call("set_chart_type", map[string]any{"chartId": chart, "chartType": "LINE"})}},
		{"chart", "update a value", []Call{call("update_chart_data", map[string]any{"chartId": chart, "set": []any{map[string]any{"series": "Revenue", "category": "Q1", "value": 10}}})}},
		{"chart", "recolour series to brand", []Call{call("set_series_color", map[string]any{"chartId": chart, "colors": []string{"#5B2A86", "#F26430"}})}},
		{"chart", "move legend", []Call{call("set_chart_legend", map[string]any{"chartId": chart, "position": "TOP"})}},
		{"chart", "table to chart", []Call{call("create_data_chart", map[string]any{"tableId": table, "replaceTable": true})}},
		{"image", "insert a logo", []Call{call("create_image", map[string]any{"parentId": "slide-2", "query": "acme logo", "x": 1100, "y": 20, "width": 120})}},
		{"image", "replace a photo", []Call{call("replace_image", map[string]any{"nodeId": pic, "query": "team"})}},
		{"image", "crop to 16:9", []Call{call("crop_image", map[string]any{"nodeId": pic, "aspectRatio": "16:9"})}},
		{"image", "fit instead of fill", []Call{call("crop_image", map[string]any{"nodeId": pic, "scaleMode": "FIT"})}},
		{"theme", "new accent colour deck-wide", []Call{call("set_theme_colors", map[string]any{"colors": map[string]string{"accent1": "#5B2A86"}})}},
		{"theme", "new heading font", []Call{call("set_theme_fonts", map[string]any{"heading": "Georgia"})}},
		{"background", "gradient background", []Call{call("set_gradient_fill", map[string]any{"nodeId": "slide-2", "stops": []any{map[string]any{"position": 0, "color": "#FFFFFF"}, map[string]any{"position": 1, "color": "#DDE3EA"}}})}},
		{"arrange", "align centre", []Call{call("align_nodes", map[string]any{"nodeIds": []string{pic}, "align": "CENTER"})}},
		{"arrange", "distribute", []Call{call("distribute_nodes", map[string]any{"nodeIds": []string{id(2, "Title"), id(2, "Left Column"), id(2, "Right Column")}, "direction": "VERTICAL"})}},
		{"arrange", "bring to front", []Call{call("set_z_order", map[string]any{"nodeId": pic, "action": "BRING_TO_FRONT"})}},
		{"arrange", "send backward", []Call{call("set_z_order", map[string]any{"nodeId": caption, "action": "SEND_BACKWARD"})}},
		{"arrange", "picture behind the title", []Call{call("set_z_order", map[string]any{"nodeId": pic, "action": "BEHIND", "relativeToId": id(6, "Title")})}},
		{"slides", "add a populated slide", []Call{call("create_slide", map[string]any{"templateSlideId": "slide-2", "title": "Q&A", "body": "Questions welcome"})}},
		{"slides", "delete a slide", []Call{call("delete_slide", map[string]any{"slideId": "slide-13"})}},
		{"slides", "duplicate and hide", []Call{{Tool: "duplicate_slide", Args: js(map[string]any{"slideId": "slide-2"}), As: "s"}, call("set_slide_properties", map[string]any{"slideId": "$s", "hidden": true})}},
		{"sections", "group slides into sections", []Call{call("set_sections", map[string]any{"sections": []any{map[string]any{"name": "Intro", "slideIds": []string{"slide-1"}}, map[string]any{"name": "Results", "slideIds": []string{"slide-5", "slide-6"}}}})}},
		{"footer", "footer and numbers", []Call{call("add_footer", map[string]any{"text": "Confidential", "slideNumber": true, "date": "2026-11-30"})}},
		{"table", "create and fill", []Call{call("create_table", map[string]any{"parentId": "slide-13", "rows": 2, "columns": 2, "data": [][]string{{"a", "b"}, {"1", "2"}}})}},
		{"table", "insert a column", []Call{call("edit_table_structure", map[string]any{"tableId": table, "action": "insert_columns", "index": 4, "data": [][]string{{"Share", "1", "2", "3", "4"}}})}},
		{"table", "delete a row", []Call{call("edit_table_structure", map[string]any{"tableId": table, "action": "delete_rows", "index": 3})}},
		{"table", "merge header cells", []Call{call("edit_table_structure", map[string]any{"tableId": table, "action": "merge", "index": 0, "column": 2, "colSpan": 2})}},
		{"table", "sort by a column", []Call{call("sort_table_rows", map[string]any{"tableId": table, "column": 3, "descending": true})}},
		{"table", "highlight growth under 10%", []Call{call("set_table_cells", map[string]any{"tableId": table, "rule": map[string]any{"column": 2, "op": "lt", "value": "10", "textColor": "#C00000", "bold": true}})}},
		{"shapes", "draw a callout with arrow", []Call{{Tool: "create_rectangle", Args: js(map[string]any{"parentId": "slide-7", "x": 900, "y": 560, "width": 300, "height": 80, "cornerRadius": 12, "text": "Best quarter"}), As: "c"}, call("create_connector", map[string]any{"startNodeId": "$c", "endNodeId": pic})}},
		{"shapes", "icon from SVG", []Call{call("create_graphics", map[string]any{"parentId": "slide-2", "width": 24, "height": 24, "svgPaths": []any{map[string]any{"path": "M2 12 L10 20 L22 4", "stroke": "#0B6E4F"}}})}},
		{"shapes", "shadow and rounded corners", []Call{call("set_drop_shadow", map[string]any{"nodeId": card}), call("set_corner_radius", map[string]any{"nodeId": card, "radius": 20})}},
		{"smartart", "process diagram", []Call{call("create_smartart", map[string]any{"parentId": "slide-13", "kind": "PROCESS", "items": []any{map[string]any{"text": "Plan"}, map[string]any{"text": "Do"}}})}},
		{"smartart", "bullets to cycle", []Call{call("text_to_smartart", map[string]any{"nodeId": body, "kind": "CYCLE"})}},
		{"smartart", "org chart", []Call{call("create_smartart", map[string]any{"parentId": "slide-13", "kind": "HIERARCHY", "items": []any{map[string]any{"text": "CEO", "children": []any{map[string]any{"text": "CTO"}, map[string]any{"text": "CFO"}}}}})}},
		{"layout", "grow a card row", []Call{call("clone_node", map[string]any{"nodeId": card}), call("clone_node", map[string]any{"nodeId": card})}},
		{"layout", "space and pad a row", []Call{call("set_item_spacing", map[string]any{"nodeId": row, "itemSpacing": 32}), call("set_padding", map[string]any{"nodeId": row, "all": 16})}},
		{"layout", "wrap a row", []Call{call("set_layout_mode", map[string]any{"nodeId": row, "layoutMode": "HORIZONTAL", "layoutWrap": "WRAP"})}},
		{"layout", "convert loose boxes to auto-layout", []Call{call("wrap_in_auto_layout", map[string]any{"nodeIds": []string{id(2, "Left Column"), id(2, "Right Column")}, "layoutMode": "HORIZONTAL"})}},
		{"layout", "badge outside the flow", []Call{call("set_layout_positioning", map[string]any{"nodeId": card, "positioning": "ABSOLUTE", "x": 0, "y": -20})}},
		{"placeholders", "restyle a slide like the template", []Call{call("set_slide_properties", map[string]any{"slideId": "slide-8", "matchSlideId": "slide-1"})}},
		{"accessibility", "alt text", []Call{call("set_alt_text", map[string]any{"nodeId": chart, "altText": "Revenue and costs by quarter"})}},
		{"accessibility", "minimum font size", []Call{call("enforce_min_font_size", map[string]any{"minSize": 24})}},
		{"accessibility", "fix contrast", []Call{call("set_fill_color", map[string]any{"nodeId": "slide-8", "color": "#1F2933"}), call("fix_text_contrast", map[string]any{"nodeId": "slide-8"})}},
		{"transitions", "fade on every slide", []Call{call("set_slide_transition", map[string]any{"type": "fade", "durationMs": 400})}},
		{"hyperlinks", "link text to a URL", []Call{call("set_hyperlink", map[string]any{"nodeId": body, "url": "https://example.com", "substring": string([]rune(named(t, d, 1, "Content").Characters)[:3])})}},
		{"hyperlinks", "jump to a slide", []Call{call("set_hyperlink", map[string]any{"nodeId": card, "slideId": "slide-5"})}},
		{"math", "equation", []Call{call("create_math", map[string]any{"parentId": "slide-13", "latex": `\sum_{i=1}^{n} x_i`})}},
	}
	before := encode(t, d)
	for _, c := range cases {
		t.Run(c.category+"/"+c.edit, func(t *testing.T) {
			if len(c.calls) > 4 {
				t.Errorf("%d calls", len(c.calls))
			}
			out, _ := apply(t, d, opts(t), c.calls...)
			if bytes.Equal(encode(t, out), before) {
				t.Error("the deck did not change")
			}
		})
	}
	if !bytes.Equal(encode(t, d), before) {
		t.Error("the shared input deck changed")
	}
	_ = sg.TypeText
}

func lastWord(s string) string {
	f := strings.Fields(s)
	return f[len(f)-1]
}
