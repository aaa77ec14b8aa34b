package evolve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/skills"
)

// Proposal is one change an evolve round puts to the replay gate: a
// rewrite of a skill (deepen) or a new skill (widen).
type Proposal struct {
	// Kind is rewrite, major_rewrite or mint.
	Kind skills.ChangeKind `json:"kind"`
	// Skill is the proposed SKILL.md: for a rewrite the current version
	// + 1 with the current status; for a mint version 1, status
	// candidate (Commit makes it stable).
	Skill skills.Skill `json:"skill"`
	// Before is the incumbent for a rewrite; nil for a mint.
	Before *skills.Skill `json:"before,omitempty"`
	// Change is the proposer's one-line account of the change; Section
	// the sections it names.
	Change  string `json:"change,omitempty"`
	Section string `json:"section,omitempty"`
	// Label is a mint's coverage-pool label.
	Label string `json:"label,omitempty"`
}

// EscalateAfter is how many consecutive gate rejections of a skill's
// rewrites turn the next rewrite into a major one (Designer-RSI §3.2
// says "repeated" without a number; 2 is the design's choice).
const EscalateAfter = 2

// Reflector context bounds: the failed and successful records of the
// skill shown to it, most recent first.
const (
	ReflectFailures  = 6
	ReflectSuccesses = 4
)

// ErrInvalidProposal: the proposer's SKILL.md did not validate after one
// retry; the proposal is given up for this round (the caller logs it).
var ErrInvalidProposal = errors.New("the proposed SKILL.md is invalid")

// Deepen asks the reflector (one judge-role call, Designer-RSI §3.2) for
// a revision of cur: it reads cur's SKILL.md, up to ReflectFailures
// graded failures that starred cur (instruction, requirement outcomes
// and reasons, tool sequence) and up to ReflectSuccesses successes (the
// do-not-regress baseline: instruction and tool sequence). A targeted
// edit, or a major rewrite once st.ConsecutiveGateRejects >=
// EscalateAfter. The answer must parse and pass skills.Validate against
// bank (with cur replaced) and tools; an invalid answer is retried once
// with its problems, then the result is ErrInvalidProposal with them.
func Deepen(ctx context.Context, c *llm.Client, cur skills.Skill, st skills.Stats, records []skills.TurnRecord, bank []skills.Skill, tools []string) (Proposal, []llm.Call, error) {
	kind, system := skills.ChangeRewrite, reflectorSystem
	if st.ConsecutiveGateRejects >= EscalateAfter {
		kind, system = skills.ChangeMajorRewrite, majorRewriteSystem
	}
	var fails, wins []skills.TurnRecord
	for _, r := range newestFirst(records) {
		if r.Grade == nil || !starred(r, cur.Name) {
			continue
		}
		if r.Grade.Success {
			wins = append(wins, r)
		} else {
			fails = append(fails, r)
		}
	}
	fails, wins = fails[:min(len(fails), ReflectFailures)], wins[:min(len(wins), ReflectSuccesses)]
	var b strings.Builder
	fmt.Fprintf(&b, "CURRENT SKILL.md:\n%s\n", cur.Format())
	b.WriteString("FAILED EDITS WITH THIS SKILL:\n")
	writeRecords(&b, fails, true)
	b.WriteString("\nSUCCESSFUL EDITS WITH THIS SKILL (keep these working):\n")
	writeRecords(&b, wins, false)
	want := func(s skills.Skill) skills.Skill {
		s.Name, s.Version, s.Status = cur.Name, cur.Version+1, cur.Status
		return s
	}
	s, ans, cs, err := propose(ctx, c, "evolve-reflect", system, b.String(), want, bank, tools)
	if err != nil {
		return Proposal{}, cs, fmt.Errorf("deepen %s: %w", cur.Name, err)
	}
	return Proposal{Kind: kind, Skill: s, Before: &cur, Change: ans.Change, Section: ans.Section}, cs, nil
}

