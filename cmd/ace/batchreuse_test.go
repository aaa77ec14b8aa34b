package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acecanvas/ace/workers"
)

// A batch id given with --batch and reused with the same decks but another
// edit (the recipe file rewritten, another --format, other options) is
// refused with exit 2, naming the id, what differs and the fix, instead of
// resuming the earlier batch and handing back its results; the same
// command still resumes it without editing any deck again. Each run starts
// the embedded stack (Temporal, NATS JetStream) in ACE_DATA_DIR afresh, as
// separate invocations do.
func TestBatchIdReusedWithAnotherEditIsRefused(t *testing.T) {
	noModel(t)
	t.Setenv("ACE_DATA_DIR", t.TempDir())
	t.Setenv("ACE_TEMPORAL_ADDRESS", "")
	t.Setenv("ACE_NATS_URL", "")
	dir := t.TempDir()
	deck := filepath.Join("..", "..", "testdata", "decks", "northwind-qbr.pptx")
	original, err := os.ReadFile(filepath.Join("..", "..", "testdata", "recipes", "title-normalize.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	rp := filepath.Join(dir, "titles.yaml")
	if err := os.WriteFile(rp, original, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	id := "reuse-" + time.Now().Format("150405")
	args := []string{"batch", "--recipe", rp, deck, "-o", out, "--batch", id}

	code, stderr := runCLI(t, args...)
	if code != 0 && code != exitNotMet {
		t.Fatalf("first run: exit %d: %s", code, stderr)
	}
	first := readBatchSummary(t, out)
	if first.Batch != id || first.Decks != 1 || first.Done != 1 {
		t.Fatalf("first run's summary: %+v", first)
	}

	changed := strings.Replace(string(original), "fontWeight: 700", "fontWeight: 400", 1)
	if changed == string(original) {
		t.Fatal("the recipe was not changed")
	}
	for _, c := range []struct {
		name, recipe string
		extra        []string
		want         string
	}{
		{"recipe rewritten in place", changed, nil, "the recipe's contents differ"},
		{"another format", string(original), []string{"--format", "json"}, "--format was each deck's own, now json"},
		{"other options", string(original), []string{"--tau", "4.5"}, "--tau or --max-iterations differ"},
	} {
		if err := os.WriteFile(rp, []byte(c.recipe), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stderr := runCLI(t, append(args, c.extra...)...)
		t.Logf("%s: exit %d: %s", c.name, code, strings.TrimSpace(stderr))
		if code != exitBadInput {
			t.Errorf("%s: exit %d, want 2: %s", c.name, code, stderr)
			continue
		}
		for _, want := range []string{"batch id " + id + " already ran these decks with a different edit", c.want, "pass another --batch, or omit --batch"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("%s: stderr lacks %q:\n%s", c.name, want, stderr)
			}
		}
	}

	// The same command resumes: the summary is the first run's result
	// (same final snapshot, same edit duration), not a new edit.
	if err := os.WriteFile(rp, original, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(out, "summary.json"))
	code, stderr = runCLI(t, args...)
	if code != 0 && code != exitNotMet {
		t.Fatalf("same command: exit %d: %s", code, stderr)
	}
	again := readBatchSummary(t, out)
	if again.Batch != id || len(again.Rows) != 1 || again.Rows[0].Final != first.Rows[0].Final || again.Rows[0].DurationMS != first.Rows[0].DurationMS {
		t.Fatalf("rerun did not resume the batch:\nfirst %+v\nagain %+v", first.Rows, again.Rows)
	}
}

func readBatchSummary(t *testing.T, out string) workers.Summary {
	t.Helper()
	var sum workers.Summary
	b, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	return sum
}
