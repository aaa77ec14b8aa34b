package coldstart

import (
	"slices"
	"strings"

	"github.com/acecanvas/ace/internal/skills"
)

// Page assignment (Designer-RSI App. G step 2: no model, the runtime
// tokenizer). The paper leaves the number of pages per theme open; these
// are ours.
const (
	// PagesPerTheme is N: a theme gets at most its N best pages. Eight
	// tool pages are about what one procedure of 5-10 tools can draw on.
	PagesPerTheme = 8
	// MinPageScore is the least score a page needs to be given to a
	// theme: below it the page shares only a word or two with the theme.
	MinPageScore = 0.15
	// RelativeCut keeps a page only when its score is at least this
	// fraction of the theme's best page's, so a theme with one obvious
	// page (equations: create_math) is not padded with chance matches.
	RelativeCut = 0.4
	// TitleWeight scales the title bonus: a page whose title words are
	// the theme's words is about the theme even when its text is short.
	// Without it a one-line tool page (set_series_color, set_stroke) lost
	// to long pages that merely list many words (the recipe selector
	// table) in the first real seeding run.
	TitleWeight = 0.3
)

// genericTitleWords are tool-name verbs that name no operation; they
// earn no title bonus (create_rectangle is not about "create a chart").
var genericTitleWords = map[string]bool{"set": true, "get": true, "creat": true, "add": true}

// titleShare is the share of a page title's words (generic verbs left
// out) that the theme's tokens hold: 0 for a title of generic words only.
func titleShare(title string, theme map[string]bool) float64 {
	n, in := 0, 0
	for _, t := range skills.Tokens(title) {
		if genericTitleWords[t] {
			continue
		}
		n++
		if theme[t] {
			in++
		}
	}
	if n == 0 {
		return 0
	}
	return float64(in) / float64(n)
}

// PageScore is one page given to a theme, with its score.
type PageScore struct {
	Page  string  `json:"page"`
	Score float64 `json:"score"`
}

// Assignment is the pages one theme gets, best first.
type Assignment struct {
	Theme string      `json:"theme"`
	Pages []PageScore `json:"pages"`
}

// ScoreText is the text of a page that assignment tokenizes: its title
// and text, where a tool's own page leaves out its parameter table (the
// parameters every create_* tool shares — parentId, index, x, y — would
// otherwise tie every creating tool to every theme that says "slide").
func ScoreText(p Page) string {
	if len(p.Tools) == 0 || p.Tools[0] != p.Title {
		return p.Title + "\n" + p.Text
	}
	var b strings.Builder
	b.WriteString(p.Title)
	for line := range strings.SplitSeq(p.Text, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "|") {
			b.WriteString("\n")
			b.WriteString(line)
		}
	}
	return b.String()
}

// Assign gives each theme its pages: a page's score is
// skills.Overlap(Tokens(theme.Text()), Tokens(ScoreText(page))), the
// share of the theme's words the page uses, plus TitleWeight times the
// share of the page title's words the theme uses (titleShare); a theme
// keeps, best first
// (ties in page order), at most PagesPerTheme pages scoring at least
// MinPageScore and at least RelativeCut of its best score. It also
// returns the ids of pages no theme took, in page order, for review.
func Assign(themes []Theme, pages []Page) ([]Assignment, []string) {
	pageTok := make([][]string, len(pages))
	for i, p := range pages {
		pageTok[i] = skills.Tokens(ScoreText(p))
	}
	taken := map[string]bool{}
	var out []Assignment
	for _, th := range themes {
		tt := skills.Tokens(th.Text())
		in := map[string]bool{}
		for _, t := range tt {
			in[t] = true
		}
		scored := make([]PageScore, len(pages))
		for i, p := range pages {
			scored[i] = PageScore{Page: p.ID, Score: skills.Overlap(tt, pageTok[i]) + TitleWeight*titleShare(p.Title, in)}
		}
		slices.SortStableFunc(scored, func(a, b PageScore) int {
			switch {
			case a.Score > b.Score:
				return -1
			case a.Score < b.Score:
				return 1
			}
			return 0
		})
		a := Assignment{Theme: th.Name}
		for _, s := range scored {
			if len(a.Pages) == PagesPerTheme || s.Score < MinPageScore || s.Score < RelativeCut*scored[0].Score {
				break
			}
			a.Pages = append(a.Pages, s)
			taken[s.Page] = true
		}
		out = append(out, a)
	}
	var unassigned []string
	for _, p := range pages {
		if !taken[p.ID] {
			unassigned = append(unassigned, p.ID)
		}
	}
	return out, unassigned
}
