package pptx

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"
)

// cellArea is the workbook range a chart formula (c:f, ECMA-376 Part 1
// §21.2) names: one sheet and a rectangle of cells, columns and rows
// counted from 1 ("Sheet1!$B$2:$B$5" is sheet "Sheet1", column 2, rows 2
// to 5).
type cellArea struct {
	sheet          string
	col1, row1     int
	col2, row2     int
	quoted, dollar bool // how the formula was written, kept when rewritten
	// structured: the formula names a table column (structRef); it is
	// never rewritten, the table is resized instead.
	structured bool
}

// maxCellCol and maxCellRow are the largest column and row of a worksheet
// (XFD and 1048576, as excelize bounds them).
const (
	maxCellCol = 16384
	maxCellRow = 1048576
)

// parseCellArea reads a chart formula that names one rectangle of one
// sheet: Sheet1!$A$2:$A$5, 'My data'!B1, Sheet1!$B$1:$D$1. Defined
// names, unions ("(Sheet1!$A$1,Sheet1!$A$3)") and references to other
// workbooks are errors: export then keeps the formula and leaves the
// workbook unchanged.
func parseCellArea(f string) (cellArea, error) {
	var a cellArea
	s := strings.TrimSpace(f)
	bang := strings.LastIndexByte(s, '!')
	if bang <= 0 {
		return a, fmt.Errorf("formula %q names no sheet", f)
	}
	sheet, ref := s[:bang], s[bang+1:]
	if strings.HasPrefix(sheet, "'") {
		if len(sheet) < 3 || !strings.HasSuffix(sheet, "'") {
			return a, fmt.Errorf("formula %q: unbalanced quotes around the sheet name", f)
		}
		inner := sheet[1 : len(sheet)-1]
		if strings.Count(inner, "'")%2 != 0 || strings.Contains(strings.ReplaceAll(inner, "''", ""), "'") {
			return a, fmt.Errorf("formula %q: a quote inside the sheet name is not doubled", f)
		}
		sheet = strings.ReplaceAll(inner, "''", "'")
		a.quoted = true
	} else if strings.ContainsAny(sheet, " '()[],;") {
		return a, fmt.Errorf("formula %q is not a plain range (a union, a function or another workbook)", f)
	}
	if sheet == "" || strings.ContainsAny(sheet, "[]:*?/\\") {
		return a, fmt.Errorf("formula %q: %q is not a worksheet name", f, sheet)
	}
	a.sheet = sheet
	a.dollar = strings.Contains(ref, "$")
	first, second, isRange := strings.Cut(ref, ":")
	var err error
	if a.col1, a.row1, err = parseCell(first); err != nil {
		return a, fmt.Errorf("formula %q: %w", f, err)
	}
	a.col2, a.row2 = a.col1, a.row1
	if isRange {
		if a.col2, a.row2, err = parseCell(second); err != nil {
			return a, fmt.Errorf("formula %q: %w", f, err)
		}
	}
	if a.col2 < a.col1 {
		a.col1, a.col2 = a.col2, a.col1
	}
	if a.row2 < a.row1 {
		a.row1, a.row2 = a.row2, a.row1
	}
	return a, nil
}

// parseCell reads "$B$2" or "B2" into column and row numbers.
func parseCell(s string) (col, row int, err error) {
	c, r, err := excelize.CellNameToCoordinates(strings.ReplaceAll(s, "$", ""))
	if err != nil || strings.Contains(s, "$$") {
		return 0, 0, fmt.Errorf("%q is not a cell", s)
	}
	return c, r, nil
}

// vertical reports whether the area runs down a column (one column, or a
// single cell, which charts fill downwards as PowerPoint lays data out).
func (a cellArea) vertical() bool { return a.col1 == a.col2 }

// count is the number of cells in the area.
func (a cellArea) count() int { return (a.col2 - a.col1 + 1) * (a.row2 - a.row1 + 1) }

// cells lists the area's cells in reading order (down a column, or along
// a row; a block row by row).
func (a cellArea) cells() [][2]int {
	var out [][2]int
	if a.vertical() {
		for r := a.row1; r <= a.row2; r++ {
			out = append(out, [2]int{a.col1, r})
		}
		return out
	}
	for r := a.row1; r <= a.row2; r++ {
		for c := a.col1; c <= a.col2; c++ {
			out = append(out, [2]int{c, r})
		}
	}
	return out
}

// resized returns the area of n cells (n >= 1) starting at the same first
// cell and running the same way (down unless the area is a row of several
// cells); ok is false when it would leave the sheet.
func (a cellArea) resized(n int, down bool) (cellArea, bool) {
	b := a
	if down {
		b.col2, b.row2 = a.col1, a.row1+n-1
	} else {
		b.col2, b.row2 = a.col1+n-1, a.row1
	}
	return b, b.row2 <= maxCellRow && b.col2 <= maxCellCol
}

