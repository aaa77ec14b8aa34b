package scenegraph

// Table is a TABLE node's grid: column widths and row heights in px. The
// cells are the node's TABLE_CELL children in row-major order; a merged cell
// spans RowSpan x ColSpan grid slots and the slots it covers have no child
// (DrawingML a:tbl with gridSpan/rowSpan; covered a:tc with hMerge/vMerge
// are not modelled as nodes).
type Table struct {
	Columns []float64 `json:"columns"`
	Rows    []float64 `json:"rows"`
	// HeaderRow marks the first row as a header (a:tblPr/@firstRow).
	HeaderRow bool `json:"headerRow,omitempty"`
	// BandedRows alternates row shading (a:tblPr/@bandRow).
	BandedRows bool   `json:"bandedRows,omitempty"`
	StyleID    string `json:"styleId,omitempty"` // a:tableStyleId
}

// Cell places a TABLE_CELL in its table's grid (0-based).
type Cell struct {
	Row     int      `json:"row"`
	Column  int      `json:"column"`
	RowSpan int      `json:"rowSpan,omitempty"` // 0 or 1 = no merge
	ColSpan int      `json:"colSpan,omitempty"`
	Borders *Borders `json:"borders,omitempty"`
}

// Spans returns the cell's row and column span, at least 1 each.
func (c *Cell) Spans() (rows, cols int) {
	rows, cols = c.RowSpan, c.ColSpan
	if rows < 1 {
		rows = 1
	}
	if cols < 1 {
		cols = 1
	}
	return rows, cols
}

// Borders are a cell's four edges; nil means no line.
type Borders struct {
	Left   *Border `json:"left,omitempty"`
	Top    *Border `json:"top,omitempty"`
	Right  *Border `json:"right,omitempty"`
	Bottom *Border `json:"bottom,omitempty"`
}

// Border is one cell edge.
type Border struct {
	Color  Color   `json:"color"`
	Weight float64 `json:"weight"` // px
	Dash   string  `json:"dash,omitempty"`
}
