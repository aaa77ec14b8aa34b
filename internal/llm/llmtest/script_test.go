package llmtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEveryCommittedScriptParses(t *testing.T) {
	paths, _ := filepath.Glob("../../../testdata/scripts/*")
	if len(paths) == 0 {
		t.Fatal("no scripts found in testdata/scripts")
	}
	for _, p := range paths {
		if _, err := LoadScript(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

func TestParseScriptRejectsUnknownFields(t *testing.T) {
	_, err := ParseScript([]byte("steps:\n  - txt: hi\n"), "typo.yaml")
	if err == nil || !strings.Contains(err.Error(), "typo.yaml") {
		t.Fatalf("want an error naming the script, got %v", err)
	}
	_, err = ParseScript([]byte(`{"steps":[{"delay":"soon"}]}`), "bad.json")
	if err == nil || !strings.Contains(err.Error(), "delay") {
		t.Fatalf("want a delay error, got %v", err)
	}
}

func TestExpandRepeatsSteps(t *testing.T) {
	s, err := ParseScript([]byte("steps:\n  - status: 500\n    times: 3\n  - text: ok\n"), "x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := len(s.expand()); got != 4 {
		t.Fatalf("expanded to %d steps, want 4", got)
	}
}

func FuzzParseScript(f *testing.F) {
	for _, p := range []string{"../../../testdata/scripts/llm-usage.yaml", "../../../testdata/scripts/llm-retry-429.yaml"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b, "s.yaml")
		}
	}
	f.Add([]byte(`{"steps":[{"tool_calls":[{"name":"x","raw_arguments":"{"}]}]}`), "s.json")
	f.Fuzz(func(t *testing.T, b []byte, name string) {
		s, err := ParseScript(b, name)
		if err == nil {
			_ = s.expand()
		}
	})
}
