package main

import (
	"context"
	"errors"
	"io"
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

// --format, --tau and --max-iterations are checked before anything starts
// (they failed every deck's export or ran the loop out of range), and a
// batch id with no events names the data directory, not the embedded
// NATS server's throwaway port.
func TestBatchOptionsAndUnknownIdsAreBadInput(t *testing.T) {
	noModel(t)
	data := t.TempDir()
	t.Setenv("ACE_DATA_DIR", data)
	t.Setenv("ACE_TEMPORAL_ADDRESS", "")
	t.Setenv("ACE_NATS_URL", "")
	dir := t.TempDir()
	deck := filepath.Join("..", "..", "testdata", "decks", "northwind-qbr.pptx")
	rp := titlesRecipe(t, dir)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--format", "pdf"}, `--format "pdf": use pptx or json, or leave it out`},
		{[]string{"--tau", "7"}, "--tau 7 --max-iterations 0: want --tau in 0..5"},
		{[]string{"--max-iterations", "-1"}, "--max-iterations -1: want"},
	} {
		code, stderr := runCLI(t, append([]string{"batch", "--recipe", rp, deck, "-o", filepath.Join(dir, "out")}, c.args...)...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 saying %q", c.args, code, stderr, c.want)
		}
	}
	if entries, _ := os.ReadDir(data); len(entries) > 0 {
		t.Errorf("a refused option started the embedded stack in ACE_DATA_DIR (%d entries)", len(entries))
	}
	for _, cmd := range [][]string{{"batch", "status", "nosuch"}, {"report", "nosuch", "-o", filepath.Join(dir, "r")}} {
		code, stderr := runCLI(t, cmd...)
		if code != exitBadInput || !strings.Contains(stderr, `no events for batch "nosuch" in the embedded stack in ACE_DATA_DIR=`+data) {
			t.Errorf("%v: exit %d, %q", cmd, code, stderr)
		}
	}
}

// An output entry that is a symbolic link is refused before anything runs
// (batch: any file the batch writes; convert and edit: the output deck),
// naming the link; with --force convert replaces the link itself and the
// file it pointed to keeps its bytes.
func TestOutputLinksAreRefusedUnlessForced(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "unrelated.txt")
	os.WriteFile(victim, []byte("keep me"), 0o644)
	out := filepath.Join(dir, "out")
	os.MkdirAll(out, 0o755)
	a, b := filepath.Join(dir, "a", "table-report.pptx"), filepath.Join(dir, "b", "table-report.pptx")
	for _, name := range []string{"table-report-2.pptx", "reports", "summary.json"} {
		link := filepath.Join(out, name)
		os.Symlink(victim, link)
		err := checkOutLinks(out, []string{a, b})
		var ee *exitError
		if name == "table-report-2.pptx" {
			// b's output is table-report-2 here: no input has that name.
			if err == nil || !errors.As(err, &ee) || ee.code != exitBadInput || !strings.Contains(err.Error(), link) || !strings.Contains(err.Error(), "--force") {
				t.Errorf("link %s: want exit 2 naming it and --force, got %v", name, err)
			}
		} else if err == nil || !strings.Contains(err.Error(), link) {
			t.Errorf("link %s: got %v", name, err)
		}
		os.Remove(link)
	}
	if err := checkOutLinks(out, []string{a, b}); err != nil {
		t.Fatalf("no links left: %v", err)
	}

	in := genDeck(t, dir, "deck.json", 2)
	link := filepath.Join(dir, "linked.json")
	os.Symlink(victim, link)
	err := runConvert(context.Background(), io.Discard, in, link, convertFlags{})
	if codeOf(err) != exitBadInput || !strings.Contains(fmtErr(err), "symbolic link") {
		t.Fatalf("convert onto a link without --force: %v", err)
	}
	if err := runConvert(context.Background(), io.Discard, in, link, convertFlags{force: true}); err != nil {
		t.Fatalf("convert --force onto a link: %v", err)
	}
	if data, _ := os.ReadFile(victim); string(data) != "keep me" {
		t.Fatalf("the link's target was written: %q", data)
	}
	if fi, err := os.Lstat(link); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("the link was not replaced by the deck: %v", err)
	}
}
