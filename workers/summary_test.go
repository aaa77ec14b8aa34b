package workers

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestSummaryTextKeepsWholeReasons writes a batch summary whose failed
// deck has a long reason ending in its fix, with accented letters where
// a byte cut would split one: the terminal table cuts it at
// TableReasonRunes characters, on a character boundary, and says where it
// is whole; summary.txt keeps it whole (issue 20).
func TestSummaryTextKeepsWholeReasons(t *testing.T) {
	// A byte cut at 77 would split the "é" of "référencé".
	reason := "3: la diapositive 3 n'a pas été modifiée : le thème « Écarlate » référencé n'existe pas dans le modèle ; " +
		"ajoutez-le au fichier de thème, ou retirez l'étape 2"
	sum := &Summary{Batch: "b1", Decks: 2, Done: 1, Failed: 1, Rows: []SummaryRow{
		{Deck: "ok", Status: "ok", Outcome: "applied", Reason: "recipe applied"},
		{Deck: "broken", Status: "failed", Outcome: "failed", Reason: reason},
	}}
	dir := t.TempDir()
	if err := sum.WriteFiles(dir, false); err != nil {
		t.Fatal(err)
	}
	txt, err := os.ReadFile(filepath.Join(dir, "summary.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(txt), reason) {
		t.Errorf("summary.txt does not hold the whole reason:\n%s", txt)
	}
	if strings.Contains(string(txt), "reasons cut") {
		t.Errorf("summary.txt says reasons are cut:\n%s", txt)
	}

	var table bytes.Buffer
	sum.WriteTable(&table)
	out := table.String()
	if strings.Contains(out, "retirez") || !strings.Contains(out, "...") {
		t.Errorf("the terminal table does not cut the long reason:\n%s", out)
	}
	if !utf8.ValidString(out) {
		t.Errorf("the cut split a character:\n%q", out)
	}
	if !strings.Contains(out, "summary.txt") {
		t.Errorf("the table does not say where the whole reasons are:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "broken") {
			cut := line[strings.Index(line, "3: la"):]
			if n := utf8.RuneCountInString(cut); n != TableReasonRunes {
				t.Errorf("cut reason is %d characters, want %d: %q", n, TableReasonRunes, cut)
			}
		}
	}
}
