package retrieval

import (
	"fmt"
	"slices"
	"strings"

	"github.com/acecanvas/ace/internal/route"
	"github.com/acecanvas/ace/internal/skills"
)

// CatalogBudget bounds the catalog text, in o200k tokens (the paper
// bounds it by a token budget it does not give, App. C.3). 1,500 holds
// about 40 skills at gistBytes each; retrieval is said to cost about
// +28% prompt tokens (§5), and ACE's agent request is about 13k.
const CatalogBudget = 1500

// gistBytes bounds one catalog line's description gist.
const gistBytes = 110

// Catalog is the skill catalog for the agent's user message (Designer-RSI
// App. C.3): a heading, one sentence on how to use it, then every skill
// of set as one line "- name: gist" (the description's first trigger
// phrases, cut at a comma within 110 bytes), the starred skills first in
// the order given (Result.Starred: by score) and marked "*" ("- * name: gist"), the others by name.
// Lines are added while the text stays within budget o200k tokens (0 =
// CatalogBudget); a last line counts the skills left out. An empty set
// gives "".
func Catalog(set []skills.Skill, starred []string, budget int) string {
	if len(set) == 0 {
		return ""
	}
	if budget <= 0 {
		budget = CatalogBudget
	}
	byName := map[string]skills.Skill{}
	for _, s := range set {
		byName[s.Name] = s
	}
	rest := make([]string, 0, len(set))
	for _, s := range set {
		if !slices.Contains(starred, s.Name) {
			rest = append(rest, s.Name)
		}
	}
	slices.Sort(rest)
	var b strings.Builder
	b.WriteString("# Skills\nProcedures for kinds of deck edit, one per line. ")
	if len(starred) > 0 {
		b.WriteString("Those marked * match this request: read one with load_skill(name) before you edit, and follow its steps where they fit the deck.\n")
	} else {
		b.WriteString("None matched this request closely; read one with load_skill(name) if it fits what you are about to do.\n")
	}
	used := tokens(b.String())
	left := 0
	add := func(name string, star bool) {
		s, ok := byName[name]
		if !ok {
			return
		}
		mark := ""
		if star {
			mark = "* "
		}
		line := fmt.Sprintf("- %s%s: %s\n", mark, s.Name, Gist(s.Description))
		if n := tokens(line); left == 0 && used+n <= budget {
			b.WriteString(line)
			used += n
			return
		}
		left++
	}
	for _, n := range starred {
		add(n, true)
	}
	for _, n := range rest {
		add(n, false)
	}
	if left > 0 {
		fmt.Fprintf(&b, "(%d more skills not listed.)\n", left)
	}
	return strings.TrimRight(b.String(), "\n")
}

// Gist is the start of a description for the catalog: its phrases up to
// the last comma within 110 bytes (the first 110 bytes cut at a word when
// no comma is that early).
func Gist(desc string) string {
	desc = strings.Join(strings.Fields(desc), " ")
	if len(desc) <= gistBytes {
		return desc
	}
	if cut := strings.LastIndex(desc[:gistBytes], ","); cut >= 30 {
		return desc[:cut]
	}
	return clip(desc, gistBytes) + "..."
}

// tokens counts o200k tokens (the encoder is compiled in; a rough bound
// of 1 token per 3 bytes if it ever fails).
func tokens(s string) int {
	n, err := route.CountTokens(s, route.O200K)
	if err != nil {
		return len(s)/3 + 1
	}
	return n
}
