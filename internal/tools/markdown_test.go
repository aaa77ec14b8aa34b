package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocsToolsMarkdownIsUpToDate fails when docs/tools.md differs from the
// registry; regenerate it with `make docs`.
func TestDocsToolsMarkdownIsUpToDate(t *testing.T) {
	got, err := os.ReadFile(filepath.Join("..", "..", "docs", "tools.md"))
	if err != nil {
		t.Fatalf("docs/tools.md: %v (generate it with `make docs`)", err)
	}
	want := Registry().Markdown()
	if string(got) != want {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(want, "\n")
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("docs/tools.md is stale at line %d:\n have %q\n want %q\nrun `make docs`", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("docs/tools.md is stale (%d lines, want %d); run `make docs`", len(gl), len(wl))
	}
	for _, name := range Registry().Names() {
		if !strings.Contains(want, "### `"+name+"`") {
			t.Errorf("%s missing from the page", name)
		}
	}
}
