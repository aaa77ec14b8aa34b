package pptx

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// Schema orders used when inserting into a chart part (ECMA-376 Part 1
// §21.2.2: CT_Chart, the series types CT_BarSer ... CT_ScatterSer, whose
// common children keep one relative order, and the axis types).
var (
	chartOrder  = []string{"title", "autoTitleDeleted", "pivotFmts", "view3D", "floor", "sideWall", "backWall", "plotArea", "legend", "plotVisOnly", "dispBlanksAs", "showDLblsOverMax", "extLst"}
	serOrder    = []string{"idx", "order", "tx", "spPr", "invertIfNegative", "pictureOptions", "marker", "explosion", "dPt", "dLbls", "trendline", "errBars", "cat", "xVal", "val", "yVal", "shape", "smooth", "bubbleSize", "bubble3D", "extLst"}
	axisOrder   = []string{"axId", "scaling", "delete", "axPos", "majorGridlines", "minorGridlines", "title", "numFmt", "majorTickMark", "minorTickMark", "tickLblPos", "spPr", "txPr", "crossAx", "crosses", "crossesAt", "crossBetween", "auto", "lblAlgn", "lblOffset", "baseTimeUnit", "majorUnit", "majorTimeUnit", "minorUnit", "minorTimeUnit", "tickLblSkip", "tickMarkSkip", "dispUnits", "noMultiLvlLbl", "extLst"}
	scalingOrd  = []string{"logBase", "orientation", "max", "min", "extLst"}
	dLblsOrder  = []string{"dLbl", "delete", "numFmt", "spPr", "txPr", "dLblPos", "showLegendKey", "showVal", "showCatName", "showSerName", "showPercent", "showBubbleSize", "separator", "showLeaderLines", "leaderLines", "extLst"}
	lnFillOrder = []string{"noFill", "solidFill", "gradFill", "pattFill", "prstDash", "custDash", "round", "bevel", "miter", "headEnd", "tailEnd", "extLst"}
	legendOrder = []string{"legendPos", "legendEntry", "layout", "overlay", "spPr", "txPr", "extLst"}
)

// chartEdit patches one chart part (c:chartSpace) from the chart data it
// holds to the node's, touching only the elements whose data differ, and
// collects the matching workbook edit.
type chartEdit struct {
	root *xnode
	w    *writer
	book *chartBook
	wb   workbookEdit
	// adding is set while a series the edit adds is written.
	adding bool
	warn   func(format string, args ...any)
}

// apply patches the part from old (what it holds) to ch.
func (ce *chartEdit) apply(ch, old *sg.Chart) error {
	chart := ce.root.child(nsC, "chart")
	plotArea := chart.child(nsC, "plotArea")
	plot := firstPlot(plotArea)
	if plot == nil {
		return fmt.Errorf("the chart part has no plot to write the data into")
	}
	if t, _ := plotChartType(plot); t != ch.ChartType {
		var err error
		if plot, err = ce.setType(plotArea, plot, ch); err != nil {
			return err
		}
	}
	ce.setGrouping(plot, ch.Stacked, ch.PercentStacked)
	if ch.VaryColors != nil && ctBool(plot.child(nsC, "varyColors"), true) != *ch.VaryColors {
		ce.setVal(plot, "varyColors", boolText(*ch.VaryColors), []string{"barDir", "grouping", "scatterStyle", "radarStyle", "varyColors"})
	}
	if err := ce.series(plot, ch, old); err != nil {
		return err
	}
	ce.setTitle(chart, ch.Title)
	ce.setLegend(chart, ch.Legend)
	ce.setDataLabels(plot, ch.DataLabels)
	ids := plot.all(nsC, "axId")
	for k, want := range []struct {
		title string
		axis  *sg.ChartAxis
	}{{ch.XAxisTitle, ch.CategoryAxis}, {ch.YAxisTitle, ch.ValueAxis}} {
		if k >= len(ids) {
			break
		}
		if ax := axisByID(plotArea, ids[k].av("val")); ax != nil {
			ce.setAxisTitle(ax, want.title)
			if want.axis != nil {
				ce.setAxis(ax, *want.axis)
			}
		}
	}
	return nil
}

// firstPlot returns the first plot (c:barChart, c:lineChart, ...) of a
// plot area: the one import reads.
func firstPlot(plotArea *xnode) *xnode {
	for _, e := range plotArea.elems() {
		if strings.HasSuffix(e.local, "Chart") {
			return e
		}
	}
	return nil
}

