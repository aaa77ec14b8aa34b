package pptx

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	sg "github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/internal/tools"
)

// chartFiles are the python-pptx files PowerPoint made that hold charts.
func chartFiles(t *testing.T) []string {
	return append(shareddecks.PythonPPTX(t, "cht-*.pptx"), shareddecks.PythonPPTX(t, "shp-access-chart.pptx")...)
}

// xmlSeries is a chart series as the chart part stores it, read with
// encoding/xml apart from the importer: its name cache and formulas.
type xmlSeries struct {
	TxV     string   `xml:"tx>v"`
	TxCache []string `xml:"tx>strRef>strCache>pt>v"`
	TxF     string   `xml:"tx>strRef>f"`
	CatF    []string `xml:"cat>strRef>f"`
	CatNumF []string `xml:"cat>numRef>f"`
	ValF    string   `xml:"val>numRef>f"`
	XValF   []string `xml:"xVal>numRef>f"`
	YValF   string   `xml:"yVal>numRef>f"`
	CatPts  []xmlPt  `xml:"cat>strRef>strCache>pt"`
	CatNums []xmlPt  `xml:"cat>numRef>numCache>pt"`
	ValPts  []xmlPt  `xml:"val>numRef>numCache>pt"`
	XPts    []xmlPt  `xml:"xVal>numRef>numCache>pt"`
	YPts    []xmlPt  `xml:"yVal>numRef>numCache>pt"`
}

type xmlPt struct {
	Idx int    `xml:"idx,attr"`
	V   string `xml:"v"`
}

// partSeries lists the series of every plot of a chart part.
func partSeries(t *testing.T, data []byte) []xmlSeries {
	t.Helper()
	var cs struct {
		PlotArea struct {
			Plots []struct {
				XMLName xml.Name
				Ser     []xmlSeries `xml:"ser"`
			} `xml:",any"`
		} `xml:"chart>plotArea"`
	}
	if err := xml.Unmarshal(data, &cs); err != nil {
		t.Fatal(err)
	}
	var out []xmlSeries
	for _, p := range cs.PlotArea.Plots {
		if strings.HasSuffix(p.XMLName.Local, "Chart") {
			out = append(out, p.Ser...)
			break // the plot ACE models
		}
	}
	return out
}

// cachedName is the series name PowerPoint shows: the cache, not c:f.
func (s xmlSeries) cachedName() string {
	if s.TxV != "" {
		return s.TxV
	}
	return strings.Join(s.TxCache, " ")
}

// formatCodes lists every number format a chart part stores, sorted: the
// caches' c:formatCode, per-point and axis and label formatCode attributes.
func formatCodes(data []byte) []string {
	var out []string
	dec := xml.NewDecoder(bytes.NewReader(data))
	inFC := false
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch e := tok.(type) {
		case xml.StartElement:
			inFC = e.Name.Local == "formatCode"
			for _, a := range e.Attr {
				if a.Name.Local == "formatCode" {
					out = append(out, map[bool]string{true: "pt", false: e.Name.Local}[e.Name.Local == "pt"]+"@"+a.Value)
				}
			}
		case xml.CharData:
			if inFC {
				out = append(out, "cache:"+string(e))
			}
		case xml.EndElement:
			inFC = false
		}
	}
	sort.Strings(out)
	return out
}

// chartCalls recolours every chart, writes its data back unchanged
// (update_chart_data with the same values) and duplicates every slide.
func chartCalls(t *testing.T, d *sg.Deck) []tools.Call {
	var calls []tools.Call
	for _, s := range d.Slides {
		s.Walk(func(n, _ *sg.Node, _ int) bool {
			if n.Type != sg.TypeChart || n.Chart == nil {
				return true
			}
			calls = append(calls, call(t, "set_series_color", "", map[string]any{"chartId": n.ID, "colors": []string{"#5B2A86", "#F26430", "#2A9D8F"}}))
			ser := []map[string]any{}
			for _, se := range n.Chart.Series {
				ser = append(ser, map[string]any{"name": se.Name, "values": se.Values})
			}
			calls = append(calls, call(t, "update_chart_data", "", map[string]any{"chartId": n.ID, "categories": n.Chart.Categories, "series": ser}))
			return true
		})
	}
	for _, s := range d.Slides {
		calls = append(calls, call(t, "duplicate_slide", "", map[string]any{"slideId": s.ID, "index": len(d.Slides) + len(calls)}))
	}
	return calls
}

// chartParts lists the chart parts of a slide's charts in tree order.
func chartParts(s *sg.Node) []string {
	var out []string
	s.Walk(func(n, _ *sg.Node, _ int) bool {
		if n.Type == sg.TypeChart && n.Chart != nil {
			out = append(out, n.Chart.Part)
		}
		return true
	})
	return out
}

