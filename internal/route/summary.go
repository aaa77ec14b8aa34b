package route

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// SlideSummary is what the router knows of one slide beyond its title:
// the kinds of content it holds, so a reference by content ("the first
// table", "the chart slide", "the slide with the photo of the temple")
// resolves without the whole scene graph (issue 17, item 1).
type SlideSummary struct {
	Num   int    // 1-based position
	Name  string // meaningful slide name, "" when it only restates the position
	Title string // title placeholder text, else the first text; whitespace folded
	// Untitled: Title is only the slide's first text, in a deck whose
	// other slides have title placeholders (set by UserPrompt).
	Untitled bool
	// Tables are "rows x columns" per table, in paint order, with the
	// first row's cells when they hold text: `5x4 (Region | Q1 | Q2 | Q3 …)`
	// (two tables of one size are told apart by their headers).
	Tables []string
	// Charts are the chart types in lower case ("pie", "column").
	Charts []string
	// Pictures are the images' meaningful alt texts or layer names ("" when
	// neither says anything), one entry per picture.
	Pictures  []string
	SmartArt  int
	Equations int
	Notes     bool
}

// smartArtPrefix names the root FRAME create_smartart builds.
const smartArtPrefix = "SmartArt/"

// Summarize reports what slide s (at 0-based position i) holds.
func Summarize(s *scenegraph.Node, i int) SlideSummary {
	sum := SlideSummary{Num: i + 1, Name: meaningfulName(s.Name, i), Title: strings.Join(strings.Fields(s.SlideTitle()), " ")}
	if sum.Name == sum.Title {
		sum.Name = ""
	}
	if s.Slide != nil && strings.TrimSpace(s.Slide.Notes) != "" {
		sum.Notes = true
	}
	for _, k := range s.Children {
		if k == nil {
			continue
		}
		k.Walk(func(n, _ *scenegraph.Node, _ int) bool {
			switch {
			case n.Table != nil:
				t := fmt.Sprintf("%dx%d", len(n.Table.Rows), len(n.Table.Columns))
				if h := tableHeader(n); h != "" {
					t += " (" + h + ")"
				}
				sum.Tables = append(sum.Tables, t)
				return false
			case n.Chart != nil:
				sum.Charts = append(sum.Charts, strings.ToLower(n.Chart.ChartType))
				return false
			case n.Math != nil:
				sum.Equations++
				return false
			case strings.HasPrefix(n.Name, smartArtPrefix):
				sum.SmartArt++
				return false
			case isPicture(n):
				label := strings.Join(strings.Fields(n.AltText), " ")
				if label == "" {
					label = nodeName(n.Name)
				}
				sum.Pictures = append(sum.Pictures, clip(label, 40))
			}
			return true
		})
	}
	return sum
}

