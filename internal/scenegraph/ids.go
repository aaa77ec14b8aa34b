package scenegraph

import (
	"strconv"
	"strings"
)

// FreshIDPrefix starts every id NewID hands out.
const FreshIDPrefix = "n"

// NewID returns an id no node of the deck has, and that no earlier call on
// this deck's history returned: IDSeq only grows and is saved with the deck.
// ix, when non-nil, is consulted to skip ids that imported nodes happen to use.
func (d *Deck) NewID(ix *Index) string {
	for {
		d.IDSeq++
		id := FreshIDPrefix + strconv.FormatUint(d.IDSeq, 10)
		if ix == nil || !ix.Has(id) {
			return id
		}
	}
}

// SyncIDSeq raises IDSeq above the sequence number of every id of the form
// NewID makes, so ids imported from elsewhere are never handed out again.
func (d *Deck) SyncIDSeq() {
	d.Walk(func(n, _ *Node, _ int) bool {
		if rest, ok := strings.CutPrefix(n.ID, FreshIDPrefix); ok {
			if v, err := strconv.ParseUint(rest, 10, 64); err == nil && v > d.IDSeq {
				d.IDSeq = v
			}
		}
		return true
	})
}
