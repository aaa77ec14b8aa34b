package skills

import (
	"fmt"
	"slices"
	"strings"
)

// NearDuplicate is the Jaccard similarity of two skills' description
// token sets at or above which they are near-duplicates. The paper leaves
// its threshold unspecified (App. G step 4); 0.6 flags two descriptions
// that share most of their trigger words, which is what would make
// retrieval star both for the same request.
const NearDuplicate = 0.6

// Problem is one rule a skill breaks, as Validate reports it.
type Problem struct {
	Skill   string `json:"skill"`
	Message string `json:"message"`
}

func (p Problem) String() string { return p.Skill + ": " + p.Message }

// Validate checks a bank (Designer-RSI App. G step 4, no model): each
// skill has a kebab-case name, a description of MinDescription to
// MaxDescription bytes, a tool sequence of 1 to MaxToolSequence names that
// all exist in tools, prerequisites that are other skills of the bank, a
// valid status, a version >= 1 and all five body sections in order and
// non-empty; no two skills share a name; no two offered skills are
// near-duplicates (NearDuplicate). It returns every problem, in bank
// order; none means the bank is valid.
func Validate(bank []Skill, tools []string) []Problem {
	var out []Problem
	add := func(s Skill, format string, args ...any) {
		out = append(out, Problem{Skill: s.Name, Message: fmt.Sprintf(format, args...)})
	}
	names := map[string]int{}
	for _, s := range bank {
		names[s.Name]++
	}
	for _, s := range bank {
		if !ValidName(s.Name) {
			add(s, "name is not kebab-case (lowercase words joined by \"-\", at most 64 bytes)")
		}
		if names[s.Name] > 1 {
			add(s, "%d skills have this name", names[s.Name])
		}
		if n := len(s.Description); n < MinDescription || n > MaxDescription {
			add(s, "description is %d bytes; write %d-%d bytes of trigger phrases", n, MinDescription, MaxDescription)
		}
		if n := len(s.ToolSequence); n == 0 || n > MaxToolSequence {
			add(s, "tool_sequence has %d tools; name 1-%d", n, MaxToolSequence)
		}
		for _, t := range s.ToolSequence {
			if !slices.Contains(tools, t) {
				add(s, "tool_sequence names %q, which is not an ACE tool (see docs/tools.md)", t)
			}
		}
		for _, p := range s.Prerequisites {
			if p == s.Name || names[p] == 0 {
				add(s, "prerequisite %q is not another skill of the bank", p)
			}
		}
		if !s.Status.Valid() {
			add(s, "status %q is not candidate, stable or deprecated", s.Status)
		}
		if s.Version < 1 {
			add(s, "version %d: versions start at 1", s.Version)
		}
		out = append(out, bodyProblems(s)...)
	}
	for i, a := range bank {
		if !a.Offered() {
			continue
		}
		ta := Tokens(a.Description)
		for _, b := range bank[i+1:] {
			if !b.Offered() || a.Name == b.Name {
				continue
			}
			if j := Jaccard(ta, Tokens(b.Description)); j >= NearDuplicate {
				add(a, "description is a near-duplicate of %s's (token Jaccard %.2f >= %.2f); merge them or sharpen the trigger phrases", b.Name, j, NearDuplicate)
			}
		}
	}
	return out
}

// bodyProblems checks the five sections: present, non-empty, in order.
func bodyProblems(s Skill) []Problem {
	var out []Problem
	var headings []string
	for line := range strings.SplitSeq(s.Body, "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			headings = append(headings, strings.ToLower(strings.TrimSpace(h)))
		}
	}
	secs := sectionsOf(s.Body)
	last := -1
	for _, sec := range Sections {
		key := strings.ToLower(string(sec))
		i := slices.Index(headings, key)
		switch {
		case i < 0:
			out = append(out, Problem{s.Name, fmt.Sprintf("body has no \"## %s\" section", sec)})
		case secs[key] == "":
			out = append(out, Problem{s.Name, fmt.Sprintf("section \"## %s\" is empty", sec)})
		case i < last:
			out = append(out, Problem{s.Name, fmt.Sprintf("section \"## %s\" is out of order (want %s)", sec, sectionList())})
		default:
			last = i
		}
	}
	return out
}

func sectionList() string {
	var b []string
	for _, s := range Sections {
		b = append(b, string(s))
	}
	return strings.Join(b, ", ")
}
