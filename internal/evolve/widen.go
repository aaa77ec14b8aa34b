package evolve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/skills"
)

// Subtask is one canonical subtask an edit performed (Designer-RSI §3.1).
type Subtask struct {
	// Label is canonical: 2-5 lowercase hyphenated words naming the
	// operation; the coverage pool's key.
	Label string `json:"label"`
	// Subtask is one sentence describing it.
	Subtask string `json:"subtask"`
}

// MaxSubtasks bounds the subtasks taken from one record.
const MaxSubtasks = 6

var labelRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+){0,7}$`)

// Subtasks extracts and canonicalises the subtasks rec performed, from
// its instruction and tool sequence (Designer-RSI §3.1; one router-role
// call). known are labels already in the coverage pool, offered for
// reuse so one kind of work keeps one label. An unusable answer after
// one retry is an error wrapping ErrNoSubtasks.
func Subtasks(ctx context.Context, c *llm.Client, rec skills.TurnRecord, known []string) ([]Subtask, []llm.Call, error) {
	var out []Subtask
	parse := func(content string) (err error) {
		out, err = ParseSubtasks(content)
		return err
	}
	knownText := "(none yet)"
	if len(known) > 0 {
		knownText = strings.Join(known, ", ")
	}
	user := fmt.Sprintf("INSTRUCTION:\n%s\n\nTOOLS CALLED, IN ORDER:\n%s\n\nKNOWN LABELS:\n%s\n",
		strings.TrimSpace(rec.Instruction), toolSequence(rec), knownText)
	cs, problem, err := c.ChatJSON(ctx, llm.Request{Role: llm.RoleRouter, Purpose: "evolve-subtasks",
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: subtaskSystem},
			{Role: openai.ChatMessageRoleUser, Content: user}},
		Temperature: 0, MaxTokens: 1024}, parse, `{"subtasks": [{"label": "recolor-chart-series", "subtask": "..."}]}`)
	switch {
	case err != nil:
		return nil, cs, fmt.Errorf("subtasks of record %s: %w", rec.ID, err)
	case problem != nil:
		return nil, cs, fmt.Errorf("subtasks of record %s: %w: %v", rec.ID, ErrNoSubtasks, problem)
	}
	return out, cs, nil
}

// ErrNoSubtasks: the extractor gave no usable answer after its retry.
var ErrNoSubtasks = errors.New("no usable subtasks")

// ParseSubtasks reads the extractor's answer: {"subtasks": [{"label",
// "subtask"}]} with 1 to MaxSubtasks entries whose labels, lowercased and
// trimmed, are 1-8 hyphen-joined words of [a-z0-9]; repeated labels are
// kept once. The error says what is wrong.
func ParseSubtasks(text string) ([]Subtask, error) {
	var a struct {
		Subtasks []Subtask `json:"subtasks"`
	}
	if err := json.Unmarshal([]byte(llm.TrimJSONFence(text)), &a); err != nil {
		return nil, fmt.Errorf("the answer is not the JSON object asked for (%v)", err)
	}
	if n := len(a.Subtasks); n == 0 || n > MaxSubtasks {
		return nil, fmt.Errorf("%d subtasks; give 1-%d", n, MaxSubtasks)
	}
	var out []Subtask
	for i, s := range a.Subtasks {
		s.Label = strings.ToLower(strings.TrimSpace(s.Label))
		s.Subtask = strings.TrimSpace(s.Subtask)
		if !labelRE.MatchString(s.Label) {
			return nil, fmt.Errorf("subtask %d: label %q is not lowercase words joined by hyphens", i+1, s.Label)
		}
		if !slices.ContainsFunc(out, func(o Subtask) bool { return o.Label == s.Label }) {
			out = append(out, s)
		}
	}
	return out, nil
}

// AddressedAt is the token overlap of a subtask (label and sentence)
// with a starred skill's description at or above which that skill
// addresses it: retrieval's threshold (Designer-RSI App. C.2, tau 0.2).
const AddressedAt = 0.2

// Uncovered returns the subtasks of rec that go to the coverage pool
// (Designer-RSI §3.1): all of them when rec starred no skill (a coverage
// gap) or when rec failed and so blamed the skills it starred; otherwise
// those no starred skill addresses, i.e. whose tokens overlap no starred
// skill's description (in bank) by AddressedAt (the paper's "the
// retrieved skills cover a different part of the task"; ACE measures it
// with the shared tokenizer). Ungraded records blame nothing.
func Uncovered(rec skills.TurnRecord, subs []Subtask, bank []skills.Skill) []Subtask {
	var star []skills.Skill
	for _, s := range bank {
		if starred(rec, s.Name) {
			star = append(star, s)
		}
	}
	if len(star) == 0 || !rec.Covered || (rec.Grade != nil && !rec.Grade.Success) {
		return slices.Clone(subs)
	}
	var out []Subtask
	for _, st := range subs {
		toks := skills.Tokens(strings.ReplaceAll(st.Label, "-", " ") + " " + st.Subtask)
		addressed := false
		for _, s := range star {
			if skills.Overlap(toks, skills.Tokens(s.Description)) >= AddressedAt {
				addressed = true
				break
			}
		}
		if !addressed {
			out = append(out, st)
		}
	}
	return out
}

// Pool adds recordID to the coverage-pool entry of each subtask's label
// (Designer-RSI §3.1), creating entries as needed; a record already in an
// entry is not added again, so pooling a record twice changes nothing.
// It returns the entries that changed, by label order of subs.
func Pool(pool map[string]skills.CoverageEntry, recordID string, subs []Subtask) []skills.CoverageEntry {
	var changed []skills.CoverageEntry
	for _, s := range subs {
		e, ok := pool[s.Label]
		if !ok {
			e = skills.CoverageEntry{Label: s.Label, Subtask: s.Subtask}
		}
		if slices.Contains(e.Records, recordID) {
			continue
		}
		e.Records = append(slices.Clone(e.Records), recordID)
		pool[s.Label] = e
		changed = append(changed, e)
	}
	return changed
}

// Ripe lists the pool entries with at least skills.MintAt records
// (k_min 3) whose label is not already a skill's name in bank, by label.
func Ripe(pool map[string]skills.CoverageEntry, bank []skills.Skill) []skills.CoverageEntry {
	var out []skills.CoverageEntry
	for _, e := range pool {
		if len(e.Records) >= skills.MintAt && !slices.ContainsFunc(bank, func(s skills.Skill) bool { return s.Name == e.Label }) {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b skills.CoverageEntry) int { return strings.Compare(a.Label, b.Label) })
	return out
}

// Mint asks the distiller (one judge-role call, Designer-RSI §3.1) for a
// candidate skill from a ripe coverage entry and its records (each shown
// with its instruction, tool sequence and score). The candidate is named
// after the label, version 1, status candidate, and must validate
// against bank and tools; an invalid answer is retried once, then
// ErrInvalidProposal.
func Mint(ctx context.Context, c *llm.Client, entry skills.CoverageEntry, records []skills.TurnRecord, bank []skills.Skill, tools []string) (Proposal, []llm.Call, error) {
	if !skills.ValidName(entry.Label) {
		return Proposal{}, nil, fmt.Errorf("mint %q: the label is not a valid skill name (kebab-case, at most 64 bytes)", entry.Label)
	}
	var cluster []skills.TurnRecord
	for _, r := range records {
		if slices.Contains(entry.Records, r.ID) {
			cluster = append(cluster, r)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "SUBTASK LABEL: %s\nSUBTASK: %s\n\nEDITS THAT NEEDED IT:\n", entry.Label, strings.TrimSpace(entry.Subtask))
	writeRecords(&b, cluster, false)
	want := func(s skills.Skill) skills.Skill {
		s.Name, s.Version, s.Status = entry.Label, 1, skills.StatusCandidate
		return s
	}
	s, _, cs, err := propose(ctx, c, "evolve-mint", distillerSystem, b.String(), want, bank, tools)
	if err != nil {
		return Proposal{}, cs, fmt.Errorf("mint %s: %w", entry.Label, err)
	}
	return Proposal{Kind: skills.ChangeMint, Skill: s, Label: entry.Label, Change: "minted from " + fmt.Sprint(len(entry.Records)) + " uncovered records"}, cs, nil
}
