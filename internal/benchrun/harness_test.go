package benchrun_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/bench"
	"github.com/acecanvas/ace/internal/benchrun"
	"github.com/acecanvas/ace/internal/cache"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/pairedstats"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/render"
)

var pool *render.Pool

func TestMain(m *testing.M) {
	p, err := render.NewPool(context.Background(), render.Options{Memo: cache.NewLRU(0, 0)})
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchrun tests need headless Chromium:", err)
		os.Exit(1)
	}
	pool = p
	code := m.Run()
	pool.Close()
	os.Exit(code)
}

// ciTasks are the shipped suite's tasks the CI run takes: a table cell,
// a sort, a chart type, a move, a title and speaker notes, on the demo
// deck and two shared real decks.
var ciTasks = []string{"qbr-table-cell", "qbr-sort-revenue", "qbr-chart-to-columns", "qbr-logo-top-left",
	"career-title-rewrite", "agents-speaker-notes"}

func shippedSuite(t *testing.T) *bench.Suite {
	t.Helper()
	dir, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		if filepath.Dir(dir) == dir {
			t.Fatal("go.mod not found")
		}
		dir = filepath.Dir(dir)
	}
	s, err := bench.Load(filepath.Join(dir, "bench", "suites", "core.yaml"), bench.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// benchScript answers two agents: agent-solve sends each task's
// hand-written solution when it sees the task's instruction and submits
// after; agent-idle hands the deck in untouched. judge-m scores 4 (IF
// and VQ) for the solving arm, judge-idle 1 for the idle one; the
// critic's checks pass and no waiver is granted; the router picks FULL.
func benchScript(t *testing.T, tasks []*bench.Task) *llmtest.Script {
	t.Helper()
	sc := &llmtest.Script{Name: "bench-ci", Steps: []llmtest.Step{
		{Model: "judge-m", Forever: true, WhenLast: "CHECKS (group", PassChecks: true},
		{Model: "judge-idle", Forever: true, WhenLast: "CHECKS (group", PassChecks: true},
		{Model: "judge-m", Forever: true, WhenLast: "Does the instruction itself require",
			Text: `{"waive": false, "quote": "", "reason": "Not required by the instruction."}`},
		{Model: "router-m", Forever: true, Text: `{"mode": "FULL", "target_slides": [], "reason": "bench"}`},
	}}
	for _, task := range tasks {
		calls, err := bench.LoadSolution(task.Solution)
		if err != nil {
			t.Fatal(err)
		}
		st := llmtest.Step{Model: "agent-solve", Forever: true, WhenLast: task.Instruction, UnlessLast: "After this step",
			Usage: &llmtest.Usage{Prompt: 9000, Cached: 6000, Completion: 150}}
		for i, c := range calls {
			st.ToolCalls = append(st.ToolCalls, llmtest.ToolCall{ID: fmt.Sprintf("c%d", i), Name: c.Tool, Arguments: json.RawMessage(c.Args)})
		}
		sc.Steps = append(sc.Steps, st)
	}
	sc.Steps = append(sc.Steps,
		llmtest.Step{Model: "agent-solve", Forever: true, ToolCalls: []llmtest.ToolCall{{Name: "submit", Arguments: map[string]string{"summary": "done as asked"}}},
			Usage: &llmtest.Usage{Prompt: 9500, Cached: 9000, Completion: 20}},
		llmtest.Step{Model: "agent-idle", Forever: true, Text: "Nothing needs changing.", Usage: &llmtest.Usage{Prompt: 8000, Completion: 10}},
		llmtest.Step{Model: "judge-m", Forever: true, Usage: &llmtest.Usage{Prompt: 1500, Completion: 40},
			Text: `{"instruction_following_score": 4, "instruction_following_reason": "Done as asked.", "visual_quality_score": 4, "visual_quality_reason": "Clean."}`},
		llmtest.Step{Model: "judge-out", Forever: true, Usage: &llmtest.Usage{Prompt: 1200, Completion: 30},
			Text: `{"instruction_following_score": 3, "instruction_following_reason": "Judged out of the loop."}`},
		llmtest.Step{Model: "judge-idle", Forever: true, Usage: &llmtest.Usage{Prompt: 1500, Completion: 40},
			Text: `{"instruction_following_score": 1, "instruction_following_reason": "Nothing was changed."}`},
	)
	return sc
}

func TestBenchSubsetUnderTwoArmsRecordsChecksAndPairedStatistics(t *testing.T) {
	suite := shippedSuite(t)
	var tasks []*bench.Task
	for _, id := range ciTasks {
		for _, task := range suite.Tasks {
			if task.ID == id {
				tasks = append(tasks, task)
			}
		}
	}
	if len(tasks) != len(ciTasks) {
		t.Fatalf("the shipped suite lacks some of %v", ciTasks)
	}
	srv := llmtest.NewServer(t, benchScript(t, tasks))
	base := srv.Config("", "")
	base.Prices = llm.Prices{"agent-solve": {Input: 2, CachedInput: 0.5, Output: 8}, "agent-idle": {Input: 2, Output: 8}}
	on, off := true, false
	solve, err := benchrun.Resolve(bench.Arm{Name: "solve", AgentModel: "agent-solve", JudgeModel: "judge-m", RouterModel: "router-m",
		ContextMode: "auto", VQ: &on})
	if err != nil {
		t.Fatal(err)
	}
	idle, err := benchrun.Resolve(bench.Arm{Name: "idle", AgentModel: "agent-idle", JudgeModel: "judge-idle",
		ContextMode: "full", Iterations: 1, Observations: &off})
	if err != nil {
		t.Fatal(err)
	}

	out := filepath.Join(t.TempDir(), benchrun.ResultsFile)
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var ended []string
	h := &benchrun.Harness{Tasks: tasks, Arms: []benchrun.Arm{solve, idle}, Seeds: 1, Concurrency: 2, LLM: base, Pool: pool, Pictures: 2, Rejudge: "judge-out",
		Done: func(r benchrun.Row) error {
			mu.Lock()
			ended = append(ended, r.Task+"/"+r.Arm)
			mu.Unlock()
			return benchrun.WriteRow(f, r)
		}}
	rows, pics, err := h.Run(context.Background())
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if errs := srv.Errors(); len(errs) > 0 {
		t.Fatalf("the script could not answer: %v", errs)
	}
	// results.jsonl holds one line per run, in the order runs ended, and
	// reads back as the rows Run returned.
	rf, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	written, err := benchrun.ReadRows(rf)
	rf.Close()
	if err != nil || len(written) != 12 || len(ended) != 12 {
		t.Fatalf("%d rows written (%v), %d ended", len(written), err, len(ended))
	}
	byKey := map[string]benchrun.Row{}
	for _, r := range written {
		byKey[r.Task+"/"+r.Arm] = r
	}
	for i, r := range rows {
		task, arm := tasks[i/2].ID, []string{"solve", "idle"}[i%2]
		if r.Task != task || r.Arm != arm || r.Seed != 1 {
			t.Fatalf("row %d is %s/%s/%d, want %s/%s/1", i, r.Task, r.Arm, r.Seed, task, arm)
		}
		if !reflect.DeepEqual(byKey[task+"/"+arm], r) {
			t.Fatalf("the written row of %s/%s differs from Run's", task, arm)
		}
	}
	for _, task := range tasks {
		s, i := byKey[task.ID+"/solve"], byKey[task.ID+"/idle"]
		// The solving arm: its solution applied by the loop, every check
		// passes on the exported deck, judged 4 with a VQ, the gate held.
		if s.Error != "" || s.Outcome != policy.Stopped || !s.ChecksAll || s.ChecksFailed != 0 || s.ChecksPassed != len(task.Checks) {
			t.Fatalf("%s solve: outcome %s, error %q, checks %d/%d:\n%s", task.ID, s.Outcome, s.Error, s.ChecksPassed, len(task.Checks), dump(s.Checks))
		}
		if s.IF == nil || *s.IF != 4 || s.VQ == nil || *s.VQ != 4 || !s.GatePassed || s.ContextMode == "" || s.AgentTurns != 2 {
			t.Fatalf("%s solve: %s", task.ID, dump(s))
		}
		if s.SCR == nil || s.Slides == 0 || *s.SCR != float64(s.CleanSlides)/float64(s.Slides) || len(s.NewViolations) != 0 {
			t.Fatalf("%s solve: SCR %v of %d slides, new %v", task.ID, s.SCR, s.Slides, s.NewViolations)
		}
		// The original's SCR, rendered the same way: the idle arm keeps
		// the original, so its SCR is the original's.
		if s.SCROrigin == nil || i.SCR == nil || *s.SCROrigin != *i.SCR || i.SCROrigin == nil || *i.SCROrigin != *i.SCR {
			t.Fatalf("%s: SCR of the original %v (solve) %v (idle), idle's SCR %v", task.ID, s.SCROrigin, i.SCROrigin, i.SCR)
		}
		// Two agent turns of 9000 (6000 cached) + 9500 (9000 cached)
		// prompt and 150 + 20 completion tokens, priced.
		if s.Tokens.Cached < 15000 || s.CostUSD <= 0 || s.Timings.Loop <= 0 || s.WallS <= 0 {
			t.Fatalf("%s solve: tokens %+v cost %v timings %+v", task.ID, s.Tokens, s.CostUSD, s.Timings)
		}
		// The out-of-loop judge scored both arms' final decks.
		if s.IFRejudged == nil || *s.IFRejudged != 3 || i.IFRejudged == nil || *i.IFRejudged != 3 {
			t.Fatalf("%s: rejudged IF %v and %v", task.ID, s.IFRejudged, i.IFRejudged)
		}
		// The idle arm changed nothing: some check fails, naming why.
		if i.Error != "" || i.ChecksAll || i.ChecksFailed == 0 || i.IF == nil || *i.IF != 1 || i.VQ != nil || i.ContextMode == "" || i.Iterations != 1 {
			t.Fatalf("%s idle: %s", task.ID, dump(i))
		}
		for _, c := range i.Checks {
			if c.Status == bench.StatusFail && len(c.Failures) == 0 {
				t.Fatalf("%s idle: failed check %q gives no failure", task.ID, c.Check)
			}
		}
		if len(pics[benchrun.RunKey{Task: task.ID, Arm: "solve"}]) == 0 && task.ID != "agents-speaker-notes" {
			t.Fatalf("%s: no before/after pictures of the solving run", task.ID)
		}
	}
	// The router model is asked for the routing arm only; the idle arm's
	// fixed mode calls no router, and with observations off its agent
	// never saw an observation.
	if n := len(srv.RequestsFor("router-m")); n != len(tasks) {
		t.Fatalf("router asked %d times, want %d", n, len(tasks))
	}
	for _, r := range srv.RequestsFor("agent-idle") {
		if last := r.Chat.Messages[len(r.Chat.Messages)-1].Content; strings.Contains(last, "After this step") {
			t.Fatal("the idle arm's agent got an observation")
		}
	}

	// The statistics: idle minus solve on the same tasks.
	sum := benchrun.Summarize("core", len(tasks), 1, h.Arms, base, written)
	paired := map[string]benchrun.Paired{}
	for _, p := range sum.Paired {
		paired[p.Metric] = p
	}
	ifp := paired["IF"].Result
	if ifp.N != 6 || ifp.MeanDiff != -3 || ifp.CI95 != [2]float64{-3, -3} || ifp.Losses != 6 {
		t.Fatalf("IF %+v", ifp)
	}
	var shareSolve, shareIdle []float64
	for _, task := range tasks {
		shareSolve = append(shareSolve, *byKey[task.ID+"/solve"].ChecksShare)
		shareIdle = append(shareIdle, *byKey[task.ID+"/idle"].ChecksShare)
	}
	want, err := pairedstats.Compare(shareSolve, shareIdle, pairedstats.Options{Metric: "checks", Seed: benchrun.BootstrapSeed})
	if err != nil {
		t.Fatal(err)
	}
	if got := paired["checks"].Result; !reflect.DeepEqual(got, want) || got.Losses != 6 || got.CI95[1] >= 0 || got.Wilcoxon.P >= 0.05 {
		t.Fatalf("checks %+v, want %+v", got, want)
	}
	if paired["VQ"].Error == "" || paired["VQ"].Dropped != 6 {
		t.Fatalf("VQ was judged for one arm only, so no pair: %+v", paired["VQ"])
	}
	if r := paired["IF_rejudged"].Result; r.N != 6 || r.Ties != 6 || r.Wilcoxon.Method != pairedstats.NoTest {
		t.Fatalf("rejudged IF %+v", r)
	}
	if n := len(srv.RequestsFor("judge-out")); n != 2*len(tasks) {
		t.Fatalf("the out-of-loop judge was asked %d times, want %d", n, 2*len(tasks))
	}
	if c := paired["cost_usd"].Result; c.N != 6 || math.IsNaN(c.MeanDiff) {
		t.Fatalf("cost %+v", c)
	}
	var table strings.Builder
	sum.WriteTable(&table)
	t.Log("\n" + table.String())

	page, err := benchrun.WritePage(benchrun.Page(sum, tasks, written, pics, time.Now(), time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range append([]string{"data:image/png;base64,", "idle vs solve"}, ciTasks...) {
		if !strings.Contains(string(page), want) {
			t.Fatalf("the report lacks %q", want)
		}
	}
}

func dump(v any) string { b, _ := json.MarshalIndent(v, "", "  "); return string(b) }

// Canceling a bench keeps the runs that ended: Run says it was canceled,
// the rows of runs that never started are empty, and the summary counts
// the ended ones only.
func TestACanceledBenchKeepsTheRunsThatEnded(t *testing.T) {
	var task *bench.Task
	for _, tk := range shippedSuite(t).Tasks {
		if tk.ID == "qbr-legal-footer" {
			task = tk
		}
	}
	if task == nil || task.Recipe == "" {
		t.Fatal("the shipped suite lacks the recipe task qbr-legal-footer")
	}
	arm, err := benchrun.Resolve(benchrun.DefaultArm)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var ended int
	h := &benchrun.Harness{Tasks: []*bench.Task{task}, Arms: []benchrun.Arm{arm}, Seeds: 3, Pool: pool,
		Done: func(r benchrun.Row) error {
			ended++
			cancel()
			return nil
		}}
	rows, _, err := h.Run(ctx)
	if err != context.Canceled || len(rows) != 3 || ended != 1 {
		t.Fatalf("err %v, %d rows, %d ended", err, len(rows), ended)
	}
	if r := rows[0]; r.Outcome != policy.Applied || !r.ChecksAll || r.Seed != 1 {
		t.Fatalf("the first run: %s", dump(r))
	}
	if rows[1].Arm != "" || rows[2].Arm != "" {
		t.Fatalf("runs after the cancel ran: %s", dump(rows[1:]))
	}
	sum := benchrun.Summarize("core", 1, 3, h.Arms, llm.Config{}, rows)
	if sum.Arms[0].Runs != 1 || sum.Arms[0].Means["checks"] != 1 {
		t.Fatalf("summary %+v", sum.Arms[0])
	}
}

// CostText never shows an unpriced run as free.
func TestCostTextSaysWhatWasNotPriced(t *testing.T) {
	for _, c := range []struct {
		usd      float64
		known    bool
		unpriced int
		want     string
	}{
		{0.0123, true, 0, "0.0123"},
		{0.01, true, 3, "0.0100 + 3 unpriced calls"},
		{0, true, 7, "unpriced (7 calls)"},
		{0, false, 0, "–"},
	} {
		if got := benchrun.CostText(c.usd, c.known, c.unpriced); got != c.want {
			t.Errorf("CostText(%v, %v, %d) = %q, want %q", c.usd, c.known, c.unpriced, got, c.want)
		}
	}
}
