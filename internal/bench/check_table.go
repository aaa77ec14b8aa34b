package bench

import (
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// tableOf resolves a selector that must name a TABLE.
func tableOf(e *env, s Selector) (located, *Failure) {
	l, f := s.resolve(e.Result, e.res)
	if f != nil {
		return l, f
	}
	if l.node.Type != sg.TypeTable || l.node.Table == nil {
		ff := l.failure("is a %s, not a TABLE", l.node.Type)
		return l, &ff
	}
	return l, nil
}

// cellAt returns the TABLE_CELL child at grid row and column (0-based),
// nil when no cell starts there (outside the grid, or covered by a merge).
func cellAt(table *sg.Node, row, col int) *sg.Node {
	for _, c := range table.Children {
		if c.Cell != nil && c.Cell.Row == row && c.Cell.Column == col {
			return c
		}
	}
	return nil
}

// cellCheck is table_cell: one cell's text (row and col are 0-based, as
// set_table_cells counts them).
//
//	table_cell: {table: {slide: 5, type: TABLE}, row: 1, col: 2, equals: "12.5"}
//	table_cell: {table: s13/255, row: 0, col: 1, contains: "Revenue", ignore_case: true}
type cellCheck struct {
	table      Selector
	row, col   int
	want       string
	equals     bool
	ignoreCase bool
}

func parseTableCell(p *parser, v *yaml.Node) checker {
	c := &cellCheck{row: -1, col: -1}
	var hasTable, hasWant int
	p.mapping(v, map[string]func(*yaml.Node){
		"table":       func(n *yaml.Node) { c.table = p.selector(n); hasTable++ },
		"row":         func(n *yaml.Node) { c.row = p.integer(n) },
		"col":         func(n *yaml.Node) { c.col = p.integer(n) },
		"equals":      func(n *yaml.Node) { c.want, c.equals = p.str(n), true; hasWant++ },
		"contains":    func(n *yaml.Node) { c.want = p.str(n); hasWant++ },
		"ignore_case": func(n *yaml.Node) { c.ignoreCase = p.boolean(n) },
	})
	if v.Kind == yaml.MappingNode && (hasTable == 0 || c.row < 0 || c.col < 0 || hasWant != 1) {
		p.errAt(v, "table_cell needs table, row and col (0-based) and one of equals and contains")
	}
	return c
}

func (c *cellCheck) describe() string {
	op := "contains"
	if c.equals {
		op = "equals"
	}
	return fmt.Sprintf("row %d col %d of %s %s %q", c.row, c.col, c.table, op, c.want)
}

func (c *cellCheck) eval(e *env) []Failure {
	l, f := tableOf(e, c.table)
	if f != nil {
		return []Failure{*f}
	}
	cell := cellAt(l.node, c.row, c.col)
	if cell == nil {
		return []Failure{l.failure("has no cell at row %d, col %d (%d rows x %d columns; merged cells start at their top-left)", c.row, c.col, len(l.node.Table.Rows), len(l.node.Table.Columns))}
	}
	got, want := normText(cell.Characters, c.ignoreCase), normText(c.want, c.ignoreCase)
	if (c.equals && got == want) || (!c.equals && strings.Contains(got, want)) {
		return nil
	}
	op := "contain"
	if c.equals {
		op = "equal"
	}
	cl := located{node: cell, slide: l.slide, index: l.index}
	return []Failure{cl.failure("cell (row %d, col %d) reads %s, want it to %s %q", c.row, c.col, quoteShort(cell.Characters), op, c.want)}
}

// orderCheck is table_column_order: the body rows (below header_rows,
// default 1) are sorted by one column. numeric reads "$1,200", "-7.9%",
// "(300)" as numbers; text compares case-insensitively.
//
//	table_column_order: {table: {slide: 5, type: TABLE}, col: 1, order: desc, numeric: true}
type orderCheck struct {
	table      Selector
	col        int
	desc       bool
	numeric    bool
	headerRows int
}

func parseColumnOrder(p *parser, v *yaml.Node) checker {
	c := &orderCheck{col: -1, headerRows: 1}
	var hasTable, hasOrder bool
	p.mapping(v, map[string]func(*yaml.Node){
		"table": func(n *yaml.Node) { c.table = p.selector(n); hasTable = true },
		"col":   func(n *yaml.Node) { c.col = p.integer(n) },
		"order": func(n *yaml.Node) {
			hasOrder = true
			switch p.str(n) {
			case "asc":
			case "desc":
				c.desc = true
			default:
				p.errAt(n, "order is asc or desc")
			}
		},
		"numeric": func(n *yaml.Node) { c.numeric = p.boolean(n) },
		"header_rows": func(n *yaml.Node) {
			if c.headerRows = p.integer(n); c.headerRows < 0 {
				p.errAt(n, "header_rows is 0 or more")
			}
		},
	})
	if v.Kind == yaml.MappingNode && (!hasTable || c.col < 0 || !hasOrder) {
		p.errAt(v, "table_column_order needs table, col (0-based) and order (asc or desc)")
	}
	return c
}

func (c *orderCheck) describe() string {
	order, kind := "ascending", "text"
	if c.desc {
		order = "descending"
	}
	if c.numeric {
		kind = "numbers"
	}
	return fmt.Sprintf("col %d of %s %s as %s", c.col, c.table, order, kind)
}

// parseNumber reads a table number: currency signs, thousands separators,
// spaces and % are ignored, "(300)" is -300, and "−" is a minus.
func parseNumber(s string) (float64, bool) {
	t := strings.TrimSpace(s)
	neg := false
	if strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")") {
		neg, t = true, t[1:len(t)-1]
	}
	t = strings.NewReplacer("$", "", "€", "", "£", "", "¥", "", ",", "", "%", "", " ", "", "\u00a0", "", "−", "-").Replace(t)
	v, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return 0, false
	}
	if neg {
		v = -v
	}
	return v, true
}

