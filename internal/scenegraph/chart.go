package scenegraph

// Chart types.
const (
	ChartBar      = "BAR"    // horizontal bars
	ChartColumn   = "COLUMN" // vertical bars
	ChartLine     = "LINE"
	ChartPie      = "PIE"
	ChartDoughnut = "DOUGHNUT"
	ChartArea     = "AREA"
	ChartScatter  = "SCATTER"
)

// Chart is a CHART node's data and presentation: categories along one axis,
// one value per category in each series (DrawingML c:chartSpace, ECMA-376
// Part 1 §21.2, reduced to what an editor needs).
type Chart struct {
	ChartType  string   `json:"chartType"`
	Title      string   `json:"title,omitempty"`
	Categories []string `json:"categories"`
	Series     []Series `json:"series"`
	Legend     *Legend  `json:"legend,omitempty"`
	Stacked    bool     `json:"stacked,omitempty"`
	// PercentStacked, with Stacked, is c:grouping "percentStacked": each
	// category's stack fills the value axis from 0 to 100% (ECMA-376
	// Part 1 §21.2, c:grouping).
	PercentStacked bool   `json:"percentStacked,omitempty"`
	DataLabels     bool   `json:"dataLabels,omitempty"`
	XAxisTitle     string `json:"xAxisTitle,omitempty"`
	YAxisTitle     string `json:"yAxisTitle,omitempty"`

	// VaryColors is c:varyColors (§21.2.2.227): each point of a
	// one-series chart (a pie's slices, a single series' bars) in its own
	// colour. Nil means the default of a new chart: on for pies and
	// doughnuts, off otherwise (VariesColors).
	VaryColors *bool `json:"varyColors,omitempty"`
	// CategoryAxis and ValueAxis are the axes as stored (c:catAx or
	// c:dateAx, and c:valAx; for a scatter chart the X and Y value axes).
	// Nil means the axes of a new chart: categories in order, major
	// gridlines on the value axis only.
	CategoryAxis *ChartAxis `json:"categoryAxis,omitempty"`
	ValueAxis    *ChartAxis `json:"valueAxis,omitempty"`

	// Part names the chart part (c:chartSpace, "ppt/charts/chart3.xml") of
	// the deck's original .pptx the chart was imported from. It survives
	// copying the node (duplicate_slide, duplicate_node), so export writes
	// a copy of that part, its embedded workbook and style parts rather
	// than a chart rebuilt from this data; empty for a chart made here.
	Part string `json:"part,omitempty"`
}

// Series is one named row of values; Values[i] belongs to Categories[i].
type Series struct {
	Name   string    `json:"name"`
	Values []float64 `json:"values"`
	Color  *Color    `json:"color,omitempty"`
	// FormatCode is the number format of the values as stored with them
	// (c:numCache/c:formatCode, an Excel format code such as "0.0%" or
	// "#,##0"); empty means General.
	FormatCode string `json:"formatCode,omitempty"`
}

// ChartAxis is how one axis is drawn (c:catAx, c:dateAx, c:valAx;
// ECMA-376 Part 1 §21.2.2.25, §21.2.2.39, §21.2.2.226).
type ChartAxis struct {
	// Reversed is c:scaling/c:orientation "maxMin": categories run from
	// the far end (a horizontal bar chart's first category at the top),
	// values from the top or right.
	Reversed bool `json:"reversed,omitempty"`
	// Hidden is c:delete val="1": the axis line and labels are not drawn.
	Hidden bool `json:"hidden,omitempty"`
	// MajorGridlines and MinorGridlines say whether c:majorGridlines and
	// c:minorGridlines are present: gridlines are drawn only when stored.
	MajorGridlines bool `json:"majorGridlines,omitempty"`
	MinorGridlines bool `json:"minorGridlines,omitempty"`
	// NumberFormat is the tick labels' c:numFmt/@formatCode when it is not
	// linked to the source data (sourceLinked="0"); empty means the
	// series' own format.
	NumberFormat string `json:"numberFormat,omitempty"`
}

// Legend says whether and where the legend is drawn.
type Legend struct {
	Position string `json:"position"` // RIGHT | LEFT | TOP | BOTTOM | NONE
}

// VariesColors reports whether each point of the chart's series gets its
// own colour: VaryColors when set, else true for a pie or doughnut. It
// applies only to a chart of one series (PowerPoint colours several
// series by series whatever c:varyColors says).
func (c *Chart) VariesColors() bool {
	if c.VaryColors != nil {
		return *c.VaryColors
	}
	return c.ChartType == ChartPie || c.ChartType == ChartDoughnut
}

// Axes returns the category and value axes, the defaults of a new chart
// for those not stored (major value gridlines).
func (c *Chart) Axes() (cat, val ChartAxis) {
	val.MajorGridlines = true
	if c.CategoryAxis != nil {
		cat = *c.CategoryAxis
	}
	if c.ValueAxis != nil {
		val = *c.ValueAxis
	}
	return cat, val
}
