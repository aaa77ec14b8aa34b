package evolve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/skills"
)

// Evidence is what the grader reads about an edit beside its turn record
// (the instruction, outcome, IF and VQ scores, gate result, failed-check
// count and the judge's critique come from the record itself). The paper
// grades a render (App. D); ACE grades the edit's structural trace, the
// same evidence its IF judge reads, so no renderer is needed to grade.
type Evidence struct {
	// Diff is the JsonDiff text of the origin to the kept deck
	// (diff.Diff.Text or the loop's stored diff text); "" when nothing
	// was kept.
	Diff string
	// Account is the agent's own account of what it did (a claim).
	Account string
	// FailedChecks describe the recipe expectations the kept deck failed.
	FailedChecks []string
	// NewViolations are the layout problems the gate found that the
	// origin did not have (one line each, judge.Describe).
	NewViolations []string
}

// Requirement count bounds (Designer-RSI App. D: 3-10 requirements). An
// instruction that asks for one thing may give fewer than 3, so the
// parser accepts 1-10 while the prompt asks for 3-10.
const (
	MinRequirements = 1
	MaxRequirements = 10
)

// ErrNoGrade: the grader gave no usable answer after its retry; the record
// stays ungraded and is tried again in a later round.
var ErrNoGrade = errors.New("no usable grade")

// Grade back-fills rec's grade (Designer-RSI App. D, E) with one
// judge-role call: the instruction decomposed into 3-10 outcome
// requirements (no tool or method requirements), each labelled met,
// partial or not_met with a reason for anything short of met, and an
// aesthetic score 1-10. Completeness is the labels' mean
// (skills.Completeness); the aesthetic is VQ/5 when the VQ judge scored
// the edit (rec.VQ, 0-5), else the grader's score/10; S = 0.7
// completeness + 0.3 aesthetic (skills.Score), a success iff S >= 0.6.
//
// The grader reads the instruction, the judge's IF score and critique,
// the agent's account, the diff, the gate result with the new
// violations, the failed checks and the loop's outcome; it is told that
// a gate-blocked or failed edit kept nothing of what it misses, so those
// requirements are not_met. It returns the calls made; an unusable answer
// after one retry is ErrNoGrade, a transport failure its error.
func Grade(ctx context.Context, c *llm.Client, rec skills.TurnRecord, ev Evidence) (skills.Grade, []llm.Call, error) {
	var ans GradeAnswer
	parse := func(content string) (err error) {
		ans, err = ParseGrade(content)
		return err
	}
	calls, problem, err := c.ChatJSON(ctx, llm.Request{Role: llm.RoleJudge, Purpose: "evolve-grade",
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: gradeSystem},
			{Role: openai.ChatMessageRoleUser, Content: gradeUser(rec, ev)}},
		Temperature: 0, MaxTokens: 2048}, parse,
		`{"requirements": [{"text": "...", "label": "met" | "partial" | "not_met", "reason": "..."}], "aesthetic": <integer 1-10>}`)
	switch {
	case err != nil:
		return skills.Grade{}, calls, fmt.Errorf("grade record %s: %w", rec.ID, err)
	case problem != nil:
		return skills.Grade{}, calls, fmt.Errorf("grade record %s: %w: %v", rec.ID, ErrNoGrade, problem)
	}
	aesthetic := float64(ans.Aesthetic) / 10
	if rec.VQ != nil {
		aesthetic = min(max(*rec.VQ/5, 0), 1)
	}
	return skills.NewGrade(ans.Requirements, aesthetic, time.Now().UnixMilli()), calls, nil
}

// GradeAnswer is the grader's answer as ParseGrade reads it.
type GradeAnswer struct {
	Requirements []skills.Requirement `json:"requirements"`
	Aesthetic    int                  `json:"aesthetic"`
}

