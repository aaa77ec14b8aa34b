package tools

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// Tables follow the scene graph's model (DrawingML a:tbl): a TABLE node
// with column widths and row heights, and TABLE_CELL children in row-major
// order; a merged cell spans slots that then have no child.

type createTableArgs struct {
	place
	Rows         int        `json:"rows" min:"1" max:"200"`
	Columns      int        `json:"columns" min:"1" max:"50"`
	Data         [][]string `json:"data,omitempty" desc:"Cell texts, row by row (may be shorter than the grid)."`
	HeaderRow    bool       `json:"headerRow,omitempty" desc:"Style the first row as a header."`
	BandedRows   bool       `json:"bandedRows,omitempty"`
	ColumnWidths []Length   `json:"columnWidths,omitempty" desc:"px per column; default equal shares of width."`
	FontSize     Length     `json:"fontSize,omitempty" exclusiveMin:"0" desc:"px; default 16"`
	HeaderFill   Hex        `json:"headerFill,omitempty" desc:"Header row background; default the deck's accent1."`
}

type cellEdit struct {
	Row       int     `json:"row" min:"0"`
	Column    int     `json:"column" min:"0"`
	Text      *string `json:"text,omitempty"`
	Fill      Hex     `json:"fill,omitempty"`
	TextColor Hex     `json:"textColor,omitempty"`
	Bold      *bool   `json:"bold,omitempty"`
	Align     string  `json:"align,omitempty" enum:"LEFT,CENTER,RIGHT"`
}

type cellRule struct {
	Column     int    `json:"column" min:"0" desc:"Column whose value is tested."`
	Op         string `json:"op" enum:"gt,ge,lt,le,eq,ne,contains,max,min" desc:"Comparison; max/min pick the row(s) with the largest/smallest number."`
	Value      string `json:"value,omitempty" desc:"Number or text to compare with (not for max/min)."`
	Fill       Hex    `json:"fill,omitempty"`
	TextColor  Hex    `json:"textColor,omitempty"`
	Bold       *bool  `json:"bold,omitempty"`
	WholeRow   bool   `json:"wholeRow,omitempty" desc:"Style the whole row, not just the tested cell."`
	HeaderRows *int   `json:"headerRows,omitempty" min:"0" desc:"Rows at the top the rule skips; default 1 when the table has a header row."`
}

type setCellsArgs struct {
	TableID string     `json:"tableId"`
	Cells   []cellEdit `json:"cells,omitempty" desc:"Per-cell text and style."`
	Rule    *cellRule  `json:"rule,omitempty" desc:"Conditional styling: style the cells (or rows) whose value passes a test."`
}

type tableStructArgs struct {
	TableID string     `json:"tableId"`
	Action  string     `json:"action" enum:"insert_rows,delete_rows,insert_columns,delete_columns,merge,unmerge,set_column_width,set_row_height"`
	Index   int        `json:"index" min:"0" desc:"Row or column index (insert: the new rows/columns start here; merge/unmerge: the anchor row)."`
	Count   int        `json:"count,omitempty" min:"1" max:"100" desc:"How many rows/columns; default 1."`
	Column  int        `json:"column,omitempty" min:"0" desc:"Anchor column for merge/unmerge."`
	RowSpan int        `json:"rowSpan,omitempty" min:"1" desc:"Merge: rows covered."`
	ColSpan int        `json:"colSpan,omitempty" min:"1" desc:"Merge: columns covered."`
	Size    Length     `json:"size,omitempty" min:"0" desc:"px for set_column_width / set_row_height; for inserts the new row height or column width (default: the neighbour's)."`
	Data    [][]string `json:"data,omitempty" desc:"Texts for inserted rows (row by row) or columns (column by column)."`
}

type sortArgs struct {
	TableID    string `json:"tableId"`
	Column     int    `json:"column" min:"0" desc:"Column to sort by."`
	Descending bool   `json:"descending,omitempty"`
	HeaderRows *int   `json:"headerRows,omitempty" min:"0" desc:"Rows at the top that stay put; default 1 when the table has a header row, else 0."`
	Mode       string `json:"mode,omitempty" enum:"AUTO,NUMERIC,TEXT" desc:"AUTO sorts numerically when every value parses as a number (currency, %, thousands separators allowed)."`
}

