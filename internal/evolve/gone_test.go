package evolve_test

import (
	"context"
	"strings"
	"testing"
)

// TestRecordsWhoseDecksAreGoneAreGivenUp: an edit recorded from a store
// the round cannot read (an in-memory one: a bench run, a crashed
// process) is given up with the reason, neither graded nor replayed, and
// the round still grades the others and finishes.
func TestRecordsWhoseDecksAreGoneAreGivenUp(t *testing.T) {
	w := newWorld(t, nil)
	ctx := context.Background()
	gone := notesRecord(w, "gone", 1)
	gone.DeckRef = strings.Repeat("a", 64)
	gone.FinalRef = strings.Repeat("b", 64)
	if err := w.bank.PutRecord(ctx, gone); err != nil {
		t.Fatal(err)
	}
	rep, err := w.runner(0).Run(ctx, "r-gone", false)
	if err != nil {
		t.Fatalf("the round failed on a record without decks: %v", err)
	}
	if rep.Graded != 0 || len(rep.GaveUp) != 1 || !strings.Contains(rep.GaveUp[0], "record gone: its decks are not in this store") {
		t.Fatalf("report %+v: want the record given up", rep)
	}
	rec, err := w.bank.Record(ctx, "gone")
	if err != nil || rec.Grade != nil {
		t.Fatalf("record %+v (%v): want it left ungraded", rec, err)
	}
	rl, err := w.bank.Round(ctx, "r-gone")
	if err != nil || rl.FinishedUnixMS == 0 {
		t.Fatalf("round log %+v (%v): want finished", rl, err)
	}
	if n := len(w.srv.Requests()); n != 0 {
		t.Errorf("%d model calls for a record that cannot be graded", n)
	}
}
