package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/formats/pptx"
)

// hugePictureDeck writes dir/huge.pptx: a generated two-slide deck whose
// slide-1 logo (ppt/media/image1.png) is 500 MiB of zeros, a file well
// under 1 MB (issue 16 item 13).
func hugePictureDeck(t testing.TB, dir string) string {
	t.Helper()
	d, blobs := deckgen.Generate(deckgen.Options{Slides: 2, Seed: 3})
	src, err := pptx.Export(d, blobs)
	if err != nil {
		t.Fatal(err)
	}
	b, err := deckgen.Rewrite(src, func(name string, _ []byte) func(io.Writer) error {
		if name == "ppt/media/image1.png" {
			return deckgen.Zeros(500 << 20)
		}
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "huge.pptx")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// childEnv runs this test binary's TestCLIChild as `ace ARGS` when set.
const childEnv = "ACE_TEST_CLI_CHILD"

// TestCLIChild is `ace` itself in a child process (the arguments in
// $ACE_TEST_CLI_CHILD, separated by U+001F), so a test can measure the
// command's own peak memory; without the variable it does nothing.
func TestCLIChild(t *testing.T) {
	args := os.Getenv(childEnv)
	if args == "" {
		return
	}
	os.Exit(execute(strings.Split(args, "\x1f"), os.Stdout, os.Stderr))
}

// runChild runs `ace args...` as a child process and returns its exit
// code, stderr and peak resident set size in bytes (getrusage ru_maxrss,
// which Linux gives in KiB, over the child and any process it waited for).
func runChild(t testing.TB, args ...string) (int, string, int64) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCLIChild$")
	cmd.Env = append(os.Environ(), childEnv+"="+strings.Join(args, "\x1f"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Skip("no rusage on this platform")
	}
	return cmd.ProcessState.ExitCode(), stderr.String(), ru.Maxrss << 10
}

// Issue 16 item 13 acceptance: `ace render` of a deck holding a 500 MiB
// picture fails as bad input (exit 2) with a message naming the deck and
// the part, under 1 GB peak RSS. Its duration is
// BenchmarkRenderHugePicture's.
func TestRenderHugePictureFailsSmall(t *testing.T) {
	dir := t.TempDir()
	deck := hugePictureDeck(t, dir)
	code, stderr, rss := runChild(t, "render", deck, "-o", filepath.Join(dir, "out"))
	t.Logf("exit %d, peak RSS %.1f MiB: %s", code, float64(rss)/(1<<20), stderr)
	if code != exitBadInput {
		t.Errorf("exit %d, want %d", code, exitBadInput)
	}
	for _, want := range []string{deck, "picture ppt/media/image1.png is 500.0 MiB", "over the limit"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q does not name %q", stderr, want)
		}
	}
	if rss >= 1<<30 {
		t.Errorf("peak RSS %d bytes, want under 1 GB", rss)
	}
	// ace edit reads the deck through the same importer.
	noModel(t)
	err := runEdit(context.Background(), io.Discard, io.Discard, deck, editFlags{recipePath: titlesRecipe(t, dir), out: filepath.Join(dir, "o.pptx"), noRender: true, tau: 4, iterations: 3, maxTurns: 35})
	if codeOf(err) != exitBadInput || !strings.Contains(fmtErr(err), "ppt/media/image1.png") {
		t.Errorf("edit: exit %d, %v; want exit 2 naming the part", codeOf(err), err)
	}
}

// BenchmarkRenderHugePicture is the time `ace render` takes to refuse a
// deck holding a 500 MiB picture, in a child process; peak-MiB is its peak
// resident set size (issue 16 item 13: under 5 s and 1 GB).
func BenchmarkRenderHugePicture(b *testing.B) {
	dir := b.TempDir()
	deck := hugePictureDeck(b, dir)
	var peak int64
	b.ResetTimer()
	for range b.N {
		code, stderr, rss := runChild(b, "render", deck, "-o", filepath.Join(dir, "out"))
		if code != exitBadInput {
			b.Fatalf("exit %d: %s", code, stderr)
		}
		peak = max(peak, rss)
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
}
