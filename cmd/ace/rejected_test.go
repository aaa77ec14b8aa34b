package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/runner"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/store"
)

// A recipe the gate blocks (every title pushed past the slide's right
// edge): the report shows the refused attempt's slides as the loop's own
// Render step pictured them (each embedded PNG is the one the record names
// by content hash), with the violations outlined and labelled by kind,
// and each picture differs from the original slide's render.
func TestABlockedEditsReportShowsTheRefusedAttempt(t *testing.T) {
	dir, in, rcp, d := recipeOnGeneratedDeck(t, `name: titles pushed off the slide
steps:
  - for_each: {role: title}
    tool: move_node
    args: {nodeId: "${match.id}", x: 1200, y: 40}
`)
	recPath, page := filepath.Join(dir, "run.json"), filepath.Join(dir, "report.html")
	var stdout bytes.Buffer
	err := runEdit(context.Background(), &stdout, &stdout, in, editFlags{recipePath: rcp, out: filepath.Join(dir, "out.json"),
		recordPath: recPath, reportPath: page, tau: 4, iterations: 3, maxTurns: 35})
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != policy.ExitNotMet {
		t.Fatalf("want exit 3 (gate_blocked), got %v\n%s", err, stdout.String())
	}
	var rec editloop.Record
	rb, _ := os.ReadFile(recPath)
	if err := json.Unmarshal(rb, &rec); err != nil || rec.Outcome != policy.GateBlocked {
		t.Fatalf("record: %v, outcome %s", err, rec.Outcome)
	}
	blocked := rec.Iterations[0].Blocked
	if len(blocked) == 0 {
		t.Fatal("the record lists no refused slide")
	}
	pageHTML, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(pageHTML), "Refused by the geometry gate")
	if i < 0 {
		t.Fatalf("the report has no refused attempt:\n%s", pageHTML)
	}
	section := string(pageHTML)[i:]
	if !strings.Contains(string(pageHTML), "the refused attempt is shown below") || !strings.Contains(section, "<rect ") ||
		!strings.Contains(section, ">out_of_bounds</text>") {
		t.Fatal("the refused slides are not outlined and labelled with their violations' kind")
	}
	shots := regexp.MustCompile(`src="data:image/png;base64,([^"]+)"`).FindAllStringSubmatch(section, -1)
	if len(shots) != len(blocked) {
		t.Fatalf("%d pictures for %d refused slides", len(shots), len(blocked))
	}

	pool, err := render.NewPool(context.Background(), render.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	ctx := context.Background()
	steps := &runner.Steps{Store: store.NewMemory(), Renderer: pool}
	origin, err := store.PutDeck(ctx, steps.Store, d)
	if err != nil {
		t.Fatal(err)
	}
	for k, m := range shots {
		png, err := base64.StdEncoding.DecodeString(html.UnescapeString(m[1]))
		if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
			t.Fatalf("picture %d is not a PNG: %v", k, err)
		}
		if scenegraph.HashBytes(png) != blocked[k].Image {
			t.Fatalf("picture %d is not the loop's render of slide %d (%s)", k, blocked[k].Number, blocked[k].Image)
		}
		was, err := steps.RenderSlides(ctx, origin, []string{blocked[k].SlideID}, true, 0)
		if err != nil || len(was.Images) != 1 {
			t.Fatalf("render the original slide: %v", err)
		}
		before, _ := steps.Store.Get(ctx, was.Images[0].Ref)
		if bytes.Equal(before, png) {
			t.Fatalf("slide %d: the refused attempt's picture is the original's", blocked[k].Number)
		}
	}
	t.Logf("%d refused slides pictured and outlined; report %d bytes", len(blocked), len(pageHTML))
}

// A render that runs out of time fails the edit as a render timeout, with
// the slide and the limit named: not gate_blocked, which would say the edit
// was refused for its geometry (issue 16 item 13). The record keeps the
// outcome and reason, and nothing is written.
func TestARenderTimeoutIsReportedAsSuch(t *testing.T) {
	dir, in, rcp, _ := recipeOnGeneratedDeck(t, `name: titles nudged
steps:
  - for_each: {role: title}
    tool: move_node
    args: {nodeId: "${match.id}", x: 60, y: 30}
`)
	out, recPath := filepath.Join(dir, "out.json"), filepath.Join(dir, "run.json")
	var stdout bytes.Buffer
	err := runEdit(context.Background(), &stdout, &stdout, in, editFlags{recipePath: rcp, out: out,
		recordPath: recPath, tau: 4, iterations: 3, maxTurns: 35, renderLimit: time.Nanosecond})
	if exitCode(err) != policy.ExitFailure {
		t.Fatalf("want exit 1 (failed), got %v\n%s", err, stdout.String())
	}
	var rec editloop.Record
	rb, _ := os.ReadFile(recPath)
	if err := json.Unmarshal(rb, &rec); err != nil {
		t.Fatalf("record: %v", err)
	}
	if rec.Outcome != policy.Failed || !strings.Contains(rec.Reason, "timed out after 1ns") || !regexp.MustCompile(`slide \d+`).MatchString(rec.Reason) {
		t.Errorf("outcome %s, reason %q: want failed, naming the slide and the render time limit", rec.Outcome, rec.Reason)
	}
	if strings.Contains(stdout.String(), "gate_blocked") || strings.Contains(stdout.String(), "geometry violations") {
		t.Errorf("a timeout reported as a gate block:\n%s", stdout.String())
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("an output was written after the render failed (%v)", err)
	}
}

// recipeOnGeneratedDeck writes a generated 4-slide deck d (deck.json) and
// the recipe (recipe.yaml) to a temporary folder and clears the model
// settings, so the edit runs the recipe alone.
func recipeOnGeneratedDeck(t *testing.T, recipe string) (dir, deck, recipePath string, d *scenegraph.Deck) {
	t.Helper()
	for _, k := range []string{"ACE_AGENT_MODEL", "ACE_JUDGE_MODEL", "ACE_ROUTER_MODEL", "OPENAI_BASE_URL"} {
		t.Setenv(k, "")
	}
	dir = t.TempDir()
	d, _ = deckgen.Generate(deckgen.Options{Slides: 4, Seed: 1})
	b, err := scenegraph.Encode(d)
	if err != nil {
		t.Fatal(err)
	}
	deck, recipePath = filepath.Join(dir, "deck.json"), filepath.Join(dir, "recipe.yaml")
	if err := os.WriteFile(deck, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(recipePath, []byte(recipe), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, deck, recipePath, d
}
