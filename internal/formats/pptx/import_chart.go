package pptx

import (
	"fmt"
	"strconv"
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// chart reads a chart part (c:chartSpace, ECMA-376 §21.2) into chart data:
// the first plot of the plot area, its series' names, categories, values
// and number formats from the cached values (c:strCache / c:numCache; the
// formulas in c:f only say where the embedded workbook holds them), the
// axes as stored and c:varyColors. The embedded workbook is not opened:
// the caches are what PowerPoint draws.
func (im *importer) chart(part string, cc *colorCtx) (*sg.Chart, error) {
	doc, err := im.p.xml(part)
	if err != nil {
		return nil, err
	}
	ch := doc.root().child(nsC, "chart")
	if ch == nil {
		return nil, fmt.Errorf("no c:chart element")
	}
	out := &sg.Chart{Categories: []string{}, Series: []sg.Series{}, Part: part}
	if t := ch.child(nsC, "title"); t != nil {
		out.Title = titleText(t)
	}
	if lg := ch.child(nsC, "legend"); lg != nil {
		pos := map[string]string{"r": "RIGHT", "l": "LEFT", "t": "TOP", "b": "BOTTOM", "tr": "RIGHT"}[lg.child(nsC, "legendPos").av("val")]
		if pos == "" {
			pos = "RIGHT"
		}
		out.Legend = &sg.Legend{Position: pos}
	}
	var plot *xnode
	for _, e := range ch.child(nsC, "plotArea").elems() {
		if strings.HasSuffix(e.local, "Chart") {
			plot = e
			break
		}
	}
	if plot == nil {
		return nil, fmt.Errorf("plot area has no chart")
	}
	var known bool
	if out.ChartType, known = plotChartType(plot); !known {
		im.warn(part, "chart type %s approximated as a column chart", plot.local)
	}
	if g := plot.child(nsC, "grouping").av("val"); g == "stacked" || g == "percentStacked" {
		out.Stacked = true
		out.PercentStacked = g == "percentStacked"
	}
	if dl := plot.child(nsC, "dLbls"); dl != nil && dl.child(nsC, "showVal").av("val") == "1" {
		out.DataLabels = true
	}
	vary := ctBool(plot.child(nsC, "varyColors"), true)
	out.VaryColors = &vary
	for i, ser := range plot.all(nsC, "ser") {
		s := sg.Series{Name: seriesName(ser)}
		if s.Name == "" {
			s.Name = "Series " + strconv.Itoa(i+1)
		}
		cat := ser.child(nsC, "cat")
		val := ser.child(nsC, "val")
		if out.ChartType == sg.ChartScatter {
			cat, val = ser.child(nsC, "xVal"), ser.child(nsC, "yVal")
		}
		if i == 0 {
			out.Categories = cachePoints(cat)
		}
		for _, v := range cachePoints(val) {
			s.Values = append(s.Values, num(v))
		}
		if fc := strings.TrimSpace(valueCache(val).child(nsC, "formatCode").allText()); fc != "General" {
			s.FormatCode = fc
		}
		if out.ChartType != sg.ChartScatter {
			for len(s.Values) < len(out.Categories) {
				s.Values = append(s.Values, 0)
			}
			s.Values = s.Values[:len(out.Categories)]
		}
		if s.Values == nil {
			s.Values = []float64{}
		}
		fillOf := ser.path(nsC, "spPr")
		if lineLike(plot) {
			fillOf = fillOf.child(nsA, "ln")
		}
		if sf := fillOf.child(nsA, "solidFill"); sf != nil {
			if pc, ok := cc.colorChild(sf); ok {
				c := pc.c
				s.Color = &c
			}
		}
		out.Series = append(out.Series, s)
	}
	// The plot's first c:axId is its category (or X) axis, the second its
	// value (or Y) axis.
	ids := plot.all(nsC, "axId")
	for k, dst := range []struct {
		title *string
		axis  **sg.ChartAxis
	}{{&out.XAxisTitle, &out.CategoryAxis}, {&out.YAxisTitle, &out.ValueAxis}} {
		if k >= len(ids) {
			break
		}
		a := axisByID(ch.child(nsC, "plotArea"), ids[k].av("val"))
		if a == nil {
			continue
		}
		*dst.title = titleText(a.child(nsC, "title"))
		*dst.axis = chartAxis(a)
	}
	return out, nil
}

// plotChartType is the chart type a plot element (c:barChart, ...) is
// imported as; known is false for a plot drawn as a column chart in its
// stead.
func plotChartType(plot *xnode) (t string, known bool) {
	switch plot.local {
	case "barChart", "bar3DChart":
		if plot.child(nsC, "barDir").av("val") == "bar" {
			return sg.ChartBar, true
		}
		return sg.ChartColumn, true
	case "lineChart", "line3DChart", "stockChart", "radarChart":
		return sg.ChartLine, true
	case "pieChart", "pie3DChart", "ofPieChart":
		return sg.ChartPie, true
	case "doughnutChart":
		return sg.ChartDoughnut, true
	case "areaChart", "area3DChart":
		return sg.ChartArea, true
	case "scatterChart", "bubbleChart":
		return sg.ChartScatter, true
	}
	return sg.ChartColumn, false
}

// ctBool reads a chart CT_Boolean element: absent gives def, present
// without val true (its default, e.g. ECMA-376 Part 1 §21.2.2.227).
func ctBool(e *xnode, def bool) bool {
	if e == nil {
		return def
	}
	v, ok := e.attr("val")
	return !ok || v == "1" || v == "true"
}

// seriesName is a series' name as PowerPoint shows it: the cached text of
// c:tx (c:strRef/c:strCache points joined by spaces) or its literal c:v;
// the formula c:f is where the name lives in the workbook, not the name.
func seriesName(ser *xnode) string {
	tx := ser.child(nsC, "tx")
	if v := tx.child(nsC, "v"); v != nil {
		return strings.TrimSpace(v.allText())
	}
	var parts []string
	for _, p := range cachePoints(tx) {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, " ")
}

// titleText is the text a chart or axis title shows: its rich text, or
// the cached text of a title linked to a cell (never the formula). An
// automatic title (no c:tx) reads "".
func titleText(title *xnode) string {
	tx := title.child(nsC, "tx")
	if r := tx.child(nsC, "rich"); r != nil {
		return strings.TrimSpace(r.allText())
	}
	return seriesName(title)
}

// valueCache returns the c:numCache or c:numLit of a c:val / c:yVal.
func valueCache(val *xnode) *xnode {
	if c := val.path(nsC, "numRef", "numCache"); c != nil {
		return c
	}
	return val.child(nsC, "numLit")
}

// axisByID finds the axis element (c:catAx, c:dateAx, c:serAx, c:valAx)
// of the plot area with that c:axId.
func axisByID(plotArea *xnode, id string) *xnode {
	for _, e := range plotArea.elems() {
		if strings.HasSuffix(e.local, "Ax") && e.child(nsC, "axId").av("val") == id {
			return e
		}
	}
	return nil
}

// chartAxis reads how an axis is drawn.
func chartAxis(a *xnode) *sg.ChartAxis {
	ax := &sg.ChartAxis{
		Reversed:       a.path(nsC, "scaling", "orientation").av("val") == "maxMin",
		Hidden:         ctBool(a.child(nsC, "delete"), false),
		MajorGridlines: a.child(nsC, "majorGridlines") != nil,
		MinorGridlines: a.child(nsC, "minorGridlines") != nil,
	}
	if nf := a.child(nsC, "numFmt"); nf != nil && !ctBoolAttr(nf, "sourceLinked") {
		if fc := nf.av("formatCode"); fc != "General" {
			ax.NumberFormat = fc
		}
	}
	return ax
}

// ctBoolAttr reads an xsd:boolean attribute ("1" or "true"; absent false).
func ctBoolAttr(e *xnode, name string) bool {
	v := e.av(name)
	return v == "1" || v == "true"
}

// cachePoints returns the cached point values of a c:cat / c:val, ordered by
// c:pt/@idx (missing points are empty).
func cachePoints(e *xnode) []string {
	if e == nil {
		return []string{}
	}
	var cache *xnode
	for _, ref := range e.elems() {
		for _, k := range ref.elems() {
			if k.local == "strCache" || k.local == "numCache" {
				cache = k
			}
		}
		if ref.local == "strLit" || ref.local == "numLit" {
			cache = ref
		}
		if ref.local == "multiLvlStrRef" {
			if lvl := ref.path(nsC, "multiLvlStrCache", "lvl"); lvl != nil {
				cache = lvl
			}
		}
	}
	if cache == nil {
		return []string{}
	}
	n := int(inum(cache.child(nsC, "ptCount").av("val")))
	pts := cache.all(nsC, "pt")
	if n < len(pts) {
		n = len(pts)
	}
	if n > 100000 {
		n = 100000
	}
	out := make([]string, n)
	for _, p := range pts {
		if i := int(inum(p.av("idx"))); i >= 0 && i < n {
			out[i] = p.child(nsC, "v").allText()
		}
	}
	return out
}
