package pptx

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"
)

// workbookEdit is what an edited chart changes in its embedded workbook
// (the .xlsx its c:externalData relates to): cells to set and to clear,
// and each formula's area before and after the edit, so the sheet's
// tables follow the data as PowerPoint's "Edit Data" keeps them.
type workbookEdit struct {
	sets   []cellSet
	clears []cellPos
	moves  []areaMove
}

type cellPos struct {
	sheet    string
	col, row int
}

// cellSet is one cell's new value: a number, or text.
type cellSet struct {
	cellPos
	text   string
	number float64
	isNum  bool
}

// areaMove is a formula's area before and after the edit.
type areaMove struct{ before, after cellArea }

func (e *workbookEdit) setText(sheet string, col, row int, s string) {
	e.sets = append(e.sets, cellSet{cellPos: cellPos{sheet, col, row}, text: s})
}

func (e *workbookEdit) setNumber(sheet string, col, row int, v float64) {
	e.sets = append(e.sets, cellSet{cellPos: cellPos{sheet, col, row}, number: v, isNum: true})
}

func (e *workbookEdit) clear(sheet string, col, row int) {
	e.clears = append(e.clears, cellPos{sheet, col, row})
}

// areas records a formula's area before and after the edit.
func (e *workbookEdit) areas(before, after cellArea) {
	e.moves = append(e.moves, areaMove{before, after})
}

func (e *workbookEdit) empty() bool { return len(e.sets) == 0 && len(e.clears) == 0 }

// maxWorkbookBytes bounds an embedded workbook's unzipped size (the same
// bound as one part of the deck).
var maxWorkbookBytes = DefaultLimits.MaxPartBytes

// chartBook is a chart's embedded workbook (.xlsx bytes), opened with
// excelize when first needed: to resolve a formula naming a table column,
// or to write the edit.
type chartBook struct {
	data []byte
	f    *excelize.File
	err  error
}

func (b *chartBook) open() (*excelize.File, error) {
	if b.f == nil && b.err == nil {
		if b.data == nil {
			b.err = fmt.Errorf("the chart has no embedded workbook")
		} else if b.f, b.err = excelize.OpenReader(bytes.NewReader(b.data), excelize.Options{UnzipSizeLimit: maxWorkbookBytes, UnzipXMLSizeLimit: maxWorkbookBytes}); b.err != nil {
			b.err = fmt.Errorf("embedded workbook: %v", b.err)
		}
	}
	return b.f, b.err
}

func (b *chartBook) close() {
	if b.f != nil {
		b.f.Close()
	}
}

// area resolves a chart formula to the cells it names: a plain range
// (parseCellArea), or a table column (parseStructRef) found among the
// workbook's tables by name and header text, marked structured so it is
// never rewritten (the table is resized instead).
func (b *chartBook) area(formula string) (cellArea, error) {
	a, err := parseCellArea(formula)
	if err == nil {
		return a, nil
	}
	r, serr := parseStructRef(formula)
	if serr != nil {
		return cellArea{}, err
	}
	f, err := b.open()
	if err != nil {
		return cellArea{}, err
	}
	for _, sheet := range f.GetSheetList() {
		tables, err := f.GetTables(sheet)
		if err != nil {
			return cellArea{}, fmt.Errorf("embedded workbook: sheet %q: %v", sheet, err)
		}
		for _, t := range tables {
			if !strings.EqualFold(t.Name, r.table) {
				continue
			}
			tr, ok := tableRange(sheet, t.Range)
			if !ok {
				return cellArea{}, fmt.Errorf("embedded workbook: table %s has range %q", t.Name, t.Range)
			}
			for c := tr.col1; c <= tr.col2; c++ {
				h, _ := f.GetCellValue(sheet, cellName(c, tr.row1), excelize.Options{RawCellValue: true})
				if !strings.EqualFold(h, r.column) {
					continue
				}
				a := cellArea{sheet: sheet, col1: c, col2: c, row1: tr.row1 + 1, row2: tr.row2, structured: true}
				switch strings.ToLower(r.item) {
				case "#headers":
					a.row1, a.row2 = tr.row1, tr.row1
				case "#all":
					a.row1 = tr.row1
				}
				if a.row2 < a.row1 {
					return cellArea{}, fmt.Errorf("table %s has no data rows", t.Name)
				}
				return a, nil
			}
			return cellArea{}, fmt.Errorf("embedded workbook: table %s has no column %q", t.Name, r.column)
		}
	}
	return cellArea{}, fmt.Errorf("embedded workbook has no table %q", r.table)
}

// tableRange reads a table's ref ("A1:D5") as an area of sheet.
func tableRange(sheet, ref string) (cellArea, bool) {
	first, last, ok := strings.Cut(ref, ":")
	if !ok {
		return cellArea{}, false
	}
	c1, r1, err1 := parseCell(first)
	c2, r2, err2 := parseCell(last)
	if err1 != nil || err2 != nil {
		return cellArea{}, false
	}
	return cellArea{sheet: sheet, col1: min(c1, c2), row1: min(r1, r2), col2: max(c1, c2), row2: max(r1, r2)}, true
}