// shifted moves the area by dc columns and dr rows; ok is false when it
// would leave the sheet.
func (a cellArea) shifted(dc, dr int) (cellArea, bool) {
	b := a
	b.col1, b.col2, b.row1, b.row2 = a.col1+dc, a.col2+dc, a.row1+dr, a.row2+dr
	return b, b.col1 >= 1 && b.row1 >= 1 && b.row2 <= maxCellRow && b.col2 <= maxCellCol
}

// String writes the area as a chart formula, quoting the sheet name when
// it needs quotes and using $ as the original did.
func (a cellArea) String() string {
	sheet := a.sheet
	if a.quoted || strings.ContainsAny(sheet, " '!-+()&,;{}%^~`@#=<>") || (sheet != "" && sheet[0] >= '0' && sheet[0] <= '9') {
		sheet = "'" + strings.ReplaceAll(sheet, "'", "''") + "'"
	}
	ref := a.cellName(a.col1, a.row1)
	if a.col2 != a.col1 || a.row2 != a.row1 {
		ref += ":" + a.cellName(a.col2, a.row2)
	}
	return sheet + "!" + ref
}

func (a cellArea) cellName(col, row int) string {
	name, _ := excelize.ColumnNumberToName(col)
	if a.dollar {
		return "$" + name + "$" + strconv.Itoa(row)
	}
	return name + strconv.Itoa(row)
}

// cell returns the plain name ("B2") of a cell for excelize.
func cellName(col, row int) string {
	name, _ := excelize.CoordinatesToCellName(col, row)
	return name
}

// structRef is a structured reference to one column of a workbook table
// (ECMA-376 Part 1 §18.17, as charts over Excel tables store them):
// "Table13[Series 2]" is the column's data, "Table13[[#Headers],[Series
// 2]]" its header cell.
type structRef struct {
	table, column string
	item          string // "#Data" (default), "#Headers" or "#All"
}

// parseStructRef reads Table[Column], Table[[Column]] and
// Table[[#Item],[Column]]; a ' escapes the next character of a column
// name. Other forms (column ranges, #This Row, #Totals) are errors.
func parseStructRef(f string) (structRef, error) {
	var r structRef
	s := strings.TrimSpace(f)
	open := strings.IndexByte(s, '[')
	if open <= 0 || !strings.HasSuffix(s, "]") {
		return r, fmt.Errorf("formula %q is not a table column reference", f)
	}
	r.table = s[:open]
	if strings.ContainsAny(r.table, " !'[]()") {
		return r, fmt.Errorf("formula %q: %q is not a table name", f, r.table)
	}
	body := s[open+1 : len(s)-1]
	var parts []string
	if strings.HasPrefix(body, "[") {
		for len(body) > 0 {
			if body[0] != '[' {
				return r, fmt.Errorf("formula %q: expected [ at %q", f, body)
			}
			name, rest, err := bracketed(body[1:])
			if err != nil {
				return r, fmt.Errorf("formula %q: %w", f, err)
			}
			parts = append(parts, name)
			body = strings.TrimPrefix(strings.TrimLeft(rest, " "), ",")
			body = strings.TrimLeft(body, " ")
		}
	} else {
		name, rest, err := bracketed(body + "]")
		if err != nil || rest != "" {
			return r, fmt.Errorf("formula %q is not a table column reference", f)
		}
		parts = []string{name}
	}
	r.item = "#Data"
	switch {
	case len(parts) == 1 && !strings.HasPrefix(parts[0], "#"):
		r.column = parts[0]
	case len(parts) == 2 && strings.HasPrefix(parts[0], "#") && !strings.HasPrefix(parts[1], "#"):
		r.item, r.column = parts[0], parts[1]
		if !strings.EqualFold(r.item, "#Headers") && !strings.EqualFold(r.item, "#Data") && !strings.EqualFold(r.item, "#All") {
			return r, fmt.Errorf("formula %q: %s is not supported", f, r.item)
		}
	default:
		return r, fmt.Errorf("formula %q names more than one table column", f)
	}
	if r.column == "" {
		return r, fmt.Errorf("formula %q names no column", f)
	}
	return r, nil
}

// bracketed reads a column name up to its closing ], honouring ' escapes,
// and returns the name and what follows the ].
func bracketed(s string) (name, rest string, err error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'':
			if i+1 >= len(s) {
				return "", "", fmt.Errorf("a ' escapes nothing")
			}
			i++
			b.WriteByte(s[i])
		case '[':
			return "", "", fmt.Errorf("unexpected [ in a column name")
		case ']':
			return b.String(), s[i+1:], nil
		default:
			b.WriteByte(s[i])
		}
	}
	return "", "", fmt.Errorf("a column name is not closed by ]")
}
