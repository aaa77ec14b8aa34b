package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An output folder that holds one of the decks is refused before anything
// runs: the edited copies would replace the originals.
func TestBatchRefusesAnOutputFolderHoldingADeck(t *testing.T) {
	dir := t.TempDir()
	deck := filepath.Join(dir, "a.pptx")
	os.WriteFile(deck, []byte("x"), 0o644)
	err := checkOutDir(dir, []string{deck})
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitBadInput || !strings.Contains(err.Error(), "a.pptx") {
		t.Fatalf("want exit 2 naming the deck, got %v", err)
	}
	if err := checkOutDir(filepath.Join(dir, "out"), []string{deck}); err != nil {
		t.Fatalf("a new folder beside the decks: %v", err)
	}
	os.MkdirAll(filepath.Join(dir, "x"), 0o755)
	if err := checkOutDir(dir+"/x/..", []string{deck}); err == nil {
		t.Fatal("the same folder spelt differently passed")
	}
}

// Recipe steps for the agent are found, with their step number and line.
func TestInstructionStepsOfARecipe(t *testing.T) {
	data := []byte("steps:\n  - tool: set_theme_fonts\n    args: {heading: Inter}\n  - instruction: Tighten the wording of every title\n")
	got := instructionSteps("r.yaml", data)
	if len(got) != 1 || got[0] != "step 2 (line 4)" {
		t.Fatalf("got %v", got)
	}
	if got := instructionSteps("r.yaml", nil); got != nil {
		t.Fatalf("no recipe: %v", got)
	}
}
