// Package report writes what a person reads after an edit: one
// self-contained HTML page per edited deck (instruction or recipe, before
// and after pictures of each changed slide side by side, the JsonDiff tree,
// each iteration's score, critique and gate, expectations, violations,
// tokens, cost and timings) and an index page over a batch. Pictures are
// embedded as data: URIs so a page can be mailed or archived as one file;
// all deck text is escaped by html/template.
package report

import (
	"bytes"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/acecanvas/ace/internal/fonts"
	"github.com/acecanvas/ace/internal/policy"
)

// Edit is everything one page shows. Fields left empty are omitted.
type Edit struct {
	Deck        string // deck file name
	Output      string // where the edited deck was written
	Instruction string
	Recipe      string   // recipe name, for recipe edits
	RecipeSteps []string // what the recipe does, one line per step (its description first)
	Outcome     string   // a policy.Outcome
	Reason      string
	Slides      []SlidePair
	DiffText    string  // the JsonDiff tree the judge read
	DiffEntries int     // distinct edits d
	Similarity  float64 // 1 - d/(d+100)
	Iterations  []Iteration
	Checks      []Check  // recipe expectations
	Violations  []string // geometry violations of the final deck that the original lacked
	// Rejected are slides of attempts the geometry gate refused, as the
	// loop rendered them, with the violations outlined (at most
	// MaxRejected); Reverted the slides the per-slide gate put back.
	Rejected []Rejected
	Reverted []Reverted
	Warnings []string
	// Fonts are the faces the final deck's text names, as this machine
	// draws them (fonts.Used): installed, or substituted and by what.
	Fonts   []fonts.Face
	Usage   Usage
	Timings []Timing // per step, in order
	Started time.Time
	// Timeline is the agent's steps, waivers and issue ledger (nil for an
	// edit without steps or issues).
	Timeline *Timeline
	// Skills is what the skill bank did for the edit (nil: skills off).
	Skills *Skills
}

// Skills is the skill bank's part in an edit (Designer-RSI retrieval and
// injection): the operations the instruction was distilled into, the
// skills retrieval starred (best first) and those the agent read.
type Skills struct {
	Operations []string
	// Fallback says why the operations are the instruction's sentences.
	Fallback string
	// Starred are the starred skills, best first; Loaded every skill the
	// agent read with load_skill, starred or not, in the order it did.
	Starred []SkillUse
	Loaded  []string
	// Covered is false when nothing was starred: a coverage gap the
	// evolve loop may mint a skill for.
	Covered bool
	// Offered is how many skills the catalog listed.
	Offered int
}

// SkillUse is one starred skill: its version, its retrieval score (0-1)
// with the operation that scored it, and whether the agent read it.
type SkillUse struct {
	Name      string
	Version   int
	Score     float64
	Operation string
	Loaded    bool
}

// SlidePair is one changed slide before and after (PNG bytes).
type SlidePair struct {
	Number int // 1-based
	Title  string
	Before []byte
	After  []byte
	Note   string // e.g. "added", "removed"
}

// Iteration is one turn of the loop.
type Iteration struct {
	N             int
	Score         *float64 // IF 0..5; nil when no judge ran
	VQ            *float64
	Critique      string
	GatePassed    bool
	NewViolations []string
	Decision      string // stop | continue | rollback
	Tokens        int
	CostUSD       float64
	Duration      time.Duration
	Selected      bool // returned by strict-peak selection
}

// Check is one recipe expectation's result.
type Check struct {
	Name    string
	Passed  bool
	Message string
}

// Usage totals model use for the edit.
type Usage struct {
	Calls            int
	PromptTokens     int
	CachedTokens     int
	CompletionTokens int
	CostUSD          float64
}

// Timing is one step's wall time.
type Timing struct {
	Step     string
	Duration time.Duration
}

//go:embed edit.html.tmpl
var editTmplText string

//go:embed index.html.tmpl
var indexTmplText string

var funcs = template.FuncMap{
	"png": func(b []byte) template.URL {
		if len(b) == 0 {
			return ""
		}
		return template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(b))
	},
	"score": func(s *float64) string {
		if s == nil {
			return "–"
		}
		return fmt.Sprintf("%.1f", *s)
	},
	"usd": func(v float64) string { return fmt.Sprintf("$%.4f", v) },
	"dur": func(d time.Duration) string {
		if d >= time.Second {
			return fmt.Sprintf("%.2f s", d.Seconds())
		}
		return fmt.Sprintf("%d ms", d.Milliseconds())
	},
	"pct": func(f float64) string { return fmt.Sprintf("%.1f%%", f*100) },
	// outcomeClass is the badge of an outcome (policy.Outcome.Badge, the
	// one mapping); rows still running or queued are "warn".
	"outcomeClass": func(o string) string {
		if out, ok := policy.ParseOutcome(o); ok {
			return out.Badge()
		}
		switch o {
		case "pending", "running", "queued":
			return "warn"
		}
		return "bad"
	},
	// outcomeWords is an outcome in a few words (policy.Outcome.Wording).
	"outcomeWords": func(o string) string {
		if out, ok := policy.ParseOutcome(o); ok {
			return out.Wording()
		}
		return o
	},
	"join": strings.Join,
}

var (
	editTmpl  = template.Must(template.Must(template.New("edit").Funcs(funcs).Parse(editTmplText)).Parse(styleTmplText))
	indexTmpl = template.Must(template.New("index").Funcs(funcs).Parse(indexTmplText))
)

// WriteEdit writes the page of one edit.
func WriteEdit(w io.Writer, e Edit) error {
	var buf bytes.Buffer
	if err := editTmpl.Execute(&buf, e); err != nil {
		return fmt.Errorf("report for %s: %w", e.Deck, err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// Row is one deck of a batch on the index page.
type Row struct {
	Deck      string
	Page      string // relative link to the deck's page
	Output    string
	Outcome   string
	Reason    string
	Changed   int // slides changed
	Score     *float64
	CostUSD   float64
	Duration  time.Duration
	Thumbnail []byte // PNG of the first changed slide after the edit
	// Timeline says the deck's page has the agent's step timeline.
	Timeline bool
}

// Batch is the index page of a batch.
type Batch struct {
	ID       string
	Recipe   string
	Started  time.Time
	Duration time.Duration
	Rows     []Row
}

// Counts returns decks per outcome, for the summary line.
func (b Batch) Counts() map[string]int {
	m := map[string]int{}
	for _, r := range b.Rows {
		m[r.Outcome]++
	}
	return m
}

// CountList is Counts in a stable order.
func (b Batch) CountList() []string {
	m := b.Counts()
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = fmt.Sprintf("%d %s", m[k], k)
	}
	return out
}

// TotalCost sums the rows' cost.
func (b Batch) TotalCost() float64 {
	var c float64
	for _, r := range b.Rows {
		c += r.CostUSD
	}
	return c
}

// WriteIndex writes the batch index page.
func WriteIndex(w io.Writer, b Batch) error {
	var buf bytes.Buffer
	if err := indexTmpl.Execute(&buf, b); err != nil {
		return fmt.Errorf("batch index %s: %w", b.ID, err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}
