package pptx

import (
	"os"
	"path/filepath"
	"testing"
)

// sharedDeck returns the path of a real deck in ../shared/decks/pptx beside
// the repository root, skipping the test when the shared decks are absent.
func sharedDeck(t testing.TB, name string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("go.mod not found above the test directory")
		}
		dir = parent
	}
	p := filepath.Join(dir, "..", "shared", "decks", "pptx", name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared deck %s not available: %v", p, err)
	}
	return p
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
