package tools

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

type seriesArg struct {
	Name   string    `json:"name"`
	Values []float64 `json:"values" desc:"One value per category."`
	Color  Hex       `json:"color,omitempty"`
}

type createChartArgs struct {
	place
	ChartType  string      `json:"chartType" enum:"BAR,COLUMN,LINE,PIE,DOUGHNUT,AREA,SCATTER" desc:"BAR = horizontal bars, COLUMN = vertical bars."`
	Title      string      `json:"title,omitempty"`
	Categories []string    `json:"categories" minItems:"1"`
	Series     []seriesArg `json:"series" minItems:"1"`
	Legend     string      `json:"legend,omitempty" enum:"RIGHT,LEFT,TOP,BOTTOM,NONE" desc:"Legend position; default RIGHT with 2+ series or a pie, else NONE."`
	Stacked    bool        `json:"stacked,omitempty"`
	DataLabels bool        `json:"dataLabels,omitempty"`
}

type chartTypeArgs struct {
	ChartID   string `json:"chartId"`
	ChartType string `json:"chartType" enum:"BAR,COLUMN,LINE,PIE,DOUGHNUT,AREA,SCATTER"`
	Stacked   *bool  `json:"stacked,omitempty"`
}

type chartDataArgs struct {
	ChartID    string      `json:"chartId"`
	Categories []string    `json:"categories,omitempty" desc:"New categories; omit to keep them."`
	Series     []seriesArg `json:"series,omitempty" desc:"New series (replace all); omit to keep them."`
	Set        []struct {
		Series   string  `json:"series" desc:"Series name."`
		Category string  `json:"category"`
		Value    float64 `json:"value"`
	} `json:"set,omitempty" desc:"Change single values in place."`
}

type seriesColorArgs struct {
	ChartID string `json:"chartId"`
	Series  string `json:"series,omitempty" desc:"Series name; omit with colors to recolour all in order."`
	Color   Hex    `json:"color,omitempty"`
	Colors  []Hex  `json:"colors,omitempty" desc:"One colour per series, in order."`
}

type legendArgs struct {
	ChartID  string `json:"chartId"`
	Position string `json:"position" enum:"RIGHT,LEFT,TOP,BOTTOM,NONE" desc:"NONE hides the legend."`
}

type chartLabelsArgs struct {
	ChartID    string  `json:"chartId"`
	Title      *string `json:"title,omitempty" desc:"Chart title; empty string removes it."`
	XAxisTitle *string `json:"xAxisTitle,omitempty"`
	YAxisTitle *string `json:"yAxisTitle,omitempty"`
	DataLabels *bool   `json:"dataLabels,omitempty" desc:"Show values on the bars, points or slices."`
}

type chartReadArgs struct {
	ChartID string `json:"chartId"`
	page
}

type chartIDArg struct {
	ChartID string `json:"chartId"`
}

func (e *Env) chart(id string) (*sg.Node, error) {
	n, err := e.nodeOf(id, sg.TypeChart)
	if err != nil {
		return nil, err
	}
	if n.Chart == nil {
		return nil, fmt.Errorf("chart %q has no data", id)
	}
	return n, nil
}

func buildSeries(cats []string, in []seriesArg, chartType string) ([]sg.Series, error) {
	out := make([]sg.Series, 0, len(in))
	for _, s := range in {
		if chartType != sg.ChartScatter && len(s.Values) != len(cats) {
			return nil, fmt.Errorf("series %q has %d values for %d categories; give one value per category", s.Name, len(s.Values), len(cats))
		}
		ser := sg.Series{Name: s.Name, Values: slices.Clone(s.Values)}
		if s.Color != "" {
			c, err := color(s.Color, nil)
			if err != nil {
				return nil, fmt.Errorf("series %q: %w", s.Name, err)
			}
			ser.Color = &c
		}
		out = append(out, ser)
	}
	return out, nil
}