// ParseGrade reads the grader's answer: one JSON object (a ```json fence
// is tolerated) with "requirements", 1-10 objects each with a non-empty
// "text", a "label" of met, partial or not_met and, unless met, a
// non-empty "reason"; and "aesthetic", an integer 1-10. The error says
// what is wrong.
func ParseGrade(text string) (GradeAnswer, error) {
	var a GradeAnswer
	s := llm.TrimJSONFence(text)
	if s == "" {
		return a, errors.New("the answer is empty")
	}
	var raw struct {
		Requirements []skills.Requirement `json:"requirements"`
		Aesthetic    json.Number          `json:"aesthetic"`
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return a, fmt.Errorf("the answer is not the JSON object asked for (%v)", err)
	}
	if n := len(raw.Requirements); n < MinRequirements || n > MaxRequirements {
		return a, fmt.Errorf("%d requirements; list %d-%d", n, MinRequirements, MaxRequirements)
	}
	for i, r := range raw.Requirements {
		r.Text, r.Reason = strings.TrimSpace(r.Text), strings.TrimSpace(r.Reason)
		r.Label = skills.Outcome(strings.ToLower(strings.TrimSpace(string(r.Label))))
		switch {
		case r.Text == "":
			return a, fmt.Errorf("requirement %d has no text", i+1)
		case !r.Label.Valid():
			return a, fmt.Errorf("requirement %d: label %q is not met, partial or not_met", i+1, r.Label)
		case r.Label != skills.OutcomeMet && r.Reason == "":
			return a, fmt.Errorf("requirement %d is %s but gives no reason", i+1, r.Label)
		}
		raw.Requirements[i] = r
	}
	n, err := raw.Aesthetic.Int64()
	if err != nil || n < 1 || n > 10 {
		return a, fmt.Errorf("aesthetic %q is not an integer 1-10", raw.Aesthetic.String())
	}
	return GradeAnswer{Requirements: raw.Requirements, Aesthetic: int(n)}, nil
}

// gradeUser is the grader's user message: the evidence, each part
// labelled, absent parts said to be absent.
func gradeUser(rec skills.TurnRecord, ev Evidence) string {
	var b strings.Builder
	orNone := func(s string) string {
		if strings.TrimSpace(s) == "" {
			return "(none)"
		}
		return strings.TrimSpace(s)
	}
	fmt.Fprintf(&b, "INSTRUCTION:\n%s\n\n", strings.TrimSpace(rec.Instruction))
	fmt.Fprintf(&b, "OUTCOME OF THE EDIT LOOP: %s\n", orNone(rec.Outcome))
	if rec.GatePassed {
		b.WriteString("LAYOUT GATE: passed (no new layout problems)\n")
	} else {
		b.WriteString("LAYOUT GATE: blocked; what the blocked attempt changed was not kept, so requirements it would have met are not_met\n")
	}
	for _, v := range ev.NewViolations {
		fmt.Fprintf(&b, "  - %s\n", v)
	}
	if rec.FinalRef == "" || rec.FinalRef == rec.DeckRef {
		b.WriteString("KEPT DECK: the original (no edit was kept)\n")
	}
	if rec.FailedChecks > 0 || len(ev.FailedChecks) > 0 {
		fmt.Fprintf(&b, "FAILED CHECKS: %d\n", max(rec.FailedChecks, len(ev.FailedChecks)))
		for _, c := range ev.FailedChecks {
			fmt.Fprintf(&b, "  - %s\n", c)
		}
	}
	if rec.IF != nil {
		fmt.Fprintf(&b, "JUDGE'S INSTRUCTION-FOLLOWING SCORE: %g of 5\n", *rec.IF)
	}
	fmt.Fprintf(&b, "JUDGE'S CRITIQUE:\n%s\n\n", orNone(rec.Critique))
	fmt.Fprintf(&b, "AGENT'S ACCOUNT (a claim, not evidence):\n%s\n\n", orNone(ev.Account))
	fmt.Fprintf(&b, "EDITS KEPT (original deck -> kept deck):\n%s\n", orNone(ev.Diff))
	return b.String()
}