// grid maps slots to anchor cells.
type grid struct {
	t     *sg.Node
	cells [][]*sg.Node // [row][col] -> anchor covering the slot, or nil
}

func tableGrid(t *sg.Node) grid {
	g := grid{t: t, cells: make([][]*sg.Node, len(t.Table.Rows))}
	for r := range g.cells {
		g.cells[r] = make([]*sg.Node, len(t.Table.Columns))
	}
	for _, c := range t.Children {
		if c.Cell == nil {
			continue
		}
		rs, cs := c.Cell.Spans()
		for r := c.Cell.Row; r < c.Cell.Row+rs && r < len(g.cells); r++ {
			for k := c.Cell.Column; k < c.Cell.Column+cs && k < len(g.cells[r]); k++ {
				if r >= 0 && k >= 0 {
					g.cells[r][k] = c
				}
			}
		}
	}
	return g
}

func (g grid) at(r, c int) (*sg.Node, error) {
	if r < 0 || r >= len(g.cells) || c < 0 || c >= len(g.cells[r]) {
		return nil, fmt.Errorf("cell (%d, %d) is outside table %q of %d rows x %d columns (0-based)", r, c, g.t.ID, len(g.t.Table.Rows), len(g.t.Table.Columns))
	}
	n := g.cells[r][c]
	if n == nil {
		return nil, fmt.Errorf("cell (%d, %d) of table %q has no cell node", r, c, g.t.ID)
	}
	return n, nil
}

func (e *Env) table(id string) (*sg.Node, error) {
	n, err := e.nodeOf(id, sg.TypeTable)
	if err != nil {
		return nil, err
	}
	if n.Table == nil {
		return nil, fmt.Errorf("table %q has no grid", id)
	}
	return n, nil
}

// layoutTableCells sorts cells row-major and places each on the grid; the
// table's size is the sum of its columns and rows.
func layoutTableCells(t *sg.Node) {
	slices.SortStableFunc(t.Children, func(a, b *sg.Node) int {
		if a.Cell == nil || b.Cell == nil {
			return 0
		}
		return cmp.Or(cmp.Compare(a.Cell.Row, b.Cell.Row), cmp.Compare(a.Cell.Column, b.Cell.Column))
	})
	xs := prefix(t.Table.Columns)
	ys := prefix(t.Table.Rows)
	for _, c := range t.Children {
		if c.Cell == nil {
			continue
		}
		rs, cs := c.Cell.Spans()
		r0, c0 := c.Cell.Row, c.Cell.Column
		r1, c1 := min(r0+rs, len(t.Table.Rows)), min(c0+cs, len(t.Table.Columns))
		if r0 < 0 || c0 < 0 || r0 >= r1 || c0 >= c1 {
			continue
		}
		c.Transform = sg.Translate(round2(xs[c0]), round2(ys[r0]))
		c.Size = sg.Vector{X: round2(xs[c1] - xs[c0]), Y: round2(ys[r1] - ys[r0])}
	}
	t.Size = sg.Vector{X: round2(xs[len(xs)-1]), Y: round2(ys[len(ys)-1])}
}

func prefix(v []float64) []float64 {
	out := make([]float64, len(v)+1)
	for i, x := range v {
		out[i+1] = out[i] + x
	}
	return out
}

func (e *Env) newCell(r, c int, like *sg.Node) *sg.Node {
	n := e.newNode(sg.TypeTableCell, "")
	n.Name = ""
	n.Cell = &sg.Cell{Row: r, Column: c}
	if like != nil {
		n.Fills = clonePaintsOf(like.Fills)
		if like.Style != nil {
			st := (&sg.Node{TextContent: sg.TextContent{Style: like.Style}}).Clone().Style
			n.Style = st
		}
		if like.Cell != nil && like.Cell.Borders != nil {
			n.Cell.Borders = (&sg.Node{Cell: like.Cell}).Clone().Cell.Borders
		}
		n.TextBox = (&sg.Node{TextContent: sg.TextContent{TextBox: like.TextBox}}).Clone().TextBox
	}
	return n
}

