package retrieval

import (
	"slices"
	"strings"

	"github.com/acecanvas/ace/internal/skills"
)

// Retrieval parameters (Designer-RSI App. C.2, spec A2 "Retrieval").
const (
	// Tau is the score a skill must reach to be starred.
	Tau = 0.2
	// WithinTop: a starred skill scores at least this share of the top
	// score.
	WithinTop = 0.6
	// MinStarred and MaxStarred bound the starred skills before
	// prerequisites: "flag 2-4 skills".
	MinStarred = 2
	MaxStarred = 4
	// NameBonus is added to an operation's score when one of its tokens
	// is a token of the skill's name (the paper's name-match bonus, size
	// unspecified). 0.1 lifts a named skill above an equal overlap
	// without letting a name alone (score 0.1) clear Tau.
	NameBonus = 0.1
)

// Score scores every skill of bank against the operations (Designer-RSI
// App. C.2 Eq. 2): for each operation q, |tok(q) ∩ tok(desc)| / |tok(q)|
// (skills.Overlap over skills.Tokens), plus NameBonus when a token of q
// is a token of the skill's name, capped at 1; a skill's score is its
// best operation's. The result has one entry per skill, none starred,
// ordered by score (highest first); equal scores are ordered by how many
// of the skill's name tokens the scoring operation holds (the cap at 1
// would otherwise erase the name bonus exactly where two descriptions
// both hold every token of an operation: "delete slides" names
// slide-structure, not find-and-replace-text), then by name. It scores
// every skill it is given, whatever its status: the caller passes the
// set the request is offered (Bank.Offered, the stable skills; the
// replay gate's arm, a candidate).
func Score(ops []string, bank []skills.Skill) []skills.Scored {
	opToks := make([][]string, len(ops))
	for i, op := range ops {
		opToks[i] = skills.Tokens(op)
	}
	type ranked struct {
		skills.Scored
		nameHits int
	}
	out := make([]ranked, 0, len(bank))
	for _, s := range bank {
		desc := skills.Tokens(s.Description)
		name := skills.Tokens(s.Name)
		r := ranked{Scored: skills.Scored{Name: s.Name, Version: s.Version}}
		for i, q := range opToks {
			hits := 0
			for _, t := range q {
				if slices.Contains(name, t) {
					hits++
				}
			}
			v := skills.Overlap(q, desc)
			if hits > 0 {
				v += NameBonus
			}
			v = min(v, 1)
			if v > r.Score || (v == r.Score && v > 0 && hits > r.nameHits) {
				r.Score, r.Operation, r.nameHits = v, ops[i], hits
			}
		}
		out = append(out, r)
	}
	slices.SortStableFunc(out, func(a, b ranked) int {
		switch {
		case a.Score != b.Score:
			if a.Score > b.Score {
				return -1
			}
			return 1
		case a.nameHits != b.nameHits:
			return b.nameHits - a.nameHits
		}
		return strings.Compare(a.Name, b.Name)
	})
	sc := make([]skills.Scored, len(out))
	for i, r := range out {
		sc[i] = r.Scored
	}
	return sc
}

// Flag stars the matches among scored (Score's order) and returns a copy
// with Starred set. The rule (Designer-RSI App. C.2, written down because
// the paper's three conditions are ambiguous; the name match is a bonus
// in Score, not a requirement):
//
//  1. A skill clears when its score is >= Tau and >= WithinTop x the top
//     score.
//  2. The clearing skills are starred in score order, at most MaxStarred.
//  3. When fewer than MinStarred cleared, the next best skills whose score
//     is >= Tau (but below WithinTop x top) are starred until MinStarred
//     are: a weaker second match is still worth offering, never one under
//     Tau.
//  4. Each starred skill's prerequisites (skills.Skill.Prerequisites,
//     looked up in bank) are starred too, one hop, whatever their score
//     and beyond the cap; a prerequisite not in scored (not offered) is
//     skipped.
//
// Nothing clears Tau: nothing is starred, a coverage gap (Covered).
func Flag(scored []skills.Scored, bank []skills.Skill) []skills.Scored {
	out := slices.Clone(scored)
	if len(out) == 0 || out[0].Score < Tau {
		return out
	}
	top := out[0].Score
	n := 0
	for i := range out {
		if n < MaxStarred && out[i].Score >= Tau && out[i].Score >= WithinTop*top {
			out[i].Starred = true
			n++
		}
	}
	for i := range out {
		if n >= MinStarred {
			break
		}
		if !out[i].Starred && out[i].Score >= Tau {
			out[i].Starred = true
			n++
		}
	}
	byName := map[string]skills.Skill{}
	for _, s := range bank {
		byName[s.Name] = s
	}
	var pre []string
	for _, sc := range out {
		if sc.Starred {
			pre = append(pre, byName[sc.Name].Prerequisites...)
		}
	}
	for i := range out {
		if !out[i].Starred && slices.Contains(pre, out[i].Name) {
			out[i].Starred = true
		}
	}
	return out
}

// Starred are the names of the starred skills, in scored's order.
func Starred(scored []skills.Scored) []string {
	var out []string
	for _, s := range scored {
		if s.Starred {
			out = append(out, s.Name)
		}
	}
	return out
}

// Covered reports whether some skill is starred; false is a coverage gap
// (Designer-RSI App. C.3: a turn with no starred match is recorded as an
// uncovered gap).
func Covered(scored []skills.Scored) bool {
	return slices.ContainsFunc(scored, func(s skills.Scored) bool { return s.Starred })
}
