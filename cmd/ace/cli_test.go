package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/deckio"
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/route"
	"github.com/acecanvas/ace/internal/tools"
)

// codeOf is the exit code an error from a run* function maps to.
func codeOf(err error) int { return exitCode(err) }

// noModel clears the model variables so recipe edits run without one.
func noModel(t *testing.T) {
	for _, k := range []string{"ACE_AGENT_MODEL", "ACE_JUDGE_MODEL", "ACE_ROUTER_MODEL", "ACE_REDIS_URL"} {
		t.Setenv(k, "")
	}
}

// titlesRecipe writes a recipe that needs no model and changes every
// generated deck (title size 36).
func titlesRecipe(t *testing.T, dir string) string {
	t.Helper()
	rp := filepath.Join(dir, "titles.yaml")
	if err := os.WriteFile(rp, []byte(`name: Normalize titles
steps:
  - for_each: {role: title}
    tool: set_text_font
    args: {nodeId: "${match.id}", fontSize: 36}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	return rp
}

// genPPTX writes a generated deck of the given size and seed through the
// PPTX exporter as dir/deck.pptx and returns its path.
func genPPTX(t *testing.T, dir string, slides int, seed uint64) string {
	t.Helper()
	d, blobs := deckgen.Generate(deckgen.Options{Slides: slides, Seed: seed})
	src, err := pptx.Export(d, blobs)
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "deck.pptx")
	if err := os.WriteFile(in, src, 0o644); err != nil {
		t.Fatal(err)
	}
	return in
}

func genDeck(t *testing.T, dir, name string, slides int) string {
	t.Helper()
	d, _ := deckgen.Generate(deckgen.Options{Slides: slides, Seed: 4})
	return writeDeck(t, dir, name, d)
}

// resetFlags puts every flag a test changed back to its default, so
// commands run through rootCmd do not leak options into later tests.
func resetFlags(c *cobra.Command) {
	c.Flags().VisitAll(func(f *pflag.Flag) {
		// Every scalar flag, changed or not: a value that failed to parse
		// ("--browsers x") is stored without marking the flag changed.
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			if f.Changed {
				def := strings.Trim(f.DefValue, "[]")
				var vals []string
				if def != "" {
					vals = strings.Split(def, ",")
				}
				_ = sv.Replace(vals)
			}
		} else {
			_ = f.Value.Set(f.DefValue)
		}
		f.Changed = false
	})
	for _, sub := range c.Commands() {
		resetFlags(sub)
	}
}

// runCLI runs the root command as main does and returns the exit code and
// what it printed to stderr.
func runCLI(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := execute(args, &stdout, &stderr)
	rootCmd.SetArgs(nil)
	rootCmd.SetOut(nil)
	rootCmd.SetErr(nil)
	resetFlags(rootCmd)
	return code, stderr.String()
}

// Item 4: usage errors (argument count, unknown flags and commands, bad
// option values, a file where a directory is wanted) exit 2 through the
// same path main takes.
func TestUsageErrorsExitTwo(t *testing.T) {
	dir := t.TempDir()
	deck := genDeck(t, dir, "deck.json", 2)
	afile := filepath.Join(dir, "afile")
	os.WriteFile(afile, []byte("x"), 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"diff", "A"}, "accepts 2 arg(s), received 1"},
		{[]string{"batch"}, "requires at least 1 arg(s)"},
		{[]string{"tools", "--bogus"}, "unknown flag: --bogus"},
		{[]string{"--bogus"}, "unknown flag: --bogus"},
		{[]string{"bogus"}, `unknown command "bogus"`},
		{[]string{"recipe", "plna"}, `unknown command "plna" for "ace recipe" (did you mean plan?)`},
		{[]string{"render", deck, "-o", afile}, "is a file"},
		{[]string{"render", deck, "-o", filepath.Join(dir, "out"), "--scale", "100"}, "at most 4"},
		{[]string{"render", deck, "-o", filepath.Join(dir, "out"), "--browsers", "x"}, "invalid argument"},
	}
	for _, c := range cases {
		code, stderr := runCLI(t, c.args...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("ace %s: exit %d, stderr %q; want exit 2 saying %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
	}
	for _, ok := range [][]string{{"tools", "--module", "batch"}, {"recipe"}} {
		if code, stderr := runCLI(t, ok...); code != 0 {
			t.Errorf("ace %s: exit %d: %s", strings.Join(ok, " "), code, stderr)
		}
	}
	for err, want := range map[error]int{
		nil:                        0,
		errors.New("boom"):         exitFailure,
		badInput(io.EOF):           exitBadInput,
		&exitError{3, io.EOF}:      exitNotMet,
		errors.Join(io.EOF):        exitFailure,
		badInput(io.ErrClosedPipe): exitBadInput,
	} {
		if got := exitCode(err); got != want {
			t.Errorf("exitCode(%v) = %d, want %d", err, got, want)
		}
	}
}

// Item 1: the output may never be the input, not even with --force;
// convert needs --force to replace an existing output, like edit.
func TestOutputIsNeverTheInput(t *testing.T) {
	noModel(t)
	dir := t.TempDir()
	in := genDeck(t, dir, "deck.json", 3)
	orig, _ := os.ReadFile(in)
	rp := titlesRecipe(t, dir)
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, in)
	if err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{in, link, filepath.Join(dir, ".", "deck.json"), rel} {
		var stdout bytes.Buffer
		err := runEdit(context.Background(), &stdout, &stdout, in, editFlags{recipePath: rp, out: out, overwrite: true, noRender: true, tau: 4, iterations: 3, maxTurns: 35})
		if codeOf(err) != exitBadInput || !strings.Contains(fmtErr(err), "is the input deck") {
			t.Errorf("edit -o %s --force: %v (exit %d)", out, err, codeOf(err))
		}
		if err := runConvert(context.Background(), io.Discard, in, out, convertFlags{force: true}); codeOf(err) != exitBadInput || !strings.Contains(fmtErr(err), "is the input deck") {
			t.Errorf("convert %s %s --force: %v", in, out, err)
		}
	}
	// Equal paths are refused before the file exists too.
	missing := filepath.Join(dir, "missing.pptx")
	if err := runConvert(context.Background(), io.Discard, missing, missing, convertFlags{force: true}); codeOf(err) != exitBadInput || !strings.Contains(fmtErr(err), "is the input deck") {
		t.Errorf("convert of a missing file onto itself: %v", err)
	}
	if now, _ := os.ReadFile(in); !bytes.Equal(now, orig) {
		t.Fatal("the original deck was modified")
	}
	// convert: an existing output needs --force.
	out := filepath.Join(dir, "out.json")
	os.WriteFile(out, []byte("keep"), 0o644)
	if err := runConvert(context.Background(), io.Discard, in, out, convertFlags{}); codeOf(err) != exitBadInput || !strings.Contains(fmtErr(err), "--force") {
		t.Errorf("convert over an existing output without --force: %v", err)
	}
	if b, _ := os.ReadFile(out); string(b) != "keep" {
		t.Error("convert replaced an existing output without --force")
	}
	if err := runConvert(context.Background(), io.Discard, in, out, convertFlags{force: true}); err != nil {
		t.Fatalf("convert --force: %v", err)
	}
	if _, _, err := deckio.Load(out); err != nil {
		t.Fatalf("convert --force did not write a deck: %v", err)
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Item 3: a bad output path is bad input found before the edit runs, and
// the message names the target.
func TestEditChecksTheOutputUpFront(t *testing.T) {
	noModel(t)
	dir := t.TempDir()
	in := genDeck(t, dir, "deck.json", 3)
	rp := titlesRecipe(t, dir)
	afile := filepath.Join(dir, "afile")
	os.WriteFile(afile, []byte("x"), 0o644)
	for out, want := range map[string]string{
		filepath.Join(dir, "x.pdf"):              "can only write .pptx or an ACE scene-graph .json",
		filepath.Join(afile, "x.pptx"):           afile + " is a file",
		"/proc/x.pptx":                           "cannot create files in /proc",
		filepath.Join(dir, "x.figma.json"):       "can only write",
		dir:                                      "can only write",
		filepath.Join(dir, "sub", "..", "d.pdf"): "d.pdf",
	} {
		var stdout bytes.Buffer
		err := runEdit(context.Background(), &stdout, &stdout, in, editFlags{recipePath: rp, out: out, noRender: true, tau: 4, iterations: 3, maxTurns: 35})
		if codeOf(err) != exitBadInput || !strings.Contains(fmtErr(err), want) || !strings.Contains(fmtErr(err), out) {
			t.Errorf("edit -o %s: exit %d, %v; want exit 2 naming the target and %q", out, codeOf(err), err, want)
		}
		if stdout.Len() > 0 {
			t.Errorf("edit -o %s ran before refusing the output:\n%s", out, stdout.String())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "sub")); err == nil {
		t.Error("the up-front check left a directory behind")
	}
}

// Item 2: --record creates its parent directories; a --report that cannot
// be written is refused before the edit runs (exit 2).
func TestEditRecordAndReportPaths(t *testing.T) {
	noModel(t)
	dir := t.TempDir()
	in := genDeck(t, dir, "deck.json", 3)
	rp := titlesRecipe(t, dir)
	out := filepath.Join(dir, "edited.json")
	rec := filepath.Join(dir, "out", "deeper", "ct.json")
	var stdout bytes.Buffer
	err := runEdit(context.Background(), &stdout, &stdout, in, editFlags{recipePath: rp, out: out, recordPath: rec, noRender: true, tau: 4, iterations: 3, maxTurns: 35})
	if err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	var r editloop.Record
	if b, err := os.ReadFile(rec); err != nil || json.Unmarshal(b, &r) != nil || r.Outcome != "applied" {
		t.Fatalf("record in a new directory: %v, outcome %q", err, r.Outcome)
	}

	afile := filepath.Join(dir, "afile")
	os.WriteFile(afile, []byte("x"), 0o644)
	out2 := filepath.Join(dir, "edited2.json")
	page := filepath.Join(afile, "r.html")
	stdout.Reset()
	err = runEdit(context.Background(), &stdout, &stdout, in, editFlags{recipePath: rp, out: out2, reportPath: page, noRender: true, tau: 4, iterations: 3, maxTurns: 35})
	// An impossible report path is bad input found before the edit runs.
	if codeOf(err) != exitBadInput || !strings.Contains(fmtErr(err), "--report "+page) {
		t.Fatalf("unwritable report: exit %d, %v", codeOf(err), err)
	}
	if _, err := os.Stat(out2); err == nil {
		t.Fatal("the deck was written although the report path was refused up front")
	}
}

// Item 5: --slides, --scale and --browsers are checked before Chromium
// starts, with the valid range in the message.
func TestRenderOptionsAreChecked(t *testing.T) {
	dir := t.TempDir()
	deck := genDeck(t, dir, "deck.json", 8)
	out := filepath.Join(dir, "out")
	base := renderFlags{outDir: out, scale: 1, browsers: 1, timeout: 1e9}
	cases := []struct {
		mod  func(*renderFlags)
		want string
	}{
		{func(f *renderFlags) { f.slidesSpec = "5-3" }, `"5-3" is reversed; write 3-5`},
		{func(f *renderFlags) { f.slidesSpec = "7-9" }, `"7-9" is outside 1-8 (the deck has 8 slides)`},
		{func(f *renderFlags) { f.scale = 0 }, "--scale 0: want a number above 0 and at most 4"},
		{func(f *renderFlags) { f.scale = -1 }, "--scale -1: want a number above 0"},
		{func(f *renderFlags) { f.scale = 100 }, "--scale 100"},
		{func(f *renderFlags) { f.browsers = 0 }, "--browsers 0: want 1-16"},
		{func(f *renderFlags) { f.timeout = 0 }, "--timeout"},
	}
	for _, c := range cases {
		f := base
		c.mod(&f)
		err := runRender(context.Background(), io.Discard, nil, deck, f)
		if codeOf(err) != exitBadInput || !strings.Contains(fmtErr(err), c.want) {
			t.Errorf("%+v: exit %d, %v; want %q", f, codeOf(err), err, c.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused render created its output directory")
	}
}

// Item 5: a render into a folder with an earlier render's images removes
// them first (and says so), so the folder holds the slides geometry.json
// describes; files ACE does not write are kept. One slide is "1 slide".
func TestRenderReplacesStaleImages(t *testing.T) {
	dir := t.TempDir()
	in := genPPTX(t, dir, 3, 7)
	out := filepath.Join(dir, "out")
	f := renderFlags{outDir: out, scale: 0.25, browsers: 1, timeout: 30e9, contact: true}
	if err := runRender(context.Background(), io.Discard, nil, in, f); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(out, "slide-07.png"), []byte("old"), 0o644)
	os.WriteFile(filepath.Join(out, "mine.png"), []byte("keep"), 0o644)
	os.WriteFile(filepath.Join(out, "slide-1.png"), []byte("keep"), 0o644)
	f.slidesSpec, f.contact = "2", false
	var stdout bytes.Buffer
	if err := runRender(context.Background(), &stdout, nil, in, f); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "rendered 1 slide in") || !strings.Contains(stdout.String(), "removed 5 images left from an earlier render") {
		t.Errorf("stdout: %q", stdout.String())
	}
	var pngs []string
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".png") {
			pngs = append(pngs, e.Name())
		}
	}
	if want := []string{"mine.png", "slide-02.png", "slide-1.png"}; !slices.Equal(pngs, want) {
		t.Errorf("images after the second render: %v, want %v", pngs, want)
	}
}

// Item 6: the table's summaries do not stop at an abbreviation or inside
// parentheses.
func TestFirstSentenceSkipsAbbreviations(t *testing.T) {
	for in, want := range map[string]string{
		"Crop a picture to an aspect ratio (centred, e.g. 16:9). Keeps the box.": "Crop a picture to an aspect ratio (centred, e.g. 16:9).",
		"Set the colour, i.e. the fill. Then more.":                              "Set the colour, i.e. the fill.",
		"Fonts, sizes, etc. are kept. Rest.":                                     "Fonts, sizes, etc. are kept.",
		"Move a node (see docs. It moves). Next.":                                "Move a node (see docs. It moves).",
		"Version 1.5 here. Next.":                                                "Version 1.5 here.",
		"No stop at all":                                                         "No stop at all",
		"Ends here.":                                                             "Ends here.",
	} {
		if got := firstSentence(in); got != want {
			t.Errorf("firstSentence(%q) = %q, want %q", in, got, want)
		}
	}
	for _, tl := range tools.Registry().All() {
		s := firstSentence(tl.Description)
		if strings.Count(s, "(") != strings.Count(s, ")") || endsWithAbbrev(s) {
			t.Errorf("%s: summary %q", tl.Name, s)
		}
	}
}

// Item 7: -i is not "(required)": --recipe is the alternative.
func TestEditHelpOffersRecipeAsAlternative(t *testing.T) {
	c, _, err := rootCmd.Find([]string{"edit"})
	if err != nil {
		t.Fatal(err)
	}
	u := c.Flags().Lookup("instruction").Usage
	if strings.Contains(u, "(required)") || !strings.Contains(u, "--recipe") {
		t.Errorf("-i usage: %q", u)
	}
}

// Item 8: a set ACE_CHROMIUM that is not an executable file is an error
// naming the variable and the path, not a fall back to another browser.
func TestMistypedACEChromiumIsAnError(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "chromium")
	os.WriteFile(plain, []byte("#!/bin/sh\n"), 0o644)
	for _, v := range []string{"/nonexistent", dir, plain, "no-such-browser-binary"} {
		t.Setenv("ACE_CHROMIUM", v)
		if p, err := render.FindChromium(""); err == nil || !strings.Contains(err.Error(), "ACE_CHROMIUM="+v) {
			t.Errorf("ACE_CHROMIUM=%s: found %q, %v", v, p, err)
		}
	}
	os.Chmod(plain, 0o755)
	t.Setenv("ACE_CHROMIUM", plain)
	if p, err := render.FindChromium(""); err != nil || p != plain {
		t.Errorf("an executable ACE_CHROMIUM: %q, %v", p, err)
	}
}

// Item 9: each command names an unreadable deck once; an empty one says
// it is empty.
func TestDeckErrorsNameTheFileOnce(t *testing.T) {
	noModel(t)
	dir := t.TempDir()
	fake := filepath.Join(dir, "fake.pptx")
	os.WriteFile(fake, []byte("hello"), 0o644)
	empty := filepath.Join(dir, "empty.pptx")
	os.WriteFile(empty, nil, 0o644)
	good := genDeck(t, dir, "good.json", 2)
	rp := titlesRecipe(t, dir)
	runs := map[string]func(p string) error{
		"edit": func(p string) error {
			return runEdit(context.Background(), io.Discard, io.Discard, p, editFlags{recipePath: rp, out: filepath.Join(dir, "o.json"), noRender: true, tau: 4, iterations: 3, maxTurns: 35})
		},
		"render": func(p string) error {
			return runRender(context.Background(), io.Discard, nil, p, renderFlags{outDir: filepath.Join(dir, "r"), scale: 1, browsers: 1, timeout: 1e9})
		},
		"diff": func(p string) error { return runDiff(io.Discard, p, good, false, false, false) },
		"route": func(p string) error {
			return runRoute(context.Background(), io.Discard, p, routeFlags{instruction: "x", encoding: "o200k_base"})
		},
		"convert": func(p string) error {
			return runConvert(context.Background(), io.Discard, p, filepath.Join(dir, "c.json"), convertFlags{})
		},
	}
	for name, run := range runs {
		for path, want := range map[string]string{fake: "not a .pptx file", empty: "is empty (0 bytes)", filepath.Join(dir, "gone.pptx"): "no such file"} {
			err := run(path)
			msg := fmtErr(err)
			if codeOf(err) != exitBadInput || strings.Count(msg, filepath.Base(path)) != 1 || !strings.Contains(msg, want) || !strings.HasPrefix(msg, name+": ") {
				t.Errorf("%s %s: exit %d, %q; want exit 2 naming the file once and %q", name, filepath.Base(path), codeOf(err), msg, want)
			}
		}
	}
}

// Item 10: the JSON is 1-based like the text, and a slide beyond the deck
// is reported as clamped.
func TestRouteIsOneBasedAndWarnsOfClamping(t *testing.T) {
	noModel(t)
	dir := t.TempDir()
	p := genDeck(t, dir, "deck.json", 8)
	var out bytes.Buffer
	if err := runRoute(context.Background(), &out, p, routeFlags{instruction: "Fix the title on slide 12", encoding: "o200k_base", jsonOut: true, noCache: true}); err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Decision struct {
			TargetSlides []int `json:"targetSlides"`
		} `json:"decision"`
		Warnings []string `json:"warnings"`
		Modes    []struct {
			Mode    string `json:"mode"`
			Targets []int  `json:"targetSlides"`
		} `json:"modes"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Decision.TargetSlides, []int{8}) {
		t.Errorf("decision.targetSlides %v, want [8] (1-based, clamped)", rep.Decision.TargetSlides)
	}
	for _, m := range rep.Modes {
		if len(m.Targets) > 0 && !slices.Equal(m.Targets, rep.Decision.TargetSlides) {
			t.Errorf("mode %s targets %v differ from the decision's %v", m.Mode, m.Targets, rep.Decision.TargetSlides)
		}
	}
	if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "names slide 12 but the deck has 8 slides; it was clamped to slide 8") {
		t.Errorf("warnings %q", rep.Warnings)
	}
	out.Reset()
	if err := runRoute(context.Background(), &out, p, routeFlags{instruction: "Fix the title on slide 12", encoding: "o200k_base", noCache: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "on slides 8,") && !strings.Contains(out.String(), "on slides 8 ") || !strings.Contains(out.String(), "warning:    the instruction names slide 12") {
		t.Errorf("text:\n%s", out.String())
	}
	if w := clampWarnings("Swap slides 2 and 3, then the 9th slide", 8, route.Decision{}); len(w) != 1 || !strings.Contains(w[0], "slide 9") {
		t.Errorf("ordinal beyond the deck: %q", w)
	}
	if w := clampWarnings("Move slide 3 to 4.5 cm from the top", 8, route.Decision{}); len(w) != 0 {
		t.Errorf("no slide beyond the deck, got %q", w)
	}
}

// ace --version prints the version the build info gives.
func TestVersionFlag(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := execute([]string{"--version"}, &stdout, &stderr)
	rootCmd.SetArgs(nil)
	rootCmd.SetOut(nil)
	rootCmd.SetErr(nil)
	resetFlags(rootCmd)
	if code != 0 || !strings.Contains(stdout.String(), "ace version "+version()) {
		t.Fatalf("ace --version: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}
