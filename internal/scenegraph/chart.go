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
// one value per category in each series (DrawingML c:chartSpace, reduced to
// what an editor needs).
type Chart struct {
	ChartType  string   `json:"chartType"`
	Title      string   `json:"title,omitempty"`
	Categories []string `json:"categories"`
	Series     []Series `json:"series"`
	Legend     *Legend  `json:"legend,omitempty"`
	Stacked    bool     `json:"stacked,omitempty"`
	DataLabels bool     `json:"dataLabels,omitempty"`
	XAxisTitle string   `json:"xAxisTitle,omitempty"`
	YAxisTitle string   `json:"yAxisTitle,omitempty"`
}

// Series is one named row of values; Values[i] belongs to Categories[i].
type Series struct {
	Name   string    `json:"name"`
	Values []float64 `json:"values"`
	Color  *Color    `json:"color,omitempty"`
}

// Legend says whether and where the legend is drawn.
type Legend struct {
	Position string `json:"position"` // RIGHT | LEFT | TOP | BOTTOM | NONE
}