func relsIn(t *testing.T, b []byte) []rel {
	var doc struct {
		Rels []struct {
			ID     string `xml:"Id,attr"`
			Type   string `xml:"Type,attr"`
			Target string `xml:"Target,attr"`
			Mode   string `xml:"TargetMode,attr"`
		} `xml:"Relationship"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var out []rel
	for _, r := range doc.Rels {
		out = append(out, rel{ID: r.ID, Type: r.Type, Target: r.Target, External: r.Mode == "External"})
	}
	return out
}

// chartWorkbook returns the embedded workbook part of a chart part in an
// exported package ("" when the chart has none).
func chartWorkbook(t *testing.T, parts map[string][]byte, chart string) string {
	for _, r := range relsIn(t, parts[relsPart(chart)]) {
		if r.Type == relPackage {
			return resolveTarget(chart, r.Target)
		}
	}
	return ""
}

// checkWorkbookMatches opens a chart's workbook with excelize and checks
// that every cell its formulas name holds the cached name, category or
// value.
func checkWorkbookMatches(t *testing.T, label string, xlsx, chartXML []byte) {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(xlsx))
	if err != nil {
		t.Fatalf("%s: workbook does not open: %v", label, err)
	}
	defer f.Close()
	book := &chartBook{data: xlsx}
	defer book.close()
	cell := func(formula string, i int) (string, bool) {
		a, err := book.area(formula)
		if err != nil {
			t.Errorf("%s: formula %q: %v", label, formula, err)
			return "", false
		}
		cells := a.cells()
		if i >= len(cells) {
			t.Errorf("%s: formula %q has %d cells, point %d asked", label, formula, len(cells), i)
			return "", false
		}
		v, err := f.GetCellValue(a.sheet, cellName(cells[i][0], cells[i][1]), excelize.Options{RawCellValue: true})
		if err != nil {
			t.Errorf("%s: %s: %v", label, formula, err)
			return "", false
		}
		return v, true
	}
	num := func(formula string, pts []xmlPt) {
		for _, p := range pts {
			got, ok := cell(formula, p.Idx)
			if !ok {
				continue
			}
			a, err1 := strconv.ParseFloat(got, 64)
			b, err2 := strconv.ParseFloat(p.V, 64)
			if err1 != nil || err2 != nil || !sameNumber(a, b) {
				t.Errorf("%s: %s point %d: workbook holds %q, chart cache %q", label, formula, p.Idx, got, p.V)
			}
		}
	}
	for _, s := range partSeries(t, chartXML) {
		if s.TxF != "" {
			if got, ok := cell(s.TxF, 0); ok && got != s.cachedName() {
				t.Errorf("%s: series name cell %s holds %q, the chart shows %q", label, s.TxF, got, s.cachedName())
			}
		}
		for _, f := range s.CatF {
			for _, p := range s.CatPts {
				if got, ok := cell(f, p.Idx); ok && got != p.V {
					t.Errorf("%s: category %s point %d: workbook holds %q, chart cache %q", label, f, p.Idx, got, p.V)
				}
			}
		}
		for _, f := range s.CatNumF {
			num(f, s.CatNums)
		}
		for _, f := range s.XValF {
			num(f, s.XPts)
		}
		if s.ValF != "" {
			num(s.ValF, s.ValPts)
		}
		if s.YValF != "" {
			num(s.YValF, s.YPts)
		}
	}
}

// TestChartsEditedWithoutLoss runs over every python-pptx file with charts
// (PowerPoint-made): recolour each chart, write its data back unchanged,
// duplicate every slide, export and import again. Series names are the
// cached names (never the formula), every number format of every chart
// part is kept (and its copy's), every chart keeps its workbook whose cells
// hold the chart's values, a copy's chart XML, workbook and style parts
// are the original's bytes, parts the edit did not touch are
// byte-identical, and LibreOffice converts each result to PDF.
func TestChartsEditedWithoutLoss(t *testing.T) {
	converted := map[string][]byte{}
	for _, file := range chartFiles(t) {
		name := filepath.Base(file)
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		d, blobs, err := Import(data, name)
		if err != nil {
			t.Fatalf("%s: import: %v", name, err)
		}
		orig := zipParts(t, data)
		charts := 0
		for _, s := range d.Slides {
			s.Walk(func(n, _ *sg.Node, _ int) bool {
				if n.Type != sg.TypeChart || n.Chart == nil {
					return true
				}
				charts++
				ser := partSeries(t, orig[n.Chart.Part])
				if len(ser) != len(n.Chart.Series) {
					t.Errorf("%s: %s: %d series imported, the part has %d", name, n.Chart.Part, len(n.Chart.Series), len(ser))
					return true
				}
				for i, se := range n.Chart.Series {
					if want := ser[i].cachedName(); want != "" && se.Name != want {
						t.Errorf("%s: %s series %d imported as %q, cached name %q", name, n.Chart.Part, i, se.Name, want)
					}
				}
				return true
			})
		}
		if charts == 0 {
			t.Fatalf("%s: no chart imported", name)
		}
		ed, _, err := tools.Apply(d, chartCalls(t, d), tools.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out, warns, err := ExportDetailed(ed, blobs)
		if err != nil {
			t.Fatalf("%s: export: %v", name, err)
		}
		for _, w := range warns {
			if strings.Contains(w.Msg, "chart") {
				t.Errorf("%s: export warned: %s", name, w)
			}
		}
		got := zipParts(t, out)
		back, _, err := Import(out, name)
		if err != nil {
			t.Fatalf("%s: the export does not import: %v", name, err)
		}
		if len(back.Slides) != 2*len(d.Slides) {
			t.Fatalf("%s: %d slides after duplicating %d", name, len(back.Slides), len(d.Slides))
		}
		// Untouched parts: everything but the recoloured chart parts and
		// the parts that list slides.
		for p, b := range orig {
			g, ok := got[p]
			switch {
			case !ok:
				t.Errorf("%s: part %s lost", name, p)
			case bytes.Equal(b, g):
			case strings.HasPrefix(p, "ppt/charts/chart") || p == "[Content_Types].xml" || p == "ppt/presentation.xml" || p == "ppt/_rels/presentation.xml.rels" || p == "docProps/app.xml":
			default:
				t.Errorf("%s: part %s changed though the edit did not touch it", name, p)
			}
		}
		// Every chart, original and copy: names, formats, workbook.
		for i, s := range d.Slides {
			op := s.Source.Part
			dup := back.Slides[len(d.Slides)+i].Source.Part
			before, after := chartParts(back.Slides[i]), chartParts(back.Slides[len(d.Slides)+i])
			if len(after) != len(before) || len(before) != len(chartParts(s)) {
				t.Errorf("%s: slide %s shows %d charts, its copy %s %d", name, op, len(before), dup, len(after))
				continue
			}
			for k, cp := range before {
				copyPart := after[k]
				if copyPart == cp {
					t.Errorf("%s: the copy of %s shares its chart part %s", name, op, cp)
				}
				want := formatCodes(orig[cp])
				for _, p := range []string{cp, copyPart} {
					if g := formatCodes(got[p]); !slices.Equal(g, want) {
						t.Errorf("%s: %s: number formats %v, the original %s has %v", name, p, g, cp, want)
					}
					for j, se := range partSeries(t, got[p]) {
						if strings.Contains(se.cachedName(), "!$") {
							t.Errorf("%s: %s series %d named %q", name, p, j, se.cachedName())
						}
					}
				}
				if !bytes.Equal(got[copyPart], got[cp]) {
					t.Errorf("%s: the copy %s of %s differs from it after the same edit", name, copyPart, cp)
				}
				owb, cwb := chartWorkbook(t, orig, cp), chartWorkbook(t, got, copyPart)
				if owb == "" {
					continue
				}
				if cwb == "" || cwb == owb || got[cwb] == nil {
					t.Errorf("%s: the copy %s has workbook %q (original %s)", name, copyPart, cwb, owb)
					continue
				}
				if !bytes.Equal(got[cwb], orig[owb]) || !bytes.Equal(got[owb], orig[owb]) {
					t.Errorf("%s: workbook %s or its copy %s changed though the values did not", name, owb, cwb)
				}
				checkWorkbookMatches(t, name+" "+cp, got[owb], got[cp])
				checkWorkbookMatches(t, name+" "+copyPart, got[cwb], got[copyPart])
				for _, r := range relsIn(t, orig[relsPart(cp)]) {
					if r.External || r.Type == relPackage {
						continue
					}
					o := resolveTarget(cp, r.Target)
					for _, c := range relsIn(t, got[relsPart(copyPart)]) {
						if c.ID == r.ID && !bytes.Equal(got[resolveTarget(copyPart, c.Target)], orig[o]) {
							t.Errorf("%s: %s copied as %s with other bytes", name, o, c.Target)
						}
					}
				}
			}
		}
		for _, s := range back.Slides {
			s.Walk(func(n, _ *sg.Node, _ int) bool {
				if n.Type == sg.TypeChart && n.Chart != nil {
					for _, se := range n.Chart.Series {
						if strings.Contains(se.Name, "!$") {
							t.Errorf("%s: re-imported series %q", name, se.Name)
						}
					}
				}
				return true
			})
		}
		converted[name] = out
	}
	if testing.Short() {
		return
	}
	pages := convertToPDF(t, converted)
	for name := range converted {
		if pages[name] == 0 {
			t.Errorf("%s: LibreOffice made a PDF of no pages", name)
		}
	}
}

// chartNode returns the chart node showing chart part part.
func chartNode(t *testing.T, d *sg.Deck, part string) *sg.Node {
	t.Helper()
	var out *sg.Node
	d.Walk(func(n, _ *sg.Node, _ int) bool {
		if out == nil && n.Type == sg.TypeChart && n.Chart != nil && n.Chart.Part == part {
			out = n
		}
		return out == nil
	})
	if out == nil {
		t.Fatalf("no chart shows %s", part)
	}
	return out
}

// cellValues reads cells of a workbook with excelize (raw values).
func cellValues(t *testing.T, xlsx []byte, sheet string, cells ...string) []string {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(xlsx))
	if err != nil {
		t.Fatalf("workbook does not open: %v", err)
	}
	defer f.Close()
	var out []string
	for _, c := range cells {
		v, err := f.GetCellValue(sheet, c, excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// TestUpdateChartDataWritesWorkbook: new values given to update_chart_data
// reach the embedded workbook (read back with excelize) in the cells the
// chart's formulas name, the cache keeps its number formats (a per-point
// formatCode included), and the other cells of the sheet are kept.
func TestUpdateChartDataWritesWorkbook(t *testing.T) {
	file := shareddecks.PythonPPTX(t, "cht-series.pptx")[0]
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	d, blobs, err := Import(data, "cht-series.pptx")
	if err != nil {
		t.Fatal(err)
	}
	const part = "ppt/charts/chart4.xml"
	n := chartNode(t, d, part)
	ed, _, err := tools.Apply(d, []tools.Call{call(t, "update_chart_data", "", map[string]any{"chartId": n.ID, "set": []map[string]any{
		{"series": "Series 3", "category": "Foo", "value": 10}, {"series": "Series 3", "category": "Baz", "value": 30.25}, {"series": "Series 1", "category": "Bar", "value": -2.5},
	}})}, tools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := Export(ed, blobs)
	if err != nil {
		t.Fatal(err)
	}
	orig, got := zipParts(t, data), zipParts(t, out)
	wb := chartWorkbook(t, got, part)
	if wb == "" || bytes.Equal(got[wb], orig[wb]) {
		t.Fatalf("workbook %q not updated", wb)
	}
	if v := cellValues(t, got[wb], "Sheet1", "D2", "D3", "D4", "B3", "B1", "D1", "A4"); !slices.Equal(v, []string{"10", "8.9", "30.25", "-2.5", "Series 1", "Series 3", "Baz"}) {
		t.Errorf("workbook cells D2 D3 D4 B3 B1 D1 A4 = %q", v)
	}
	checkWorkbookMatches(t, part, got[wb], got[part])
	if g, w := formatCodes(got[part]), formatCodes(orig[part]); !slices.Equal(g, w) {
		t.Errorf("number formats %v, were %v", g, w)
	}
	if !bytes.Contains(got[part], []byte(`<c:pt idx="2" formatCode="0.0"><c:v>30.25</c:v></c:pt>`)) {
		t.Errorf("the point with its own number format lost it or its value:\n%s", got[part])
	}
	// Series 2 has a gap at Bar (no cached point, an empty cell): editing
	// its other values keeps the gap, in the cache and the workbook.
	ed2, _, err := tools.Apply(d, []tools.Call{call(t, "update_chart_data", "", map[string]any{"chartId": n.ID, "set": []map[string]any{{"series": "Series 2", "category": "Baz", "value": 7}}})}, tools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out2, err := Export(ed2, blobs)
	if err != nil {
		t.Fatal(err)
	}
	got2 := zipParts(t, out2)
	s2 := partSeries(t, got2[part])[1]
	if len(s2.ValPts) != 2 || s2.ValPts[0].Idx != 0 || s2.ValPts[1].Idx != 2 || s2.ValPts[1].V != "7" {
		t.Errorf("series 2 points after the edit %+v, want idx 0 and 2 (the gap at 1 kept)", s2.ValPts)
	}
	if v := cellValues(t, got2[wb], "Sheet1", "C2", "C3", "C4"); !slices.Equal(v, []string{"4.5", "", "7"}) {
		t.Errorf("workbook C2:C4 = %q, want the gap kept", v)
	}
	back, _, err := Import(out, "x.pptx")
	if err != nil {
		t.Fatal(err)
	}
	if s := chartNode(t, back, part).Chart.Series[2]; !slices.Equal(s.Values, []float64{10, 8.9, 30.25}) || s.Name != "Series 3" {
		t.Errorf("re-imported series 3: %+v", s)
	}
}

// TestChartDataResizedInWorkbook: a category and a series added and a
// series renamed move the chart's formulas (one more row, one more
// column), write the workbook there, grow the sheet's table over them
// with column names that match the header cells, and keep a series'
// number format ("0.0%" set in the scene graph stays 0.0% through the
// data change).
func TestChartDataResizedInWorkbook(t *testing.T) {
	file := shareddecks.PythonPPTX(t, "cht-charts.pptx")[0]
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	d, blobs, err := Import(data, "cht-charts.pptx")
	if err != nil {
		t.Fatal(err)
	}
	const part = "ppt/charts/chart1.xml"
	n := chartNode(t, d, part)
	n.Chart.Series[0].FormatCode = "0.0%"
	ed, _, err := tools.Apply(d, []tools.Call{call(t, "update_chart_data", "", map[string]any{"chartId": n.ID,
		"categories": []string{"Q1", "Q2", "Q3", "Q4", "Q5"},
		"series": []map[string]any{
			{"name": "Revenue", "values": []float64{0.16, 0.25, 0.5, 0.125, 0.3}},
			{"name": "Series 2", "values": []float64{1, 2, 3, 4, 5}},
			{"name": "Series 3", "values": []float64{5, 4, 3, 2, 1}},
			{"name": "Costs", "values": []float64{9, 8, 7, 6, 5}},
		}})}, tools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, warns, err := ExportDetailed(ed, blobs)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range warns {
		t.Errorf("export warned: %s", w)
	}
	got := zipParts(t, out)
	ser := partSeries(t, got[part])
	if len(ser) != 4 {
		t.Fatalf("%d series written, want 4", len(ser))
	}
	wantF := [][3]string{
		{"Sheet1!$B$1", "Sheet1!$A$2:$A$6", "Sheet1!$B$2:$B$6"},
		{"Sheet1!$C$1", "Sheet1!$A$2:$A$6", "Sheet1!$C$2:$C$6"},
		{"Sheet1!$D$1", "Sheet1!$A$2:$A$6", "Sheet1!$D$2:$D$6"},
		{"Sheet1!$E$1", "Sheet1!$A$2:$A$6", "Sheet1!$E$2:$E$6"},
	}
	for i, s := range ser {
		if g := [3]string{s.TxF, strings.Join(s.CatF, ","), s.ValF}; g != wantF[i] {
			t.Errorf("series %d formulas %q, want %q", i, g, wantF[i])
		}
	}
	if !bytes.Contains(got[part], []byte(`<c:formatCode>0.0%</c:formatCode>`)) {
		t.Errorf("the first series' number format 0.0%% was not written")
	}
	wb := chartWorkbook(t, got, part)
	if v := cellValues(t, got[wb], "Sheet1", "B1", "E1", "A6", "B2", "E6", "B8"); !slices.Equal(v, []string{"Revenue", "Costs", "Q5", "0.16", "5", "To update the chart, enter data into this table. The data is automatically saved in the chart."}) {
		t.Errorf("workbook cells B1 E1 A6 B2 E6 B8 = %q", v)
	}
	checkWorkbookMatches(t, part, got[wb], got[part])
	f, err := excelize.OpenReader(bytes.NewReader(got[wb]))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tables, err := f.GetTables("Sheet1")
	if err != nil || len(tables) != 1 || tables[0].Range != "A1:E6" {
		t.Fatalf("tables %+v (%v), want one over A1:E6", tables, err)
	}
	tx := zipParts(t, got[wb])
	for _, col := range []string{`name="Revenue"`, `name="Costs"`, `name="Series 2"`} {
		if !bytes.Contains(tx["xl/tables/table1.xml"], []byte(col)) {
			t.Errorf("table columns do not follow the header cells (%s missing):\n%s", col, tx["xl/tables/table1.xml"])
		}
	}
	back, blobs2, err := Import(out, "x.pptx")
	if err != nil {
		t.Fatal(err)
	}
	bc := chartNode(t, back, part).Chart
	if len(bc.Series) != 4 || bc.Series[0].Name != "Revenue" || bc.Series[0].FormatCode != "0.0%" || bc.Series[3].Name != "Costs" || !slices.Equal(bc.Categories, []string{"Q1", "Q2", "Q3", "Q4", "Q5"}) {
		t.Errorf("re-imported chart %+v", bc)
	}
	// Shrinking again clears the cells the data left.
	ed2, _, err := tools.Apply(back, []tools.Call{call(t, "update_chart_data", "", map[string]any{"chartId": chartNode(t, back, part).ID,
		"categories": []string{"Q1", "Q2"},
		"series":     []map[string]any{{"name": "Revenue", "values": []float64{1, 2}}},
	})}, tools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out2, err := Export(ed2, blobs2)
	if err != nil {
		t.Fatal(err)
	}
	got2 := zipParts(t, out2)
	if v := cellValues(t, got2[wb], "Sheet1", "B1", "B3", "A4", "C1", "E6"); !slices.Equal(v, []string{"Revenue", "2", "", "", ""}) {
		t.Errorf("after shrinking, cells B1 B3 A4 C1 E6 = %q", v)
	}
	checkWorkbookMatches(t, part, got2[wb], got2[part])
}

// bigChartDeck builds a real deck of copies slides per chart slide of
// cht-series.pptx (eleven chart types PowerPoint made) through
// duplicate_slide and export, and returns the exported file.
func bigChartDeck(tb testing.TB, copies int) []byte {
	tb.Helper()
	data, err := os.ReadFile(shareddecks.PythonPPTX(tb, "cht-series.pptx")[0])
	if err != nil {
		tb.Fatal(err)
	}
	d, blobs, err := Import(data, "cht-series.pptx")
	if err != nil {
		tb.Fatal(err)
	}
	var calls []tools.Call
	for _, s := range d.Slides {
		for k := 1; k < copies; k++ {
			b, _ := json.Marshal(map[string]any{"slideId": s.ID})
			calls = append(calls, tools.Call{Tool: "duplicate_slide", Args: b})
		}
	}
	ed, _, err := tools.Apply(d, calls, tools.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	out, err := Export(ed, blobs)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// TestRebrandRecolourOfABigChartDeck: a rebrand's recolour (every
// chart's series in the brand palette, then replace_color of one brand
// colour by another, as the rebrand recipe does) over a 110-chart deck
// built from PowerPoint's charts leaves every chart whole: names are the
// cached names, number formats and the workbook (cells equal to the
// chart's values) are kept, only chart parts change, and LibreOffice
// converts the result.
func TestRebrandRecolourOfABigChartDeck(t *testing.T) {
	big := bigChartDeck(t, 10)
	d, blobs, err := Import(big, "big.pptx")
	if err != nil {
		t.Fatal(err)
	}
	var calls []tools.Call
	charts := 0
	d.Walk(func(n, _ *sg.Node, _ int) bool {
		if n.Type == sg.TypeChart && n.Chart != nil {
			charts++
			calls = append(calls, call(t, "set_series_color", "", map[string]any{"chartId": n.ID, "colors": []string{"#0B6E4F", "#F26430"}}))
		}
		return true
	})
	if charts != 110 {
		t.Fatalf("%d charts in the big deck, want 110", charts)
	}
	calls = append(calls, call(t, "replace_color", "", map[string]any{"from": "#0B6E4F", "to": "#5B2A86", "tolerance": 0.03}))
	ed, _, err := tools.Apply(d, calls, tools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, warns, err := ExportDetailed(ed, blobs)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range warns {
		t.Errorf("export warned: %s", w)
	}
	orig, got := zipParts(t, big), zipParts(t, out)
	for p, b := range orig {
		if !bytes.Equal(b, got[p]) && !strings.HasPrefix(p, "ppt/charts/chart") {
			t.Errorf("part %s changed by a recolour", p)
		}
	}
	back, _, err := Import(out, "big.pptx")
	if err != nil {
		t.Fatal(err)
	}
	purple := sg.MustHex("#5B2A86")
	recoloured := 0
	back.Walk(func(n, _ *sg.Node, _ int) bool {
		if n.Type != sg.TypeChart || n.Chart == nil {
			return true
		}
		p := n.Chart.Part
		if g, w := formatCodes(got[p]), formatCodes(orig[p]); !slices.Equal(g, w) {
			t.Errorf("%s: number formats %v, were %v", p, g, w)
		}
		ser := partSeries(t, got[p])
		for i, s := range n.Chart.Series {
			if i < len(ser) && s.Name != ser[i].cachedName() && ser[i].cachedName() != "" {
				t.Errorf("%s: series %q, cached %q", p, s.Name, ser[i].cachedName())
			}
		}
		if len(n.Chart.Series) > 0 && n.Chart.Series[0].Color != nil && *n.Chart.Series[0].Color == purple {
			recoloured++
		}
		wb := chartWorkbook(t, got, p)
		if wb == "" || !bytes.Equal(got[wb], orig[wb]) {
			t.Errorf("%s: workbook %q missing or changed", p, wb)
		} else {
			checkWorkbookMatches(t, p, got[wb], got[p])
		}
		return true
	})
	if recoloured != charts {
		t.Errorf("%d of %d charts show the brand colour after the recolour", recoloured, charts)
	}
	if testing.Short() {
		return
	}
	if pages := convertToPDF(t, map[string][]byte{"big.pptx": out}); pages["big.pptx"] != len(back.Slides) {
		t.Errorf("LibreOffice made %d pages of %d slides", pages["big.pptx"], len(back.Slides))
	}
}

// BenchmarkRecolourChartDeck measures importing, recolouring every chart
// and exporting a deck of 220 chart slides (cht-series.pptx's eleven
// PowerPoint charts, 20 copies each); ACE_BENCH_CHART_COPIES=182 makes it
// the 2,002-slide deck of issue 16 (minutes per run, so not by default in
// make bench).
func BenchmarkRecolourChartDeck(b *testing.B) {
	copies := 20
	if v, err := strconv.Atoi(os.Getenv("ACE_BENCH_CHART_COPIES")); err == nil && v > 0 {
		copies = v
	}
	big := bigChartDeck(b, copies)
	b.ReportMetric(float64(11*copies), "slides")
	b.SetBytes(int64(len(big)))
	b.ResetTimer()
	for range b.N {
		d, blobs, err := Import(big, "big.pptx")
		if err != nil {
			b.Fatal(err)
		}
		var calls []tools.Call
		d.Walk(func(n, _ *sg.Node, _ int) bool {
			if n.Type == sg.TypeChart {
				a, _ := json.Marshal(map[string]any{"chartId": n.ID, "colors": []string{"#5B2A86", "#F26430"}})
				calls = append(calls, tools.Call{Tool: "set_series_color", Args: a})
			}
			return true
		})
		ed, _, err := tools.Apply(d, calls, tools.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Export(ed, blobs); err != nil {
			b.Fatal(err)
		}
	}
}

// cacheFormats lists the number formats stored with a chart part's
// cached values (c:formatCode elements and per-point attributes), sorted.
func cacheFormats(data []byte) []string {
	var out []string
	for _, f := range formatCodes(data) {
		if strings.HasPrefix(f, "cache:") || strings.HasPrefix(f, "pt@") {
			out = append(out, f)
		}
	}
	return out
}

// TestEveryChartToolOnRealCharts applies the other chart tools to every
// chart of cht-chart-type.pptx (31 charts PowerPoint made, of every
// type): title, axis titles and data labels, legend, sorting, and a type
// change (column to line, line to bar, bar to column, pie to doughnut,
// other types to column). The export keeps each chart's own part with its
// cached number formats and its workbook, whose cells hold the chart's
// (sorted) values; it re-imports with the new type, titles and legend,
// and LibreOffice converts it.
func TestEveryChartToolOnRealCharts(t *testing.T) {
	file := shareddecks.PythonPPTX(t, "cht-chart-type.pptx")[0]
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	d, blobs, err := Import(data, "cht-chart-type.pptx")
	if err != nil {
		t.Fatal(err)
	}
	next := map[string]string{sg.ChartColumn: sg.ChartLine, sg.ChartLine: sg.ChartBar, sg.ChartBar: sg.ChartColumn, sg.ChartPie: sg.ChartDoughnut, sg.ChartDoughnut: sg.ChartPie, sg.ChartArea: sg.ChartColumn, sg.ChartScatter: sg.ChartScatter}
	want := map[string]string{}  // part -> chart type after the edit
	percent := map[string]bool{} // part -> stacked to 100% before and after
	var calls []tools.Call
	d.Walk(func(n, _ *sg.Node, _ int) bool {
		if n.Type != sg.TypeChart || n.Chart == nil {
			return true
		}
		id := n.ID
		calls = append(calls,
			call(t, "set_chart_labels", "", map[string]any{"chartId": id, "title": "Sales by quarter", "xAxisTitle": "Quarter", "yAxisTitle": "Units", "dataLabels": true}),
			call(t, "set_chart_legend", "", map[string]any{"chartId": id, "position": "BOTTOM"}))
		if n.Chart.ChartType != sg.ChartScatter {
			calls = append(calls, call(t, "sort_chart_data", "", map[string]any{"chartId": id, "by": "category", "descending": true}))
		}
		to := next[n.Chart.ChartType]
		calls = append(calls, call(t, "set_chart_type", "", map[string]any{"chartId": id, "chartType": to}))
		want[n.Chart.Part] = to
		if n.Chart.PercentStacked && to != sg.ChartPie && to != sg.ChartDoughnut && to != sg.ChartScatter {
			percent[n.Chart.Part] = true
		}
		return true
	})
	ed, _, err := tools.Apply(d, calls, tools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, warns, err := ExportDetailed(ed, blobs)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range warns {
		if !strings.Contains(w.Msg, "multi-level") {
			t.Errorf("export warned: %s", w)
		}
	}
	orig, got := zipParts(t, data), zipParts(t, out)
	back, _, err := Import(out, "x.pptx")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	back.Walk(func(n, _ *sg.Node, _ int) bool {
		if n.Type != sg.TypeChart || n.Chart == nil {
			return true
		}
		seen++
		p, ch := n.Chart.Part, n.Chart
		if ch.ChartType != want[p] || ch.Title != "Sales by quarter" || ch.Legend == nil || ch.Legend.Position != "BOTTOM" || !ch.DataLabels {
			t.Errorf("%s: re-imported as %s titled %q, legend %+v, labels %v; want %s", p, ch.ChartType, ch.Title, ch.Legend, ch.DataLabels, want[p])
		}
		if percent[p] != (ch.Stacked && ch.PercentStacked) {
			t.Errorf("%s: stacked to 100%% %v after the edit, want %v", p, ch.Stacked && ch.PercentStacked, percent[p])
		}
		if ch.ChartType != sg.ChartPie && ch.ChartType != sg.ChartDoughnut && (ch.XAxisTitle != "Quarter" || ch.YAxisTitle != "Units") {
			t.Errorf("%s: axis titles %q %q", p, ch.XAxisTitle, ch.YAxisTitle)
		}
		if g, w := cacheFormats(got[p]), cacheFormats(orig[p]); !slices.Equal(g, w) {
			t.Errorf("%s: cached number formats %v, were %v", p, g, w)
		}
		if wb := chartWorkbook(t, got, p); wb == "" {
			t.Errorf("%s: workbook lost", p)
		} else {
			checkWorkbookMatches(t, p, got[wb], got[p])
		}
		return true
	})
	if seen != len(want) || seen < 30 {
		t.Errorf("%d charts re-imported, %d edited", seen, len(want))
	}
	t.Logf("%d charts edited by every chart tool, re-imported whole (%d stacked to 100%%)", seen, len(percent))
	if testing.Short() {
		return
	}
	if pages := convertToPDF(t, map[string][]byte{"types.pptx": out}); pages["types.pptx"] != len(back.Slides) {
		t.Errorf("LibreOffice made %d pages of %d slides", pages["types.pptx"], len(back.Slides))
	}
}

// TestDuplicateSlideCopiesChartParts: duplicate_slide alone writes each
// chart of the copy as the original's chart part, relationships aside,
// byte for byte under a new name, with its embedded workbook (and any
// other part the chart relates to) copied byte for byte too; the
// original parts are untouched.
func TestDuplicateSlideCopiesChartParts(t *testing.T) {
	data, err := os.ReadFile(shareddecks.PythonPPTX(t, "cht-series.pptx")[0])
	if err != nil {
		t.Fatal(err)
	}
	d, blobs, err := Import(data, "cht-series.pptx")
	if err != nil {
		t.Fatal(err)
	}
	var calls []tools.Call
	for _, s := range d.Slides {
		calls = append(calls, call(t, "duplicate_slide", "", map[string]any{"slideId": s.ID}))
	}
	ed, _, err := tools.Apply(d, calls, tools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := Export(ed, blobs)
	if err != nil {
		t.Fatal(err)
	}
	orig, got := zipParts(t, data), zipParts(t, out)
	back, _, err := Import(out, "x.pptx")
	if err != nil {
		t.Fatal(err)
	}
	copies := 0
	for i := 0; i+1 < len(back.Slides); i += 2 { // each copy right after its original
		a, b := chartParts(back.Slides[i]), chartParts(back.Slides[i+1])
		if len(a) != len(b) {
			t.Fatalf("slide %d shows %d charts, its copy %d", i+1, len(a), len(b))
		}
		for k := range a {
			copies++
			if a[k] == b[k] || !bytes.Equal(got[b[k]], orig[a[k]]) || !bytes.Equal(got[a[k]], orig[a[k]]) {
				t.Errorf("%s copied as %s: not the same bytes under a new name", a[k], b[k])
			}
			owb, cwb := chartWorkbook(t, orig, a[k]), chartWorkbook(t, got, b[k])
			if owb == "" || cwb == "" || cwb == owb || !bytes.Equal(got[cwb], orig[owb]) {
				t.Errorf("%s: workbook %s copied as %q with other bytes", a[k], owb, cwb)
			}
		}
	}
	if copies != 11 {
		t.Errorf("%d charts copied, want cht-series.pptx's 11", copies)
	}
}
