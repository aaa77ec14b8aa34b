package diff

import (
	"fmt"
	"sort"
	"strings"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// tableRow is one grid row of a TABLE's cells, by column.
type tableRow struct {
	index int
	cells []*scenegraph.Node // sorted by column
}

func (r tableRow) signature() string {
	var parts []string
	for _, c := range r.cells {
		parts = append(parts, normText(c.Characters))
	}
	return strings.Join(parts, "\x1f")
}

func tableRows(t *scenegraph.Node) []tableRow {
	byRow := map[int][]*scenegraph.Node{}
	for _, c := range t.Children {
		if c == nil || c.Cell == nil {
			continue
		}
		byRow[c.Cell.Row] = append(byRow[c.Cell.Row], c)
	}
	var rows []tableRow
	for r, cells := range byRow {
		sort.SliceStable(cells, func(i, j int) bool { return cells[i].Cell.Column < cells[j].Cell.Column })
		rows = append(rows, tableRow{index: r, cells: cells})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].index < rows[j].index })
	return rows
}

// tableChildren aligns table rows rather than cells, so a sorted table
// reads as row_reorder entries whether the sort moved the cells (ids kept)
// or rewrote their text in place. Rows pair by cell ids, then by their text
// (unique), then in order; cells of paired rows pair by column.
func (w *walker) tableChildren(o, c *scenegraph.Node, parents []string) {
	oRows, cRows := tableRows(o), tableRows(c)
	oMatch, cMatch := make([]int, len(oRows)), make([]int, len(cRows))
	for i := range oMatch {
		oMatch[i] = -1
	}
	for j := range cMatch {
		cMatch[j] = -1
	}
	// (0) ids: the current row holding most of an origin row's cell ids.
	rowOfID := map[string]int{}
	for j, r := range cRows {
		for _, cell := range r.cells {
			rowOfID[cell.ID] = j
		}
	}
	for i, r := range oRows {
		votes := map[int]int{}
		for _, cell := range r.cells {
			if j, ok := rowOfID[cell.ID]; ok {
				votes[j]++
			}
		}
		best, bestN := -1, 0
		for j, n := range votes {
			if n > bestN || n == bestN && j < best {
				best, bestN = j, n
			}
		}
		if best >= 0 && 2*bestN > len(r.cells) && cMatch[best] == -1 {
			oMatch[i], cMatch[best] = best, i
		}
	}
	// If ids say every row stayed put but the texts moved between rows, the
	// sort rewrote text in place: re-pair by text.
	if idPairsAreIdentity(oMatch) {
		sigO := map[string][]int{}
		for i, r := range oRows {
			sigO[r.signature()] = append(sigO[r.signature()], i)
		}
		permuted := false
		for j, r := range cRows {
			if is := sigO[r.signature()]; len(is) == 1 && is[0] != j && len(cMatch) > j && cMatch[j] == j {
				permuted = true
			}
		}
		if permuted {
			for i := range oMatch {
				oMatch[i] = -1
			}
			for j := range cMatch {
				cMatch[j] = -1
			}
		}
	}
	// (2) unique row text, (3) order.
	cnt := map[string]int{}
	for i, r := range oRows {
		if oMatch[i] == -1 {
			cnt["o"+r.signature()]++
		}
	}
	for j, r := range cRows {
		if cMatch[j] == -1 {
			cnt["c"+r.signature()]++
		}
	}
	for i, r := range oRows {
		if oMatch[i] != -1 || cnt["o"+r.signature()] != 1 {
			continue
		}
		for j, q := range cRows {
			if cMatch[j] == -1 && q.signature() == r.signature() && cnt["c"+q.signature()] == 1 {
				oMatch[i], cMatch[j] = j, i
				break
			}
		}
	}
	next := 0
	for i := range oRows {
		if oMatch[i] != -1 {
			continue
		}
		for j := next; j < len(cRows); j++ {
			if cMatch[j] == -1 {
				oMatch[i], cMatch[j] = j, i
				next = j + 1
				break
			}
		}
	}

	var seq, seqC []int
	for j := range cRows {
		if i := cMatch[j]; i >= 0 {
			seq = append(seq, i)
			seqC = append(seqC, j)
		}
	}
	keep := lis(seq)
	for k := range seq {
		if keep[k] {
			continue
		}
		i, j := seq[k], seqC[k]
		w.emit(Entry{Kind: RowReorder, NodeID: c.ID, NodeType: string(c.Type), Name: c.Name, Parents: parents[:len(parents)-1],
			Property: "row", Before: oRows[i].index, After: cRows[j].index,
			Detail: fmt.Sprintf("table row %q moved from row %d to row %d", clip(rowText(cRows[j]), 60), oRows[i].index+1, cRows[j].index+1)})
	}
	for i, r := range oRows {
		if oMatch[i] == -1 {
			w.emit(Entry{Kind: Removed, NodeID: c.ID, NodeType: "TABLE_ROW", Name: c.Name, Parents: parents[:len(parents)-1],
				Property: "row", Before: rowText(r), Detail: fmt.Sprintf("removed table row %d: %q", r.index+1, clip(rowText(r), 80))})
		}
	}
	for j, r := range cRows {
		i := cMatch[j]
		if i == -1 {
			w.emit(Entry{Kind: Added, NodeID: c.ID, NodeType: "TABLE_ROW", Name: c.Name, Parents: parents[:len(parents)-1],
				Property: "row", After: rowText(r), Detail: fmt.Sprintf("added table row %d: %q", r.index+1, clip(rowText(r), 80))})
			continue
		}
		w.rowCells(oRows[i], r, parents)
	}
}

func idPairsAreIdentity(oMatch []int) bool {
	any := false
	for i, j := range oMatch {
		if j != i {
			return false
		}
		any = true
	}
	return any
}

func (w *walker) rowCells(o, c tableRow, parents []string) {
	byCol := map[int]*scenegraph.Node{}
	for _, cell := range o.cells {
		byCol[cell.Cell.Column] = cell
	}
	for _, cell := range c.cells {
		oc := byCol[cell.Cell.Column]
		if oc == nil {
			w.added(cell, parents)
			continue
		}
		delete(byCol, cell.Cell.Column)
		w.pair(oc, cell, parents)
	}
	for _, oc := range o.cells {
		if byCol[oc.Cell.Column] == oc {
			w.removed(oc, parents)
		}
	}
}

func rowText(r tableRow) string {
	var parts []string
	for _, c := range r.cells {
		parts = append(parts, normText(c.Characters))
	}
	return strings.Join(parts, " | ")
}
