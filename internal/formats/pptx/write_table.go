package pptx

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// tableXML writes a TABLE node as p:graphicFrame with a:tbl. Covered grid
// slots of merged cells get hMerge / vMerge placeholders.
func (w *writer) tableXML(n *sg.Node, m emuMap) string {
	id := w.nextID()
	t := n.Table
	if t == nil || len(t.Columns) == 0 || len(t.Rows) == 0 {
		w.warn("table %s without a grid written as a rectangle", n.ID)
		r := *n
		r.Type, r.Children = sg.TypeRectangle, nil
		return w.spXML(&r, m)
	}
	var b strings.Builder
	b.WriteString(`<p:graphicFrame><p:nvGraphicFramePr>` + w.cNvPrXML(n, id) + `<p:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></p:cNvGraphicFramePr><p:nvPr/></p:nvGraphicFramePr>`)
	b.WriteString(xfrmXML("p", n, m, false))
	b.WriteString(`<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl>`)
	b.WriteString(`<a:tblPr`)
	if t.HeaderRow {
		b.WriteString(` firstRow="1"`)
	}
	if t.BandedRows {
		b.WriteString(` bandRow="1"`)
	}
	b.WriteString(`>`)
	if t.StyleID != "" {
		b.WriteString(`<a:tableStyleId>` + esc(t.StyleID) + `</a:tableStyleId>`)
	}
	b.WriteString(`</a:tblPr><a:tblGrid>`)
	for _, c := range t.Columns {
		fmt.Fprintf(&b, `<a:gridCol w="%d"/>`, int64(math.Round(c*sg.EMUPerPx)))
	}
	b.WriteString(`</a:tblGrid>`)
	grid := make([][]*sg.Node, len(t.Rows))
	covered := make([][]string, len(t.Rows))
	for r := range grid {
		grid[r] = make([]*sg.Node, len(t.Columns))
		covered[r] = make([]string, len(t.Columns))
	}
	for _, c := range n.Children {
		if c.Cell == nil || c.Cell.Row < 0 || c.Cell.Row >= len(t.Rows) || c.Cell.Column < 0 || c.Cell.Column >= len(t.Columns) {
			continue
		}
		grid[c.Cell.Row][c.Cell.Column] = c
		rs, cs := c.Cell.Spans()
		for i := 0; i < rs && c.Cell.Row+i < len(t.Rows); i++ {
			for j := 0; j < cs && c.Cell.Column+j < len(t.Columns); j++ {
				if i == 0 && j == 0 {
					continue
				}
				switch {
				case i == 0:
					covered[c.Cell.Row+i][c.Cell.Column+j] = ` hMerge="1"`
				case j == 0:
					covered[c.Cell.Row+i][c.Cell.Column+j] = ` vMerge="1"`
				default:
					covered[c.Cell.Row+i][c.Cell.Column+j] = ` hMerge="1" vMerge="1"`
				}
			}
		}
	}
	for r, h := range t.Rows {
		fmt.Fprintf(&b, `<a:tr h="%d">`, int64(math.Round(h*sg.EMUPerPx)))
		for c := range t.Columns {
			cell := grid[r][c]
			if cell == nil {
				b.WriteString(`<a:tc` + covered[r][c] + `><a:txBody><a:bodyPr/><a:lstStyle/><a:p><a:endParaRPr lang="en-US"/></a:p></a:txBody><a:tcPr/></a:tc>`)
				continue
			}
			b.WriteString(w.cellXML(cell))
		}
		b.WriteString(`</a:tr>`)
	}
	b.WriteString(`</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`)
	return b.String()
}

func (w *writer) cellXML(cell *sg.Node) string {
	var b strings.Builder
	b.WriteString(`<a:tc`)
	rs, cs := cell.Cell.Spans()
	if cs > 1 {
		b.WriteString(` gridSpan="` + strconv.Itoa(cs) + `"`)
	}
	if rs > 1 {
		b.WriteString(` rowSpan="` + strconv.Itoa(rs) + `"`)
	}
	b.WriteString(`>`)
	b.WriteString(w.txBodyXML("a", &cell.TextContent, true, false))
	b.WriteString(w.tcPrXML(cell))
	b.WriteString(`</a:tc>`)
	return b.String()
}