// parseNumber reads "1,234.5", "$12", "45%", "(3)" or "-7 kg"'s number.
func parseNumber(s string) (float64, bool) {
	t := strings.TrimSpace(s)
	neg := strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")")
	t = strings.Trim(t, "()")
	t = strings.Map(func(r rune) rune {
		switch {
		case r >= '0' && r <= '9', r == '.', r == '-', r == '+', r == 'e', r == 'E':
			return r
		}
		return -1
	}, strings.ReplaceAll(t, ",", ""))
	if t == "" {
		return 0, false
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	if neg {
		v = -v
	}
	return v, true
}

func (e *Env) styleCell(c *sg.Node, fill, textColor Hex, bold *bool, align string) error {
	if fill != "" {
		col, err := color(fill, nil)
		if err != nil {
			return err
		}
		c.Fills = []sg.Paint{sg.Solid(col)}
	}
	patch := sg.TypeStyle{TextAlignHorizontal: align}
	if textColor != "" {
		col, err := color(textColor, nil)
		if err != nil {
			return err
		}
		patch.Fills = []sg.Paint{sg.Solid(col)}
	}
	if bold != nil {
		patch.FontWeight = 400
		if *bold {
			patch.FontWeight = 700
		}
	}
	if !isEmptyStyle(patch) {
		return styleText(c, textRange{}, patch, nil)
	}
	return nil
}

