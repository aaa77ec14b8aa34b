package runner

import (
	"context"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/recipe"
	"github.com/acecanvas/ace/internal/store"
)

// An edit that failed (or was interrupted, or gate-blocked) keeps that
// outcome when the recipe's expectations are then checked on the deck that
// stands: the checks are recorded, but "expectation_failed" would report an
// error (such as a replay mismatch) as the recipe falling short.
func TestExpectationsDoNotReplaceAFailure(t *testing.T) {
	ctx := context.Background()
	d, _ := deckgen.Generate(deckgen.Options{Slides: 2, Seed: 1})
	s := &Steps{Store: store.NewMemory()}
	ref, err := store.PutDeck(ctx, s.Store, d)
	if err != nil {
		t.Fatal(err)
	}
	r, err := recipe.Parse("t.yaml", []byte("steps:\n  - tool: create_slide\n    args: {title: Alpha}\nexpect:\n  - every_slide_has: {text: \"Never there\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ outcome, want string }{
		{"failed", "failed"},
		{"interrupted", "interrupted"},
		{"gate_blocked", "gate_blocked"},
		{"applied", "expectation_failed"},
	} {
		rec := &Record{Outcome: c.outcome, Final: ref, Reason: "why"}
		if err := checkExpectations(ctx, s, r, rec); err != nil {
			t.Fatal(err)
		}
		if rec.Outcome != c.want || len(rec.Checks) == 0 {
			t.Errorf("outcome %s became %s with %d failed checks, want %s", c.outcome, rec.Outcome, len(rec.Checks), c.want)
		}
		if c.want != "expectation_failed" && rec.Reason != "why" {
			t.Errorf("outcome %s: the reason was replaced by %q", c.outcome, rec.Reason)
		}
	}
}
