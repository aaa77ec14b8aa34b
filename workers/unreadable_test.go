package workers

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// One batch holds an unreadable file and two decks with the same file name
// from different folders. The unreadable one is reported failed with its
// reason and the others still run; the two same-named decks get two output
// files; and an output that would land on an original deck is not written.
func TestBatchReportsUnreadableDecksAndKeepsSameNamedOutputs(t *testing.T) {
	c := stack(t)
	root := repoRoot(t)
	orig := filepath.Join(root, "testdata", "decks", "northwind-qbr.pptx")
	data, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	copyDir := filepath.Join(dir, "copy")
	os.MkdirAll(copyDir, 0o755)
	copied := filepath.Join(copyDir, "northwind-qbr.pptx")
	fake := filepath.Join(dir, "notes.pptx")
	os.WriteFile(copied, data, 0o644)
	os.WriteFile(fake, []byte("just some text, not a deck"), 0o644)

	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	batch, jobs, err := PrepareJobs(ctx, c.Store, "", []string{orig, copied, fake}, recipeEdit(t, "title-normalize.yaml"))
	if err != nil {
		t.Fatalf("an unreadable deck stopped the batch: %v", err)
	}
	if len(jobs) != 3 || jobs[2].ImportErr == nil || jobs[0].ImportErr != nil {
		t.Fatalf("jobs %+v", jobs)
	}
	if err := Submit(ctx, c.JS, batch, jobs); err != nil {
		t.Fatal(err)
	}
	st, err := Follow(ctx, c.JS, batch, []string{jobs[0].Key, jobs[1].Key, jobs[2].Key}, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	sum, err := Summarize(ctx, c.Store, st, Output{Dir: out})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Done != 2 || sum.Failed != 1 {
		t.Fatalf("summary %+v", sum)
	}
	outputs := map[string]bool{}
	for _, r := range sum.Rows {
		switch r.Source {
		case fake:
			if r.Status != "failed" || !strings.Contains(r.Reason, "could not read the deck") || !strings.Contains(r.Reason, "notes.pptx") {
				t.Errorf("unreadable deck row %+v", r)
			}
		default:
			if r.Output == "" || outputs[r.Output] {
				t.Errorf("deck %s: output %q missing or shared", r.Deck, r.Output)
			}
			outputs[r.Output] = true
		}
	}
	// Summarizing into the folder that holds the copy must not replace it.
	if _, err := Summarize(ctx, c.Store, st, Output{Dir: copyDir}); err != nil {
		t.Fatal(err)
	}
	if now, _ := os.ReadFile(copied); !bytes.Equal(now, data) {
		t.Fatal("an original deck was overwritten by an edited copy")
	}
}
