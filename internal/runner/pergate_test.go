package runner_test

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/deckio"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/recipe"
	"github.com/acecanvas/ace/internal/runner"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/internal/store"
)

// perSlideRebrand is the shipped rebrand recipe with gate: per_slide and
// one more step that sets the titles of slides 4 and 9 at 160 px, which
// cannot fit their boxes.
func perSlideRebrand(t *testing.T) string {
	t.Helper()
	root := repoRoot(t)
	yml, err := os.ReadFile(filepath.Join(root, "testdata", "recipes", "rebrand.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(yml)
	s = strings.Replace(s, "assets: assets\n", "assets: "+filepath.Join(root, "testdata", "recipes", "assets")+"\ngate: per_slide\n", 1)
	s = strings.Replace(s, "expect:\n", `  - label: titles too big for their boxes on slides 4 and 9
    for_each: {role: title, slides: "4,9"}
    tool: set_text_font
    args: {nodeId: "${match.id}", fontSize: 160}
expect:
`, 1)
	p := filepath.Join(t.TempDir(), "rebrand-per-slide.yaml")
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	if r, err := recipe.Load(p); err != nil || !r.PerSlide() {
		t.Fatalf("recipe: %v", err)
	}
	return p
}

// zipParts reads every part of a .pptx.
func zipParts(t *testing.T, data []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name] = b
	}
	return out
}

// The rebrand with gate: per_slide on the real career-tips deck, where an
// added step overflows the titles of slides 4 and 9: those two slides are
// put back as they were and listed with their violations, the other slides
// keep the rebrand, the outcome is partly_applied, and the exported .pptx
// has slides 4 and 9's parts byte-identical to the original file while
// the other changed slides' parts differ.
func TestPerSlideGateRevertsOnlyTheSlidesThatBreak(t *testing.T) {
	path := shareddecks.PPTXFile(t, "career-tips.pptx")
	d, blobs, err := deckio.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	steps := &runner.Steps{Renderer: pool}
	rec := recipeRun(t, steps, d, blobs, perSlideRebrand(t))
	ctx := context.Background()
	if rec.Outcome != policy.PartlyApplied || rec.Gate != recipe.GatePerSlide || rec.Selected != 1 {
		t.Fatalf("outcome %s (gate %q, selected %d): %s", rec.Outcome, rec.Gate, rec.Selected, rec.Reason)
	}
	if len(rec.Reverted) != 2 || rec.Reverted[0].Number != 4 || rec.Reverted[1].Number != 9 {
		t.Fatalf("reverted %s", dump(rec.Reverted))
	}
	for _, r := range rec.Reverted {
		if len(r.Violations) == 0 || !strings.Contains(r.Violations[0], "slide "+r.SlideID) {
			t.Fatalf("slide %d reverted without its violations: %s", r.Number, dump(r))
		}
		t.Logf("reverted slide %d (%s): %s", r.Number, r.SlideID, strings.Join(r.Violations, "; "))
	}
	it := rec.Iterations[0]
	if !it.GatePassed || len(it.NewViolations) != 0 || it.Attempt == "" || it.Attempt == it.Snapshot || len(it.Blocked) != 2 {
		t.Fatalf("iteration: gate %v, new %v, attempt %q, blocked %d", it.GatePassed, it.NewViolations, it.Attempt, len(it.Blocked))
	}
	for _, b := range it.Blocked {
		if png, err := steps.Store.Get(ctx, b.Image); err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
			t.Fatalf("blocked slide %d: no picture of the attempt (%v)", b.Number, err)
		}
	}
	if len(rec.Checks) != 0 || !strings.Contains(rec.Reason, "reverted 2 slides") {
		t.Fatalf("checks %s, reason %q", dump(rec.Checks), rec.Reason)
	}

	attempt, err := store.GetDeck(ctx, steps.Store, it.Attempt)
	if err != nil {
		t.Fatal(err)
	}
	final, err := store.GetDeck(ctx, steps.Store, rec.Final)
	if err != nil {
		t.Fatal(err)
	}
	reverted := map[string]bool{rec.Reverted[0].SlideID: true, rec.Reverted[1].SlideID: true}
	kept := 0
	for i, sl := range final.Slides {
		was, at := d.Slides[i], attempt.Slides[i]
		switch {
		case reverted[sl.ID]:
			if scenegraph.NodeDigest(sl) != scenegraph.NodeDigest(was) {
				t.Errorf("slide %d was reverted but differs from the original", i+1)
			}
		case scenegraph.NodeDigest(sl) != scenegraph.NodeDigest(at):
			t.Errorf("slide %d kept but differs from the attempt", i+1)
		case scenegraph.NodeDigest(sl) != scenegraph.NodeDigest(was):
			kept++
		}
	}
	if kept == 0 {
		t.Fatal("no slide kept the rebrand")
	}

	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out, err := steps.Store.Get(ctx, rec.Export.Ref)
	if err != nil || rec.Export.Format != "pptx" {
		t.Fatalf("export %s: %v", rec.Export.Format, err)
	}
	before, after := zipParts(t, orig), zipParts(t, out)
	differ := 0
	for i, sl := range d.Slides {
		part := sl.Source.Part
		if part == "" || before[part] == nil || after[part] == nil {
			t.Fatalf("slide %d: part %q not in both files", i+1, part)
		}
		same := bytes.Equal(before[part], after[part])
		switch {
		case reverted[sl.ID] && !same:
			t.Errorf("reverted slide %d: %s differs from the original file", i+1, part)
		case !reverted[sl.ID] && scenegraph.NodeDigest(final.Slides[i]) != scenegraph.NodeDigest(sl) && same:
			t.Errorf("kept slide %d was edited but %s is the original's", i+1, part)
		case !same:
			differ++
		}
	}
	t.Logf("career-tips, rebrand with gate: per_slide: %d slides, %d kept edited (%d slide parts rewritten), slides %d and %d reverted; render %d ms",
		len(d.Slides), kept, differ, rec.Reverted[0].Number, rec.Reverted[1].Number, it.Timings.Render)
}
