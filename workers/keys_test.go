package workers

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/acecanvas/ace/internal/store"
)

// Deck keys are unique in a batch even when a renamed duplicate's key is
// another deck's own name (a/deck, b/deck, c/deck-2), and a deck named
// twice is one job. (TestOutputNamesAreNeverAnotherInputsName checks the
// names themselves.)
func TestBatchKeysAreUnique(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "testdata", "decks", "northwind-qbr.pptx"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var paths []string
	for _, p := range []string{"a/deck.pptx", "b/deck.pptx", "c/deck-2.pptx"} {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, data, 0o644)
		paths = append(paths, full)
	}
	paths = append(paths, paths[0]) // named twice
	_, jobs, err := PrepareJobs(context.Background(), store.NewMemory(), "", paths, recipeEdit(t, "title-normalize.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 3 {
		t.Fatalf("%d jobs for 3 distinct decks", len(jobs))
	}
	seen := map[string]bool{}
	for _, j := range jobs {
		if seen[j.Key] || seen[j.Request.JobId] {
			t.Fatalf("key %q used twice: %+v", j.Key, jobs)
		}
		seen[j.Key], seen[j.Request.JobId] = true, true
	}
}
