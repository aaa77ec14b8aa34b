package skills

import (
	"strings"
	"unicode"
)

// stopwords are left out of token sets: function words that would make
// every description overlap every query. The list is short on purpose;
// retrieval scores operations the distiller already stripped of names and
// adjectives (Designer-RSI App. C.2).
var stopwords = map[string]bool{
	"a": true, "an": true, "the": true, "and": true, "or": true, "of": true, "to": true, "in": true,
	"on": true, "for": true, "with": true, "by": true, "at": true, "from": true, "into": true, "onto": true,
	"is": true, "are": true, "be": true, "it": true, "its": true, "this": true, "that": true, "as": true,
	"all": true, "every": true, "each": true, "some": true, "any": true, "my": true, "our": true, "your": true,
	"me": true, "we": true, "you": true, "i": true, "please": true, "so": true, "than": true, "then": true,
	// Request verbs that name no operation ("make the title bold").
	"make": true, "want": true, "need": true, "should": true, "can": true, "could": true, "would": true,
}

// spellings folds British spellings onto the American ones the tool
// documentation uses, so "colour" in a request meets "color" in a skill.
var spellings = map[string]string{
	"colour": "color", "colours": "colors", "coloured": "colored", "colouring": "coloring",
	"grey": "gray", "centre": "center", "centred": "centered", "organise": "organize", "organised": "organized",
	"recolour": "recolor", "recoloured": "recolored", "recolouring": "recoloring", "emphasise": "emphasize",
	"normalise": "normalize", "summarise": "summarize", "capitalise": "capitalize", "behaviour": "behavior",
}

// Tokens is the tokenizer that seeding, validation and retrieval share
// (Designer-RSI App. G: one tokenizer for both): lowercased runs of
// letters and digits, stopwords dropped, British spellings folded onto
// American ones, inflections
// folded by Stem, without repeats, in order of first appearance.
func Tokens(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if stopwords[w] {
			continue
		}
		if us, ok := spellings[w]; ok {
			w = us
		}
		w = Stem(w)
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// Stem folds a lowercased word's inflections so "tables", "charts",
// "recolouring", "updated" match "table", "chart", "recolour", "update":
// "-ies" -> "-y" (not "series"), "-ing" dropped when 4 or more letters
// stay, "-ed" dropped when 4 or more stay, a final "s" dropped (not "ss",
// "us", "is") when 4 or more stay, then a final "e" dropped when 4 or
// more stay. Stems are only compared, never shown.
func Stem(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies") && w != "series" && w != "species":
		w = w[:len(w)-3] + "y"
	case len(w) >= 7 && strings.HasSuffix(w, "ing"):
		w = w[:len(w)-3]
	case len(w) >= 6 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed"):
		w = w[:len(w)-2]
	case len(w) >= 5 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") &&
		!strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	}
	if len(w) >= 5 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return w
}

// Overlap is |a ∩ b| / |a| over token sets (Designer-RSI Eq. 2 with a
// the query's tokens): 0 when a is empty.
func Overlap(a, b []string) float64 {
	if len(a) == 0 {
		return 0
	}
	in := map[string]bool{}
	for _, t := range b {
		in[t] = true
	}
	n := 0
	for _, t := range a {
		if in[t] {
			n++
		}
	}
	return float64(n) / float64(len(a))
}

// Jaccard is |a ∩ b| / |a ∪ b| over token sets: 1 for equal sets, 0 when
// both are empty.
func Jaccard(a, b []string) float64 {
	set := map[string]int{}
	for _, t := range a {
		set[t] |= 1
	}
	for _, t := range b {
		set[t] |= 2
	}
	if len(set) == 0 {
		return 0
	}
	both := 0
	for _, v := range set {
		if v == 3 {
			both++
		}
	}
	return float64(both) / float64(len(set))
}
