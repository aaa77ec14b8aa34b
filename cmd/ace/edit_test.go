package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/deckio"
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/scenegraph"
)

func TestEditPrintsUsageAndCostAndWritesTheDeck(t *testing.T) {
	srv := llmtest.Load(t, filepath.Join("..", "..", "testdata", "scripts", "runner-stop-at-4.yaml"))
	t.Setenv("OPENAI_BASE_URL", srv.URL())
	t.Setenv("OPENAI_API_KEY", "test")
	t.Setenv("ACE_AGENT_MODEL", "agent-m")
	t.Setenv("ACE_JUDGE_MODEL", "judge-m")
	t.Setenv("ACE_ROUTER_MODEL", "router-m")
	t.Setenv("ACE_PRICES", `{"agent-m": {"input": 2, "cachedInput": 0.5, "output": 8}}`)

	dir := t.TempDir()
	d, _ := deckgen.Generate(deckgen.Options{Slides: 6, Seed: 1})
	b, err := scenegraph.Encode(d)
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "deck.json")
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.json")
	recPath := filepath.Join(dir, "run.json")
	page := filepath.Join(dir, "report.html")
	var stdout, stderr bytes.Buffer
	err = runEdit(context.Background(), &stdout, &stderr, in, editFlags{
		instruction: "Rename the title on slide 2 to 'Pricing experiments and results'.",
		out:         out, recordPath: recPath, reportPath: page, tau: 4, iterations: 3, maxTurns: 35,
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	got := stdout.String()
	t.Log("\n" + got)
	var rec editloop.Record
	rb, err := os.ReadFile(recPath)
	if err != nil || json.Unmarshal(rb, &rec) != nil || len(rec.Iterations) != 1 {
		t.Fatalf("record file: %v %+v", err, rec.Usage)
	}
	// The router, the agent's edit and its submit, the judge, and the
	// critic's group calls (its scheduler picks 3-5 checks).
	critic := 0
	for _, c := range rec.Calls() {
		if strings.HasPrefix(c.Purpose, "critic-") {
			critic++
		}
	}
	if critic < 1 || critic > 5 || rec.Usage.Calls != 4+critic {
		t.Fatalf("record usage %+v with %d critic calls", rec.Usage, critic)
	}
	// the edit turn: 3000 uncached x $2 + 6000 cached x $0.5 + 120 x $8 per
	// 1M = $0.00996; its submit turn reports no usage
	for _, want := range []string{"route: MICRO_SPATIAL, target slides [2]", "agent-m", "0.009960", "unpriced",
		fmt.Sprintf("task: %d calls, 11300 prompt tokens (6000 cached), 190 completion tokens, $0.0100", 4+critic), "outcome: stopped", "wrote " + out} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	edited, _, err := deckio.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if n := scenegraph.NewIndex(edited).Node("s2-t5"); n == nil || n.Characters != "Pricing experiments and results" {
		t.Fatal("the edited deck was not written")
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Pricing experiments and results", "data:image/png;base64,", "The slide 2 title now reads as requested"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	orig, _ := os.ReadFile(in)
	if !bytes.Equal(orig, b) {
		t.Fatal("the original deck was modified")
	}
	// Progress off a terminal: a line as each step of the iteration
	// begins, and the slides rendered (issue 20).
	progress := stderr.String()
	for _, want := range []string{"edit: starting Chromium\n", "edit: iteration 1: route\n", "edit: iteration 1: agent turn\n",
		"edit: iteration 1: judge\n", "edit: iteration 1: render, 1 slide\n", "edit: iteration 1: export\n"} {
		if !strings.Contains(progress, want) {
			t.Errorf("stderr lacks %q:\n%s", want, progress)
		}
	}
}

func TestEditWithoutAModelIsBadInput(t *testing.T) {
	for _, k := range []string{"ACE_AGENT_MODEL", "ACE_JUDGE_MODEL", "ACE_ROUTER_MODEL"} {
		t.Setenv(k, "")
	}
	var out bytes.Buffer
	err := runEdit(context.Background(), &out, &out, "whatever.json", editFlags{instruction: "x", tau: 4, iterations: 3, maxTurns: 35})
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitBadInput || !strings.Contains(err.Error(), "ACE_AGENT_MODEL") {
		t.Fatalf("want exit 2 naming ACE_AGENT_MODEL, got %v", err)
	}
}

func TestEditRecipeWithoutAModel(t *testing.T) {
	for _, k := range []string{"ACE_AGENT_MODEL", "ACE_JUDGE_MODEL", "ACE_ROUTER_MODEL"} {
		t.Setenv(k, "")
	}
	dir := t.TempDir()
	d, _ := deckgen.Generate(deckgen.Options{Slides: 5, Seed: 2})
	b, _ := scenegraph.Encode(d)
	in := filepath.Join(dir, "deck.json")
	os.WriteFile(in, b, 0o644)
	var stdout bytes.Buffer
	rp := filepath.Join(dir, "titles.yaml")
	os.WriteFile(rp, []byte(`name: Normalize titles
steps:
  - for_each: {role: title}
    tool: set_text_font
    args: {nodeId: "${match.id}", fontSize: 36}
expect:
  - all: {select: {role: title}, size: 36}
`), 0o644)
	err := runEdit(context.Background(), &stdout, &stdout, in, editFlags{
		recipePath: rp,
		tau:        4, iterations: 3, maxTurns: 35,
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	out := filepath.Join(dir, "deck.edited.json")
	edited, _, err := deckio.Load(out)
	if err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	for i, s := range edited.Slides {
		s.Walk(func(n, _ *scenegraph.Node, _ int) bool {
			if n.Placeholder != nil && n.Placeholder.Role == "title" && (n.Style == nil || n.Style.FontSize != 36) {
				t.Errorf("slide %d title %s not normalised: %+v", i+1, n.ID, n.Style)
			}
			return true
		})
	}
	if !strings.Contains(stdout.String(), "recipe: Normalize titles") || !strings.Contains(stdout.String(), "outcome: applied") || !strings.Contains(stdout.String(), "task: 0 calls") {
		t.Fatalf("output:\n%s", stdout.String())
	}
}

// A recipe that does not parse is bad input reported once, with its line
// and column, before any deck is read: no iteration table, nothing written.
func TestEditBadRecipeIsReportedOnceUpFront(t *testing.T) {
	printed, err := editWithRecipe(t, "bad.yaml", "steps:\n  - tool: set_fill_colour\n    args: {nodeId: s1, color: \"#FFFFFF\"}\n")
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitBadInput || !strings.Contains(err.Error(), "bad.yaml:2:5: unknown tool \"set_fill_colour\" (did you mean set_fill_color?)") {
		t.Fatalf("want exit 2 with the recipe's position, got %v", err)
	}
	if printed != "" {
		t.Fatalf("printed before failing:\n%s", printed)
	}
}

// editWithRecipe runs ace edit on a deck that does not exist with the
// recipe text, returning what was printed and the error.
func editWithRecipe(t *testing.T, name, recipe string) (string, error) {
	t.Helper()
	dir := t.TempDir()
	rp := filepath.Join(dir, name)
	os.WriteFile(rp, []byte(recipe), 0o644)
	var stdout bytes.Buffer
	err := runEdit(context.Background(), &stdout, &stdout, filepath.Join(dir, "missing.pptx"), editFlags{
		recipePath: rp, tau: 4, iterations: 3, maxTurns: 35})
	return stdout.String(), err
}

// A recipe with a step for the agent is refused without a model (exit 2),
// before any deck is read, as ace batch does: it would be half-applied.
func TestEditRecipeWithAnAgentStepNeedsAModel(t *testing.T) {
	for _, k := range []string{"ACE_AGENT_MODEL", "ACE_JUDGE_MODEL", "ACE_ROUTER_MODEL"} {
		t.Setenv(k, "")
	}
	_, err := editWithRecipe(t, "mixed.yaml", "steps:\n  - tool: set_theme_fonts\n    args: {heading: Inter}\n  - instruction: Shorten every title\n")
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitBadInput || !strings.Contains(err.Error(), "step 2 (line 4) is an instruction for the agent and needs a model") {
		t.Fatalf("want exit 2 naming the step, got %v", err)
	}
}

// A model endpoint that does not answer fails the edit up front (exit 2,
// naming the URL) instead of after every retry.
func TestEditWithAnUnreachableModelFailsFast(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	t.Setenv("OPENAI_BASE_URL", "http://"+addr+"/v1")
	t.Setenv("OPENAI_API_KEY", "x")
	t.Setenv("ACE_AGENT_MODEL", "m")
	var stdout bytes.Buffer
	err = runEdit(context.Background(), &stdout, &stdout, "whatever.pptx", editFlags{instruction: "Retitle slide 2", tau: 4, iterations: 3, maxTurns: 35})
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitBadInput || !strings.Contains(err.Error(), addr) || !strings.Contains(err.Error(), "OPENAI_BASE_URL") {
		t.Fatalf("want exit 2 naming %s, got %v", addr, err)
	}
}

// --record and --report never overwrite the input deck, the output deck or
// each other, and an impossible path is bad input before any work.
func TestEditSideOutputsAreCheckedUpFront(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.pptx")
	os.WriteFile(in, []byte("not read: the check comes first"), 0o644)
	file := filepath.Join(dir, "afile")
	os.WriteFile(file, []byte("x"), 0o644)
	out := filepath.Join(dir, "out.pptx")
	rp := filepath.Join(dir, "r.yaml")
	os.WriteFile(rp, []byte("steps:\n  - tool: set_theme_fonts\n    args: {heading: Inter}\n"), 0o644)
	for _, c := range []struct {
		record, report, want string
	}{
		{in, "", "--record " + in + " is the input deck"},
		{"", out, "--report " + out + " is the output deck"},
		{filepath.Join(dir, "x.json"), filepath.Join(dir, "x.json"), "are both"},
		{"", filepath.Join(file, "r.html"), "is a file, not a directory"},
		{rp, "", "is the recipe"},
	} {
		var stdout bytes.Buffer
		err := runEdit(context.Background(), &stdout, &stdout, in, editFlags{recipePath: rp, out: out,
			recordPath: c.record, reportPath: c.report, tau: 4, iterations: 3, maxTurns: 35})
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != exitBadInput || !strings.Contains(err.Error(), c.want) {
			t.Errorf("record %q report %q: want exit 2 with %q, got %v", c.record, c.report, c.want, err)
		}
	}
	if b, _ := os.ReadFile(in); string(b) != "not read: the check comes first" {
		t.Fatal("the input deck was touched")
	}
}
