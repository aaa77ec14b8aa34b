package coldstart

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Page is one unit of documentation the seeder clusters and assigns: a
// tool's section of docs/tools.md, or one section of another document
// such as docs/recipes.md (Designer-RSI App. G step 1: "pages" with stable
// ids).
type Page struct {
	// ID is stable across runs while the heading is: the document's base
	// name without ".md", "/", and the heading as a slug that keeps
	// underscores ("tools/align_nodes", "recipes/shape-of-a-file"). The
	// text before the first heading below the title is "DOC/intro".
	ID string `json:"id"`
	// Title is the heading without Markdown marks ("align_nodes",
	// "Shape of a file"); for an intro, the document's "# " title.
	Title string `json:"title"`
	// Text is the section's Markdown below its heading, trimmed.
	Text string `json:"text"`
	// Tools are the tool names the page documents or names, in order of
	// first mention: for a tool's own section its name comes first.
	Tools []string `json:"tools,omitempty"`
}

// Gist is the page's first sentence (at most 160 bytes), the line the
// clustering prompt shows for it: the first paragraph of prose (lines
// joined, code fences, tables and comments skipped), cut after the first
// ". " that a capital letter follows (so "e.g. 16:9" does not end it);
// a page of only a table gives its first body row's cells.
func (p Page) Gist() string {
	text := firstProse(p.Text)
	if text == "" {
		text = firstTableRow(p.Text)
	}
	for i := 0; i+2 < len(text); i++ {
		if text[i] == '.' && text[i+1] == ' ' && unicode.IsUpper(rune(text[i+2])) {
			text = text[:i+1]
			break
		}
	}
	if len(text) > 160 {
		cut := strings.LastIndex(text[:157], " ")
		if cut < 80 {
			cut = 157
		}
		text = text[:cut] + "..."
	}
	return text
}

// firstProse is the first paragraph outside fences, tables, headings and
// HTML comments, its lines joined by spaces.
func firstProse(text string) string {
	var para []string
	fenced := false
	for line := range strings.SplitSeq(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") {
			fenced = !fenced
			if len(para) > 0 {
				break
			}
			continue
		}
		prose := !fenced && t != "" && !strings.HasPrefix(t, "|") && !strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "<!--")
		if prose {
			para = append(para, t)
		} else if len(para) > 0 {
			break
		}
	}
	return strings.Join(para, " ")
}

// firstTableRow is the first row after a table's "|---|" line, its cells
// joined by " - " without backticks.
func firstTableRow(text string) string {
	afterRule := false
	for line := range strings.SplitSeq(text, "\n") {
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(t, "|") {
			continue
		}
		if strings.HasPrefix(t, "|---") || strings.HasPrefix(t, "| ---") {
			afterRule = true
			continue
		}
		if afterRule {
			var cells []string
			for c := range strings.SplitSeq(strings.Trim(t, "|"), "|") {
				if c = strings.TrimSpace(strings.ReplaceAll(c, "`", "")); c != "" {
					cells = append(cells, c)
				}
			}
			return strings.Join(cells, " - ")
		}
	}
	return ""
}

var (
	slugRE      = regexp.MustCompile(`[^a-z0-9_]+`)
	toolMarkRE  = regexp.MustCompile("^`([a-z0-9_]+)`")
	wordRE      = regexp.MustCompile(`[A-Za-z0-9_]+`)
	readOnlyTag = regexp.MustCompile(`\s*\*\(read-only\)\*\s*$`)
)

// SplitMarkdown cuts one Markdown document into pages at its "## " and
// "### " headings (headings inside ``` fences are text). doc names the
// document ("docs/tools.md"); its base name without ".md" prefixes the
// ids. A section whose text is empty (a "## module" heading directly
// followed by its first "### " tool) is no page. tools are the known tool
// names: a page lists those its heading or text names as whole words.
// It fails on a document with no heading to split at.
func SplitMarkdown(doc string, markdown string, tools []string) ([]Page, error) {
	base := strings.TrimSuffix(filepath.Base(doc), filepath.Ext(doc))
	prefix := slugRE.ReplaceAllString(strings.ToLower(base), "-")
	known := map[string]bool{}
	for _, t := range tools {
		known[t] = true
	}
	type section struct {
		heading string
		body    strings.Builder
	}
	var secs []*section
	title := ""
	cur := &section{} // the intro, before the first "## "
	secs = append(secs, cur)
	fenced := false
	for line := range strings.SplitSeq(strings.ReplaceAll(markdown, "\r\n", "\n"), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
		}
		if !fenced {
			if h, ok := strings.CutPrefix(line, "# "); ok && title == "" {
				title = strings.TrimSpace(h)
				continue
			}
			h, ok := strings.CutPrefix(line, "## ")
			if !ok {
				h, ok = strings.CutPrefix(line, "### ")
			}
			if ok {
				cur = &section{heading: strings.TrimSpace(h)}
				secs = append(secs, cur)
				continue
			}
		}
		cur.body.WriteString(line)
		cur.body.WriteString("\n")
	}
	if len(secs) == 1 {
		return nil, fmt.Errorf("%s: no \"## \" or \"### \" heading to split the document into pages at", doc)
	}
	var pages []Page
	ids := map[string]int{}
	for _, s := range secs {
		text := strings.TrimSpace(s.body.String())
		if text == "" || strings.HasPrefix(text, "<!--") && strings.HasSuffix(text, "-->") && !strings.Contains(text, "\n") {
			continue
		}
		p := Page{Text: text}
		slug := "intro"
		if s.heading == "" {
			p.Title = title
			if p.Title == "" {
				p.Title = base
			}
		} else {
			h := readOnlyTag.ReplaceAllString(s.heading, "")
			if m := toolMarkRE.FindStringSubmatch(h); m != nil && known[m[1]] {
				p.Tools = []string{m[1]}
			}
			p.Title = strings.TrimSpace(strings.ReplaceAll(h, "`", ""))
			slug = strings.Trim(slugRE.ReplaceAllString(strings.ToLower(p.Title), "-"), "-")
		}
		id := prefix + "/" + slug
		if ids[id]++; ids[id] > 1 {
			id = fmt.Sprintf("%s-%d", id, ids[id])
		}
		p.ID = id
		for _, w := range wordRE.FindAllString(text, -1) {
			if known[w] && !slices.Contains(p.Tools, w) {
				p.Tools = append(p.Tools, w)
			}
		}
		pages = append(pages, p)
	}
	return pages, nil
}

// Dedup drops pages whose text repeats an earlier page's (Designer-RSI
// App. G: the docs are deduplicated before clustering), keeping the first,
// and fails when two pages share an id (two documents with the same base
// name).
func Dedup(pages []Page) ([]Page, error) {
	seenText := map[string]bool{}
	seenID := map[string]bool{}
	var out []Page
	for _, p := range pages {
		if seenID[p.ID] {
			return nil, fmt.Errorf("two pages have the id %q: give the documents different file names", p.ID)
		}
		seenID[p.ID] = true
		key := strings.Join(strings.Fields(p.Text), " ")
		if seenText[key] {
			continue
		}
		seenText[key] = true
		out = append(out, p)
	}
	return out, nil
}