func boolText(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// setVal sets the val attribute of child local of parent, inserting the
// child in schema order when absent.
func (ce *chartEdit) setVal(parent *xnode, local, val string, order []string) {
	if e := parent.child(nsC, local); e != nil {
		e.setAttr("val", val)
		return
	}
	parent.insertOrdered(newElem(parent.prefix, local, nsC, "val", val), order)
}

// setText replaces an element's character data.
func setText(e *xnode, s string) {
	e.kids = []*xnode{{kind: kText, text: s, dirty: true}}
	e.dirty = true
}

// fragment parses generated XML in the scope of the part's root, so its
// prefixes resolve as in the part.
func (ce *chartEdit) fragment(frag string) (*xnode, error) {
	var b strings.Builder
	b.WriteString("<c:fragment")
	for _, a := range ce.root.attrs {
		if a.prefix == "xmlns" || (a.prefix == "" && a.local == "xmlns") {
			b.WriteString(" " + qname(a.prefix, a.local) + `="` + esc(a.value) + `"`)
		}
	}
	b.WriteString(">" + frag + "</c:fragment>")
	doc, err := parseXML("chart fragment", []byte(b.String()), xmlLimits{maxDepth: 256})
	if err != nil {
		return nil, fmt.Errorf("%w: chart (bug): %w", ErrGeneratedXML, err)
	}
	el := doc.root().elems()
	if len(el) != 1 {
		return nil, fmt.Errorf("generated chart XML holds %d elements, want 1 (bug)", len(el))
	}
	return el[0], nil
}

// clone copies an element of the part so it can be changed apart from the
// original.
func (ce *chartEdit) clone(e *xnode) (*xnode, error) {
	return ce.fragment(string(e.bytes()))
}

// numText writes a value as chart caches hold it.
func numText(v float64) string {
	if a := math.Abs(v); a != 0 && (a >= 1e21 || a < 1e-7) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// series writes the series: names, values, categories, number formats
// and colours where they differ, series added (copies of the last one,
// one column or row further in the workbook) and removed.
func (ce *chartEdit) series(plot *xnode, ch, old *sg.Chart) error {
	catTag, valTag := "cat", "val"
	if plot.local == "scatterChart" || plot.local == "bubbleChart" {
		catTag, valTag = "xVal", "yVal"
	}
	sers := plot.all(nsC, "ser")
	for i := len(ch.Series); i < len(sers); i++ {
		ce.clearSeries(sers[i], valTag)
		plot.replaceKid(sers[i], nil)
	}
	if len(sers) > len(ch.Series) {
		sers = sers[:len(ch.Series)]
	}
	fresh := map[int]bool{}
	for i := len(sers); i < len(ch.Series); i++ {
		if len(sers) == 0 {
			return fmt.Errorf("the chart part has no series to model a new one on")
		}
		last := sers[len(sers)-1]
		c, err := ce.clone(last)
		if err != nil {
			return err
		}
		next := 0
		for _, s := range plot.all(nsC, "ser") {
			for _, k := range []string{"idx", "order"} {
				if v, err := strconv.Atoi(s.child(nsC, k).av("val")); err == nil && v >= next {
					next = v + 1
				}
			}
		}
		c.child(nsC, "idx").setAttr("val", strconv.Itoa(next))
		c.child(nsC, "order").setAttr("val", strconv.Itoa(next))
		if x := c.child(nsC, "extLst"); x != nil { // holds the series' unique id
			c.replaceKid(x, nil)
		}
		ce.shiftSeries(c, valTag)
		insertAfter(plot, last, c)
		sers = append(sers, c)
		fresh[i] = true
	}
	catsChanged := !slices.Equal(ch.Categories, old.Categories)
	for i, s := range ch.Series {
		ser := sers[i]
		var os sg.Series
		if i < len(old.Series) && !fresh[i] {
			os = old.Series[i]
		}
		ce.adding = fresh[i]
		if fresh[i] || s.Name != os.Name {
			ce.setName(ser, s.Name)
		}
		if fresh[i] || !sameColorPtr(s.Color, os.Color) {
			ce.setSeriesColor(plot, ser, s.Color)
		}
		if fresh[i] || !slices.Equal(s.Values, os.Values) {
			if err := ce.setValues(ser, valTag, s.Values, os.Values); err != nil {
				return err
			}
		}
		ce.setFormatCode(ser.child(nsC, valTag), s.FormatCode)
		if fresh[i] || catsChanged {
			ce.setCategories(ser, catTag, valTag, ch.Categories)
		}
	}
	ce.adding = false
	return nil
}

func sameColorPtr(a, b *sg.Color) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// insertAfter puts c right after the child prev of parent.
func insertAfter(parent, prev, c *xnode) {
	parent.dirty = true
	for i, k := range parent.kids {
		if k == prev {
			parent.kids = slices.Insert(parent.kids, i+1, c)
			return
		}
	}
	parent.kids = append(parent.kids, c)
}

// formula returns the c:f of a c:strRef / c:numRef and its area; ok is
// false when there is none or it is not one plain range.
func (ce *chartEdit) formula(ref *xnode) (*xnode, cellArea, bool) {
	f := ref.child(nsC, "f")
	if f == nil {
		return nil, cellArea{}, false
	}
	a, err := ce.book.area(f.allText())
	if err != nil {
		ce.warn("the workbook cells of %s are not updated: %v", strings.TrimSpace(f.allText()), err)
		return f, cellArea{}, false
	}
	return f, a, true
}

// shiftSeries moves a copied series' name and value formulas one series
// further: one column right when values run down columns, else one row
// down.
func (ce *chartEdit) shiftSeries(ser *xnode, valTag string) {
	down := true
	if _, a, ok := ce.formula(ser.child(nsC, valTag).child(nsC, "numRef")); ok {
		down = a.vertical() && a.count() > 1 || a.count() == 1
	}
	for _, ref := range []*xnode{ser.path(nsC, "tx", "strRef"), ser.child(nsC, valTag).child(nsC, "numRef")} {
		f, a, ok := ce.formula(ref)
		if !ok {
			continue
		}
		dc, dr := 1, 0
		if !down {
			dc, dr = 0, 1
		}
		if b, ok := a.shifted(dc, dr); ok && !a.structured {
			setText(f, b.String())
			continue
		}
		// A table column cannot be moved over: the copy keeps its data
		// in the chart only.
		ce.literal(ref)
	}
}

// literal turns a reference into the literal data of its cache: a series
// name's c:strRef into c:v, a c:numRef into c:numLit.
func (ce *chartEdit) literal(ref *xnode) {
	parent := ref.parentIn(ce.root)
	if parent == nil {
		return
	}
	var frag string
	if ref.local == "strRef" {
		frag = `<c:v>` + escText(strings.Join(cachePoints(parent), " ")) + `</c:v>`
	} else {
		var b strings.Builder
		b.WriteString(`<c:numLit>`)
		for _, k := range ref.child(nsC, "numCache").kids {
			b.Write(k.bytes())
		}
		b.WriteString(`</c:numLit>`)
		frag = b.String()
	}
	n, err := ce.fragment(frag)
	if err != nil {
		ce.warn("%v", err)
		return
	}
	parent.replaceKid(ref, n)
}

// clearSeries empties the workbook cells of a removed series' name and
// values.
func (ce *chartEdit) clearSeries(ser *xnode, valTag string) {
	for _, ref := range []*xnode{ser.path(nsC, "tx", "strRef"), ser.child(nsC, valTag).child(nsC, "numRef")} {
		if _, a, ok := ce.formula(ref); ok {
			for _, c := range a.cells() {
				ce.wb.clear(a.sheet, c[0], c[1])
			}
			ce.wb.areas(a, cellArea{}) // gone: a table shrinks off it
		}
	}
}

// setName writes a series' name into its c:tx: the name cache of a
// c:strRef (and the cell its formula names), or the literal c:v.
func (ce *chartEdit) setName(ser *xnode, name string) {
	tx := ser.child(nsC, "tx")
	switch {
	case tx == nil:
		ser.insertOrdered(rawNode(`<`+qname(ser.prefix, "tx")+`><`+qname(ser.prefix, "v")+`>`+escText(name)+`</`+qname(ser.prefix, "v")+`></`+qname(ser.prefix, "tx")+`>`), serOrder)
	case tx.child(nsC, "v") != nil:
		setText(tx.child(nsC, "v"), name)
	case tx.child(nsC, "strRef") != nil:
		sr := tx.child(nsC, "strRef")
		setCachePoints(cacheOf(sr, "strCache"), []string{name})
		if f, a, ok := ce.formula(sr); ok {
			cells := a.cells()
			ce.wb.setText(a.sheet, cells[0][0], cells[0][1], name)
			for _, c := range cells[1:] {
				ce.wb.clear(a.sheet, c[0], c[1])
			}
			one := a
			if len(cells) > 1 && !a.structured {
				one, _ = a.resized(1, true)
				setText(f, one.String())
			}
			ce.moved(a, one)
		}
	default:
		tx.kids = nil
		tx.dirty = true
		tx.kids = append(tx.kids, rawNode(`<`+qname(tx.prefix, "v")+`>`+escText(name)+`</`+qname(tx.prefix, "v")+`>`))
	}
}

// cacheOf returns the cache child (c:strCache / c:numCache) of a
// reference, adding an empty one when it has none.
func cacheOf(ref *xnode, local string) *xnode {
	if c := ref.child(nsC, local); c != nil {
		return c
	}
	c := newElem(ref.prefix, local, nsC)
	if local == "numCache" {
		fc := newElem(ref.prefix, "formatCode", nsC)
		setText(fc, "General")
		c.kids = append(c.kids, fc)
	}
	ref.kids = append(ref.kids, c)
	ref.dirty = true
	return c
}

// setCachePoints rewrites the points of a c:strCache, c:numCache,
// c:strLit or c:numLit to texts: a point that stays keeps its element and
// attributes (a per-point formatCode), only its c:v changes; c:ptCount
// follows; c:formatCode and c:extLst stay where they are.
func setCachePoints(cache *xnode, texts []string) {
	setCachePointsBlank(cache, texts, nil)
}

// cachePointSet returns the indexes of the points a cache holds (a
// missing point is a blank cell: a gap in the chart).
func cachePointSet(cache *xnode) map[int]bool {
	out := map[int]bool{}
	for _, p := range cache.all(nsC, "pt") {
		if i, err := strconv.Atoi(p.av("idx")); err == nil {
			out[i] = true
		}
	}
	return out
}

// setCachePointsBlank is setCachePoints leaving out the points blank
// names (they stay gaps).
func setCachePointsBlank(cache *xnode, texts []string, blank map[int]bool) {
	byIdx := map[int]*xnode{}
	for _, p := range cache.all(nsC, "pt") {
		if i, err := strconv.Atoi(p.av("idx")); err == nil {
			byIdx[i] = p
		}
	}
	var pts []*xnode
	for i, t := range texts {
		p := byIdx[i]
		if blank[i] && p == nil {
			continue
		}
		if p == nil {
			p = newElem(cache.prefix, "pt", nsC, "idx", strconv.Itoa(i))
		}
		v := p.child(nsC, "v")
		if v == nil {
			v = newElem(cache.prefix, "v", nsC)
			p.kids = append(p.kids, v)
			p.dirty = true
		}
		if v.allText() != t {
			setText(v, t)
		}
		pts = append(pts, p)
	}
	var kids []*xnode
	placed := false
	for _, k := range cache.kids {
		if k.is(nsC, "pt") {
			continue
		}
		if k.is(nsC, "extLst") && !placed {
			kids = append(kids, pts...)
			placed = true
		}
		kids = append(kids, k)
	}
	if !placed {
		kids = append(kids, pts...)
	}
	if pc := cache.child(nsC, "ptCount"); pc != nil {
		if pc.av("val") != strconv.Itoa(len(texts)) {
			pc.setAttr("val", strconv.Itoa(len(texts)))
		}
	} else {
		pc := newElem(cache.prefix, "ptCount", nsC, "val", strconv.Itoa(len(texts)))
		at := 0
		for i, k := range kids {
			if k.is(nsC, "formatCode") {
				at = i + 1
			}
		}
		kids = slices.Insert(kids, at, pc)
	}
	cache.kids = kids
	cache.dirty = true
}

// moved records a formula's area before and after the edit; the areas of
// a series the edit adds count as new (no area before), so a table grows
// over them.
func (ce *chartEdit) moved(before, after cellArea) {
	if ce.adding {
		before = cellArea{}
	}
	ce.wb.areas(before, after)
}

// writeArea puts one value per cell into the workbook from the formula's
// first cell on, resizing the formula when the count changed and clearing
// cells the data no longer covers.
func (ce *chartEdit) writeArea(f *xnode, a cellArea, n int, put func(i, col, row int)) {
	if a.col1 != a.col2 && a.row1 != a.row2 {
		ce.warn("the workbook cells of %s are not updated: a block of several rows and columns (multi-level labels)", a)
		return
	}
	down := a.vertical()
	if a.count() == 1 && n > 1 {
		down = true
	}
	b := a
	if n >= 1 && n != a.count() {
		var ok bool
		if b, ok = a.resized(n, down); !ok {
			ce.warn("the workbook cells of %s are not updated: %d values run off the sheet", a, n)
			return
		}
		b.structured = a.structured
		if !a.structured {
			setText(f, b.String())
		}
	}
	ce.moved(a, b)
	keep := map[[2]int]bool{}
	for i, c := range b.cells() {
		if i < n {
			put(i, c[0], c[1])
			keep[c] = true
		}
	}
	for _, c := range a.cells() {
		if !keep[c] {
			ce.wb.clear(a.sheet, c[0], c[1])
		}
	}
}

// setValues writes a series' values into its value cache and workbook.
func (ce *chartEdit) setValues(ser *xnode, valTag string, vals, old []float64) error {
	val := ser.child(nsC, valTag)
	texts := make([]string, len(vals))
	for i, v := range vals {
		texts[i] = numText(v)
	}
	if val == nil {
		val, _ = ce.fragment(`<c:` + valTag + `><c:numLit><c:formatCode>General</c:formatCode></c:numLit></c:` + valTag + `>`)
		ser.insertOrdered(val, serOrder)
	}
	// A gap (a point the cache does not hold, imported as 0) that is
	// still 0 stays a gap, in the chart and in the workbook.
	blank := map[int]bool{}
	if c := valueCache(val); c != nil {
		have := cachePointSet(c)
		for i, v := range vals {
			if v == 0 && !have[i] && i < len(old) && old[i] == 0 {
				blank[i] = true
			}
		}
	}
	switch {
	case val.child(nsC, "numRef") != nil:
		ref := val.child(nsC, "numRef")
		setCachePointsBlank(cacheOf(ref, "numCache"), texts, blank)
		if f, a, ok := ce.formula(ref); ok {
			ce.writeArea(f, a, len(vals), func(i, col, row int) {
				if !blank[i] {
					ce.wb.setNumber(a.sheet, col, row, vals[i])
				}
			})
		}
	case val.child(nsC, "numLit") != nil:
		setCachePointsBlank(val.child(nsC, "numLit"), texts, blank)
	default:
		return fmt.Errorf("series values are neither c:numRef nor c:numLit")
	}
	return nil
}

// setFormatCode writes a series' number format into its value cache
// ("" is General), when it differs.
func (ce *chartEdit) setFormatCode(val *xnode, code string) {
	cache := valueCache(val)
	if cache == nil {
		return
	}
	if code == "" {
		code = "General"
	}
	fc := cache.child(nsC, "formatCode")
	if fc == nil {
		fc = newElem(cache.prefix, "formatCode", nsC)
		setText(fc, code)
		cache.kids = slices.Insert(cache.kids, 0, fc)
		cache.dirty = true
		return
	}
	if strings.TrimSpace(fc.allText()) != code {
		setText(fc, code)
	}
}

// setCategories writes the categories into a series' c:cat (c:xVal) and
// the workbook: numbers stay numbers in a c:numRef when every category is
// one, else the reference becomes a c:strRef on the same cells.
func (ce *chartEdit) setCategories(ser *xnode, catTag, valTag string, cats []string) {
	cat := ser.child(nsC, catTag)
	if cat == nil {
		lit := `<c:` + catTag + `><c:strLit><c:ptCount val="0"/></c:strLit></c:` + catTag + `>`
		var err error
		if cat, err = ce.fragment(lit); err != nil {
			ce.warn("%v", err)
			return
		}
		ser.insertOrdered(cat, serOrder)
	}
	numeric := true
	nums := make([]float64, len(cats))
	for i, c := range cats {
		v, err := strconv.ParseFloat(strings.TrimSpace(c), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			numeric = false
			break
		}
		nums[i] = v
	}
	if ml := cat.child(nsC, "multiLvlStrRef"); ml != nil {
		// Only the innermost level (the labels ACE models) can be
		// rewritten; the outer levels would no longer match.
		f, a, ok := ce.formula(ml)
		frag := `<c:strRef>`
		if ok {
			inner := a
			inner.col1 = a.col2
			if !a.vertical() && a.row1 != a.row2 {
				inner = a
				inner.row1 = a.row2
			}
			frag += `<c:f>` + escText(inner.String()) + `</c:f>`
		} else if f != nil {
			frag += `<c:f>` + escText(f.allText()) + `</c:f>`
		}
		frag += `<c:strCache><c:ptCount val="0"/></c:strCache></c:strRef>`
		sr, err := ce.fragment(frag)
		if err != nil {
			ce.warn("%v", err)
			return
		}
		cat.replaceKid(ml, sr)
		ce.warn("multi-level category labels were replaced by one level (the labels as edited)")
	}
	if nr := cat.child(nsC, "numRef"); nr != nil && !numeric {
		frag := `<c:strRef>`
		if f := nr.child(nsC, "f"); f != nil {
			frag += `<c:f>` + escText(f.allText()) + `</c:f>`
		}
		sr, err := ce.fragment(frag + `<c:strCache><c:ptCount val="0"/></c:strCache></c:strRef>`)
		if err != nil {
			ce.warn("%v", err)
			return
		}
		cat.replaceKid(nr, sr)
	}
	for _, ref := range []string{"strRef", "numRef"} {
		r := cat.child(nsC, ref)
		if r == nil {
			continue
		}
		cache := "strCache"
		if ref == "numRef" {
			cache = "numCache"
		}
		setCachePoints(cacheOf(r, cache), cats)
		if f, a, ok := ce.formula(r); ok {
			ce.writeArea(f, a, len(cats), func(i, col, row int) {
				if ref == "numRef" {
					ce.wb.setNumber(a.sheet, col, row, nums[i])
				} else {
					ce.wb.setText(a.sheet, col, row, cats[i])
				}
			})
		}
		return
	}
	for _, lit := range []string{"strLit", "numLit"} {
		if l := cat.child(nsC, lit); l != nil {
			setCachePoints(l, cats)
			return
		}
	}
}

// lineLike reports whether a plot's series colour is the colour of its
// line (a:ln), not of a filled area.
func lineLike(plot *xnode) bool {
	switch plot.local {
	case "lineChart", "line3DChart", "scatterChart", "radarChart", "stockChart":
		return true
	}
	return false
}

// setSeriesColor writes a series' colour into its c:spPr: the fill of
// bars, areas and slices, the line of lines; nil removes it (automatic
// colour).
func (ce *chartEdit) setSeriesColor(plot, ser *xnode, c *sg.Color) {
	spPr := ser.child(nsC, "spPr")
	if spPr == nil {
		if c == nil {
			return
		}
		spPr = newElem(ser.prefix, "spPr", nsC)
		ser.insertOrdered(spPr, serOrder)
	}
	target, order := spPr, spPrOrder
	if lineLike(plot) {
		ln := spPr.child(nsA, "ln")
		if ln == nil {
			if c == nil {
				return
			}
			ln = newElem("a", "ln", nsA)
			spPr.insertOrdered(ln, spPrOrder)
		}
		target, order = ln, lnFillOrder
	}
	if c == nil {
		if sf := target.child(nsA, "solidFill"); sf != nil {
			target.replaceKid(sf, nil)
		}
		return
	}
	setFill(target, ce.w.fillXML([]sg.Paint{sg.Solid(*c)}), order)
}

// setGrouping writes whether the series are stacked, to 100% or not
// (c:grouping of a bar, line or area plot).
func (ce *chartEdit) setGrouping(plot *xnode, stacked, percent bool) {
	g := plot.child(nsC, "grouping")
	if g == nil {
		if !stacked {
			return
		}
		switch plot.local {
		case "barChart", "bar3DChart", "lineChart", "line3DChart", "areaChart", "area3DChart":
		default:
			return
		}
	}
	cur := g.av("val")
	want := "stacked"
	if percent {
		want = "percentStacked"
	}
	if stacked && cur == want || !stacked && cur != "stacked" && cur != "percentStacked" {
		return
	}
	wasStacked := cur == "stacked" || cur == "percentStacked"
	if !stacked {
		want = "standard"
		if strings.HasPrefix(plot.local, "bar") {
			want = "clustered"
		}
	}
	if g == nil {
		plot.insertOrdered(newElem(plot.prefix, "grouping", nsC, "val", want), []string{"barDir", "grouping", "varyColors"})
	} else {
		g.setAttr("val", want)
	}
	if strings.HasPrefix(plot.local, "bar") && wasStacked != stacked {
		// Stacked bars overlap fully; clustered ones side by side.
		ov := "0"
		if stacked {
			ov = "100"
		}
		ce.setVal(plot, "overlap", ov, []string{"barDir", "grouping", "varyColors", "ser", "dLbls", "gapWidth", "overlap", "serLines", "axId", "extLst"})
	}
}

// richXML is a c:tx holding one paragraph of text.
func richXML(text string, pPr, rPr string) string {
	return `<c:tx><c:rich><a:bodyPr/><a:lstStyle/><a:p>` + pPr + `<a:r>` + rPr + `<a:t>` + escText(text) + `</a:t></a:r></a:p></c:rich></c:tx>`
}

// setRich puts text into a title (c:title of the chart or an axis),
// keeping the first paragraph's properties and the first run's.
func (ce *chartEdit) setRich(title *xnode, text string) {
	tx := title.child(nsC, "tx")
	rich := tx.child(nsC, "rich")

	pPr, rPr := "", ""
	if rich != nil {
		if p := rich.child(nsA, "p"); p != nil {
			if e := p.child(nsA, "pPr"); e != nil {
				pPr = string(e.bytes())
			}
			for _, r := range p.all(nsA, "r") {
				if e := r.child(nsA, "rPr"); e != nil {
					rPr = string(e.bytes())
				}
				break
			}
		}
	}
	if rich == nil {
		n, err := ce.fragment(richXML(text, pPr, rPr))
		if err != nil {
			ce.warn("%v", err)
			return
		}
		if tx != nil {
			title.replaceKid(tx, n)
		} else {
			title.kids = slices.Insert(title.kids, 0, n)
			title.dirty = true
		}
		return
	}
	// Keep c:rich's a:bodyPr and a:lstStyle; one paragraph of one run.
	p, err := ce.fragment(`<a:p>` + pPr + `<a:r>` + rPr + `<a:t>` + escText(text) + `</a:t></a:r></a:p>`)
	if err != nil {
		ce.warn("%v", err)
		return
	}
	var kids []*xnode
	placed := false
	for _, k := range rich.kids {
		if k.is(nsA, "p") {
			if !placed {
				kids = append(kids, p)
				placed = true
			}
			continue
		}
		kids = append(kids, k)
	}
	if !placed {
		kids = append(kids, p)
	}
	rich.kids = kids
	rich.dirty = true
}

// newTitle makes a c:title holding text (nil, with a warning, when the
// fragment does not parse).
func (ce *chartEdit) newTitle(text string) *xnode {
	n, err := ce.fragment(`<c:title>` + richXML(text, "", "") + `<c:overlay val="0"/></c:title>`)
	if err != nil {
		ce.warn("%v", err)
		return nil
	}
	return n
}

// setTitle writes the chart title: text into c:title (added when there is
// none), or no title (c:autoTitleDeleted).
func (ce *chartEdit) setTitle(chart *xnode, text string) {
	t := chart.child(nsC, "title")
	cur := ""
	if t != nil {
		cur = titleText(t)
	}
	if cur == text {
		return
	}
	if text == "" {
		if t != nil {
			chart.replaceKid(t, nil)
		}
		ce.setVal(chart, "autoTitleDeleted", "1", chartOrder)
		return
	}
	if t == nil {
		n := ce.newTitle(text)
		if n == nil {
			return
		}
		chart.insertOrdered(n, chartOrder)
		if d := chart.child(nsC, "autoTitleDeleted"); d != nil {
			d.setAttr("val", "0")
		}
		return
	}
	ce.setRich(t, text)
}

// setAxisTitle writes an axis title, or removes it.
func (ce *chartEdit) setAxisTitle(ax *xnode, text string) {
	t := ax.child(nsC, "title")
	cur := ""
	if t != nil {
		cur = titleText(t)
	}
	if cur == text {
		return
	}
	if text == "" {
		ax.replaceKid(t, nil)
		return
	}
	if t == nil {
		if n := ce.newTitle(text); n != nil {
			ax.insertOrdered(n, axisOrder)
		}
		return
	}
	ce.setRich(t, text)
}

// setLegend shows the legend at a position or removes it.
func (ce *chartEdit) setLegend(chart *xnode, lg *sg.Legend) {
	cur := chart.child(nsC, "legend")
	if lg == nil || lg.Position == "NONE" {
		if cur != nil {
			chart.replaceKid(cur, nil)
		}
		return
	}
	pos := map[string]string{"RIGHT": "r", "LEFT": "l", "TOP": "t", "BOTTOM": "b"}[lg.Position]
	if pos == "" {
		pos = "r"
	}
	if cur == nil {
		n, err := ce.fragment(`<c:legend><c:legendPos val="` + pos + `"/><c:overlay val="0"/></c:legend>`)
		if err != nil {
			ce.warn("%v", err)
			return
		}
		chart.insertOrdered(n, chartOrder)
		return
	}
	have := map[string]string{"r": "RIGHT", "l": "LEFT", "t": "TOP", "b": "BOTTOM", "tr": "RIGHT", "": "RIGHT"}[cur.child(nsC, "legendPos").av("val")]
	if have != lg.Position {
		ce.setVal(cur, "legendPos", pos, legendOrder)
	}
}

// setDataLabels shows or hides the values as data labels: the plot's
// c:dLbls/c:showVal and each series' own c:dLbls.
func (ce *chartEdit) setDataLabels(plot *xnode, on bool) {
	dl := plot.child(nsC, "dLbls")
	if (dl != nil && dl.child(nsC, "showVal").av("val") == "1") == on {
		return
	}
	v := boolText(on)
	if dl == nil {
		n, err := ce.fragment(`<c:dLbls><c:showLegendKey val="0"/><c:showVal val="` + v + `"/><c:showCatName val="0"/><c:showSerName val="0"/><c:showPercent val="0"/><c:showBubbleSize val="0"/></c:dLbls>`)
		if err != nil {
			ce.warn("%v", err)
			return
		}
		sers := plot.all(nsC, "ser")
		if len(sers) > 0 {
			insertAfter(plot, sers[len(sers)-1], n)
		} else {
			plot.insertOrdered(n, []string{"barDir", "grouping", "scatterStyle", "radarStyle", "varyColors", "ser", "dLbls"})
		}
	} else {
		ce.setVal(dl, "showVal", v, dLblsOrder)
	}
	for _, s := range plot.all(nsC, "ser") {
		if sd := s.child(nsC, "dLbls"); sd != nil && sd.child(nsC, "showVal") != nil {
			sd.child(nsC, "showVal").setAttr("val", v)
		}
	}
}

// setAxis writes how an axis is drawn where it differs from the part:
// orientation, deletion, gridlines and the tick labels' number format.
func (ce *chartEdit) setAxis(ax *xnode, want sg.ChartAxis) {
	cur := chartAxis(ax)
	if cur.Reversed != want.Reversed {
		sc := ax.child(nsC, "scaling")
		if sc == nil {
			sc = newElem(ax.prefix, "scaling", nsC)
			ax.insertOrdered(sc, axisOrder)
		}
		o := "minMax"
		if want.Reversed {
			o = "maxMin"
		}
		ce.setVal(sc, "orientation", o, scalingOrd)
	}
	if cur.Hidden != want.Hidden {
		ce.setVal(ax, "delete", boolText(want.Hidden), axisOrder)
	}
	for _, g := range []struct {
		local     string
		have, now bool
	}{{"majorGridlines", cur.MajorGridlines, want.MajorGridlines}, {"minorGridlines", cur.MinorGridlines, want.MinorGridlines}} {
		if g.have == g.now {
			continue
		}
		if g.now {
			ax.insertOrdered(newElem(ax.prefix, g.local, nsC), axisOrder)
		} else {
			ax.replaceKid(ax.child(nsC, g.local), nil)
		}
	}
	if cur.NumberFormat != want.NumberFormat {
		code, linked := want.NumberFormat, "0"
		if code == "" {
			code, linked = "General", "1"
		}
		nf := ax.child(nsC, "numFmt")
		if nf == nil {
			ax.insertOrdered(newElem(ax.prefix, "numFmt", nsC, "formatCode", code, "sourceLinked", linked), axisOrder)
		} else {
			nf.setAttr("formatCode", code)
			nf.setAttr("sourceLinked", linked)
		}
	}
}
