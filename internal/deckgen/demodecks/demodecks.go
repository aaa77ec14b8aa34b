// Package demodecks writes the decks the demo runs on (testdata/decks/*.pptx):
// realistic decks the project makes itself with the generator and writes
// through its own PPTX exporter, so the repository never ships other
// people's files. Run `go test ./internal/deckgen/demodecks -update` to
// regenerate them after a change to the generator or the exporter.
package demodecks

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/formats/pptx"
)

// Deck is one demo deck: file name, slide count and generator seed.
type Deck struct {
	File   string
	Slides int
	Seed   uint64
}

// Decks are the demo decks, small enough to commit and varied enough to
// exercise every recipe (titles, footers, logos, brand colours, tables,
// charts, auto-layout card rows).
var Decks = []Deck{
	{"northwind-qbr.pptx", 12, 1},
	{"northwind-strategy.pptx", 18, 2},
	{"northwind-customer-briefing.pptx", 8, 3},
}

// Build returns the .pptx bytes of one demo deck.
func Build(d Deck) ([]byte, error) {
	deck, blobs := deckgen.Generate(deckgen.Options{Slides: d.Slides, Seed: d.Seed})
	deck.Name = fmt.Sprintf("%s (%d slides)", d.File, d.Slides)
	return pptx.Export(deck, blobs)
}

// WriteAll writes every demo deck into dir.
func WriteAll(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, d := range Decks {
		b, err := Build(d)
		if err != nil {
			return fmt.Errorf("%s: %w", d.File, err)
		}
		if err := os.WriteFile(filepath.Join(dir, d.File), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
