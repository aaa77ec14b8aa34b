package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/policy"
)

// `ace edit` and `ace batch` give the same outcome and exit code for the
// same edit, from the one mapping (policy.Outcome.ExitCode): a recipe that
// applies (0), a recipe whose expectation fails (3), and a model edit that
// spends its iteration budget below tau (3; `ace edit` used to exit 0).
// Each batch runs on a fresh embedded stack, as separate invocations do.
func TestEditAndBatchAgreeOnOutcomeAndExitCode(t *testing.T) {
	noModel(t)
	dir := t.TempDir()
	d, _ := deckgen.Generate(deckgen.Options{Slides: 6, Seed: 1}) // the ids the runner scripts use
	deck := writeDeck(t, dir, "deck.json", d)
	applies := titlesRecipe(t, dir)
	fails := filepath.Join(dir, "titles-40.yaml")
	os.WriteFile(fails, []byte(`name: titles at 36 but expected 40
steps:
  - for_each: {role: title}
    tool: set_text_font
    args: {nodeId: "${match.id}", fontSize: 36}
expect:
  - all: {select: {role: title}, size: 40}
`), 0o644)
	cases := []struct {
		name   string
		script string // scripted model for both runs, "" for none
		edit   []string
		want   policy.Outcome
	}{
		{"a recipe that applies", "", []string{"--recipe", applies}, policy.Applied},
		{"a failed expectation", "", []string{"--recipe", fails}, policy.ExpectationFailed},
		{"the budget spent below tau", "runner-rollback.yaml", []string{"-i", "Give slide 2 a shorter title that names the quarter."}, policy.Budget},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			model := func() {
				if c.script == "" {
					return
				}
				srv := llmtest.Load(t, filepath.Join("..", "..", "testdata", "scripts", c.script))
				t.Setenv("OPENAI_BASE_URL", srv.URL())
				t.Setenv("OPENAI_API_KEY", "test-key")
				t.Setenv("ACE_AGENT_MODEL", "agent-m")
				t.Setenv("ACE_JUDGE_MODEL", "judge-m")
				t.Setenv("ACE_ROUTER_MODEL", "router-m")
			}
			model()
			record := filepath.Join(dir, "record.json")
			editCode, stderr := runCLI(t, append([]string{"edit", deck, "-o", filepath.Join(dir, "edited.json"), "--force", "--record", record}, c.edit...)...)
			var rec editloop.Record
			if b, err := os.ReadFile(record); err != nil || json.Unmarshal(b, &rec) != nil {
				t.Fatalf("ace edit wrote no record (exit %d): %v\n%s", editCode, err, stderr)
			}

			model() // a fresh script for the batch
			t.Setenv("ACE_DATA_DIR", t.TempDir())
			t.Setenv("ACE_TEMPORAL_ADDRESS", "")
			t.Setenv("ACE_NATS_URL", "")
			out := filepath.Join(dir, "out", c.name)
			batchCode, stderr := runCLI(t, append([]string{"batch", deck, "-o", out, "--batch",
				"agree-" + time.Now().Format("150405") + string(rune('a'+i))}, c.edit...)...)
			sum := readBatchSummary(t, out)
			if len(sum.Rows) != 1 {
				t.Fatalf("batch summary %+v (exit %d): %s", sum, batchCode, stderr)
			}
			row := sum.Rows[0]
			if rec.Outcome != c.want || row.Outcome != string(c.want) {
				t.Errorf("outcome: ace edit %s, ace batch %s, want %s (%s | %s)", rec.Outcome, row.Outcome, c.want, rec.Reason, row.Reason)
			}
			if editCode != batchCode || editCode != c.want.ExitCode() {
				t.Errorf("exit code: ace edit %d, ace batch %d, want %d\n%s", editCode, batchCode, c.want.ExitCode(), stderr)
			}
			if row.Final != rec.Final {
				t.Errorf("kept deck: ace edit %s, ace batch %s", rec.Final, row.Final)
			}
		})
	}
}

// The README's tables say what policy.Outcome's one mapping does: every
// outcome is listed once, and the exit-code row that names an outcome is
// the code it gives.
func TestReadmeOutcomesMatchTheOneMapping(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[policy.Outcome]bool{}
	named := map[policy.Outcome]int{}
	for _, line := range strings.Split(string(b), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 {
			continue
		}
		first := strings.TrimSpace(cells[1])
		if o, ok := policy.ParseOutcome(strings.Trim(first, "`")); ok && strings.HasPrefix(first, "`") {
			if listed[o] {
				t.Errorf("outcome %s listed twice", o)
			}
			listed[o] = true
			continue
		}
		var code int
		if _, err := fmt.Sscanf(first, "%d", &code); err != nil {
			continue
		}
		for _, o := range policy.Outcomes {
			if strings.Contains(cells[2], "`"+string(o)+"`") {
				named[o] = code
			}
		}
	}
	for _, o := range policy.Outcomes {
		if !listed[o] {
			t.Errorf("outcome %s is not in the README's outcome table", o)
		}
		if code, ok := named[o]; ok && code != o.ExitCode() {
			t.Errorf("README gives %s exit %d, the mapping %d", o, code, o.ExitCode())
		} else if !ok && o != policy.Canceled {
			t.Errorf("the README's exit-code table does not name %s", o)
		}
	}
}
