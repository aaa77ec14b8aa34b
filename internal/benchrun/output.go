package benchrun

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/acecanvas/ace/internal/bench"
	"github.com/acecanvas/ace/internal/report"
)

// The files `ace bench` writes in its output folder.
const (
	ResultsFile = "results.jsonl"
	SummaryFile = "summary.json"
	ReportFile  = "report.html"
)

// WriteRow writes row as one line of results.jsonl.
func WriteRow(w io.Writer, row Row) error {
	b, err := json.Marshal(row)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// ReadRows reads results.jsonl.
func ReadRows(r io.Reader) ([]Row, error) {
	dec := json.NewDecoder(r)
	var rows []Row
	for dec.More() {
		var row Row
		if err := dec.Decode(&row); err != nil {
			return rows, fmt.Errorf("%s row %d: %w", ResultsFile, len(rows)+1, err)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// EncodeSummary is summary.json.
func EncodeSummary(s Summary) ([]byte, error) {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Page builds the report page of a run: s's arms and comparisons, and per
// task (in tasks' order) every run with its pictures.
func Page(s Summary, tasks []*bench.Task, rows []Row, pics map[RunKey][]report.SlidePair, started time.Time, took time.Duration) report.Bench {
	b := report.Bench{Suite: s.Suite, Started: started, Duration: took, Tasks: s.Tasks, Seeds: s.Seeds}
	for _, a := range s.Arms {
		m := func(name, f string) string {
			if a.Counts[name] == 0 {
				return "–"
			}
			return fmt.Sprintf(f, a.Means[name])
		}
		b.Arms = append(b.Arms, report.BenchArm{Name: a.Arm, Description: a.Description, Notes: a.Notes,
			Runs: a.Runs, Failed: a.Failed, ChecksAll: a.ChecksAll, IF: m("IF", "%.2f"), VQ: m("VQ", "%.2f"),
			Checks: m("checks", "%.3f"), SCR: m("SCR", "%.3f"), TimeS: m("time_s", "%.1f"), CostUSD: CostText(a.Means["cost_usd"], a.Counts["cost_usd"] > 0, a.Unpriced)})
	}
	for _, p := range s.Paired {
		bp := report.BenchPaired{A: p.A, B: p.B, Metric: p.Metric, N: p.Result.N, Dropped: p.Dropped, Error: p.Error}
		if p.Error == "" {
			r := p.Result
			better, worse := r.Wins, r.Losses
			if p.LowerIsBetter {
				better, worse = worse, better
			}
			bp.MeanA, bp.MeanB, bp.Diff = num(r.MeanA), num(r.MeanB), fmt.Sprintf("%+.4g", r.MeanDiff)
			bp.CI, bp.P = fmt.Sprintf("[%+.4g, %+.4g]", r.CI95[0], r.CI95[1]), fmt.Sprintf("%.3g", r.Wilcoxon.P)
			bp.WTL = fmt.Sprintf("%d/%d/%d", better, r.Ties, worse)
			up, down := r.CI95[0] > 0, r.CI95[1] < 0
			if p.LowerIsBetter {
				up, down = down, up
			}
			switch {
			case up:
				bp.Verdict = "better"
			case down:
				bp.Verdict = "worse"
			}
		}
		b.Paired = append(b.Paired, bp)
	}
	byTask := map[string][]Row{}
	for _, r := range rows {
		byTask[r.Task] = append(byTask[r.Task], r)
	}
	for _, t := range tasks {
		bt := report.BenchTask{ID: t.ID, Category: string(t.Category), Deck: t.DeckRef, Instruction: t.Instruction}
		if bt.Instruction == "" {
			bt.Instruction = "recipe " + t.Recipe
		}
		for _, r := range byTask[t.ID] {
			run := report.BenchRun{Arm: r.Arm, Seed: r.Seed, Outcome: string(r.Outcome), Error: r.Error,
				IF: score(r.IF), VQ: score(r.VQ), Checks: fmt.Sprintf("%d/%d", r.ChecksPassed, r.ChecksPassed+r.ChecksFailed),
				ChecksAll: r.ChecksAll, SCR: "–", NewViolations: append(append([]string(nil), r.NewViolations...), gateLines(r.GateViolations)...),
				TimeS: fmt.Sprintf("%.1f", r.WallS), CostUSD: CostText(r.CostUSD, true, r.Unpriced)}
			run.Skills = skillsText(r)
			if r.SCR != nil {
				run.SCR = fmt.Sprintf("%.2f (%d/%d)", *r.SCR, r.CleanSlides, r.Slides)
				if r.SCROrigin != nil {
					run.SCR += fmt.Sprintf("; original %.2f", *r.SCROrigin)
				}
			}
			for _, c := range r.Checks {
				if c.Status == bench.StatusFail {
					run.Failed = append(run.Failed, c.String())
				}
			}
			if r.Seed == 1 {
				run.Slides = pics[RunKey{Task: r.Task, Arm: r.Arm}]
			}
			bt.Runs = append(bt.Runs, run)
		}
		b.Rows = append(b.Rows, bt)
	}
	return b
}

// WritePage renders the report page.
func WritePage(b report.Bench) ([]byte, error) {
	var buf bytes.Buffer
	if err := report.WriteBench(&buf, b); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func score(v *float64) string {
	if v == nil {
		return "–"
	}
	return fmt.Sprintf("%.1f", *v)
}

func num(v float64) string {
	if math.Abs(v) >= 100 {
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.4g", v)
}

// gateLines are the gate's refusals as the report lists them.
func gateLines(vs []string) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = "refused by the gate: " + v
	}
	return out
}

// skillsText is a run's skills in one line for the report: the starred
// skills (or a coverage gap) and those the agent read; "" with skills
// off.
func skillsText(r Row) string {
	if r.SkillsCovered == nil {
		return ""
	}
	out := "skills: coverage gap (none starred)"
	if *r.SkillsCovered {
		out = "skills starred: " + strings.Join(r.SkillsStarred, ", ")
	}
	if len(r.SkillsLoaded) > 0 {
		return out + "; read: " + strings.Join(r.SkillsLoaded, ", ")
	}
	return out + "; none read"
}
