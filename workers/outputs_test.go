package workers

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/outfile"
)

// Deck keys and output names are unique, stable and never another input's
// own name, also when a renamed duplicate would be one (b/table-report was
// written as out/table-report-2.pptx while c/table-report-2 became
// table-report-2-2.pptx), and they do not depend on the order decks finish.
func TestOutputNamesAreNeverAnotherInputsName(t *testing.T) {
	paths := []string{"a/table-report.pptx", "b/table-report.pptx", "c/table-report-2.pptx", "e/notes v2.pptx"}
	keys := deckKeys(paths)
	if want := []string{"table-report", "table-report-3", "table-report-2", "notes_v2"}; strings.Join(keys, " ") != strings.Join(want, " ") {
		t.Fatalf("keys %q, want %q", keys, want)
	}
	names := OutputNamesFor(paths)
	if want := []string{"table-report", "table-report-3", "table-report-2", "notes v2"}; strings.Join(names, "|") != strings.Join(want, "|") {
		t.Fatalf("output names %q, want %q", names, want)
	}
	// Names compare ignoring case (one file on a case-insensitive disk);
	// keys, which are NATS subject tokens, do not.
	if got := OutputNamesFor([]string{"x/deck.pptx", "y/DECK.json"}); got[0] != "deck-2" || got[1] != "DECK" {
		t.Fatalf("deck and DECK: %q", got)
	}
	again := OutputNamesFor(paths)
	if strings.Join(again, "|") != strings.Join(names, "|") {
		t.Fatalf("names changed between calls: %q then %q", names, again)
	}
}

// A real batch over three decks, two of them named alike: each edited deck
// lands under its own name; an output that is a symbolic link to an
// unrelated file is not written through (the row says why and the file is
// untouched) unless links may be replaced, when the link itself becomes
// the edited deck and its target still is untouched.
func TestBatchOutputsNeverWriteThroughALink(t *testing.T) {
	c := stack(t)
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "testdata", "decks", "northwind-qbr.pptx"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var paths []string
	for _, p := range []string{"a/table-report.pptx", "b/table-report.pptx", "c/table-report-2.pptx"} {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, data, 0o644)
		paths = append(paths, full)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	batch, jobs, err := PrepareJobs(ctx, c.Store, "", paths, recipeEdit(t, "title-normalize.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := Submit(ctx, c.JS, batch, jobs); err != nil {
		t.Fatal(err)
	}
	st, err := Follow(ctx, c.JS, batch, []string{jobs[0].Key, jobs[1].Key, jobs[2].Key}, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	os.MkdirAll(out, 0o755)
	victim := filepath.Join(dir, "unrelated.txt")
	os.WriteFile(victim, []byte("keep me"), 0o644)
	link := filepath.Join(out, "table-report.pptx")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	sum, err := Summarize(ctx, c.Store, st, Output{Dir: out})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{paths[0]: "", paths[1]: filepath.Join(out, "table-report-3.pptx"), paths[2]: filepath.Join(out, "table-report-2.pptx")}
	for _, r := range sum.Rows {
		if r.Output != want[r.Source] {
			t.Errorf("%s written to %q, want %q", r.Source, r.Output, want[r.Source])
		}
		if r.Source == paths[0] && !strings.Contains(r.NotWritten, "symbolic link") {
			t.Errorf("the deck behind the link: notWritten %q", r.NotWritten)
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep me" {
		t.Fatalf("the link's target was written: %q", b)
	}
	os.Remove(filepath.Join(out, "summary.json"))
	os.Symlink(victim, filepath.Join(out, "summary.json"))
	var le *outfile.LinkError
	if err := sum.WriteFiles(out, false); !errors.As(err, &le) {
		t.Fatalf("summary.json through a link: %v", err)
	}

	sum, err = Summarize(ctx, c.Store, st, Output{Dir: out, ReplaceLinks: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := sum.WriteFiles(out, true); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep me" {
		t.Fatalf("--force wrote the link's target: %q", b)
	}
	fi, err := os.Lstat(link)
	if err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("the link was not replaced by the edited deck: %v %v", fi, err)
	}
	if b, _ := os.ReadFile(link); !bytes.HasPrefix(b, []byte("PK")) {
		t.Fatal("the replaced link does not hold a .pptx")
	}
}
