package coldstart

import (
	"fmt"
	"slices"
	"strings"

	"github.com/acecanvas/ace/internal/skills"
)

// NoSkill is the answer a generation call gives when its theme needs no
// skill (pure plumbing, or a skill of the bank already covers it):
// "NO_SKILL: reason" (Designer-RSI App. G step 3's escape).
const NoSkill = "NO_SKILL"

// skillSystem is the generation call's system message: the SKILL.md form
// and the rules a seeded skill keeps. The numbers come from internal/skills.
var skillSystem = fmt.Sprintf(`You write one skill for ACE, an agent that edits slide decks by calling tools. A skill is a SKILL.md file: a procedure the agent reads before it carries out one kind of request. You get a theme, the documentation pages that belong to it, the tools you may name, and the skills the bank already has.

Write the SKILL.md exactly in this form:

---
name: kebab-case-name
description: <%d to %d characters: comma-separated phrases a user would type when asking for this kind of edit, in the user's words, not tool names; this text is all the retriever matches requests against, so cover the different ways people ask>
tool_sequence: [tool_a, tool_b, ...]   # 1 to %d tool names from the allowed list, in the order the procedure uses them
prerequisites: []                       # names of bank skills this one cannot work without; usually none
status: stable
version: 1
---

## When to use
Which requests this skill serves, and which nearby requests belong to another skill.

## Clarify before starting
What to find out (from the deck, or from the request) before editing: which slides or nodes, which values.

## Steps
Numbered steps. Each names the tool and its key parameters, as the pages document them.

## Tips
What makes the result right the first time.

## Error handling
| Situation | Action |
|---|---|
| ... | ... |

Rules:
- Use only what the pages say about a tool: its name, its parameters, its limits and warnings. Never invent a tool or a parameter.
- Name in tool_sequence and in the steps only tools from the allowed list.
- Do not repeat a skill the bank already has. If the theme is plumbing with no edit a user would ask for, or a bank skill already covers it, answer one line instead of a file: %s: <why>.
- Answer with the SKILL.md text (starting with its "---" line) or the %s line, and nothing else.`,
	skills.MinDescription, skills.MaxDescription, skills.MaxToolSequence, NoSkill, NoSkill)

// skillUser is the generation call's user message for one theme.
func skillUser(th Theme, pages []Page, allowed []string, bank []skills.Skill) string {
	var b strings.Builder
	fmt.Fprintf(&b, "THEME %s\n%s\n\n", th.Name, th.Description)
	b.WriteString("PAGES\n")
	for _, p := range pages {
		fmt.Fprintf(&b, "\n=== %s: %s\n%s\n", p.ID, p.Title, p.Text)
	}
	fmt.Fprintf(&b, "\nALLOWED TOOLS\n%s\n", strings.Join(allowed, ", "))
	b.WriteString("\nBANK SO FAR (do not duplicate these)\n")
	if len(bank) == 0 {
		b.WriteString("(empty)\n")
	}
	for _, s := range bank {
		fmt.Fprintf(&b, "- %s: %s\n", s.Name, s.Description)
	}
	return b.String()
}

// Answer is one generation answer, read: a skill, or the NO_SKILL escape
// with its reason.
type Answer struct {
	Skill   skills.Skill
	NoSkill bool
	Reason  string
}

// ParseAnswer reads a generation answer: "NO_SKILL: reason", or a
// SKILL.md (a ``` fence around it is tolerated) that skills.Parse reads.
// The seeder sets status stable and version 1 whatever the answer says:
// a seeded skill enters the bank as stable v1 once a person reviewed it.
func ParseAnswer(text string) (Answer, error) {
	s := strings.TrimSpace(text)
	if strings.HasPrefix(s, "```") {
		if nl := strings.IndexByte(s, '\n'); nl > 0 {
			s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s[nl+1:]), "```"))
		}
	}
	if rest, ok := strings.CutPrefix(s, NoSkill); ok {
		reason := strings.TrimSpace(strings.TrimLeft(rest, ":- "))
		if reason == "" {
			reason = "(no reason given)"
		}
		return Answer{NoSkill: true, Reason: reason}, nil
	}
	sk, err := skills.Parse([]byte(s + "\n"))
	if err != nil {
		return Answer{}, err
	}
	sk.Status, sk.Version = skills.StatusStable, 1
	return Answer{Skill: sk}, nil
}

// Check lists what keeps a generated skill out of the bank: every
// skills.Validate problem that adding it to bank introduces (its own, and
// a near-duplicate reported against an earlier skill), and every tool of
// its sequence outside allowed (the theme's whitelist). None means it
// can join.
func Check(s skills.Skill, bank []skills.Skill, tools, allowed []string) []string {
	before := map[string]bool{}
	for _, p := range skills.Validate(bank, tools) {
		before[p.String()] = true
	}
	var out []string
	for _, p := range skills.Validate(append(slices.Clone(bank), s), tools) {
		if !before[p.String()] {
			out = append(out, p.String())
		}
	}
	for _, t := range s.Tools() {
		if slices.Contains(tools, t) && !slices.Contains(allowed, t) {
			out = append(out, fmt.Sprintf("%s: tool_sequence names %q, which is not among the allowed tools for this theme", s.Name, t))
		}
	}
	return out
}

// retryUser is the follow-up message after a refused answer.
func retryUser(problems []string) string {
	var b strings.Builder
	b.WriteString("That answer cannot join the bank:\n")
	for _, p := range problems {
		fmt.Fprintf(&b, "- %s\n", p)
	}
	fmt.Fprintf(&b, "Send the corrected SKILL.md (the whole file) or the %s line, and nothing else.", NoSkill)
	return b.String()
}

// trimForLog shortens an answer for a report.
func trimForLog(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}
