package pptx

import (
	"strconv"
	"strings"

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
	style := c.im.tableStyle(t.StyleID)
	if t.StyleID != "" && style == nil {
		c.im.warn(c.part, "table style %s not found in the package (a built-in style); cells keep only their explicit fills and borders", t.StyleID)
	}
	flag := func(name string) bool { v := pr.av(name); return v == "1" || v == "true" }
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
			parts := styleParts(style, r, col, rs, cs, len(rows), len(t.Columns), flag)
			if ps, ok := c.im.fill(tcPr, c.part, c.cc); ok {
				cn.Fills = ps
			} else {
				cn.Fills = c.styleCellFill(parts)
			}
			cell.Borders = c.borders(tcPr, parts, r, col, rs, cs, len(rows), len(t.Columns))
			tctx := &textCtx{im: c.im, cc: c.cc, th: m.th, linker: c.link,
				lists: []*xnode{c.im.defText, m.txStyles.child(nsP, "otherStyle")}}
			for _, sp := range parts {
				if tx := sp.child(nsA, "tcTxStyle"); tx != nil {
					tctx.tblTx = append(tctx.tblTx, tx)
				}
			}
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

// borders resolves a cell's four edges: its own a:lnL/lnR/lnT/lnB, else the
// table style's edge for that position (outer edge or inside line).
func (c *shapeCtx) borders(tcPr *xnode, parts []*xnode, r, col, rs, cs, nRows, nCols int) *sg.Borders {
	b := &sg.Borders{}
	any := false
	pick := func(first bool, outer, inner string) string {
		if first {
			return outer
		}
		return inner
	}
	for _, side := range []struct {
		name, styleSide string
		dst             **sg.Border
	}{{"lnL", pick(col == 0, "left", "insideV"), &b.Left}, {"lnR", pick(col+cs >= nCols, "right", "insideV"), &b.Right},
		{"lnT", pick(r == 0, "top", "insideH"), &b.Top}, {"lnB", pick(r+rs >= nRows, "bottom", "insideH"), &b.Bottom}} {
		ln := tcPr.child(nsA, side.name)
		if ln == nil {
			for _, sp := range parts {
				if e := sp.path(nsA, "tcStyle", "tcBdr").child(nsA, side.styleSide); e != nil {
					if l := e.child(nsA, "ln"); l != nil {
						ln = l
					}
				}
			}
		}
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

// tableStyle finds a table style (a:tblStyle) by id in the presentation's
// table styles part.
func (im *importer) tableStyle(id string) *xnode {
	if id == "" {
		return nil
	}
	rels, _ := im.p.relsOf(im.presPart)
	for _, r := range rels {
		if !strings.HasSuffix(r.Type, "/tableStyles") || r.External || !im.p.has(r.Target) {
			continue
		}
		doc, err := im.p.xml(r.Target)
		if err != nil {
			im.warn(r.Target, "table styles unreadable: %v", err)
			return nil
		}
		for _, st := range doc.root().all(nsA, "tblStyle") {
			if st.av("styleId") == id {
				return st
			}
		}
	}
	return nil
}

// styleParts lists the parts of a table style that apply to a cell, lowest
// priority first (ECMA-376 §20.1.4.2.26: whole table, bands, first/last
// column, first/last row), following the table's a:tblPr flags.
func styleParts(style *xnode, r, col, rs, cs, nRows, nCols int, flag func(string) bool) []*xnode {
	if style == nil {
		return nil
	}
	var out []*xnode
	add := func(name string) {
		if e := style.child(nsA, name); e != nil {
			out = append(out, e)
		}
	}
	add("wholeTbl")
	if flag("bandRow") {
		i := r
		if flag("firstRow") {
			i--
		}
		if i >= 0 && !(flag("lastRow") && r+rs >= nRows) {
			if i%2 == 0 {
				add("band1H")
			} else {
				add("band2H")
			}
		}
	}
	if flag("bandCol") {
		i := col
		if flag("firstCol") {
			i--
		}
		if i >= 0 && !(flag("lastCol") && col+cs >= nCols) {
			if i%2 == 0 {
				add("band1V")
			} else {
				add("band2V")
			}
		}
	}
	if flag("lastCol") && col+cs >= nCols {
		add("lastCol")
	}
	if flag("firstCol") && col == 0 {
		add("firstCol")
	}
	if flag("lastRow") && r+rs >= nRows {
		add("lastRow")
	}
	if flag("firstRow") && r == 0 {
		add("firstRow")
	}
	return out
}

// styleCellFill resolves the fill a table style gives a cell.
func (c *shapeCtx) styleCellFill(parts []*xnode) []sg.Paint {
	var out []sg.Paint
	for _, sp := range parts {
		ts := sp.child(nsA, "tcStyle")
		if f := ts.child(nsA, "fill"); f != nil {
			if ps, ok := c.im.fill(f, c.part, c.cc); ok {
				out = ps
			}
		} else if ref := ts.child(nsA, "fillRef"); ref != nil {
			out = c.styleFill(&xnode{kind: kElem, kids: []*xnode{ref}})
		}
	}
	return out
}
