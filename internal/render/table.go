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

// gridCell places a TABLE_CELL in its grid slot with its borders.
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
	if br := n.Cell.Borders; br != nil {
		side := func(name string, bd *scenegraph.Border) {
			if bd == nil || bd.Weight <= 0 {
				return
			}
			kind := "solid"
			if bd.Dash != "" && bd.Dash != "solid" {
				kind = "dashed"
			}
			st.add("border-"+name, fmt.Sprintf("%s %s %s", px(bd.Weight), kind, cssColor(bd.Color, 1)))
		}
		side("left", br.Left)
		side("top", br.Top)
		side("right", br.Right)
		side("bottom", br.Bottom)
	}
}
