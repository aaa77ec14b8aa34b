package pptx

import "testing"

func TestChartFormulas(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string // cellArea.String(), "" for an error
		n    int
	}{
		{"Sheet1!$B$2:$B$5", "Sheet1!$B$2:$B$5", 4},
		{"Sheet1!$B$1", "Sheet1!$B$1", 1},
		{"Sheet1!$B$1:$D$1", "Sheet1!$B$1:$D$1", 3},
		{"'My data'!B5:B2", "'My data'!B2:B5", 4},
		{"'It''s'!$A$1", "'It''s'!$A$1", 1},
		{"Sheet1!$A$2:$B$5", "Sheet1!$A$2:$B$5", 8},
		{"$B$2:$B$5", "", 0},
		{"(Sheet1!$A$1,Sheet1!$A$3)", "", 0},
		{"[1]Sheet1!$A$1", "", 0},
		{"Sheet1!$XFE$1", "", 0},
		{"'Open!$A$1", "", 0},
		{"Table13[Series 2]", "", 0},
	} {
		a, err := parseCellArea(c.in)
		if c.want == "" {
			if err == nil {
				t.Errorf("%q: parsed as %s, want an error", c.in, a)
			}
			continue
		}
		if err != nil || a.String() != c.want || a.count() != c.n || len(a.cells()) != c.n {
			t.Errorf("%q: %s (%d cells) %v, want %s (%d)", c.in, a, a.count(), err, c.want, c.n)
		}
	}
	for _, c := range []struct {
		in                  string
		table, column, item string
	}{
		{"Table13[Series 2]", "Table13", "Series 2", "#Data"},
		{"Table13[[#Headers],[Series 2]]", "Table13", "Series 2", "#Headers"},
		{"Table1[[X-Values]]", "Table1", "X-Values", "#Data"},
		{"T[Sales '[EUR']]", "T", "Sales [EUR]", "#Data"},
		{"T[[#Totals],[A]]", "", "", ""},
		{"T[[A]:[B]]", "", "", ""},
		{"Sheet1!$A$1", "", "", ""},
	} {
		r, err := parseStructRef(c.in)
		if c.table == "" {
			if err == nil {
				t.Errorf("%q: parsed as %+v, want an error", c.in, r)
			}
			continue
		}
		if err != nil || r.table != c.table || r.column != c.column || r.item != c.item {
			t.Errorf("%q: %+v %v", c.in, r, err)
		}
	}
	a, _ := parseCellArea("Sheet1!$B$2:$B$5")
	if b, ok := a.resized(6, true); !ok || b.String() != "Sheet1!$B$2:$B$7" {
		t.Errorf("resized: %s", b)
	}
	if b, ok := a.shifted(1, 0); !ok || b.String() != "Sheet1!$C$2:$C$5" {
		t.Errorf("shifted: %s", b)
	}
	if _, ok := a.resized(maxCellRow, true); ok {
		t.Error("a range past the last row was allowed")
	}
}

// FuzzChartFormula: the chart formula parsers never panic, and a parsed
// range written back parses to the same cells.
func FuzzChartFormula(f *testing.F) {
	for _, s := range []string{"Sheet1!$B$2:$B$5", "'My data'!B5:B2", "'It''s'!$A$1", "Table13[[#Headers],[Series 2]]", "T[Sales '[EUR']]", "(Sheet1!$A$1,Sheet1!$A$3)", "Sheet1!$XFD$1048576"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		parseStructRef(s)
		a, err := parseCellArea(s)
		if err != nil {
			return
		}
		if a.col1 < 1 || a.row1 < 1 || a.col2 > maxCellCol || a.row2 > maxCellRow || a.col1 > a.col2 || a.row1 > a.row2 {
			t.Fatalf("%q parsed to an area off the sheet: %+v", s, a)
		}
		b, err := parseCellArea(a.String())
		if err != nil || b.sheet != a.sheet || b.col1 != a.col1 || b.row1 != a.row1 || b.col2 != a.col2 || b.row2 != a.row2 {
			t.Fatalf("%q -> %s -> %+v (%v), want %+v", s, a, b, err, a)
		}
	})
}
