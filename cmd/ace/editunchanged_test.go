package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/deckio"
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
)

// A recipe that changes nothing still writes the output -o asks for (the
// deck as it stands, in OUT's format: a real .pptx in, .json out) and says
// so on stderr; without -o nothing is written and stdout says why.
func TestEditRecipeThatChangesNothingWritesTheAskedOutput(t *testing.T) {
	noModel(t)
	src := shareddecks.PPTXFile(t, "table-report.pptx")
	dir := t.TempDir()
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "table-report.pptx")
	if err := os.WriteFile(in, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	rp := filepath.Join(dir, "nothing.yaml")
	if err := os.WriteFile(rp, []byte(`name: Rename a company the deck never names
steps:
  - for_each: {text: "Zyxwv Holdings"}
    tool: set_text_content
    args: {nodeId: "${match.id}", find: "Zyxwv Holdings", text: "Acme"}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	flags := editFlags{recipePath: rp, tau: 4, iterations: 3, maxTurns: 35}

	out := filepath.Join(dir, "report.json")
	flags.out = out
	var stdout, stderr bytes.Buffer
	if err := runEdit(context.Background(), &stdout, &stderr, in, flags); err != nil {
		t.Fatalf("edit -o %s: %v\n%s%s", out, err, stdout.String(), stderr.String())
	}
	if want := "\nace: edit: recipe changed nothing; wrote the deck unchanged to " + out + "\n"; !strings.HasSuffix(stderr.String(), want) {
		t.Errorf("stderr %q, want it to end with %q", stderr.String(), want)
	}
	if !strings.Contains(stdout.String(), "outcome: unchanged") {
		t.Errorf("stdout:\n%s", stdout.String())
	}
	orig, _, err := deckio.Load(in)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := deckio.Load(out)
	if err != nil {
		t.Fatalf("the unchanged deck was not written as JSON: %v", err)
	}
	a, _ := scenegraph.Encode(orig)
	b, _ := scenegraph.Encode(got)
	if len(got.Slides) != len(orig.Slides) || !bytes.Equal(a, b) {
		t.Errorf("%s is not the deck unchanged: %d slides against %d, equal encodings %v", out, len(got.Slides), len(orig.Slides), bytes.Equal(a, b))
	}

	// Without -o: no DECK.edited.pptx copy of an unchanged deck.
	flags.out = ""
	stdout.Reset()
	stderr.Reset()
	if err := runEdit(context.Background(), &stdout, &stderr, in, flags); err != nil {
		t.Fatalf("edit without -o: %v\n%s", err, stdout.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "table-report.edited.pptx")); err == nil {
		t.Error("an unchanged deck was copied to DECK.edited.pptx without -o")
	}
	if want := "recipe changed nothing; nothing written (the original stands; pass -o OUT to write a copy anyway)"; !strings.Contains(stdout.String(), want) {
		t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
	}
	if now, _ := os.ReadFile(in); !bytes.Equal(now, raw) {
		t.Fatal("the input deck was modified")
	}
}

// A no-op the judge accepted (a relay model's "no chart on slide 2, so
// nothing to change", IF 5) reads as accepted, not as "no iteration was
// kept (stopped)", which sounded like a failure; a budget run that kept
// nothing still says so.
func TestUnchangedWhyNamesAnAcceptedNoOp(t *testing.T) {
	accepted := &editloop.Record{Outcome: policy.Stopped, Iterations: []editloop.IterationRecord{{N: 1, DiffEmpty: true}}}
	if got := unchangedWhy(accepted, false); got != "the edit changed nothing, and the judge accepted the deck as it was" {
		t.Fatalf("accepted no-op: %q", got)
	}
	spent := &editloop.Record{Outcome: policy.Budget, Iterations: []editloop.IterationRecord{{N: 1}, {N: 2}}}
	if got := unchangedWhy(spent, false); got != "no iteration was kept (budget)" {
		t.Fatalf("budget: %q", got)
	}
}
