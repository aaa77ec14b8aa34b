package pptx

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// plotTags maps a chart type to the plot element a changed type is
// written as.
var plotTags = map[string]string{sg.ChartBar: "barChart", sg.ChartColumn: "barChart", sg.ChartLine: "lineChart", sg.ChartPie: "pieChart",
	sg.ChartDoughnut: "doughnutChart", sg.ChartArea: "areaChart", sg.ChartScatter: "scatterChart"}

// setType changes the plot's chart type. Bars and columns only turn
// (c:barDir, with the axes moved to the other sides); any other change
// rebuilds the plot element as the new type around the same series (their
// names, colours, points, data labels, categories and values with their
// formulas and number formats), and gives it the axes it needs.
func (ce *chartEdit) setType(plotArea, plot *xnode, ch *sg.Chart) (*xnode, error) {
	tag := plotTags[ch.ChartType]
	if tag == "" {
		return nil, fmt.Errorf("unknown chart type %q", ch.ChartType)
	}
	ids := plot.all(nsC, "axId")
	if strings.HasPrefix(plot.local, "bar") && tag == "barChart" {
		dir := "col"
		if ch.ChartType == sg.ChartBar {
			dir = "bar"
		}
		ce.setVal(plot, "barDir", dir, []string{"barDir"})
		catPos, valPos := "b", "l"
		if dir == "bar" {
			catPos, valPos = "l", "b"
		}
		for k, pos := range []string{catPos, valPos} {
			if k < len(ids) {
				if ax := axisByID(plotArea, ids[k].av("val")); ax != nil {
					ce.setVal(ax, "axPos", pos, axisOrder)
				}
			}
		}
		return plot, nil
	}
	scatter := tag == "scatterChart"
	catTag, valTag := "cat", "val"
	if scatter {
		catTag, valTag = "xVal", "yVal"
	}
	var b strings.Builder
	b.WriteString(`<c:` + tag + `>` + plotHeadXML(tag, ch))
	for _, s := range plot.all(nsC, "ser") {
		b.WriteString(`<c:ser>`)
		for _, k := range s.elems() {
			if k.ns != nsC {
				continue
			}
			switch k.local {
			case "idx", "order", "tx", "spPr", "dPt", "dLbls":
				b.Write(k.bytes())
			case "cat", "xVal", "val", "yVal":
				name := catTag
				if k.local == "val" || k.local == "yVal" {
					name = valTag
				}
				if tag == "barChart" && name == "cat" {
					b.WriteString(`<c:invertIfNegative val="0"/>`)
				}
				// The same reference under the new type's name.
				inner := k.bytes()
				open := bytes.IndexByte(inner, '>')
				closeAt := bytes.LastIndex(inner, []byte("</"))
				if open < 0 || closeAt < open || inner[open-1] == '/' {
					b.WriteString(`<c:` + name + `/>`)
					continue
				}
				b.WriteString(`<c:` + name + `>`)
				b.Write(inner[open+1 : closeAt])
				b.WriteString(`</c:` + name + `>`)
			}
		}
		if tag == "lineChart" || tag == "scatterChart" {
			b.WriteString(`<c:smooth val="0"/>`)
		}
		b.WriteString(`</c:ser>`)
	}
	if dl := plot.child(nsC, "dLbls"); dl != nil {
		b.Write(dl.bytes())
	}
	b.WriteString(plotTailXML(tag, ch))
	if tag == "lineChart" {
		b.WriteString(`<c:marker val="1"/>`)
	}
	// Axes: reuse the old ones when their kinds fit, else new ones.
	needAxes := tag != "pieChart" && tag != "doughnutChart"
	var axes []*xnode
	for _, id := range ids {
		if ax := axisByID(plotArea, id.av("val")); ax != nil {
			axes = append(axes, ax)
		}
	}
	fits := len(axes) == 2 && axes[1].local == "valAx" && (axes[0].local == "valAx") == scatter && axes[0].local != "serAx"
	var axisXML []string
	if needAxes {
		if !fits {
			next := int64(1)
			for _, e := range plotArea.elems() {
				if v, err := strconv.ParseInt(e.child(nsC, "axId").av("val"), 10, 64); err == nil && v >= next {
					next = v + 1
				}
			}
			id1, id2 := strconv.FormatInt(next, 10), strconv.FormatInt(next+1, 10)
			b.WriteString(`<c:axId val="` + id1 + `"/><c:axId val="` + id2 + `"/>`)
			axisXML = newAxesXML(ch.ChartType, id1, id2)
		} else {
			for _, id := range ids[:2] {
				b.Write(id.bytes())
			}
			if tag == "barChart" {
				catPos, valPos := "b", "l"
				if ch.ChartType == sg.ChartBar {
					catPos, valPos = "l", "b"
				}
				ce.setVal(axes[0], "axPos", catPos, axisOrder)
				ce.setVal(axes[1], "axPos", valPos, axisOrder)
			}
		}
	}
	b.WriteString(`</c:` + tag + `>`)
	np, err := ce.fragment(b.String())
	if err != nil {
		return nil, err
	}
	plotArea.replaceKid(plot, np)
	if !needAxes || !fits {
		// Drop the old axes no other plot uses.
		used := map[string]bool{}
		for _, e := range plotArea.elems() {
			if strings.HasSuffix(e.local, "Chart") {
				for _, id := range e.all(nsC, "axId") {
					used[id.av("val")] = true
				}
			}
		}
		for _, ax := range axes {
			if !used[ax.child(nsC, "axId").av("val")] {
				plotArea.replaceKid(ax, nil)
			}
		}
	}
	for _, frag := range axisXML {
		ax, err := ce.fragment(frag)
		if err != nil {
			return nil, err
		}
		insertBefore(plotArea, ax, "dTable", "spPr", "extLst")
	}
	return np, nil
}

