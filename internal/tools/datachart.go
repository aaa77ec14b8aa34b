package tools

import (
	"fmt"
	"slices"
	"strconv"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

type dataChartArgs struct {
	place
	TableID      string     `json:"tableId,omitempty" desc:"Table to chart: header row = series names, first column = categories."`
	Rows         [][]string `json:"rows,omitempty" desc:"Inline data instead of a table, same layout (first row headers)."`
	SeriesInRows bool       `json:"seriesInRows,omitempty" desc:"Series run along rows instead of columns."`
	ChartType    string     `json:"chartType,omitempty" enum:"BAR,COLUMN,LINE,PIE,DOUGHNUT,AREA" desc:"Default COLUMN."`
	Title        string     `json:"title,omitempty"`
	Legend       string     `json:"legend,omitempty" enum:"RIGHT,LEFT,TOP,BOTTOM,NONE" desc:"Default BOTTOM."`
	ReplaceTable bool       `json:"replaceTable,omitempty" desc:"Put the chart where the table is (same parent, box and stacking slot) and delete the table."`
	SortBy       string     `json:"sortBy,omitempty" desc:"Sort categories by this series' values (or \"category\")."`
	Descending   bool       `json:"descending,omitempty"`
}

type syncChartArgs struct {
	ChartID      string `json:"chartId"`
	TableID      string `json:"tableId"`
	SeriesInRows bool   `json:"seriesInRows,omitempty"`
}

type sortChartArgs struct {
	ChartID    string `json:"chartId"`
	By         string `json:"by,omitempty" desc:"Series name to sort by its values, or \"category\" (default) for alphabetical."`
	Descending bool   `json:"descending,omitempty"`
}

type chartToTableArgs struct {
	ChartID      string `json:"chartId"`
	ReplaceChart bool   `json:"replaceChart,omitempty" desc:"Put the table where the chart is and delete the chart."`
	HeaderFill   Hex    `json:"headerFill,omitempty"`
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func dataChartTools() []Tool {
	return []Tool{
		def(ModuleDataChart, "create_data_chart", false,
			"Turn tabular data into a native chart in one call: from a TABLE node (header row = series, first column = categories; non-numeric columns skipped) or inline rows. With replaceTable the chart takes the table's place and the table is removed — the semantic table-to-chart conversion. A legend is on by default.",
			func(e *Env, a *dataChartArgs) (Result, error) {
				var cats []string
				var series []sg.Series
				var warn []string
				var src *sg.Node
				switch {
				case a.TableID != "":
					t, err := e.table(a.TableID)
					if err != nil {
						return Result{}, err
					}
					src = t
					if cats, series, warn, err = tableData(t, a.SeriesInRows); err != nil {
						return Result{}, err
					}
				case len(a.Rows) > 0:
					tmp := &sg.Node{ID: "rows", Type: sg.TypeTable, Table: &sg.Table{}}
					cols := 0
					for _, r := range a.Rows {
						cols = max(cols, len(r))
					}
					tmp.Table.Columns = make([]float64, cols)
					tmp.Table.Rows = make([]float64, len(a.Rows))
					for r, row := range a.Rows {
						for c, v := range row {
							tmp.Children = append(tmp.Children, &sg.Node{Type: sg.TypeTableCell, Cell: &sg.Cell{Row: r, Column: c}, TextContent: sg.TextContent{Characters: v}})
						}
					}
					var err error
					if cats, series, warn, err = tableData(tmp, a.SeriesInRows); err != nil {
						return Result{}, fmt.Errorf("rows: %w", err)
					}
				default:
					return Result{}, fmt.Errorf("give tableId or rows")
				}
				if a.ReplaceTable && src == nil {
					return Result{}, fmt.Errorf("replaceTable needs tableId")
				}
				ct := orStr(a.ChartType, sg.ChartColumn)
				n := e.newNode(sg.TypeChart, orStr(a.Title, "Chart"))
				n.Chart = &sg.Chart{ChartType: ct, Title: a.Title, Categories: cats, Series: series, Legend: &sg.Legend{Position: orStr(a.Legend, "BOTTOM")}}
				if a.Legend == "NONE" {
					n.Chart.Legend = nil
				}
				palette := defaultPalette(e.Deck)
				for i := range n.Chart.Series {
					c := palette[i%len(palette)]
					n.Chart.Series[i].Color = &c
				}
				if a.SortBy != "" {
					if err := sortChart(n.Chart, a.SortBy, a.Descending); err != nil {
						return Result{}, err
					}
				}
				res := Result{Warnings: warn}
				if a.ReplaceTable {
					parent := e.parent(src)
					at := slices.Index(parent.Children, src)
					n.Transform, n.Size = src.Transform, src.Size
					n.LayoutSizingHorizontal, n.LayoutSizingVertical, n.LayoutPositioning = src.LayoutSizingHorizontal, src.LayoutSizingVertical, src.LayoutPositioning
					if n.Size.Y < 240 {
						n.Size.Y = 240 // a chart needs room a short table does not
					}
					if a.Name != "" {
						n.Name = a.Name
					}
					res.Deleted = e.deleteWithConnectors(src)
					e.insert(parent, n, at)
					res.Changed = append(res.Changed, parent.ID)
				} else if _, err := e.put(a.place, n, 640, 400); err != nil {
					return Result{}, err
				}
				res.Created = []string{n.ID}
				return res, nil
			}),
		def(ModuleDataChart, "sync_chart_from_table", false,
			"Refresh a chart's categories and series from a table (after the table was edited), keeping the chart's type, colours, legend and titles.",
			func(e *Env, a *syncChartArgs) (Result, error) {
				n, err := e.chart(a.ChartID)
				if err != nil {
					return Result{}, err
				}
				t, err := e.table(a.TableID)
				if err != nil {
					return Result{}, err
				}
				cats, series, warn, err := tableData(t, a.SeriesInRows)
				if err != nil {
					return Result{}, err
				}
				keepSeriesLook(series, n.Chart.Series)
				n.Chart.Categories, n.Chart.Series = cats, series
				return Result{Changed: []string{n.ID}, Warnings: warn}, nil
			}),
		def(ModuleDataChart, "sort_chart_data", false,
			"Sort a chart's categories by one series' values (largest first with descending) or alphabetically, moving every series' values along.",
			func(e *Env, a *sortChartArgs) (Result, error) {
				n, err := e.chart(a.ChartID)
				if err != nil {
					return Result{}, err
				}
				if err := sortChart(n.Chart, a.By, a.Descending); err != nil {
					return Result{}, err
				}
				return changed(n.ID), nil
			}),
		def(ModuleDataChart, "chart_to_table", false,
			"Turn a chart's data into a TABLE (header row of series names, a row per category), next to the chart or in its place.",
			func(e *Env, a *chartToTableArgs) (Result, error) {
				n, err := e.chart(a.ChartID)
				if err != nil {
					return Result{}, err
				}
				ch := n.Chart
				data := [][]string{append([]string{""}, seriesNames(ch)...)}
				for i, c := range ch.Categories {
					row := []string{c}
					for _, s := range ch.Series {
						v := ""
						if i < len(s.Values) {
							v = fmtNum(s.Values[i])
						}
						row = append(row, v)
					}
					data = append(data, row)
				}
				parent := e.parent(n)
				args := &createTableArgs{Rows: len(data), Columns: len(data[0]), Data: data, HeaderRow: true, HeaderFill: a.HeaderFill}
				args.ParentID = parent.ID
				args.X, args.Y = Length(n.Transform.X()), Length(n.Transform.Y())
				w := Length(n.Size.X)
				args.Width = &w
				h := Length(min(n.Size.Y, float64(len(data))*40))
				args.Height = &h
				if !a.ReplaceChart {
					args.Y = Length(n.Transform.Y() + n.Size.Y + 16)
				}
				tool, _ := Registry().Get("create_table")
				raw := asData(args)
				res, err := tool.Exec(e, raw)
				if err != nil {
					return Result{}, err
				}
				if a.ReplaceChart {
					t := e.Index().Node(res.Created[0])
					at := slices.Index(parent.Children, n)
					e.detachForMove(t)
					res.Deleted = e.deleteWithConnectors(n)
					e.insert(parent, t, at)
				}
				return res, nil
			}),
	}
}

func seriesNames(ch *sg.Chart) []string {
	out := make([]string, len(ch.Series))
	for i, s := range ch.Series {
		out[i] = s.Name
	}
	return out
}