// keepSeriesLook gives each new series the number format, and unless
// the call set one the colour, of the old series of the same name, else of
// the old series at its position: replacing the data keeps how the values
// are written ("16.0%") and drawn.
func keepSeriesLook(ser, old []sg.Series) {
	for i := range ser {
		j := slices.IndexFunc(old, func(o sg.Series) bool { return o.Name == ser[i].Name })
		if j < 0 && i < len(old) {
			j = i
		}
		if j < 0 {
			continue
		}
		ser[i].FormatCode = old[j].FormatCode
		if ser[i].Color == nil {
			ser[i].Color = old[j].Color
		}
	}
}

func defaultLegend(chartType string, series int) *sg.Legend {
	if series > 1 || chartType == sg.ChartPie || chartType == sg.ChartDoughnut {
		return &sg.Legend{Position: "RIGHT"}
	}
	return nil
}

func seriesIndex(ch *sg.Chart, name string) (int, error) {
	for i, s := range ch.Series {
		if s.Name == name {
			return i, nil
		}
	}
	names := make([]string, len(ch.Series))
	for i, s := range ch.Series {
		names[i] = strconv.Quote(s.Name)
	}
	return -1, fmt.Errorf("no series %q; the chart has %v", name, names)
}

func chartTools() []Tool {
	return []Tool{
		def(ModuleChart, "create_chart", false,
			"Create a native CHART (bar, column, line, pie, doughnut, area, scatter) from categories and named series of values, with title, legend, stacking and data labels. It stays editable as data (update_chart_data, set_chart_type).",
			func(e *Env, a *createChartArgs) (Result, error) {
				ser, err := buildSeries(a.Categories, a.Series, a.ChartType)
				if err != nil {
					return Result{}, err
				}
				n := e.newNode(sg.TypeChart, orStr(a.Title, "Chart"))
				n.Chart = &sg.Chart{ChartType: a.ChartType, Title: a.Title, Categories: slices.Clone(a.Categories), Series: ser,
					Stacked: a.Stacked, DataLabels: a.DataLabels, Legend: defaultLegend(a.ChartType, len(ser))}
				if a.Legend != "" {
					n.Chart.Legend = &sg.Legend{Position: a.Legend}
				}
				if _, err := e.put(a.place, n, 640, 400); err != nil {
					return Result{}, err
				}
				return Result{Created: []string{n.ID}}, nil
			}),
		def(ModuleChart, "set_chart_type", false,
			"Change a chart's type (e.g. column to line, bar to pie) keeping its data, and optionally stack its series.",
			func(e *Env, a *chartTypeArgs) (Result, error) {
				n, err := e.chart(a.ChartID)
				if err != nil {
					return Result{}, err
				}
				if n.Chart.ChartType == sg.ChartScatter && a.ChartType != sg.ChartScatter {
					for _, s := range n.Chart.Series {
						if len(s.Values) != len(n.Chart.Categories) {
							return Result{}, fmt.Errorf("scatter series %q has %d values for %d categories; fix the data with update_chart_data first", s.Name, len(s.Values), len(n.Chart.Categories))
						}
					}
				}
				n.Chart.ChartType = a.ChartType
				if a.Stacked != nil {
					n.Chart.Stacked = *a.Stacked
				}
				res := changed(n.ID)
				if (a.ChartType == sg.ChartPie || a.ChartType == sg.ChartDoughnut) && len(n.Chart.Series) > 1 {
					res.Warnings = append(res.Warnings, "a pie shows only its first series")
				}
				return res, nil
			}),
		def(ModuleChart, "update_chart_data", false,
			"Replace a chart's categories and/or series, or change single values by series name and category.",
			func(e *Env, a *chartDataArgs) (Result, error) {
				n, err := e.chart(a.ChartID)
				if err != nil {
					return Result{}, err
				}
				ch := n.Chart
				if a.Categories == nil && a.Series == nil && len(a.Set) == 0 {
					return Result{}, fmt.Errorf("give categories, series or set")
				}
				cats := ch.Categories
				if a.Categories != nil {
					cats = slices.Clone(a.Categories)
				}
				if a.Series != nil {
					ser, err := buildSeries(cats, a.Series, ch.ChartType)
					if err != nil {
						return Result{}, err
					}
					keepSeriesLook(ser, ch.Series)
					ch.Series = ser
				} else if a.Categories != nil && ch.ChartType != sg.ChartScatter {
					for i := range ch.Series {
						if len(ch.Series[i].Values) != len(cats) {
							return Result{}, fmt.Errorf("%d categories but series %q has %d values; send series too", len(cats), ch.Series[i].Name, len(ch.Series[i].Values))
						}
					}
				}
				ch.Categories = cats
				for _, s := range a.Set {
					si, err := seriesIndex(ch, s.Series)
					if err != nil {
						return Result{}, err
					}
					ci := slices.Index(ch.Categories, s.Category)
					if ci < 0 || ci >= len(ch.Series[si].Values) {
						return Result{}, fmt.Errorf("no category %q in chart %q", s.Category, n.ID)
					}
					ch.Series[si].Values[ci] = s.Value
				}
				return changed(n.ID), nil
			}),
		def(ModuleChart, "set_series_color", false,
			"Recolour a chart's series: one series by name, or all series in order from a list of colours (e.g. the brand palette).",
			func(e *Env, a *seriesColorArgs) (Result, error) {
				n, err := e.chart(a.ChartID)
				if err != nil {
					return Result{}, err
				}
				switch {
				case len(a.Colors) > 0:
					for i := range n.Chart.Series {
						c, err := color(a.Colors[i%len(a.Colors)], nil)
						if err != nil {
							return Result{}, err
						}
						n.Chart.Series[i].Color = &c
					}
				case a.Series != "" && a.Color != "":
					i, err := seriesIndex(n.Chart, a.Series)
					if err != nil {
						return Result{}, err
					}
					c, err := color(a.Color, nil)
					if err != nil {
						return Result{}, err
					}
					n.Chart.Series[i].Color = &c
				default:
					return Result{}, fmt.Errorf("give series and color, or colors")
				}
				return changed(n.ID), nil
			}),
		def(ModuleChart, "set_chart_legend", false,
			"Show a chart's legend at a position (right, left, top, bottom) or hide it (NONE).",
			func(e *Env, a *legendArgs) (Result, error) {
				n, err := e.chart(a.ChartID)
				if err != nil {
					return Result{}, err
				}
				n.Chart.Legend = &sg.Legend{Position: a.Position}
				if a.Position == "NONE" {
					n.Chart.Legend = nil
				}
				return changed(n.ID), nil
			}),
		def(ModuleChart, "set_chart_labels", false,
			"Set a chart's title, axis titles and whether values are shown as data labels.",
			func(e *Env, a *chartLabelsArgs) (Result, error) {
				n, err := e.chart(a.ChartID)
				if err != nil {
					return Result{}, err
				}
				if a.Title == nil && a.XAxisTitle == nil && a.YAxisTitle == nil && a.DataLabels == nil {
					return Result{}, fmt.Errorf("give title, xAxisTitle, yAxisTitle or dataLabels")
				}
				if a.Title != nil {
					n.Chart.Title = *a.Title
				}
				if a.XAxisTitle != nil {
					n.Chart.XAxisTitle = *a.XAxisTitle
				}
				if a.YAxisTitle != nil {
					n.Chart.YAxisTitle = *a.YAxisTitle
				}
				if a.DataLabels != nil {
					n.Chart.DataLabels = *a.DataLabels
				}
				return changed(n.ID), nil
			}),
		def(ModuleChart, "get_chart_data", true,
			"Read a chart's type, categories, series (names, values, colours), legend and labels; categories and their values come as a page (limit categories, nextCursor for the rest).",
			chartData),
	}
}