func (c *orderCheck) eval(e *env) []Failure {
	l, f := tableOf(e, c.table)
	if f != nil {
		return []Failure{*f}
	}
	rows := len(l.node.Table.Rows)
	if c.col >= len(l.node.Table.Columns) {
		return []Failure{l.failure("has %d columns, no col %d", len(l.node.Table.Columns), c.col)}
	}
	if rows-c.headerRows < 2 {
		return []Failure{l.failure("has %d body rows: nothing to order", rows-c.headerRows)}
	}
	type val struct {
		row  int
		text string
		num  float64
	}
	var vals []val
	for r := c.headerRows; r < rows; r++ {
		cell := cellAt(l.node, r, c.col)
		if cell == nil {
			return []Failure{l.failure("has no cell at row %d, col %d", r, c.col)}
		}
		v := val{row: r, text: normText(cell.Characters, true)}
		if c.numeric {
			n, ok := parseNumber(cell.Characters)
			if !ok {
				cl := located{node: cell, slide: l.slide, index: l.index}
				return []Failure{cl.failure("cell (row %d, col %d) %s is not a number", r, c.col, quoteShort(cell.Characters))}
			}
			v.num = n
		}
		vals = append(vals, v)
	}
	var out []Failure
	for i := 1; i < len(vals); i++ {
		a, b := vals[i-1], vals[i]
		var cmp int
		if c.numeric {
			switch {
			case a.num < b.num:
				cmp = -1
			case a.num > b.num:
				cmp = 1
			}
		} else {
			cmp = strings.Compare(a.text, b.text)
		}
		if (c.desc && cmp < 0) || (!c.desc && cmp > 0) {
			out = append(out, l.failure("rows %d and %d of col %d are out of %s order: %q before %q", a.row, b.row, c.col, map[bool]string{true: "descending", false: "ascending"}[c.desc], a.text, b.text))
		}
	}
	return out
}
