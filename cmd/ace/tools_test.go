package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func runTools(t *testing.T, args ...string) string {
	t.Helper()
	var out bytes.Buffer
	rootCmd.SetOut(&out)
	rootCmd.SetArgs(append([]string{"tools"}, args...))
	defer func() {
		rootCmd.SetArgs(nil)
		rootCmd.SetOut(nil)
		if c, _, err := rootCmd.Find([]string{"tools"}); err == nil {
			for _, f := range []string{"json", "markdown", "module"} {
				fl := c.Flags().Lookup(f)
				_ = fl.Value.Set(fl.DefValue)
			}
		}
	}()
	if err := rootCmd.Execute(); err != nil {
		t.Fatalf("ace tools %v: %v", args, err)
	}
	return out.String()
}

func TestToolsJSONListsEveryToolWithItsSchema(t *testing.T) {
	var list []struct {
		Name       string          `json:"name"`
		Module     string          `json:"module"`
		Parameters json.RawMessage `json:"parameters"`
	}
	if err := json.Unmarshal([]byte(runTools(t, "--json")), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 100 {
		t.Fatalf("%d tools", len(list))
	}
	for _, e := range list {
		var compact bytes.Buffer
		if err := json.Compact(&compact, e.Parameters); err != nil || !bytes.Contains(compact.Bytes(), []byte(`"type":"object"`)) {
			t.Errorf("%s: schema %s", e.Name, e.Parameters)
		}
	}
	table := runTools(t, "--module", "batch")
	if !strings.Contains(table, "batch_execute") || strings.Contains(table, "create_frame") {
		t.Errorf("module filter: %s", table)
	}
}

func TestToolsMarkdownIsTheCommittedDocsPage(t *testing.T) {
	want, err := os.ReadFile("../../docs/tools.md")
	if err != nil {
		t.Fatal(err)
	}
	if got := runTools(t, "--markdown"); got != string(want) {
		t.Error("docs/tools.md differs from `ace tools --markdown`; run make docs")
	}
}
