package skills

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// Status is a skill's place in its life cycle (Designer-RSI A3).
type Status string

// Statuses.
const (
	// StatusCandidate: minted or rewritten, not yet through the replay
	// gate; never offered to the agent.
	StatusCandidate Status = "candidate"
	// StatusStable: in the bank and offered.
	StatusStable Status = "stable"
	// StatusDeprecated: kept for history and revert, never offered.
	StatusDeprecated Status = "deprecated"
)

// Valid reports whether s is one of the statuses.
func (s Status) Valid() bool {
	return s == StatusCandidate || s == StatusStable || s == StatusDeprecated
}

// Section is one of the five body sections every SKILL.md has, in this
// order (Designer-RSI App. C.1, A3).
type Section string

// The body sections, as their "## " headings read.
const (
	SectionWhenToUse     Section = "When to use"
	SectionClarify       Section = "Clarify before starting"
	SectionSteps         Section = "Steps"
	SectionTips          Section = "Tips"
	SectionErrorHandling Section = "Error handling"
)

// Sections lists the body sections in their required order.
var Sections = []Section{SectionWhenToUse, SectionClarify, SectionSteps, SectionTips, SectionErrorHandling}

// Description bounds, in bytes: the paper's descriptions are 200-600
// characters of trigger phrases (A3).
const (
	MinDescription = 200
	MaxDescription = 600
)

// MaxToolSequence is the longest tool sequence a skill names: the
// paper's critical paths are 5-10 tools (A3).
const MaxToolSequence = 10

// Skill is one parsed SKILL.md.
type Skill struct {
	// Name is kebab-case ("table-cell-edits"); the bank's folder name.
	Name string `yaml:"name"`
	// Description lists the trigger phrases a user would write; the sole
	// text retrieval scores (App. C.2).
	Description string `yaml:"description"`
	// ToolSequence is the critical path of ACE tool names, in order.
	ToolSequence []string `yaml:"tool_sequence"`
	// Prerequisites are names of skills pulled in with this one (one hop).
	Prerequisites []string `yaml:"prerequisites,omitempty"`
	Status        Status   `yaml:"status"`
	// Version starts at 1 and is bumped by every committed rewrite.
	Version int `yaml:"version"`
	// Body is the Markdown after the front matter, with the five sections.
	Body string `yaml:"-"`
}

var nameRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// ValidName reports whether name is a skill name: lowercase letters and
// digits in hyphen-separated words, at most 64 bytes.
func ValidName(name string) bool { return len(name) <= 64 && nameRE.MatchString(name) }

// Parse reads a SKILL.md: front matter between "---" lines, then the
// body. It checks the shape (known keys, a valid name) but not the bank
// rules; Validate does those. The error names what is wrong and where.
func Parse(data []byte) (Skill, error) {
	var s Skill
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	if !strings.HasPrefix(text, "---\n") {
		return s, fmt.Errorf("SKILL.md must start with a \"---\" line opening the YAML front matter")
	}
	end := strings.Index(text[4:], "\n---\n")
	if end < 0 {
		if strings.HasSuffix(text, "\n---") {
			end = len(text) - 4 - 4
		} else {
			return s, fmt.Errorf("SKILL.md: the front matter is not closed by a \"---\" line")
		}
	}
	front := text[4 : 4+end+1]
	body := ""
	if rest := 4 + end + 5; rest <= len(text) {
		body = text[rest:]
	}
	dec := yaml.NewDecoder(strings.NewReader(front))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil {
		return s, fmt.Errorf("SKILL.md front matter: %w", err)
	}
	if !ValidName(s.Name) {
		return s, fmt.Errorf("SKILL.md: name %q is not kebab-case (lowercase words joined by \"-\", at most 64 bytes)", s.Name)
	}
	s.Description = strings.Join(strings.Fields(s.Description), " ")
	s.Body = strings.TrimSpace(body) + "\n"
	return s, nil
}

// Format writes s as a SKILL.md; Parse(Format(s)) gives s back.
func (s Skill) Format() []byte {
	var b bytes.Buffer
	b.WriteString("---\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	front := s
	front.Body = ""
	if err := enc.Encode(front); err != nil {
		// Every field is a plain string, int or string list.
		panic(fmt.Sprintf("skills: encoding front matter of %s: %v", s.Name, err))
	}
	_ = enc.Close()
	b.WriteString("---\n\n")
	b.WriteString(strings.TrimSpace(s.Body))
	b.WriteString("\n")
	return b.Bytes()
}

// SectionText returns the text under the body's "## <sec>" heading (up to
// the next "## " heading), trimmed; "" when the section is missing.
func (s Skill) SectionText(sec Section) string {
	return sectionsOf(s.Body)[strings.ToLower(string(sec))]
}

// sectionsOf splits a Markdown body at its "## " headings, keyed by the
// lowercased heading.
func sectionsOf(body string) map[string]string {
	out := map[string]string{}
	cur, started := "", false
	var b strings.Builder
	flush := func() {
		if started {
			out[cur] = strings.TrimSpace(b.String())
		}
		b.Reset()
	}
	for line := range strings.SplitSeq(body, "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			flush()
			cur, started = strings.ToLower(strings.TrimSpace(h)), true
			continue
		}
		b.WriteString(line)
		b.WriteString("\n")
	}
	flush()
	return out
}

// Offered reports whether the agent may be offered s (stable only).
func (s Skill) Offered() bool { return s.Status == StatusStable }

// Tools are the tool names s names: its sequence, without repeats.
func (s Skill) Tools() []string {
	var out []string
	for _, t := range s.ToolSequence {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}