func (w *writer) tcPrXML(cell *sg.Node) string {
	var b strings.Builder
	b.WriteString(`<a:tcPr`)
	if tb := cell.TextBox; tb != nil && tb.Insets != nil {
		in := tb.Insets
		fmt.Fprintf(&b, ` marL="%d" marR="%d" marT="%d" marB="%d"`, int64(math.Round(in.Left*sg.EMUPerPx)), int64(math.Round(in.Right*sg.EMUPerPx)),
			int64(math.Round(in.Top*sg.EMUPerPx)), int64(math.Round(in.Bottom*sg.EMUPerPx)))
	}
	if cell.Style != nil {
		switch cell.Style.TextAlignVertical {
		case sg.AlignCenter:
			b.WriteString(` anchor="ctr"`)
		case sg.AlignBottom:
			b.WriteString(` anchor="b"`)
		}
	}
	b.WriteString(`>`)
	if bd := cell.Cell.Borders; bd != nil {
		for _, s := range []struct {
			tag string
			b   *sg.Border
		}{{"lnL", bd.Left}, {"lnR", bd.Right}, {"lnT", bd.Top}, {"lnB", bd.Bottom}} {
			if s.b == nil {
				continue
			}
			fmt.Fprintf(&b, `<a:%s w="%d"><a:solidFill>%s</a:solidFill>`, s.tag, int64(math.Round(s.b.Weight*sg.EMUPerPx)), w.colorXML(s.b.Color, nil, nil))
			if s.b.Dash != "" {
				b.WriteString(`<a:prstDash val="` + esc(s.b.Dash) + `"/>`)
			}
			b.WriteString(`</a:` + s.tag + `>`)
		}
	}
	if len(cell.Fills) > 0 {
		b.WriteString(w.fillXML(cell.Fills))
	}
	b.WriteString(`</a:tcPr>`)
	return b.String()
}

// chartFrameXML writes a CHART node as a graphic frame pointing at a new
// chart part.
func (w *writer) chartFrameXML(n *sg.Node, m emuMap) string {
	if n.Chart == nil || w.chart == nil {
		w.warn("chart %s written as an empty rectangle", n.ID)
		r := *n
		r.Type = sg.TypeRectangle
		return w.spXML(&r, m)
	}
	rid, err := w.chart(n)
	if err != nil {
		w.warn("chart %s: %v; written as an empty rectangle", n.ID, err)
		r := *n
		r.Type = sg.TypeRectangle
		return w.spXML(&r, m)
	}
	id := w.nextID()
	return `<p:graphicFrame><p:nvGraphicFramePr>` + w.cNvPrXML(n, id) + `<p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>` +
		xfrmXML("p", n, m, false) +
		`<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="` + rid + `"/></a:graphicData></a:graphic></p:graphicFrame>`
}

// plotHeadXML writes the children of a plot element (c:barChart, ...)
// before its series: direction and grouping, scatter style, varyColors
// (ECMA-376 Part 1 §21.2.2.16 barChart and its siblings, in schema order).
func plotHeadXML(tag string, ch *sg.Chart) string {
	grouping := "standard"
	if ch.Stacked {
		grouping = "stacked"
		if ch.PercentStacked {
			grouping = "percentStacked"
		}
	}
	var head string
	switch tag {
	case "barChart":
		dir := "col"
		if ch.ChartType == sg.ChartBar {
			dir = "bar"
		}
		if !ch.Stacked {
			grouping = "clustered"
		}
		head = `<c:barDir val="` + dir + `"/><c:grouping val="` + grouping + `"/>`
	case "lineChart", "areaChart":
		head = `<c:grouping val="` + grouping + `"/>`
	case "scatterChart":
		head = `<c:scatterStyle val="lineMarker"/>`
	}
	return head + `<c:varyColors val="` + boolText(ch.VariesColors()) + `"/>`
}

// plotTailXML writes the children of a plot element after its series and
// data labels and before its axis ids: bar gap and overlap, a pie's first
// slice angle, a doughnut's hole.
func plotTailXML(tag string, ch *sg.Chart) string {
	switch tag {
	case "barChart":
		if ch.Stacked {
			return `<c:gapWidth val="150"/><c:overlap val="100"/>`
		}
		return `<c:gapWidth val="150"/>`
	case "doughnutChart":
		return `<c:firstSliceAng val="0"/><c:holeSize val="50"/>`
	case "pieChart":
		return `<c:firstSliceAng val="0"/>`
	}
	return ""
}

