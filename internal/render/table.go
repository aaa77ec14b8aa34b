package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// tableGrid lays a TABLE out as a CSS grid: fixed column widths, rows at
// least their declared height and growing with their text, as PowerPoint
// grows a row to fit its cells (so the table's measured height can exceed
// Size.Y and the growth shows up as out_of_bounds or overlap).
func (b *builder) tableGrid(st *style, n *scenegraph.Node) {
	if n.Table == nil {
		b.errorf(n, "TABLE node without table grid")
		return
	}
	cols := make([]string, len(n.Table.Columns))
	for i, w := range n.Table.Columns {
		cols[i] = px(max(0, w))
	}
	rows := make([]string, len(n.Table.Rows))
	for i, h := range n.Table.Rows {
		rows[i] = "minmax(" + px(max(0, h)) + ",auto)"
	}
	st.add("display", "grid")
	st.add("grid-template-columns", strings.Join(cols, " "))
	st.add("grid-template-rows", strings.Join(rows, " "))
	st.add("height", "auto")
}

// gridCell places a TABLE_CELL in its grid slot (its borders are drawn by
// cellBorders, outside the layout).
func (b *builder) gridCell(st *style, n *scenegraph.Node) {
	st.add("position", "relative")
	st.add("min-width", "0")
	if n.Cell == nil {
		b.errorf(n, "TABLE_CELL without cell position")
		return
	}
	rs, cs := n.Cell.Spans()
	st.add("grid-row", strconv.Itoa(n.Cell.Row+1)+" / span "+strconv.Itoa(rs))
	st.add("grid-column", strconv.Itoa(n.Cell.Column+1)+" / span "+strconv.Itoa(cs))
}

// cellBorders draws a TABLE_CELL's borders as DrawingML does (ECMA-376
// §21.1.3.5 a:lnL ... a:lnB): each line centred on the grid line, taking
// no room from the cell's text, so two cells sharing an edge draw one line
// of the stated weight (CSS borders inside each cell would draw it twice
// as thick and narrow the text). The overlay sits above the cells' fills.
func (b *builder) cellBorders(n *scenegraph.Node) {
	if n.Cell == nil || n.Cell.Borders == nil {
		return
	}
	br := n.Cell.Borders
	var st style
	st.add("position", "absolute")
	st.add("z-index", "1")
	st.add("pointer-events", "none")
	drawn := false
	for _, sd := range []struct {
		name string
		bd   *scenegraph.Border
	}{{"left", br.Left}, {"top", br.Top}, {"right", br.Right}, {"bottom", br.Bottom}} {
		w := 0.0
		if sd.bd != nil && sd.bd.Weight > 0 {
			w = sd.bd.Weight
			kind := "solid"
			if sd.bd.Dash != "" && sd.bd.Dash != "solid" {
				kind = "dashed"
			}
			st.add("border-"+sd.name, fmt.Sprintf("%s %s %s", px(w), kind, cssColor(sd.bd.Color, 1)))
			drawn = true
		}
		st.add(sd.name, px(-w/2))
	}
	if drawn {
		b.w(`<div class="cb" style="` + attr(st.String()) + `"></div>`)
	}
}
