package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"strings"
	"time"

	acev1 "github.com/acecanvas/ace/proto/ace/v1"
)

// Timeline is the agent's work on one edit, step by step (ReDeck §3.1-3.4):
// per iteration each step's tool calls, the Delta viol its observation
// measured, the violations it added and resolved, the submit gate's
// verdict and undo_step; the Delta viol trajectory as a sparkline; the
// critic's waivers with the instruction's quoted words; and the issue
// ledger with each issue's status. Built from the published EditResult, so
// `ace edit --report` and `ace batch` pages show the same thing.
type Timeline struct {
	Iterations []TimelineIteration
	// Issues are the ledger's issues in id order; Statuses counts them
	// per status (open, resolved, regressed, persisted, dropped; zero
	// counts left out).
	Issues   []LedgerIssue
	Statuses []StatusCount
}

// TimelineIteration is one iteration's steps.
type TimelineIteration struct {
	N int
	// Stopped is how its step loop ended (submitted, step_budget,
	// turn_cap, recipe).
	Stopped string
	Steps   []TimelineStep
	Waivers []Waiver
	// Spark is the Delta viol trajectory over the steps that observed
	// something; nil when fewer than one did.
	Spark *Sparkline
}

// TimelineStep is one step of the agent.
type TimelineStep struct {
	Turn  int
	Calls []string
	// DeltaViol is nil when the step observed nothing; ByKind splits it
	// ("overlap +1, text_overflow -1").
	DeltaViol *int
	ByKind    string
	New       []string
	Resolved  []string
	// Submit is "passed", "failed" or "" (no submit in this step).
	Submit string
	Waived []string
	Undone bool
	// Errors counts the step's deck calls that failed.
	Errors int
	// Issues are the ledger changes the step made ("I1 resolved → regressed").
	Issues   []string
	Duration time.Duration
}

// Waiver is a hard violation the critic let through the gate.
type Waiver struct {
	Kind   string
	Slide  string
	Nodes  []string
	Quote  string
	Reason string
}

// LedgerIssue is one issue of the critic's ledger.
type LedgerIssue struct {
	ID, Family, Slide, Check, Status, Evidence, Waived string
	Hard                                               bool
	Regressions                                        int
}

// StatusCount is the number of ledger issues in one status.
type StatusCount struct {
	Status string
	N      int
}

// ledgerStatuses is the order of statuses on the page (critic.Statuses).
var ledgerStatuses = []string{"open", "resolved", "regressed", "persisted", "dropped"}

// TimelineOf builds the timeline of an edit result; nil when the result
// has no step and no ledger issue (a pure recipe, an edit that failed
// before its first step).
func TimelineOf(r *acev1.EditResult) *Timeline {
	t := &Timeline{}
	steps := 0
	for _, it := range r.Iterations {
		ti := TimelineIteration{N: int(it.N), Stopped: it.ActStopped}
		for _, st := range it.Steps {
			ti.Steps = append(ti.Steps, timelineStep(st))
		}
		steps += len(it.Steps)
		for _, w := range it.Waivers {
			ti.Waivers = append(ti.Waivers, Waiver{Kind: w.Kind, Slide: w.Slide, Nodes: w.Nodes, Quote: w.Quote, Reason: w.Reason})
		}
		ti.Spark = sparkline(ti.Steps)
		t.Iterations = append(t.Iterations, ti)
	}
	counts := map[string]int{}
	for _, is := range r.Issues {
		t.Issues = append(t.Issues, LedgerIssue{ID: is.Id, Family: is.Family, Slide: is.Slide, Check: is.Check, Status: is.Status,
			Evidence: is.Evidence, Waived: is.Waived, Hard: is.Hard, Regressions: int(is.Regressions)})
		counts[is.Status]++
	}
	for _, s := range ledgerStatuses {
		if counts[s] > 0 {
			t.Statuses = append(t.Statuses, StatusCount{Status: s, N: counts[s]})
		}
	}
	if steps == 0 && len(t.Issues) == 0 {
		return nil
	}
	return t
}