func tableTools() []Tool {
	return []Tool{
		def(ModuleTable, "create_table", false,
			"Create a TABLE of rows x columns, filled from data (row by row), with an optional styled header row and banded rows. Returns the table id in created[0] and the cell ids after it (row-major).",
			func(e *Env, a *createTableArgs) (Result, error) {
				t := e.newNode(sg.TypeTable, orStr(a.Name, "Table"))
				w := orDefault(lengthPtr(a.Width), math.Min(e.Deck.Width-128, float64(a.Columns)*160))
				h := orDefault(lengthPtr(a.Height), float64(a.Rows)*40)
				t.Table = &sg.Table{HeaderRow: a.HeaderRow, BandedRows: a.BandedRows}
				for c := 0; c < a.Columns; c++ {
					cw := w / float64(a.Columns)
					if c < len(a.ColumnWidths) && a.ColumnWidths[c] > 0 {
						cw = float64(a.ColumnWidths[c])
					}
					t.Table.Columns = append(t.Table.Columns, round2(cw))
				}
				for r := 0; r < a.Rows; r++ {
					t.Table.Rows = append(t.Table.Rows, round2(h/float64(a.Rows)))
				}
				fs := a.FontSize
				if fs == 0 {
					fs = 16
				}
				hdr := defaultPalette(e.Deck)[0]
				if a.HeaderFill != "" {
					c, err := color(a.HeaderFill, nil)
					if err != nil {
						return Result{}, err
					}
					hdr = c
				}
				if _, err := e.put(a.place, t, w, h); err != nil {
					return Result{}, err
				}
				created := []string{t.ID}
				border := &sg.Border{Color: sg.MustHex("#BFBFBF"), Weight: 1}
				for r := 0; r < a.Rows; r++ {
					for c := 0; c < a.Columns; c++ {
						cell := e.newCell(r, c, nil)
						cell.Style = &sg.TypeStyle{FontSize: float64(fs)}
						cell.Cell.Borders = &sg.Borders{Left: ptr(*border), Top: ptr(*border), Right: ptr(*border), Bottom: ptr(*border)}
						if r < len(a.Data) && c < len(a.Data[r]) {
							cell.Characters = a.Data[r][c]
						}
						switch {
						case a.HeaderRow && r == 0:
							cell.Fills = []sg.Paint{sg.Solid(hdr)}
							cell.Style.FontWeight = 700
							fg := sg.MustHex("#FFFFFF")
							if contrast(fg, hdr) < 3 {
								fg = sg.MustHex("#000000")
							}
							cell.Style.Fills = []sg.Paint{sg.Solid(fg)}
						case a.BandedRows && r%2 == 1:
							cell.Fills = []sg.Paint{sg.Solid(sg.MustHex("#F2F2F2"))}
						}
						e.insert(t, cell, -1)
						created = append(created, cell.ID)
					}
				}
				layoutTableCells(t)
				return Result{Created: created}, nil
			}),
		def(ModuleTable, "set_table_cells", false,
			"Fill and style table cells: text, background, text colour, bold and alignment per cell (row and column are 0-based), and/or a conditional rule that styles the cells or whole rows whose value passes a test (e.g. highlight every row where column 2 > 100, or the row with the max).",
			func(e *Env, a *setCellsArgs) (Result, error) {
				t, err := e.table(a.TableID)
				if err != nil {
					return Result{}, err
				}
				if len(a.Cells) == 0 && a.Rule == nil {
					return Result{}, fmt.Errorf("give cells and/or rule")
				}
				g := tableGrid(t)
				res := Result{}
				for i, ce := range a.Cells {
					c, err := g.at(ce.Row, ce.Column)
					if err != nil {
						return Result{}, fmt.Errorf("cells[%d]: %w", i, err)
					}
					if ce.Text != nil {
						if err := setCharacters(c, *ce.Text); err != nil {
							return Result{}, err
						}
					}
					if err := e.styleCell(c, ce.Fill, ce.TextColor, ce.Bold, ce.Align); err != nil {
						return Result{}, fmt.Errorf("cells[%d]: %w", i, err)
					}
					res.Changed = append(res.Changed, c.ID)
				}
				if r := a.Rule; r != nil {
					if r.Column >= len(t.Table.Columns) {
						return Result{}, fmt.Errorf("rule.column %d: table %q has %d columns", r.Column, t.ID, len(t.Table.Columns))
					}
					if r.Fill == "" && r.TextColor == "" && r.Bold == nil {
						return Result{}, fmt.Errorf("rule: give fill, textColor or bold")
					}
					skip := 0
					if t.Table.HeaderRow {
						skip = 1
					}
					if r.HeaderRows != nil {
						skip = *r.HeaderRows
					}
					rows := matchRows(g, r, skip)
					for _, row := range rows {
						targets := []*sg.Node{g.cells[row][r.Column]}
						if r.WholeRow {
							targets = nil
							for _, c := range g.cells[row] {
								if c != nil && !slices.Contains(targets, c) {
									targets = append(targets, c)
								}
							}
						}
						for _, c := range targets {
							if c == nil {
								continue
							}
							if err := e.styleCell(c, r.Fill, r.TextColor, r.Bold, ""); err != nil {
								return Result{}, err
							}
							res.Changed = append(res.Changed, c.ID)
						}
					}
					if len(rows) == 0 {
						res.Warnings = append(res.Warnings, "rule matched no row")
					}
				}
				return res, nil
			}),
		def(ModuleTable, "edit_table_structure", false,
			"Change a table's grid: insert or delete rows or columns at an index (new cells copy the neighbour's style; texts from data), merge a block of cells (texts are joined) or unmerge one, or set a column width / row height in px. The table's size follows.",
			func(e *Env, a *tableStructArgs) (Result, error) {
				t, err := e.table(a.TableID)
				if err != nil {
					return Result{}, err
				}
				res, err := e.editTable(t, a)
				if err != nil {
					return Result{}, err
				}
				layoutTableCells(t)
				res.Changed = append(res.Changed, t.ID)
				return res, nil
			}),
		def(ModuleTable, "sort_table_rows", false,
			"Sort a table's body rows by one column, ascending or descending; numbers (with currency, % or thousands separators) sort by value, text alphabetically. Header rows stay on top; rows move with all their cells and styles.",
			func(e *Env, a *sortArgs) (Result, error) {
				t, err := e.table(a.TableID)
				if err != nil {
					return Result{}, err
				}
				if a.Column >= len(t.Table.Columns) {
					return Result{}, fmt.Errorf("column %d: table %q has %d columns (0-based)", a.Column, t.ID, len(t.Table.Columns))
				}
				skip := 0
				if t.Table.HeaderRow {
					skip = 1
				}
				if a.HeaderRows != nil {
					skip = *a.HeaderRows
				}
				nrows := len(t.Table.Rows)
				if skip >= nrows {
					return Result{}, fmt.Errorf("nothing to sort: %d header rows in a table of %d rows", skip, nrows)
				}
				for _, c := range t.Children {
					if c.Cell != nil && c.Cell.Row+max(c.Cell.RowSpan, 1) > skip && max(c.Cell.RowSpan, 1) > 1 {
						return Result{}, fmt.Errorf("cell (%d, %d) spans several rows; unmerge it before sorting", c.Cell.Row, c.Cell.Column)
					}
				}
				g := tableGrid(t)
				key := make([]string, nrows)
				for r := skip; r < nrows; r++ {
					if c := g.cells[r][a.Column]; c != nil && c.Cell.Row == r {
						key[r] = c.Characters
					}
				}
				numeric := a.Mode == "NUMERIC"
				if a.Mode == "" || a.Mode == "AUTO" {
					numeric = true
					for r := skip; r < nrows; r++ {
						if _, ok := parseNumber(key[r]); !ok {
							numeric = false
						}
					}
				}
				order := make([]int, 0, nrows-skip)
				for r := skip; r < nrows; r++ {
					order = append(order, r)
				}
				slices.SortStableFunc(order, func(x, y int) int {
					var c int
					if numeric {
						vx, okx := parseNumber(key[x])
						vy, oky := parseNumber(key[y])
						switch {
						case !okx && !oky:
							c = 0
						case !okx:
							return 1 // blanks last either way
						case !oky:
							return -1
						default:
							c = cmp.Compare(vx, vy)
						}
					} else {
						c = cmp.Compare(strings.ToLower(key[x]), strings.ToLower(key[y]))
					}
					if a.Descending {
						c = -c
					}
					return c
				})
				newRow := make([]int, nrows)
				heights := slices.Clone(t.Table.Rows)
				for r := 0; r < skip; r++ {
					newRow[r] = r
				}
				for i, old := range order {
					newRow[old] = skip + i
					t.Table.Rows[skip+i] = heights[old]
				}
				// banded shading stays with the position, not the row
				var bandFill [2][]sg.Paint
				if t.Table.BandedRows && nrows-skip >= 2 {
					for k := 0; k < 2; k++ {
						if c := g.cells[skip+k][0]; c != nil {
							bandFill[k] = clonePaintsOf(c.Fills)
						}
					}
				}
				res := Result{}
				for _, c := range t.Children {
					if c.Cell != nil && c.Cell.Row >= skip && newRow[c.Cell.Row] != c.Cell.Row {
						c.Cell.Row = newRow[c.Cell.Row]
						res.Changed = append(res.Changed, c.ID)
					}
				}
				if bandFill[0] != nil || bandFill[1] != nil {
					for _, c := range t.Children {
						if c.Cell != nil && c.Cell.Row >= skip {
							c.Fills = clonePaintsOf(bandFill[(c.Cell.Row-skip)%2])
						}
					}
				}
				layoutTableCells(t)
				res.Changed = append(res.Changed, t.ID)
				return res, nil
			}),
	}
}

