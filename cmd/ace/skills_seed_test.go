package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ace skills seed refuses, with exit 2 and before any model call, a
// missing --out, a folder that already holds files, a guide it cannot
// read and a run without a model.
func TestSkillsSeedBadInput(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full")
	os.MkdirAll(filepath.Join(full, "x"), 0o755)
	t.Setenv("ACE_AGENT_MODEL", "")
	t.Setenv("ACE_JUDGE_MODEL", "")
	t.Setenv("ACE_ROUTER_MODEL", "")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"skills", "seed"}, "--out DIR is required"},
		{[]string{"skills", "seed", "--out", full}, "is not empty"},
		{[]string{"skills", "seed", "--out", filepath.Join(dir, "a"), "--docs", filepath.Join(dir, "missing.md")}, "missing.md"},
		{[]string{"skills", "seed", "--out", filepath.Join(dir, "b"), "--docs", ""}, "needs a model"},
	}
	for _, c := range cases {
		code, stderr := runCLI(t, c.args...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("ace %s: exit %d, stderr %q; want exit 2 saying %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "b")); err == nil {
		t.Error("a refused run created its output folder")
	}
}