// chartPartXML writes a chart part (c:chartSpace) with the data cached
// inline; there is no embedded workbook, so PowerPoint shows the chart but
// asks for data to edit it.
func (w *writer) chartPartXML(ch *sg.Chart) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n")
	b.WriteString(`<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">`)
	b.WriteString(`<c:roundedCorners val="0"/><c:chart>`)
	if ch.Title != "" {
		b.WriteString(`<c:title><c:tx><c:rich><a:bodyPr/><a:lstStyle/><a:p><a:r><a:t>` + esc(ch.Title) + `</a:t></a:r></a:p></c:rich></c:tx><c:overlay val="0"/></c:title><c:autoTitleDeleted val="0"/>`)
	} else {
		b.WriteString(`<c:autoTitleDeleted val="1"/>`)
	}
	b.WriteString(`<c:plotArea><c:layout/>`)
	tag := plotTags[ch.ChartType]
	if tag == "" {
		tag = "barChart"
	}
	b.WriteString(`<c:` + tag + `>` + plotHeadXML(tag, ch))
	for i, s := range ch.Series {
		fmt.Fprintf(&b, `<c:ser><c:idx val="%d"/><c:order val="%d"/><c:tx><c:v>%s</c:v></c:tx>`, i, i, esc(s.Name))
		if s.Color != nil {
			b.WriteString(`<c:spPr>` + w.fillXML([]sg.Paint{sg.Solid(*s.Color)}) + `</c:spPr>`)
		}
		catTag, valTag := "c:cat", "c:val"
		if tag == "scatterChart" {
			catTag, valTag = "c:xVal", "c:yVal"
		}
		fmt.Fprintf(&b, `<%s><c:strLit><c:ptCount val="%d"/>`, catTag, len(ch.Categories))
		for j, c := range ch.Categories {
			fmt.Fprintf(&b, `<c:pt idx="%d"><c:v>%s</c:v></c:pt>`, j, esc(c))
		}
		code := s.FormatCode
		if code == "" {
			code = "General"
		}
		fmt.Fprintf(&b, `</c:strLit></%s><%s><c:numLit><c:formatCode>%s</c:formatCode><c:ptCount val="%d"/>`, catTag, valTag, esc(code), len(s.Values))
		for j, v := range s.Values {
			fmt.Fprintf(&b, `<c:pt idx="%d"><c:v>%s</c:v></c:pt>`, j, strconv.FormatFloat(v, 'g', -1, 64))
		}
		fmt.Fprintf(&b, `</c:numLit></%s>`, valTag)
		if tag == "lineChart" {
			b.WriteString(`<c:smooth val="0"/>`)
		}
		b.WriteString(`</c:ser>`)
	}
	if ch.DataLabels {
		b.WriteString(`<c:dLbls><c:showLegendKey val="0"/><c:showVal val="1"/><c:showCatName val="0"/><c:showSerName val="0"/><c:showPercent val="0"/><c:showBubbleSize val="0"/></c:dLbls>`)
	}
	b.WriteString(plotTailXML(tag, ch))
	hasAxes := tag != "pieChart" && tag != "doughnutChart"
	if hasAxes {
		b.WriteString(`<c:axId val="111"/><c:axId val="222"/>`)
	}
	b.WriteString(`</c:` + tag + `>`)
	if hasAxes {
		axTitle := func(t string) string {
			if t == "" {
				return ""
			}
			return `<c:title><c:tx><c:rich><a:bodyPr/><a:lstStyle/><a:p><a:r><a:t>` + esc(t) + `</a:t></a:r></a:p></c:rich></c:tx><c:overlay val="0"/></c:title>`
		}
		catPos, valPos := "b", "l"
		if ch.ChartType == sg.ChartBar {
			catPos, valPos = "l", "b"
		}
		catAx, valAx := ch.Axes()
		// axis writes an axis as the model holds it (ECMA-376 Part 1
		// §21.2.2.25 catAx, §21.2.2.226 valAx; children in schema order).
		axis := func(tag, id, cross, pos, title string, a sg.ChartAxis) string {
			o := "minMax"
			if a.Reversed {
				o = "maxMin"
			}
			x := `<c:` + tag + `><c:axId val="` + id + `"/><c:scaling><c:orientation val="` + o + `"/></c:scaling><c:delete val="` + boolText(a.Hidden) + `"/><c:axPos val="` + pos + `"/>`
			if a.MajorGridlines {
				x += `<c:majorGridlines/>`
			}
			if a.MinorGridlines {
				x += `<c:minorGridlines/>`
			}
			x += axTitle(title)
			if a.NumberFormat != "" {
				x += `<c:numFmt formatCode="` + esc(a.NumberFormat) + `" sourceLinked="0"/>`
			}
			return x + `<c:crossAx val="` + cross + `"/></c:` + tag + `>`
		}
		first := "catAx"
		if tag == "scatterChart" {
			first = "valAx"
		}
		b.WriteString(axis(first, "111", "222", catPos, ch.XAxisTitle, catAx))
		b.WriteString(axis("valAx", "222", "111", valPos, ch.YAxisTitle, valAx))
	}
	b.WriteString(`</c:plotArea>`)
	if ch.Legend != nil && ch.Legend.Position != "NONE" {
		pos := map[string]string{"RIGHT": "r", "LEFT": "l", "TOP": "t", "BOTTOM": "b"}[ch.Legend.Position]
		if pos == "" {
			pos = "r"
		}
		b.WriteString(`<c:legend><c:legendPos val="` + pos + `"/><c:overlay val="0"/></c:legend>`)
	}
	b.WriteString(`<c:plotVisOnly val="1"/></c:chart></c:chartSpace>`)
	return b.String()
}
