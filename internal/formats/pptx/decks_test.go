package pptx

import (
	"os"
	"testing"

	"github.com/acecanvas/ace/internal/shareddecks"
)

// sharedDeck returns the path of a real deck in ../shared/decks/pptx.
func sharedDeck(t testing.TB, name string) string {
	t.Helper()
	return shareddecks.PPTXFile(t, name)
}

func readDeck(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(sharedDeck(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// realDecks lists the shared decks with the slide and table counts
// ../shared/decks/SOURCES.md states for them.
var realDecks = []struct {
	file   string
	slides int
	tables int
}{
	{"Iphone16Pro.pptx", 9, 0},
	{"build_effective_agents.pptx", 10, 0},
	{"default_template.pptx", 14, 0},
	{"blockchain-pitch.pptx", 10, 3},
	{"career-tips.pptx", 37, 3},
	{"table-report.pptx", 8, 2},
}
