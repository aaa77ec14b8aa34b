package pptx

import (
	"fmt"
	"strconv"
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// chart reads a chart part (c:chartSpace, ECMA-376 §21.2) into chart data:
// the first plot of the plot area, its series' names, categories and values
// from the cached values (c:strCache / c:numCache). The embedded workbook is
// not opened.
func (im *importer) chart(part string, cc *colorCtx) (*sg.Chart, error) {
	doc, err := im.p.xml(part)
	if err != nil {
		return nil, err
	}
	ch := doc.root().child(nsC, "chart")
	if ch == nil {
		return nil, fmt.Errorf("no c:chart element")
	}
	out := &sg.Chart{Categories: []string{}, Series: []sg.Series{}}
	if t := ch.child(nsC, "title"); t != nil {
		out.Title = strings.TrimSpace(t.path(nsC, "tx", "rich").allText())
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
	switch plot.local {
	case "barChart", "bar3DChart":
		out.ChartType = sg.ChartColumn
		if plot.child(nsC, "barDir").av("val") == "bar" {
			out.ChartType = sg.ChartBar
		}
	case "lineChart", "line3DChart", "stockChart", "radarChart":
		out.ChartType = sg.ChartLine
	case "pieChart", "pie3DChart", "ofPieChart":
		out.ChartType = sg.ChartPie
	case "doughnutChart":
		out.ChartType = sg.ChartDoughnut
	case "areaChart", "area3DChart":
		out.ChartType = sg.ChartArea
	case "scatterChart", "bubbleChart":
		out.ChartType = sg.ChartScatter
	default:
		out.ChartType = sg.ChartColumn
		im.warn(part, "chart type %s approximated as a column chart", plot.local)
	}
	if g := plot.child(nsC, "grouping").av("val"); g == "stacked" || g == "percentStacked" {
		out.Stacked = true
	}
	if dl := plot.child(nsC, "dLbls"); dl != nil && dl.child(nsC, "showVal").av("val") == "1" {
		out.DataLabels = true
	}
	for i, ser := range plot.all(nsC, "ser") {
		s := sg.Series{Name: strings.TrimSpace(ser.child(nsC, "tx").allText())}
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
		if out.ChartType != sg.ChartScatter {
			for len(s.Values) < len(out.Categories) {
				s.Values = append(s.Values, 0)
			}
			s.Values = s.Values[:len(out.Categories)]
		}
		if s.Values == nil {
			s.Values = []float64{}
		}
		if sf := ser.path(nsC, "spPr").child(nsA, "solidFill"); sf != nil {
			if pc, ok := cc.colorChild(sf); ok {
				c := pc.c
				s.Color = &c
			}
		}
		out.Series = append(out.Series, s)
	}
	for _, ax := range []struct {
		name string
		dst  *string
	}{{"catAx", &out.XAxisTitle}, {"valAx", &out.YAxisTitle}} {
		if a := ch.child(nsC, "plotArea").child(nsC, ax.name); a != nil {
			*ax.dst = strings.TrimSpace(a.child(nsC, "title").allText())
		}
	}
	return out, nil
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
