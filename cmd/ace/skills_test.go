package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/skills"
)

// runSkillsCLI runs "ace skills ARGS..." as main does and returns the
// exit code, stdout and stderr.
func runSkillsCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := execute(append([]string{"skills"}, args...), &stdout, &stderr)
	rootCmd.SetArgs(nil)
	rootCmd.SetOut(nil)
	rootCmd.SetErr(nil)
	resetFlags(rootCmd)
	skillsBank = ""
	return code, stdout.String(), stderr.String()
}

func TestSkillsListShowsTheSeedBank(t *testing.T) {
	t.Setenv("ACE_NATS_URL", "")
	t.Setenv("ACE_DATA_DIR", t.TempDir())
	seed, err := skills.Seed()
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runSkillsCLI(t, "list")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, "NAME ") || !strings.Contains(errOut, filepath.Join(os.Getenv("ACE_DATA_DIR"), "skills")) {
		t.Fatalf("list:\n%s\n%s", out, errOut)
	}
	for _, s := range seed {
		if !strings.Contains(out, s.Name+" ") {
			t.Errorf("list lacks seed skill %s:\n%s", s.Name, out)
		}
	}
	if !strings.Contains(out, "table-cell-edits") || !strings.Contains(out, "0/0") || !strings.Contains(out, "0.50") {
		t.Fatalf("list row for the seed skill:\n%s", out)
	}

	code, out, _ = runSkillsCLI(t, "list", "--json")
	var entries []struct {
		Name    string       `json:"name"`
		Version int          `json:"version"`
		Status  string       `json:"status"`
		Stats   skills.Stats `json:"stats"`
	}
	if err := json.Unmarshal([]byte(out), &entries); code != 0 || err != nil || len(entries) != len(seed) {
		t.Fatalf("list --json (exit %d, %v): %s", code, err, out)
	}
	if e := entries[0]; e.Version != 1 || e.Status != "stable" || e.Stats.QualityEMA != 0.5 {
		t.Fatalf("entry %+v", e)
	}
}

func TestSkillsShowDiffHistoryRevert(t *testing.T) {
	t.Setenv("ACE_NATS_URL", "")
	dir := filepath.Join(t.TempDir(), "bank")
	ctx := context.Background()
	b, err := skills.Open(ctx, skills.DirObjects(dir))
	if err != nil {
		t.Fatal(err)
	}
	v1, _ := b.Get(ctx, "table-cell-edits")
	v2 := v1
	v2.Version = 2
	v2.Body = strings.Replace(v1.Body, "## Tips\n", "## Tips\nMatch the number format of the column.\n", 1)
	if err := b.Commit(ctx, v2, skills.Change{Kind: skills.ChangeRewrite, Reason: "gate: 1 win, 0 losses", Round: "round-7"}); err != nil {
		t.Fatal(err)
	}

	code, out, errOut := runSkillsCLI(t, "show", "table-cell-edits@1", "--bank", dir)
	if code != 0 || out != string(v1.Format()) {
		t.Fatalf("show @1 (exit %d, %s):\n%s", code, errOut, out)
	}
	code, out, _ = runSkillsCLI(t, "show", "table-cell-edits", "--bank", dir)
	if code != 0 || !strings.Contains(out, "Match the number format") || !strings.Contains(out, "version: 2") {
		t.Fatalf("show current:\n%s", out)
	}

	want := skills.LineDiff(string(v1.Format()), string(v2.Format()), "table-cell-edits@v1", "table-cell-edits@v2")
	for _, args := range [][]string{{"table-cell-edits", "1", "2"}, {"table-cell-edits@v1", "table-cell-edits"}} {
		code, out, errOut = runSkillsCLI(t, append([]string{"diff", "--bank", dir}, args...)...)
		if code != 0 || out != want || !strings.Contains(out, "+Match the number format of the column.") ||
			!strings.Contains(out, "-version: 1") || !strings.Contains(out, "+version: 2") {
			t.Fatalf("diff %v (exit %d, %s):\n%s", args, code, errOut, out)
		}
	}

	code, out, errOut = runSkillsCLI(t, "revert", "table-cell-edits@1", "--reason", "v2 confuses totals", "--bank", dir)
	if code != 0 || !strings.Contains(out, "table-cell-edits: v3 now holds v1's text") {
		t.Fatalf("revert (exit %d, %s):\n%s", code, errOut, out)
	}
	if cur, _ := b.Get(ctx, "table-cell-edits"); cur.Version != 3 || cur.Body != v1.Body {
		t.Fatalf("after revert current is v%d", cur.Version)
	}
	code, out, errOut = runSkillsCLI(t, "diff", "table-cell-edits@1", "table-cell-edits@3", "--bank", dir)
	if code != 0 || !strings.Contains(out, "-version: 1") || strings.Contains(out, "Match the number") {
		t.Fatalf("diff v1 v3 (exit %d, %s):\n%s", code, errOut, out)
	}

	code, out, _ = runSkillsCLI(t, "history", "table-cell-edits", "--bank", dir)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 4 ||
		!strings.Contains(lines[1], "v1") || !strings.Contains(lines[1], "seed") ||
		!strings.Contains(lines[2], "rewrite") || !strings.Contains(lines[2], "round-7") || !strings.Contains(lines[2], "gate: 1 win") ||
		!strings.Contains(lines[3], "revert") || !strings.Contains(lines[3], "restored v1's text: v2 confuses totals") {
		t.Fatalf("history:\n%s", out)
	}

	// A rejected rewrite leaves no version; history shows its gate run.
	if err := b.AppendGateLog(ctx, skills.GateLog{Round: "round-8", Kind: skills.ChangeRewrite, Skill: "table-cell-edits",
		Records: []skills.GateRecord{{RecordID: "r1", R: 0.25}}, Reason: "record r1 regressed", AtUnixMS: 1}); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runSkillsCLI(t, "history", "table-cell-edits", "--bank", dir)
	if code != 0 || !strings.Contains(out, "replay-gate runs (1):") || !strings.Contains(out, "round-8") ||
		!strings.Contains(out, "rejected") || !strings.Contains(out, "0.25") || !strings.Contains(out, "record r1 regressed") {
		t.Fatalf("history with a rejected gate run:\n%s", out)
	}
}

