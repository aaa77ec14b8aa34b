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
	path := filepath.Join("..", "..", "docs", "tools.md")
	if os.Getenv("ACE_UPDATE_DOCS") == "1" { // make docs
		if err := os.WriteFile(path, []byte(Registry().Markdown()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
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