// applyWorkbook writes the edit into the embedded workbook with excelize
// and returns the new .xlsx. Cells that already hold their value are not
// written, and when every cell does, changed is false and the workbook is
// kept byte for byte. Other cells, sheets, styles and parts are kept (as
// excelize re-serialises them). A table (ListObject) whose range was the
// data block of the chart's formulas inside it is resized with the data,
// and a table whose header row changed is rebuilt so its column names
// match the header cells, as Excel requires (ECMA-376 Part 1 §18.5).
// Errors: an unreadable workbook or a formula naming a sheet the workbook
// does not have.
func applyWorkbook(b *chartBook, e *workbookEdit) (out []byte, changed bool, err error) {
	if e.empty() {
		return nil, false, nil
	}
	f, err := b.open()
	if err != nil {
		return nil, false, err
	}
	sheets := map[string]bool{}
	for _, s := range f.GetSheetList() {
		sheets[s] = true
	}
	var texts []cellPos // cells given text: a table header may have changed
	for _, c := range e.clears {
		if !sheets[c.sheet] {
			return nil, false, fmt.Errorf("embedded workbook has no sheet %q (named by the chart's formulas)", c.sheet)
		}
		raw, err := f.GetCellValue(c.sheet, cellName(c.col, c.row), excelize.Options{RawCellValue: true})
		if err != nil {
			return nil, false, err
		}
		if raw == "" {
			continue
		}
		if err := f.SetCellValue(c.sheet, cellName(c.col, c.row), nil); err != nil {
			return nil, false, err
		}
		changed = true
		texts = append(texts, c)
	}
	for _, c := range e.sets {
		if !sheets[c.sheet] {
			return nil, false, fmt.Errorf("embedded workbook has no sheet %q (named by the chart's formulas)", c.sheet)
		}
		cell := cellName(c.col, c.row)
		raw, err := f.GetCellValue(c.sheet, cell, excelize.Options{RawCellValue: true})
		if err != nil {
			return nil, false, err
		}
		if c.isNum {
			if v, err := strconv.ParseFloat(strings.TrimSpace(raw), 64); err == nil && sameNumber(v, c.number) {
				continue
			}
			err = f.SetCellFloat(c.sheet, cell, c.number, -1, 64)
		} else {
			if raw == c.text {
				continue
			}
			err = f.SetCellStr(c.sheet, cell, c.text)
			texts = append(texts, c.cellPos)
		}
		if err != nil {
			return nil, false, err
		}
		changed = true
	}
	moved := false
	for _, m := range e.moves {
		moved = moved || m.before != m.after
	}
	if !changed && !moved {
		return nil, false, nil
	}
	for _, sheet := range f.GetSheetList() {
		if err := syncTables(f, sheet, e.moves, texts); err != nil {
			return nil, false, err
		}
	}
	buf, err := f.WriteToBuffer()
	if err != nil {
		return nil, false, fmt.Errorf("embedded workbook: %v", err)
	}
	return buf.Bytes(), true, nil
}

// sameNumber compares a workbook's stored double with the chart's value
// (cached values are written with 15-17 significant digits).
func sameNumber(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b))
}

// inside reports whether area a lies within area t of the same sheet.
func (a cellArea) inside(t cellArea) bool {
	return a.sheet == t.sheet && a.col1 >= t.col1 && a.col2 <= t.col2 && a.row1 >= t.row1 && a.row2 <= t.row2
}

// syncTables resizes each table of the sheet whose range was exactly the
// block of the chart's areas inside it (PowerPoint's own layout) to the
// block after the edit, and rebuilds a table whose header text changed so
// its column names follow the cells.
func syncTables(f *excelize.File, sheet string, moves []areaMove, texts []cellPos) error {
	tables, err := f.GetTables(sheet)
	if err != nil {
		return fmt.Errorf("embedded workbook: sheet %q: %v", sheet, err)
	}
	for _, t := range tables {
		tr, ok := tableRange(sheet, t.Range)
		if !ok {
			continue
		}
		header := false
		for _, c := range texts {
			header = header || (c.sheet == sheet && c.row == tr.row1 && c.col >= tr.col1 && c.col <= tr.col2)
		}
		var before, after, added []cellArea
		for _, m := range moves {
			if m.before.inside(tr) {
				before = append(before, m.before)
				if m.after.sheet != "" {
					after = append(after, m.after)
				}
			} else if m.before.sheet == "" && m.after.sheet == sheet {
				added = append(added, m.after)
			}
		}
		rng := t.Range
		if bb := bbox(before); len(before) > 0 && bb.col1 == tr.col1 && bb.row1 == tr.row1 && bb.col2 == tr.col2 && bb.row2 == tr.row2 {
			na := bbox(append(after, added...))
			rng = cellName(na.col1, na.row1) + ":" + cellName(na.col2, na.row2)
		}
		if rng == t.Range && !header {
			continue
		}
		nt := excelize.Table{Range: rng, Name: t.Name, StyleName: t.StyleName, ShowColumnStripes: t.ShowColumnStripes,
			ShowFirstColumn: t.ShowFirstColumn, ShowHeaderRow: t.ShowHeaderRow, ShowLastColumn: t.ShowLastColumn, ShowRowStripes: t.ShowRowStripes}
		if nt.ShowRowStripes == nil {
			on := true
			nt.ShowRowStripes = &on
		}
		if err := f.DeleteTable(t.Name); err != nil {
			return fmt.Errorf("embedded workbook: table %s: %v", t.Name, err)
		}
		if err := f.AddTable(sheet, &nt); err != nil {
			return fmt.Errorf("embedded workbook: table %s: %v", t.Name, err)
		}
	}
	return nil
}

// bbox is the smallest area holding every area given (zero when none).
func bbox(as []cellArea) cellArea {
	var b cellArea
	for i, a := range as {
		if i == 0 {
			b = cellArea{sheet: a.sheet, col1: a.col1, row1: a.row1, col2: a.col2, row2: a.row2}
			continue
		}
		b.col1, b.row1 = min(b.col1, a.col1), min(b.row1, a.row1)
		b.col2, b.row2 = max(b.col2, a.col2), max(b.row2, a.row2)
	}
	return b
}