// newAxesXML writes the two axes of a new plot of that type, as
// PowerPoint writes a new chart's: category (or X value) axis with ids
// id1 crossing id2, value axis with major gridlines.
func newAxesXML(chartType, id1, id2 string) []string {
	catPos, valPos := "b", "l"
	if chartType == sg.ChartBar {
		catPos, valPos = "l", "b"
	}
	first := `<c:catAx><c:axId val="` + id1 + `"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="` + catPos + `"/><c:majorTickMark val="out"/><c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/><c:crossAx val="` + id2 + `"/><c:crosses val="autoZero"/><c:auto val="1"/><c:lblAlgn val="ctr"/><c:lblOffset val="100"/><c:noMultiLvlLbl val="0"/></c:catAx>`
	if chartType == sg.ChartScatter {
		first = `<c:valAx><c:axId val="` + id1 + `"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="` + catPos + `"/><c:numFmt formatCode="General" sourceLinked="1"/><c:majorTickMark val="out"/><c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/><c:crossAx val="` + id2 + `"/><c:crosses val="autoZero"/><c:crossBetween val="midCat"/></c:valAx>`
	}
	return []string{first, `<c:valAx><c:axId val="` + id2 + `"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="` + valPos + `"/><c:majorGridlines/><c:numFmt formatCode="General" sourceLinked="1"/><c:majorTickMark val="out"/><c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/><c:crossAx val="` + id1 + `"/><c:crosses val="autoZero"/><c:crossBetween val="between"/></c:valAx>`}
}

// insertBefore puts c before parent's first child element named one of
// names, else last.
func insertBefore(parent, c *xnode, names ...string) {
	parent.dirty = true
	for i, k := range parent.kids {
		if k.kind == kElem && slices.Contains(names, k.local) {
			parent.kids = slices.Insert(parent.kids, i, c)
			return
		}
	}
	parent.kids = append(parent.kids, c)
}
