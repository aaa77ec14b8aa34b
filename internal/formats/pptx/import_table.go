package pptx

import (
	"strconv"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// table imports a:tbl (ECMA-376 §21.1.3.13): the grid, one TABLE_CELL per
// a:tc that is not covered by a merge, with spans, fill, borders, margins
// and text. Table style colours (a:tableStyleId) are not resolved.
func (c *shapeCtx) table(n *sg.Node, tbl *xnode) {
	t := &sg.Table{Columns: []float64{}, Rows: []float64{}}
	n.Table = t
	if tbl == nil {
		c.im.warn(c.part, "table %q has no a:tbl", n.Name)
		return
	}
	pr := tbl.child(nsA, "tblPr")
	t.HeaderRow = pr.av("firstRow") == "1"
	t.BandedRows = pr.av("bandRow") == "1"
	t.StyleID = pr.child(nsA, "tableStyleId").allText()
	if t.StyleID != "" {
		c.im.warn(c.part, "table style %s not resolved; cells keep only their explicit fills and borders", t.StyleID)
	}
	for _, gc := range tbl.path(nsA, "tblGrid").all(nsA, "gridCol") {
		t.Columns = append(t.Columns, round6(float64(inum(gc.av("w")))/sg.EMUPerPx))
	}
	rows := tbl.all(nsA, "tr")
	for _, tr := range rows {
		t.Rows = append(t.Rows, round6(float64(inum(tr.av("h")))/sg.EMUPerPx))
	}
	m := c.si.lay.m
	y := 0.0
	for r, tr := range rows {
		x := 0.0
		for col, tc := range tr.all(nsA, "tc") {
			if col >= len(t.Columns) {
				break
			}
			w := t.Columns[col]
			if tc.av("hMerge") == "1" || tc.av("vMerge") == "1" {
				x += w
				continue
			}
			cell := &sg.Cell{Row: r, Column: col}
			if v := int(inum(tc.av("gridSpan"))); v > 1 {
				cell.ColSpan = min(v, len(t.Columns)-col)
			}
			if v := int(inum(tc.av("rowSpan"))); v > 1 {
				cell.RowSpan = min(v, len(rows)-r)
			}
			rs, cs := cell.Spans()
			cw, ch := 0.0, 0.0
			for i := 0; i < cs; i++ {
				cw += t.Columns[col+i]
			}
			for i := 0; i < rs; i++ {
				ch += t.Rows[r+i]
			}
			id := n.ID + "/r" + strconv.Itoa(r) + "c" + strconv.Itoa(col)
			cn := &sg.Node{ID: id, Type: sg.TypeTableCell, Name: "Cell " + strconv.Itoa(r+1) + "," + strconv.Itoa(col+1),
				Transform: sg.Translate(round6(x), round6(y)), Size: sg.Vector{X: round6(cw), Y: round6(ch)}, Cell: cell,
				Source: &sg.Source{Format: "pptx", Part: c.part, ShapeID: n.Source.ShapeID + "/r" + strconv.Itoa(r) + "c" + strconv.Itoa(col)}}
			tcPr := tc.child(nsA, "tcPr")
			if ps, ok := c.im.fill(tcPr, c.part, c.cc); ok {
				cn.Fills = ps
			}
			cell.Borders = c.borders(tcPr)
			tctx := &textCtx{im: c.im, cc: c.cc, th: m.th, linker: c.link,
				lists: []*xnode{c.im.defText, m.txStyles.child(nsP, "otherStyle")}}
			if tb := tc.child(nsA, "txBody"); tb != nil {
				tctx.read(tb, &cn.TextContent)
			}
			if cn.TextBox != nil {
				in := cn.TextBox.Insets
				for _, side := range []struct {
					attr string
					dst  *float64
					def  int64
				}{{"marL", &in.Left, 91440}, {"marR", &in.Right, 91440}, {"marT", &in.Top, 45720}, {"marB", &in.Bottom, 45720}} {
					v := side.def
					if s, ok := tcPr.attr(side.attr); ok {
						v = inum(s)
					}
					*side.dst = max0(round6(float64(v) / sg.EMUPerPx))
				}
				if cn.Style != nil {
					switch tcPr.av("anchor") {
					case "ctr":
						cn.Style.TextAlignVertical = sg.AlignCenter
					case "b":
						cn.Style.TextAlignVertical = sg.AlignBottom
					default:
						cn.Style.TextAlignVertical = sg.AlignTop
					}
				}
			}
			c.im.shapes[id] = &shapeInfo{elem: tc, node: cn, slide: c.si, kind: "tc"}
			n.Children = append(n.Children, cn)
			x += w
		}
		y += t.Rows[r]
	}
}

func (c *shapeCtx) borders(tcPr *xnode) *sg.Borders {
	if tcPr == nil {
		return nil
	}
	b := &sg.Borders{}
	any := false
	for _, side := range []struct {
		name string
		dst  **sg.Border
	}{{"lnL", &b.Left}, {"lnR", &b.Right}, {"lnT", &b.Top}, {"lnB", &b.Bottom}} {
		ln := tcPr.child(nsA, side.name)
		if ln == nil {
			continue
		}
		ps, ok := c.im.fill(ln, c.part, c.cc)
		if !ok || len(ps) == 0 || ps[0].Color == nil {
			continue
		}
		w := int64(12700)
		if v, ok := ln.attr("w"); ok {
			w = inum(v)
		}
		bd := &sg.Border{Color: *ps[0].Color, Weight: max0(round6(float64(w) / sg.EMUPerPx))}
		if d := ln.child(nsA, "prstDash"); d != nil && d.av("val") != "solid" {
			bd.Dash = d.av("val")
		}
		*side.dst = bd
		any = true
	}
	if !any {
		return nil
	}
	return b
}