func matchRows(g grid, r *cellRule, skip int) []int {
	var rows []int
	vals := map[int]float64{}
	for row := skip; row < len(g.cells); row++ {
		c := g.cells[row][r.Column]
		if c == nil || c.Cell.Row != row {
			continue
		}
		text := c.Characters
		v, isNum := parseNumber(text)
		if isNum {
			vals[row] = v
		}
		want, wantNum := parseNumber(r.Value)
		ok := false
		switch r.Op {
		case "contains":
			ok = r.Value != "" && strings.Contains(strings.ToLower(text), strings.ToLower(r.Value))
		case "eq":
			ok = (isNum && wantNum && v == want) || strings.EqualFold(strings.TrimSpace(text), strings.TrimSpace(r.Value))
		case "ne":
			ok = !((isNum && wantNum && v == want) || strings.EqualFold(strings.TrimSpace(text), strings.TrimSpace(r.Value)))
		case "gt":
			ok = isNum && wantNum && v > want
		case "ge":
			ok = isNum && wantNum && v >= want
		case "lt":
			ok = isNum && wantNum && v < want
		case "le":
			ok = isNum && wantNum && v <= want
		}
		if ok {
			rows = append(rows, row)
		}
	}
	if r.Op == "max" || r.Op == "min" {
		best := math.Inf(1)
		if r.Op == "max" {
			best = math.Inf(-1)
		}
		for _, v := range vals {
			if (r.Op == "max" && v > best) || (r.Op == "min" && v < best) {
				best = v
			}
		}
		for row := skip; row < len(g.cells); row++ {
			if v, ok := vals[row]; ok && v == best {
				rows = append(rows, row)
			}
		}
	}
	return rows
}

