package demodecks

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/acecanvas/ace/internal/formats/pptx"
	sg "github.com/acecanvas/ace/internal/scenegraph"
)

var update = flag.Bool("update", false, "rewrite testdata/decks")

const dir = "../../../testdata/decks"

// The committed demo decks must be exactly what the generator and exporter
// make today, and must import back as valid decks with all their slides.
func TestDemoDecksAreUpToDate(t *testing.T) {
	if *update {
		if err := WriteAll(dir); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range Decks {
		want, err := Build(d)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, d.File))
		if err != nil {
			t.Fatalf("%v (run: go test ./internal/deckgen/demodecks -update)", err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s is stale: run go test ./internal/deckgen/demodecks -update", d.File)
		}
		deck, _, err := pptx.Import(got, d.File)
		if err != nil {
			t.Fatal(err)
		}
		if err := sg.Validate(deck); err != nil {
			t.Fatal(err)
		}
		if len(deck.Slides) != d.Slides {
			t.Fatalf("%s: %d slides, want %d", d.File, len(deck.Slides), d.Slides)
		}
	}
}
