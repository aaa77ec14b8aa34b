package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"time"
)

// Bench is the page of an `ace bench` run: the arms side by side (the
// ACE paper's main table), each later arm compared with the first on the
// same tasks and seeds, and per task every arm's runs with before/after
// pictures of the slides the edit changed. Numbers come formatted, each
// with its unit in the column head.
type Bench struct {
	Suite    string
	Started  time.Time
	Duration time.Duration
	Tasks    int
	Seeds    int
	Arms     []BenchArm
	Paired   []BenchPaired
	Rows     []BenchTask
}

// BenchArm is one arm's row: its settings in a line, notes on settings
// not implemented, and its means (IF and VQ 0-5, checks and SCR as
// shares, time in s, cost in USD; "–" when no run had a value).
type BenchArm struct {
	Name, Description string
	Notes             []string
	Runs, Failed      int
	ChecksAll         int
	IF, VQ            string
	Checks, SCR       string
	TimeS, CostUSD    string
}

// BenchPaired is one metric of arm B against arm A: the pairs compared
// and dropped, the means, the mean difference (B minus A) with its
// bootstrap 95% interval, the Wilcoxon p, and B's wins, ties and losses
// (for time and cost, where lower is better, a win is B lower). Verdict
// is "better", "worse" or "" (the interval holds 0).
type BenchPaired struct {
	A, B, Metric     string
	N, Dropped       int
	MeanA, MeanB     string
	Diff, CI, P, WTL string
	Verdict          string
	Error            string
}

// BenchTask is one task's runs.
type BenchTask struct {
	ID, Category, Deck, Instruction string
	Runs                            []BenchRun
}

// BenchRun is one run of a task: its outcome, scores, checks (failed
// ones with their messages), SCR, time, cost, and for the first seed the
// changed slides before and after.
type BenchRun struct {
	Arm           string
	Seed          int
	Outcome       string
	Error         string
	IF, VQ        string
	Checks        string
	ChecksAll     bool
	Failed        []string
	SCR           string
	NewViolations []string
	TimeS         string
	CostUSD       string
	Slides        []SlidePair
	// Skills says, for a run with skills on, which skills were starred
	// and which the agent read ("" with skills off).
	Skills string
}

//go:embed bench.html.tmpl
var benchTmplText string

var benchTmpl = template.Must(template.Must(template.New("bench").Funcs(funcs).Parse(benchTmplText)).Parse(styleTmplText))

//go:embed style.html.tmpl
var styleTmplText string

// WriteBench writes the page of a bench run.
func WriteBench(w io.Writer, b Bench) error {
	var buf bytes.Buffer
	if err := benchTmpl.Execute(&buf, b); err != nil {
		return fmt.Errorf("bench report %s: %w", b.Suite, err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}