func isPicture(n *scenegraph.Node) bool {
	if n.Type == scenegraph.TypeImage {
		return true
	}
	if n.Type == scenegraph.TypeSlide || n.Type == scenegraph.TypeText {
		return false
	}
	for _, p := range n.Fills {
		if p.Type == scenegraph.PaintImage && p.IsVisible() {
			return true
		}
	}
	return false
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// String renders the summary as one line of the router prompt:
// `6. Pricing | table 4x3 | chart pie | 2 pictures ("team photo") | notes`.
func (s SlideSummary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d. ", s.Num)
	if s.Name != "" {
		b.WriteString(s.Name + ": ")
	}
	switch title := clip(s.Title, 80); {
	case title == "":
		b.WriteString("(no title)")
	case s.Untitled:
		fmt.Fprintf(&b, "(no title; first text %q)", title)
	default:
		b.WriteString(title)
	}
	if len(s.Tables) > 0 {
		b.WriteString(" | " + plural(len(s.Tables), "table") + " " + strings.Join(s.Tables, ", "))
	}
	if len(s.Charts) > 0 {
		b.WriteString(" | " + plural(len(s.Charts), "chart") + " " + strings.Join(s.Charts, ", "))
	}
	if len(s.Pictures) > 0 {
		b.WriteString(" | " + countOf(len(s.Pictures), "picture"))
		var labels []string
		for _, p := range s.Pictures {
			if p != "" && len(labels) < 3 {
				labels = append(labels, fmt.Sprintf("%q", p))
			}
		}
		if len(labels) > 0 {
			b.WriteString(" (" + strings.Join(labels, ", ") + ")")
		}
	}
	if s.SmartArt > 0 {
		b.WriteString(" | " + countOf(s.SmartArt, "SmartArt diagram"))
	}
	if s.Equations > 0 {
		b.WriteString(" | " + countOf(s.Equations, "equation"))
	}
	if s.Notes {
		b.WriteString(" | notes")
	}
	return b.String()
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func countOf(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// Content kinds a reference may name, with the words people use for them.
const (
	kindTable    = "table"
	kindChart    = "chart"
	kindPicture  = "picture"
	kindSmartArt = "smartart"
	kindEquation = "equation"
	kindNotes    = "notes"
)

var kindWords = map[string]string{
	"table": kindTable, "tables": kindTable, "grid": kindTable,
	"chart": kindChart, "charts": kindChart, "graph": kindChart, "graphs": kindChart, "plot": kindChart,
	"picture": kindPicture, "pictures": kindPicture, "photo": kindPicture, "photos": kindPicture,
	"image": kindPicture, "images": kindPicture, "photograph": kindPicture, "pic": kindPicture,
	"smartart": kindSmartArt, "diagram": kindSmartArt,
	"equation": kindEquation, "equations": kindEquation, "formula": kindEquation, "formulas": kindEquation, "math": kindEquation,
	"notes": kindNotes,
}

const kindPat = `tables?|grid|charts?|graphs?|plot|pictures?|photos?|photograph|images?|pic|smartart|diagram|equations?|formulas?|math|(?:speaker\s+)?notes`

var (
	// "the first table", "the second pie chart", "the last photo"
	reOrdinalKind = regexp.MustCompile(`\b(` + ordPat + `|last|final)\s+((?:[a-z]+\s+)?)(` + kindPat + `)\b`)
	// "the slide with the chart", "the slide that has a pie chart",
	// "the slide containing the photo of the temple"
	reSlideWithKind = regexp.MustCompile(`\bslide\s+(?:with|that\s+(?:has|holds|shows|contains)|containing|showing|holding|where)\s+(?:the\s+|a\s+|an\s+|its\s+|our\s+)?((?:[a-z]+\s+)?)(` + kindPat + `)(?:\s+(?:of|showing|with)\s+(?:the\s+|a\s+|an\s+)?([a-z][a-z0-9'’\-]*(?:\s+[a-z][a-z0-9'’\-]*){0,2}))?`)
	// "the chart slide", "the pie chart slide", "the table slide"
	reKindSlide = regexp.MustCompile(`\b(?:the|on|in|to)\s+((?:[a-z]+\s+)?)(` + kindPat + `)\s+slide\b`)
	// "the photo of the temple", "the picture of the camera"
	// "the doughnut chart", "the table": a definite reference, resolved
	// only when exactly one slide holds such a thing
	reTheKind = regexp.MustCompile(`\bthe\s+((?:[a-z]+\s+)?)(` + kindPat + `)\b`)
	rePhotoOf = regexp.MustCompile(`\b(?:photo|picture|image|photograph|pic)\s+(?:of|showing)\s+(?:the\s+|a\s+|an\s+)?([a-z][a-z0-9'’\-]*(?:\s+[a-z][a-z0-9'’\-]*){0,2})`)
)

// chartTypeWords maps a chart adjective to the scene graph's chart types.
var chartTypeWords = map[string][]string{
	"pie": {"pie", "doughnut"}, "doughnut": {"doughnut"}, "donut": {"doughnut"}, "bar": {"bar", "column"},
	"column": {"column", "bar"}, "line": {"line"}, "area": {"area"}, "scatter": {"scatter"},
	"bubble": {"bubble"}, "radar": {"radar"},
}

// kindRefs resolves references by content kind against the slide
// summaries. It returns 1-based slides, or nil when the instruction names
// no kind the deck can answer (or too many slides match to tell).
func kindRefs(lower string, sums []SlideSummary) []int {
	var out []int
	for _, m := range reOrdinalKind.FindAllStringSubmatch(lower, -1) {
		kind := kindOf(m[3])
		adj := strings.TrimSpace(m[2])
		var occ []int // one entry per matching object, in deck order
		for _, s := range sums {
			for range s.count(kind, adj, "") {
				occ = append(occ, s.Num)
			}
		}
		if len(occ) == 0 {
			continue
		}
		k := parseOrd(m[1])
		if m[1] == "last" || m[1] == "final" {
			k = len(occ)
		}
		if k >= 1 && k <= len(occ) {
			out = append(out, occ[k-1])
		}
	}
	if len(out) > 0 {
		return out
	}
	var subjects []string
	for _, m := range rePhotoOf.FindAllStringSubmatch(lower, -1) {
		subjects = append(subjects, m[1])
	}
	// try adds the slides holding kind; a subject ("temple so it fits")
	// may run past its noun, so its leading one to three words are tried,
	// longest first.
	try := func(kind, adj, subject string) {
		words := strings.Fields(subject)
		for k := len(words); k >= 0; k-- {
			if k == 0 && len(words) > 0 {
				return // a subject that matches nothing names no slide
			}
			var hits []int
			for _, s := range sums {
				if s.count(kind, adj, strings.Join(words[:k], " ")) > 0 {
					hits = append(hits, s.Num)
				}
			}
			if len(hits) > 0 && len(hits) <= 3 {
				out = append(out, hits...)
				return
			}
		}
	}
	for _, m := range reSlideWithKind.FindAllStringSubmatch(lower, -1) {
		subject := m[3]
		if subject == "" && len(subjects) > 0 {
			subject = subjects[0]
		}
		try(kindOf(m[2]), strings.TrimSpace(m[1]), subject)
	}
	for _, m := range reKindSlide.FindAllStringSubmatch(lower, -1) {
		try(kindOf(m[2]), strings.TrimSpace(m[1]), "")
	}
	if len(out) == 0 {
		for _, sub := range subjects {
			try(kindPicture, "", sub)
		}
	}
	if len(out) == 0 {
		for _, m := range reTheKind.FindAllStringSubmatch(lower, -1) {
			var hits []int
			for _, s := range sums {
				if s.count(kindOf(m[2]), strings.TrimSpace(m[1]), "") > 0 {
					hits = append(hits, s.Num)
				}
			}
			if len(hits) == 1 {
				out = append(out, hits[0])
			}
		}
	}
	return out
}

func kindOf(word string) string {
	word = strings.Join(strings.Fields(word), " ")
	if strings.HasSuffix(word, "notes") {
		return kindNotes
	}
	return kindWords[word]
}

// count returns how many objects of kind the slide holds that fit the
// adjective (a chart type: "pie") and the subject (words a picture's label
// or the slide's title and text must contain: "photo of the temple").
func (s SlideSummary) count(kind, adj, subject string) int {
	switch kind {
	case kindTable:
		return len(s.Tables)
	case kindChart:
		types, ok := chartTypeWords[adj]
		n := 0
		for _, c := range s.Charts {
			if !ok {
				n++
				continue
			}
			for _, t := range types {
				if c == t {
					n++
					break
				}
			}
		}
		return n
	case kindPicture:
		if subject == "" {
			return len(s.Pictures)
		}
		if len(s.Pictures) == 0 {
			return 0
		}
		words := contentWords(subject)
		if len(words) == 0 {
			return len(s.Pictures)
		}
		n := 0
		for _, p := range s.Pictures {
			if containsAll(strings.ToLower(p+" "+s.Title+" "+s.Name), words) {
				n++
			}
		}
		return n
	case kindSmartArt:
		return s.SmartArt
	case kindEquation:
		return s.Equations
	case kindNotes:
		if s.Notes {
			return 1
		}
	}
	return 0
}

func contentWords(p string) []string {
	var keep []string
	for _, w := range strings.Fields(p) {
		if !stopWord[w] {
			keep = append(keep, w)
		}
	}
	return keep
}

func containsAll(text string, words []string) bool {
	if len(words) == 0 {
		return false
	}
	for _, w := range words {
		if !strings.Contains(text, w) && !strings.Contains(text, strings.TrimSuffix(w, "s")) {
			return false
		}
	}
	return true
}

// Summaries summarizes every slide of d (nil slides are skipped).
func Summaries(d *scenegraph.Deck) []SlideSummary {
	out := make([]SlideSummary, 0, len(d.Slides))
	for i, s := range d.Slides {
		if s != nil {
			out = append(out, Summarize(s, i))
		}
	}
	return out
}

// Header bounds in the router summary: cells shown and runes per cell.
const (
	headerCells = 4
	headerRunes = 20
)

// tableHeader is the text of a table's first-row cells in column order,
// "A | B | C | D …" (at most headerCells, each cut to headerRunes); ""
// when the first row has no text.
func tableHeader(table *scenegraph.Node) string {
	var cells []*scenegraph.Node
	for _, c := range table.Children {
		if c != nil && c.Cell != nil && c.Cell.Row == 0 {
			cells = append(cells, c)
		}
	}
	sort.SliceStable(cells, func(i, j int) bool { return cells[i].Cell.Column < cells[j].Cell.Column })
	var parts []string
	hasText := false
	for i, c := range cells {
		if i == headerCells {
			parts = append(parts, "…")
			break
		}
		t := clip(strings.Join(strings.Fields(c.Characters), " "), headerRunes)
		hasText = hasText || t != ""
		parts = append(parts, t)
	}
	if !hasText {
		return ""
	}
	return strings.Join(parts, " | ")
}
