package bench

import (
	"fmt"
	"math"
	"strings"

	"gopkg.in/yaml.v3"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// chartCheck is chart: a CHART node's type and data (ECMA-376 Part 1
// §21.2 as the scene graph keeps it). Each given key must hold; series
// are matched by name (or by position when a series gives no name) and
// values within 0.1% relative (1e-9 absolute near 0).
//
//	chart: {node: {slide: 6, type: CHART}, type: COLUMN,
//	        categories: [Q1, Q2, Q3, Q4],
//	        series: [{name: Revenue, values: [116, 90, 99, 110]}]}
type chartCheck struct {
	node       Selector
	typ        string
	categories []string
	series     []seriesWant
	count      int // number of series; 0 means not checked
}

type seriesWant struct {
	name   string
	values []float64
	hasVal bool
}

var chartTypes = []string{sg.ChartBar, sg.ChartColumn, sg.ChartLine, sg.ChartPie, sg.ChartDoughnut, sg.ChartArea, sg.ChartScatter}

func parseChart(p *parser, v *yaml.Node) checker {
	c := &chartCheck{}
	var hasNode bool
	p.mapping(v, map[string]func(*yaml.Node){
		"node": func(n *yaml.Node) { c.node = p.selector(n); hasNode = true },
		"type": func(n *yaml.Node) {
			c.typ = strings.ToUpper(p.str(n))
			if !contains(chartTypes, c.typ) {
				p.errAt(n, "unknown chart type %q; want one of %s", n.Value, strings.Join(chartTypes, ", "))
			}
		},
		"categories": func(n *yaml.Node) { c.categories = p.strs(n) },
		"series_count": func(n *yaml.Node) {
			if c.count = p.integer(n); c.count < 1 {
				p.errAt(n, "series_count is 1 or more")
			}
		},
		"series": func(n *yaml.Node) {
			for _, sn := range p.seq(n) {
				var s seriesWant
				p.mapping(sn, map[string]func(*yaml.Node){
					"name": func(x *yaml.Node) { s.name = p.str(x) },
					"values": func(x *yaml.Node) {
						s.hasVal = true
						for _, e := range p.seq(x) {
							s.values = append(s.values, p.number(e))
						}
					},
				})
				c.series = append(c.series, s)
			}
		},
	})
	if v.Kind == yaml.MappingNode && (!hasNode || (c.typ == "" && c.categories == nil && c.series == nil && c.count == 0)) {
		p.errAt(v, "chart needs node and at least one of type, categories, series, series_count")
	}
	return c
}

func (c *chartCheck) describe() string {
	var parts []string
	if c.typ != "" {
		parts = append(parts, "type "+c.typ)
	}
	if c.categories != nil {
		parts = append(parts, fmt.Sprintf("categories %q", c.categories))
	}
	if c.count > 0 {
		parts = append(parts, fmt.Sprintf("%d series", c.count))
	}
	for _, s := range c.series {
		parts = append(parts, fmt.Sprintf("series %q %v", s.name, s.values))
	}
	return fmt.Sprintf("%s: %s", c.node, strings.Join(parts, ", "))
}

func closeTo(a, b float64) bool { return math.Abs(a-b) <= 1e-9+0.001*math.Abs(b) }

func (c *chartCheck) eval(e *env) []Failure {
	l, f := c.node.resolve(e.Result, e.res)
	if f != nil {
		return []Failure{*f}
	}
	ch := l.node.Chart
	if l.node.Type != sg.TypeChart || ch == nil {
		return []Failure{l.failure("is a %s, not a CHART", l.node.Type)}
	}
	var out []Failure
	if c.typ != "" && ch.ChartType != c.typ {
		out = append(out, l.failure("chart type is %s, want %s", ch.ChartType, c.typ))
	}
	if c.categories != nil && !equalFoldAll(ch.Categories, c.categories) {
		out = append(out, l.failure("categories are %q, want %q", ch.Categories, c.categories))
	}
	if c.count > 0 && len(ch.Series) != c.count {
		out = append(out, l.failure("has %d series, want %d", len(ch.Series), c.count))
	}
	for i, want := range c.series {
		var got *sg.Series
		for j := range ch.Series {
			if want.name == "" && j == i || want.name != "" && strings.EqualFold(normText(ch.Series[j].Name, false), normText(want.name, false)) {
				got = &ch.Series[j]
				break
			}
		}
		if got == nil {
			names := make([]string, len(ch.Series))
			for j, s := range ch.Series {
				names[j] = s.Name
			}
			out = append(out, l.failure("has no series %q (series: %q)", want.name, names))
			continue
		}
		if want.hasVal && !valuesClose(got.Values, want.values) {
			out = append(out, l.failure("series %q values are %v, want %v", got.Name, got.Values, want.values))
		}
	}
	return out
}

func valuesClose(got, want []float64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if !closeTo(got[i], want[i]) {
			return false
		}
	}
	return true
}

func equalFoldAll(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if !strings.EqualFold(normText(got[i], false), normText(want[i], false)) {
			return false
		}
	}
	return true
}