func TestSkillsBadInputSaysTheFix(t *testing.T) {
	t.Setenv("ACE_NATS_URL", "")
	dir := filepath.Join(t.TempDir(), "bank")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"show", "chart-recolour"}, `no skill "chart-recolour" in the bank in ` + dir + "; its skills: "},
		{[]string{"show", "table-cell-edits@9"}, "skill table-cell-edits has no version 9; its versions are v1"},
		{[]string{"show", "table-cell-edits@two"}, `the version after "@" is a number from 1`},
		{[]string{"show", "Table Cells"}, "write NAME or NAME@VERSION"},
		{[]string{"revert", "table-cell-edits"}, "needs the version to go back to: NAME@VERSION"},
		{[]string{"revert", "table-cell-edits@1"}, "v1 is already the current version"},
		{[]string{"history", "nope-skill"}, `no skill "nope-skill"`},
		{[]string{"diff", "table-cell-edits@1", "2", "3"}, "write NAME A B or NAME@A NAME@B"},
		{[]string{"diff", "table-cell-edits"}, "accepts between 2 and 3 arg(s)"},
	}
	for _, c := range cases {
		code, _, errOut := runSkillsCLI(t, append(c.args, "--bank", dir)...)
		if code != exitBadInput || !strings.Contains(errOut, c.want) {
			t.Errorf("ace skills %v: exit %d, stderr %q; want exit 2 and %q", c.args, code, errOut, c.want)
		}
	}
	// The unknown-skill message lists what the bank has.
	_, _, errOut := runSkillsCLI(t, "show", "chart-recolour", "--bank", dir)
	if !strings.Contains(errOut, "table-cell-edits") {
		t.Errorf("unknown skill message lists no skills: %s", errOut)
	}
	file := filepath.Join(t.TempDir(), "afile")
	os.WriteFile(file, []byte("x"), 0o600)
	if code, _, errOut := runSkillsCLI(t, "list", "--bank", file); code != exitBadInput || !strings.Contains(errOut, "is a file") {
		t.Errorf("--bank FILE: exit %d, %s", code, errOut)
	}
}
