// Package shareddecks finds the real decks made by other people that tests
// and benchmarks read from ../shared/decks beside the repository (see
// ../shared/decks/SOURCES.md), or from $ACE_SHARED_DIR/decks when set
// (scripts/test sets it for a clone whose origin has shared/ beside it).
// They are never copied into the repository; a missing directory is a
// failure, not a reason to skip.
package shareddecks

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Root returns the repository root: the nearest directory above the
// working directory that holds go.mod.
func Root(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("shareddecks: no go.mod above the working directory")
		}
		dir = parent
	}
}

// Shared returns the shared/ directory: $ACE_SHARED_DIR, else the one
// beside the repository, else (a clone made elsewhere, e.g. in /tmp) the
// one beside the local repository it was cloned from.
func Shared(tb testing.TB) string {
	tb.Helper()
	if d := os.Getenv("ACE_SHARED_DIR"); d != "" {
		return d
	}
	root := Root(tb)
	beside := filepath.Join(root, "..", "shared")
	if _, err := os.Stat(beside); err == nil {
		return beside
	}
	if out, err := exec.Command("git", "-C", root, "remote", "get-url", "origin").Output(); err == nil {
		origin := strings.TrimPrefix(strings.TrimSpace(string(out)), "file://")
		if filepath.IsAbs(origin) {
			if d := filepath.Join(origin, "..", "shared"); isDir(d) {
				return d
			}
		}
	}
	return beside
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// PPTXDir returns the directory of the real .pptx decks.
func PPTXDir(tb testing.TB) string {
	tb.Helper()
	dir := filepath.Join(Shared(tb), "decks", "pptx")
	if _, err := os.Stat(dir); err != nil {
		tb.Fatalf("real decks missing: %v (CI lays shared/ beside the clone; elsewhere set ACE_SHARED_DIR to the folder that holds decks/)", err)
	}
	return dir
}

// PPTX returns the paths of the six real .pptx decks, sorted.
func PPTX(tb testing.TB) []string {
	tb.Helper()
	dir := PPTXDir(tb)
	paths, err := filepath.Glob(filepath.Join(dir, "*.pptx"))
	if err != nil || len(paths) != 6 {
		tb.Fatalf("want the six real decks in %s (CI lays shared/ beside the clone), found %d", dir, len(paths))
	}
	return paths
}

// PPTXFile returns the path of the real deck named name ("career-tips.pptx"),
// failing the test when it is not there.
func PPTXFile(tb testing.TB, name string) string {
	tb.Helper()
	for _, p := range PPTX(tb) {
		if filepath.Base(p) == name {
			return p
		}
	}
	tb.Fatalf("real deck %s not in %s", name, PPTXDir(tb))
	return ""
}

// Figma returns the path of the real Figma REST response.
func Figma(tb testing.TB) string {
	tb.Helper()
	p := filepath.Join(Shared(tb), "decks", "figma", "nodes-response-autolayout.json")
	if _, err := os.Stat(p); err != nil {
		tb.Fatalf("real Figma sample missing: %v", err)
	}
	return p
}

// PythonPPTX returns the paths, sorted, of python-pptx's PowerPoint-made
// test files in ../shared/decks/python-pptx (MIT; see SOURCES.md there)
// whose names match pattern (filepath.Match syntax, e.g. "cht-*.pptx"),
// failing the test when none does.
func PythonPPTX(tb testing.TB, pattern string) []string {
	tb.Helper()
	dir := filepath.Join(Shared(tb), "decks", "python-pptx")
	paths, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no python-pptx test file matches %s in %s (CI lays shared/ beside the clone; elsewhere set ACE_SHARED_DIR)", pattern, dir)
	}
	return paths
}