// chartData is get_chart_data: the chart with its categories, and each
// series' values, cut to one page of categories [lo, hi); total counts
// the categories (or, for a chart without them, its longest series) and
// nextCursor continues, as every list read does.
func chartData(e *Env, a *chartReadArgs) (Result, error) {
	n, err := e.chart(a.ChartID)
	if err != nil {
		return Result{}, err
	}
	ch := *n.Chart
	total := len(ch.Categories)
	for _, s := range ch.Series {
		total = max(total, len(s.Values))
	}
	lo, hi, err := a.page.bounds(total)
	if err != nil {
		return Result{}, err
	}
	window := func(k int) (int, int) { return min(lo, k), min(hi, k) }
	i, j := window(len(ch.Categories))
	ch.Categories = slices.Clone(ch.Categories[i:j])
	ch.Series = slices.Clone(ch.Series)
	for k := range ch.Series {
		i, j := window(len(ch.Series[k].Values))
		ch.Series[k].Values = slices.Clone(ch.Series[k].Values[i:j])
	}
	out := map[string]any{"id": n.ID, "chart": &ch, "categories": len(n.Chart.Categories), "total": total}
	if hi < total {
		out["nextCursor"] = strconv.Itoa(hi)
	}
	return Result{Data: asData(out)}, nil
}

