package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/benchrun"
	"github.com/acecanvas/ace/internal/llm/llmtest"
)

var coreSuite = filepath.Join("..", "..", "bench", "suites", "core.yaml")

func TestBenchRefusesBadInputBeforeAnyRun(t *testing.T) {
	for k := range map[string]bool{"OPENAI_BASE_URL": true, "ACE_AGENT_MODEL": true, "ACE_JUDGE_MODEL": true, "ACE_ROUTER_MODEL": true} {
		t.Setenv(k, "")
	}
	out := t.TempDir()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"bench", coreSuite, "--arms", "nope", "-o", out}, `has no arm "nope"`},
		{[]string{"bench", coreSuite, "--tasks", "qbr-table-cell,missing-task", "-o", out}, "has no task missing-task"},
		{[]string{"bench", coreSuite, "--seeds", "0", "-o", out}, "--seeds and --concurrency must be at least 1"},
		{[]string{"bench", coreSuite, "--tasks", "qbr-table-cell", "--arms", "baseline", "-o", out}, "need an agent model"},
		{[]string{"bench", filepath.Join(out, "none.yaml")}, "none.yaml"},
	}
	for _, c := range cases {
		code, stderr := runCLI(t, c.args...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want exit %d with %q", c.args, code, stderr, exitBadInput, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(out, benchrun.ResultsFile)); err == nil {
		t.Fatal("a refused bench wrote results")
	}
}

// One shipped task under the default arm, end to end through the CLI:
// the scripted agent sends the task's solution and submits.
func TestBenchWritesResultsSummaryAndReport(t *testing.T) {
	sc, err := llmtest.ParseScript([]byte(`
steps:
  - {model: judge-m, forever: true, when_last: "CHECKS (group", pass_checks: true}
  - model: agent-m
    tool_calls: [{name: set_table_cells, arguments: {tableId: s5/3, cells: [{row: 2, column: 1, text: "702"}]}}]
  - model: agent-m
    tool_calls: [{name: submit, arguments: {summary: "Africa is 702 now"}}]
  - {model: judge-m, forever: true, text: '{"instruction_following_score": 5, "instruction_following_reason": "Fixed."}'}
`), "bench.yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t, sc)
	t.Setenv("OPENAI_BASE_URL", srv.URL())
	t.Setenv("OPENAI_API_KEY", "test")
	t.Setenv("ACE_AGENT_MODEL", "agent-m")
	t.Setenv("ACE_JUDGE_MODEL", "judge-m")
	t.Setenv("ACE_ROUTER_MODEL", "")
	t.Setenv("ACE_REDIS_URL", "")
	out := filepath.Join(t.TempDir(), "run")
	var stdout, stderr bytes.Buffer
	err = runBench(context.Background(), &stdout, &stderr, coreSuite, benchFlags{arms: "default", tasks: "qbr-table-cell", seeds: 1, concurrency: 1, out: out})
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	f, err := os.Open(filepath.Join(out, benchrun.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := benchrun.ReadRows(f)
	if err != nil || len(rows) != 1 {
		t.Fatalf("%d rows: %v", len(rows), err)
	}
	r := rows[0]
	if r.Task != "qbr-table-cell" || r.Arm != "default" || !r.ChecksAll || r.IF == nil || *r.IF != 5 || r.SCR == nil {
		t.Fatalf("row %+v", r)
	}
	for _, name := range []string{benchrun.SummaryFile, benchrun.ReportFile} {
		if b, err := os.ReadFile(filepath.Join(out, name)); err != nil || !bytes.Contains(b, []byte("default")) {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if !strings.Contains(stdout.String(), "default") || !strings.Contains(stderr.String(), "[1/1] qbr-table-cell default seed 1") {
		t.Fatalf("stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}
	// A second run into the same folder needs --force, or --resume,
	// which runs nothing already in results.jsonl (the script has no
	// agent answer left: a second edit would fail).
	err = runBench(context.Background(), &stdout, &stderr, coreSuite, benchFlags{arms: "default", tasks: "qbr-table-cell", seeds: 1, concurrency: 1, out: out})
	if err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("a second run over the results: %v", err)
	}
	agentCalls := len(srv.RequestsFor("agent-m"))
	stderr.Reset()
	err = runBench(context.Background(), &stdout, &stderr, coreSuite, benchFlags{arms: "default", tasks: "qbr-table-cell", seeds: 1, concurrency: 1, out: out, resume: true})
	if err != nil || len(srv.RequestsFor("agent-m")) != agentCalls || !strings.Contains(stderr.String(), "1 of the runs are in") {
		t.Fatalf("resume: %v, %d agent calls after %d\n%s", err, len(srv.RequestsFor("agent-m")), agentCalls, stderr.String())
	}
	b, err := os.ReadFile(filepath.Join(out, benchrun.ResultsFile))
	if err != nil || bytes.Count(b, []byte("\n")) != 1 {
		t.Fatalf("results after resume: %v\n%s", err, b)
	}
	sum, err := os.ReadFile(filepath.Join(out, benchrun.SummaryFile))
	if err != nil || !strings.Contains(string(sum), `"runs": 1`) {
		t.Fatalf("the resumed summary lacks the earlier run: %v\n%s", err, sum)
	}
}