func timelineStep(st *acev1.Step) TimelineStep {
	s := TimelineStep{Turn: int(st.Turn), Calls: st.Calls, New: st.NewViolations, Resolved: st.ResolvedViolations,
		Waived: st.Waived, Undone: st.Undone, Errors: int(st.Errors), Duration: time.Duration(st.DurationMs) * time.Millisecond}
	if st.DeltaViol != nil {
		d := int(*st.DeltaViol)
		s.DeltaViol = &d
	}
	var kinds []string
	for _, k := range st.DeltaByKind {
		kinds = append(kinds, fmt.Sprintf("%s %+d", k.Kind, k.Delta))
	}
	s.ByKind = strings.Join(kinds, ", ")
	if st.SubmitPassed != nil {
		s.Submit = "failed"
		if *st.SubmitPassed {
			s.Submit = "passed"
		}
	}
	for _, c := range st.Issues {
		from := c.From
		if from == "" {
			from = "new"
		}
		s.Issues = append(s.Issues, fmt.Sprintf("%s (%s%s) %s → %s", c.Issue, c.Check, onSlide(c.Slide), from, c.To))
	}
	return s
}

func onSlide(id string) string {
	if id == "" {
		return ""
	}
	return " on " + id
}

// Sparkline is a small inline SVG of Delta viol over an iteration's steps:
// a polyline through one point per step that observed something, and the
// zero line. Coordinates are SVG user units (px).
type Sparkline struct {
	Width, Height int
	Points        string
	Dots          []SparkDot
	// ZeroY is the y of Delta viol 0; Min and Max the range shown.
	ZeroY    float64
	Min, Max int
}

// SparkDot is one step's point.
type SparkDot struct {
	X, Y  float64
	Label string // "step 2: Delta viol +1"
	Bad   bool   // Delta viol above 0
}

const (
	sparkStep   = 36 // px between steps
	sparkHeight = 48
	sparkPad    = 6
)

func sparkline(steps []TimelineStep) *Sparkline {
	lo, hi, n := 0, 0, 0
	for _, s := range steps {
		if s.DeltaViol == nil {
			continue
		}
		n++
		lo, hi = min(lo, *s.DeltaViol), max(hi, *s.DeltaViol)
	}
	if n == 0 {
		return nil
	}
	if hi == lo {
		hi = lo + 1
	}
	sp := &Sparkline{Width: 2*sparkPad + sparkStep*max(len(steps)-1, 1), Height: sparkHeight, Min: lo, Max: hi}
	y := func(v int) float64 {
		return sparkPad + float64(hi-v)/float64(hi-lo)*float64(sparkHeight-2*sparkPad)
	}
	sp.ZeroY = y(0)
	var pts []string
	for i, s := range steps {
		if s.DeltaViol == nil {
			continue
		}
		d := SparkDot{X: float64(sparkPad + sparkStep*i), Y: y(*s.DeltaViol),
			Label: fmt.Sprintf("step %d: Delta viol %+d", s.Turn, *s.DeltaViol), Bad: *s.DeltaViol > 0}
		sp.Dots = append(sp.Dots, d)
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", d.X, d.Y))
	}
	sp.Points = strings.Join(pts, " ")
	return sp
}

// DeltaText is the step's Delta viol signed ("+1", "-2", "0"), or "–"
// when it observed nothing.
func (s TimelineStep) DeltaText() string {
	if s.DeltaViol == nil {
		return "–"
	}
	if *s.DeltaViol == 0 {
		return "0"
	}
	return fmt.Sprintf("%+d", *s.DeltaViol)
}

// DeltaClass is the badge of the step's Delta viol.
func (s TimelineStep) DeltaClass() string {
	switch {
	case s.DeltaViol == nil:
		return "muted"
	case *s.DeltaViol > 0:
		return "bad"
	case *s.DeltaViol < 0:
		return "ok"
	}
	return ""
}

// StatusClass is the badge of a ledger status.
func (is LedgerIssue) StatusClass() string {
	switch is.Status {
	case "resolved", "dropped":
		return "ok"
	case "regressed", "open":
		return "bad"
	}
	return "warn"
}

//go:embed timeline.html.tmpl
var timelineTmplText string

// The timeline block joins the edit page's template set; edit.html.tmpl
// calls it with the page's Timeline.
var _ = template.Must(editTmpl.New("timeline").Parse(timelineTmplText))
