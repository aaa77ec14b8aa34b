package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRecipePlanPrintsTheBatch(t *testing.T) {
	var stdout bytes.Buffer
	rootCmd.SetOut(&stdout)
	defer rootCmd.SetOut(nil)
	rootCmd.SetArgs([]string{"recipe", "plan", "../../testdata/recipes/rebrand.yaml", "../../testdata/decks/northwind-qbr.pptx", "--json"})
	defer rootCmd.SetArgs(nil)
	if err := rootCmd.Execute(); err != nil {
		t.Fatal(err)
	}
	var batch struct {
		Operations []struct {
			Command string          `json:"command"`
			Params  json.RawMessage `json:"params"`
		} `json:"operations"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &batch); err != nil {
		t.Fatalf("not batch_execute JSON: %v\n%s", err, stdout.String())
	}
	seen := map[string]bool{}
	for _, op := range batch.Operations {
		seen[op.Command] = true
	}
	for _, want := range []string{"set_theme_colors", "replace_color", "set_theme_fonts", "set_text_content"} {
		if !seen[want] {
			t.Errorf("plan lacks %s: %v", want, seen)
		}
	}
}

func TestRecipePlanReportsPositions(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("steps:\n  - tool: set_text_font\n    for_each: {type: TXT}\n    args: {nodeId: \"${match.id}\"}\n"), 0o644)
	rootCmd.SetArgs([]string{"recipe", "plan", bad, "../../testdata/decks/northwind-qbr.pptx"})
	defer rootCmd.SetArgs(nil)
	err := rootCmd.Execute()
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitBadInput || !strings.Contains(err.Error(), "bad.yaml:3:22") {
		t.Fatalf("want a bad-input error at 3:22, got %v", err)
	}
}