// newestFirst orders records by start time, newest first (ties by id).
func newestFirst(records []skills.TurnRecord) []skills.TurnRecord {
	out := slices.Clone(records)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].StartedUnixMS != out[j].StartedUnixMS {
			return out[i].StartedUnixMS > out[j].StartedUnixMS
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// writeRecords lists records for a proposer: instruction, score and, for
// failures, each requirement's outcome and reason; the tool sequence.
func writeRecords(b *strings.Builder, recs []skills.TurnRecord, outcomes bool) {
	if len(recs) == 0 {
		b.WriteString("(none)\n")
		return
	}
	for i, r := range recs {
		fmt.Fprintf(b, "%d. Instruction: %s\n", i+1, strings.TrimSpace(r.Instruction))
		if r.Grade != nil {
			fmt.Fprintf(b, "   Score S %.2f (completeness %.2f, aesthetic %.2f)\n", r.Grade.S, r.Grade.Completeness, r.Grade.Aesthetic)
			if outcomes {
				for _, q := range r.Grade.Requirements {
					line := fmt.Sprintf("   - [%s] %s", q.Label, q.Text)
					if q.Reason != "" {
						line += ": " + q.Reason
					}
					b.WriteString(line + "\n")
				}
			}
		}
		fmt.Fprintf(b, "   Tools called: %s\n", toolSequence(r))
	}
}

// toolSequence is a record's applied calls as "a, b, c (failed)".
func toolSequence(r skills.TurnRecord) string {
	if len(r.Tools) == 0 {
		return "(none)"
	}
	parts := make([]string, len(r.Tools))
	for i, t := range r.Tools {
		parts[i] = t.Tool
		if !t.OK {
			parts[i] += " (failed)"
		}
	}
	return strings.Join(parts, ", ")
}

// proposalAnswer is a proposer's JSON.
type proposalAnswer struct {
	Section string `json:"section"`
	Change  string `json:"change"`
	SkillMD string `json:"skill_md"`
}

// propose runs one proposer call whose answer is a SKILL.md: parsed,
// fixed up by want (name, version, status), validated against bank with
// the skill put in place of its namesake and against tools; any problem
// is sent back once (llm.ChatJSON's retry), after which the error is
// ErrInvalidProposal naming the last problem. It returns the calls made
// in every case.
func propose(ctx context.Context, c *llm.Client, purpose, system, user string, want func(skills.Skill) skills.Skill, bank []skills.Skill, tools []string) (skills.Skill, proposalAnswer, []llm.Call, error) {
	var got skills.Skill
	var ans proposalAnswer
	parse := func(content string) error {
		ans = proposalAnswer{}
		if err := json.Unmarshal([]byte(llm.TrimJSONFence(content)), &ans); err != nil {
			return fmt.Errorf("the answer is not the JSON object asked for (%v)", err)
		}
		s, err := skills.Parse([]byte(strings.TrimSpace(ans.SkillMD) + "\n"))
		if err != nil {
			return fmt.Errorf("skill_md: %v", err)
		}
		s = want(s)
		if probs := validateIn(s, bank, tools); len(probs) > 0 {
			return fmt.Errorf("skill_md does not validate: %s", strings.Join(probs, "; "))
		}
		got = s
		return nil
	}
	cs, problem, err := c.ChatJSON(ctx, llm.Request{Role: llm.RoleJudge, Purpose: purpose,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: system},
			{Role: openai.ChatMessageRoleUser, Content: user}},
		Temperature: 0, MaxTokens: 4096}, parse, `{"section": "...", "change": "...", "skill_md": "---\nname: ...\n---\n\n## When to use\n..."}`)
	switch {
	case err != nil:
		return got, ans, cs, err
	case problem != nil:
		return got, ans, cs, fmt.Errorf("%w: %v", ErrInvalidProposal, problem)
	}
	ans.Section, ans.Change = strings.TrimSpace(ans.Section), strings.TrimSpace(ans.Change)
	return got, ans, cs, nil
}

// validateIn is skills.Validate's problems that concern s, with s put in
// bank in place of the skill of its name (added when new); a candidate is
// checked as the stable skill it becomes on commit (near-duplicates).
func validateIn(s skills.Skill, bank []skills.Skill, tools []string) []string {
	next := []skills.Skill{}
	for _, k := range bank {
		if k.Name != s.Name {
			next = append(next, k)
		}
	}
	if s.Status == skills.StatusCandidate {
		s.Status = skills.StatusStable // checked as it would be offered once committed
	}
	next = append(next, s)
	var out []string
	for _, p := range skills.Validate(next, tools) {
		if p.Skill == s.Name || strings.Contains(p.Message, s.Name+"'s") {
			out = append(out, p.String())
		}
	}
	return out
}
