package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/render"
)

func TestParseSlideSpec(t *testing.T) {
	got, err := parseSlideSpec("1,3-5,4", 6)
	if err != nil || !slices.Equal(got, []int{0, 2, 3, 4}) {
		t.Errorf("1,3-5,4 -> %v, %v", got, err)
	}
	for _, bad := range []string{"0", "7", "x", "5-3", "2-"} {
		if _, err := parseSlideSpec(bad, 6); err == nil {
			t.Errorf("%q should be rejected", bad)
		}
	}
	if got, err := parseSlideSpec("", 6); got != nil || err != nil {
		t.Errorf("empty spec means all: %v %v", got, err)
	}
}

// ace render on a generated PPTX writes the PNGs, geometry, violations
// and contact sheet for the chosen slides.
func TestRenderCommandWritesOutputs(t *testing.T) {
	dir := t.TempDir()
	in := genPPTX(t, dir, 4, 7)
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	rootCmd.SetOut(&stdout)
	rootCmd.SetErr(&stderr)
	rootCmd.SetArgs([]string{"render", in, "-o", out, "--slides", "1,3-4", "--contact-sheet"})
	defer func() { rootCmd.SetArgs(nil); rootCmd.SetErr(nil) }()
	if err := rootCmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "rendered 3 slides") {
		t.Errorf("stdout: %q", stdout.String())
	}
	// Progress off a terminal: lines on stderr, from the browser start to
	// the last slide (issue 20).
	for _, want := range []string{"render: starting 1 browser\n", "render: slides 0/3\n", "render: slides 3/3\n"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr has no %q: %q", want, stderr.String())
		}
	}
	for _, name := range []string{"slide-01.png", "slide-03.png", "slide-04.png", "contact-sheet.png"} {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(bytes.NewReader(b)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "slide-02.png")); err == nil {
		t.Error("slide 2 was not asked for")
	}
	var geo []render.SlideResult
	b, _ := os.ReadFile(filepath.Join(out, "geometry.json"))
	if err := json.Unmarshal(b, &geo); err != nil || len(geo) != 3 || len(geo[0].Nodes) == 0 {
		t.Fatalf("geometry.json: %v, %d slides", err, len(geo))
	}
	var v struct{ Violations []render.Violation }
	b, _ = os.ReadFile(filepath.Join(out, "violations.json"))
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("violations.json: %v", err)
	}
}