func (e *Env) editTable(t *sg.Node, a *tableStructArgs) (Result, error) {
	count := max(a.Count, 1)
	R, C := len(t.Table.Rows), len(t.Table.Columns)
	res := Result{}
	switch a.Action {
	case "set_column_width", "set_row_height":
		if a.Size <= 0 {
			return Result{}, fmt.Errorf("%s needs size > 0 px", a.Action)
		}
		dims := t.Table.Columns
		if a.Action == "set_row_height" {
			dims = t.Table.Rows
		}
		if a.Index >= len(dims) {
			return Result{}, fmt.Errorf("index %d is outside the %d entries", a.Index, len(dims))
		}
		dims[a.Index] = float64(a.Size)
		return res, nil
	case "insert_rows", "insert_columns":
		rows := a.Action == "insert_rows"
		limit := C
		if rows {
			limit = R
		}
		if a.Index > limit {
			return Result{}, fmt.Errorf("index %d: can insert at 0..%d", a.Index, limit)
		}
		g := tableGrid(t)
		likeIdx := a.Index - 1
		if likeIdx < 0 {
			likeIdx = 0
		}
		// widen spans crossing the insertion line, shift cells after it
		for _, c := range t.Children {
			pos, span := &c.Cell.Column, &c.Cell.ColSpan
			if rows {
				pos, span = &c.Cell.Row, &c.Cell.RowSpan
			}
			s := max(*span, 1)
			switch {
			case *pos >= a.Index:
				*pos += count
			case *pos+s > a.Index:
				*span = s + count
			}
		}
		size := float64(a.Size)
		dims := &t.Table.Columns
		if rows {
			dims = &t.Table.Rows
		}
		if size <= 0 {
			if len(*dims) > 0 {
				size = (*dims)[min(likeIdx, len(*dims)-1)]
			} else {
				size = 40
			}
		}
		for k := 0; k < count; k++ {
			*dims = slices.Insert(*dims, a.Index, size)
		}
		other := R
		if rows {
			other = C
		}
		for k := 0; k < count; k++ {
			for o := 0; o < other; o++ {
				r, c := a.Index+k, o
				var like *sg.Node
				if rows {
					if likeIdx < len(g.cells) {
						like = g.cells[likeIdx][o]
					}
				} else {
					r, c = o, a.Index+k
					if o < len(g.cells) && likeIdx < len(g.cells[o]) {
						like = g.cells[o][likeIdx]
					}
				}
				// a widened span already covers this slot
				if covered(t, r, c) {
					continue
				}
				cell := e.newCell(r, c, like)
				if rows && k < len(a.Data) && o < len(a.Data[k]) {
					cell.Characters = a.Data[k][o]
				}
				if !rows && k < len(a.Data) && o < len(a.Data[k]) {
					cell.Characters = a.Data[k][o]
				}
				if cell.Characters != "" && cell.Style == nil {
					cell.Style = &sg.TypeStyle{}
				}
				e.insert(t, cell, -1)
				res.Created = append(res.Created, cell.ID)
			}
		}
		return res, nil
	case "delete_rows", "delete_columns":
		rows := a.Action == "delete_rows"
		limit := C
		if rows {
			limit = R
		}
		if a.Index+count > limit {
			return Result{}, fmt.Errorf("cannot delete %d from index %d: only %d there", count, a.Index, limit)
		}
		if count >= limit {
			return Result{}, fmt.Errorf("deleting every %s would leave an empty table; delete the table with delete_node", map[bool]string{true: "row", false: "column"}[rows])
		}
		lo, hi := a.Index, a.Index+count
		var gone []*sg.Node
		for _, c := range t.Children {
			pos, span := &c.Cell.Column, &c.Cell.ColSpan
			if rows {
				pos, span = &c.Cell.Row, &c.Cell.RowSpan
			}
			s := max(*span, 1)
			start, end := *pos, *pos+s
			// overlap of [start,end) with [lo,hi)
			ov := max(0, min(end, hi)-max(start, lo))
			switch {
			case ov == s:
				gone = append(gone, c)
				continue
			case start >= hi:
				*pos -= count
			case start >= lo: // anchor deleted, the rest of the span survives
				*pos = lo
				*span = s - ov
			default:
				*span = s - ov
			}
			if *span == 1 {
				*span = 0
			}
		}
		for _, c := range gone {
			e.detach(c)
			res.Deleted = append(res.Deleted, c.ID)
		}
		if rows {
			t.Table.Rows = slices.Delete(t.Table.Rows, lo, hi)
		} else {
			t.Table.Columns = slices.Delete(t.Table.Columns, lo, hi)
		}
		return res, nil
	case "merge":
		rs, cs := max(a.RowSpan, 1), max(a.ColSpan, 1)
		if rs*cs < 2 {
			return Result{}, fmt.Errorf("merge needs rowSpan and/or colSpan so that at least 2 cells are covered")
		}
		r0, c0 := a.Index, a.Column
		if r0+rs > R || c0+cs > C {
			return Result{}, fmt.Errorf("merge block rows %d..%d, columns %d..%d leaves the %dx%d table", r0, r0+rs-1, c0, c0+cs-1, R, C)
		}
		g := tableGrid(t)
		var parts []*sg.Node
		for r := r0; r < r0+rs; r++ {
			for c := c0; c < c0+cs; c++ {
				n := g.cells[r][c]
				if n == nil || slices.Contains(parts, n) {
					continue
				}
				nr, nc := n.Cell.Spans()
				if n.Cell.Row < r0 || n.Cell.Column < c0 || n.Cell.Row+nr > r0+rs || n.Cell.Column+nc > c0+cs {
					return Result{}, fmt.Errorf("the block cuts through merged cell (%d, %d); unmerge it first", n.Cell.Row, n.Cell.Column)
				}
				parts = append(parts, n)
			}
		}
		anchor, err := g.at(r0, c0)
		if err != nil {
			return Result{}, err
		}
		var texts []string
		for _, p := range parts {
			if p.Characters != "" {
				texts = append(texts, p.Characters)
			}
			if p != anchor {
				e.detach(p)
				res.Deleted = append(res.Deleted, p.ID)
			}
		}
		if len(texts) > 0 {
			keep := anchor.Style
			_ = setCharacters(anchor, strings.Join(texts, "\n"))
			anchor.Style = keep
		}
		anchor.Cell.RowSpan, anchor.Cell.ColSpan = rs, cs
		if rs == 1 {
			anchor.Cell.RowSpan = 0
		}
		if cs == 1 {
			anchor.Cell.ColSpan = 0
		}
		res.Changed = append(res.Changed, anchor.ID)
		return res, nil
	case "unmerge":
		g := tableGrid(t)
		anchor, err := g.at(a.Index, a.Column)
		if err != nil {
			return Result{}, err
		}
		rs, cs := anchor.Cell.Spans()
		if rs == 1 && cs == 1 {
			return Result{}, fmt.Errorf("cell (%d, %d) is not merged", a.Index, a.Column)
		}
		anchor.Cell.RowSpan, anchor.Cell.ColSpan = 0, 0
		for r := anchor.Cell.Row; r < anchor.Cell.Row+rs; r++ {
			for c := anchor.Cell.Column; c < anchor.Cell.Column+cs; c++ {
				if r == anchor.Cell.Row && c == anchor.Cell.Column {
					continue
				}
				cell := e.newCell(r, c, anchor)
				e.insert(t, cell, -1)
				res.Created = append(res.Created, cell.ID)
			}
		}
		res.Changed = append(res.Changed, anchor.ID)
		return res, nil
	}
	return Result{}, fmt.Errorf("unknown action %q", a.Action)
}

func covered(t *sg.Node, r, c int) bool {
	for _, n := range t.Children {
		if n.Cell == nil {
			continue
		}
		rs, cs := n.Cell.Spans()
		if r >= n.Cell.Row && r < n.Cell.Row+rs && c >= n.Cell.Column && c < n.Cell.Column+cs {
			return true
		}
	}
	return false
}