// tableData reads a table as chart data: the first row holds series names,
// the first column categories, and every column whose body cells are all
// numbers becomes a series (seriesIn COLUMNS); ROWS transposes.
func tableData(t *sg.Node, seriesInRows bool) ([]string, []sg.Series, []string, error) {
	g := tableGrid(t)
	R, C := len(g.cells), len(t.Table.Columns)
	text := func(r, c int) string {
		if n := g.cells[r][c]; n != nil && n.Cell.Row == r && n.Cell.Column == c {
			return n.Characters
		}
		return ""
	}
	if R < 2 || C < 2 {
		return nil, nil, nil, fmt.Errorf("table %q is %dx%d; chart data needs a header row, a label column and at least one value", t.ID, R, C)
	}
	get := text
	if seriesInRows {
		get = func(r, c int) string { return text(c, r) }
		R, C = C, R
	}
	var cats []string
	for r := 1; r < R; r++ {
		cats = append(cats, get(r, 0))
	}
	var series []sg.Series
	var warn []string
	for c := 1; c < C; c++ {
		s := sg.Series{Name: get(0, c)}
		ok := true
		for r := 1; r < R; r++ {
			v, isNum := parseNumber(get(r, c))
			if !isNum {
				ok = false
				break
			}
			s.Values = append(s.Values, v)
		}
		if !ok {
			warn = append(warn, fmt.Sprintf("column %q is not numeric and was skipped", s.Name))
			continue
		}
		if s.Name == "" {
			s.Name = fmt.Sprintf("Series %d", len(series)+1)
		}
		series = append(series, s)
	}
	if len(series) == 0 {
		return nil, nil, warn, fmt.Errorf("table %q has no numeric column to chart", t.ID)
	}
	return cats, series, warn, nil
}

func sortChart(ch *sg.Chart, by string, desc bool) error {
	for _, s := range ch.Series {
		if len(s.Values) != len(ch.Categories) {
			return fmt.Errorf("series %q has %d values for %d categories; sorting needs one value per category (a scatter chart's points cannot be sorted by category)", s.Name, len(s.Values), len(ch.Categories))
		}
	}
	idx := make([]int, len(ch.Categories))
	for i := range idx {
		idx[i] = i
	}
	si := -1
	if by != "" && by != "category" {
		var err error
		if si, err = seriesIndex(ch, by); err != nil {
			return err
		}
	}
	slices.SortStableFunc(idx, func(x, y int) int {
		var c int
		if si < 0 {
			c = cmp.Compare(ch.Categories[x], ch.Categories[y])
		} else {
			c = cmp.Compare(ch.Series[si].Values[x], ch.Series[si].Values[y])
		}
		if desc {
			c = -c
		}
		return c
	})
	cats := make([]string, len(idx))
	for i, j := range idx {
		cats[i] = ch.Categories[j]
	}
	ch.Categories = cats
	for k := range ch.Series {
		vals := make([]float64, len(idx))
		for i, j := range idx {
			vals[i] = ch.Series[k].Values[j]
		}
		ch.Series[k].Values = vals
	}
	return nil
}
