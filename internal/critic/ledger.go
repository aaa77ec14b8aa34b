package critic

import (
	"fmt"
	"slices"
	"strings"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// Status is what happened to an issue at the last turn that touched it
// (ReDeck App. Q's event flow). Open, Persisted and Regressed issues are
// Active: still a problem the agent is told about.
type Status string

// Statuses.
const (
	// StatusOpen: found this turn, first time or again.
	StatusOpen Status = "open"
	// StatusResolved: re-checked this turn on its slide and not found.
	StatusResolved Status = "resolved"
	// StatusRegressed: resolved at an earlier turn and found again now.
	StatusRegressed Status = "regressed"
	// StatusPersisted: active, but its check did not run on its slide this
	// turn (not scheduled, slide not rendered, or the answer unusable), so
	// it is carried forward unverified (ReDeck App. M).
	StatusPersisted Status = "persisted"
	// StatusDropped: its slide is no longer in the deck. ReDeck App. Q's
	// open -> dropped is "no longer detected, not explicitly addressed";
	// in an edit that happens when the slide was deleted, so that is the
	// rule here (an issue that is re-checked and not found is resolved).
	StatusDropped Status = "dropped"
)

// Statuses lists every status in a fixed order (counters, reports).
var Statuses = []Status{StatusOpen, StatusResolved, StatusRegressed, StatusPersisted, StatusDropped}

// Active reports whether an issue in this status still needs work.
func (s Status) Active() bool {
	return s == StatusOpen || s == StatusPersisted || s == StatusRegressed
}

// Evidence is what a check saw: a sentence, the node ids involved and
// their boxes in slide px (geometric checks carry the renderer's boxes).
type Evidence struct {
	Text  string            `json:"text,omitempty"`
	Nodes []string          `json:"nodes,omitempty"`
	Boxes []scenegraph.Rect `json:"boxes,omitempty"`
}

// MaxEvidenceRunes caps an issue's evidence text so the ledger stays small
// in workflow payloads.
const MaxEvidenceRunes = 400

// maxEvidenceNodes caps the node ids kept per issue.
const maxEvidenceNodes = 12

// Issue is one entry of the persistent issue list L (ReDeck §3.3, spec B3).
type Issue struct {
	// ID is "I" and a number, in order of creation ("I1", "I2", ...).
	ID     string `json:"id"`
	Family Family `json:"family"`
	// Slide is the slide id; empty for a deck-level finding.
	Slide string `json:"slide,omitempty"`
	// Check is the atomic check that raised it ("G03.1").
	Check string `json:"check"`
	// Subject tells apart several issues of one check on one slide: the
	// renderer's violation key for a geometric check; empty for model
	// checks, which keep one issue per check and slide.
	Subject  string   `json:"subject,omitempty"`
	Evidence Evidence `json:"evidence"`
	Status   Status   `json:"status"`
	// Hard is the family's Hard (geometry, completeness, correctness).
	Hard bool `json:"hard,omitempty"`
	// Opened is the turn it was first found; Checked the last turn its
	// check ran on its slide; Changed the turn its status last changed.
	Opened  int `json:"opened"`
	Checked int `json:"checked"`
	Changed int `json:"changed"`
	// Regressions counts resolved -> regressed transitions (the
	// scheduler's regression history).
	Regressions int `json:"regressions,omitempty"`
	// Waived holds the instruction's words a waiver quoted when the
	// issue was resolved by a waiver rather than a fix.
	Waived string `json:"waived,omitempty"`
}

// key identifies an issue across turns.
func (is *Issue) key() string { return is.Check + "|" + is.Slide + "|" + is.Subject }

// TurnLog is what the critic did in one turn, for the run record.
type TurnLog struct {
	Turn int `json:"turn"`
	// Checks are the model checks the scheduler picked, in pick order;
	// Mandatory those among them that re-check an active issue on a
	// modified slide.
	Checks    []string `json:"checks,omitempty"`
	Mandatory []string `json:"mandatory,omitempty"`
	// Skipped are picked checks that did not run (no model, a failed call,
	// an answer unusable after the retry): their issues persist.
	Skipped []string `json:"skipped,omitempty"`
	// Calls is the number of model calls (one per group, retries apart).
	Calls    int      `json:"calls,omitempty"`
	Problems []string `json:"problems,omitempty"`
}

// Ledger is the critic's persistent issue list for one edit (ReDeck §3.4:
// only the critic writes it; the agent reads it through Feedback). It is
// plain data, JSON-serialisable for workflow payloads, and every method is
// deterministic: no clock, no map iteration order.
type Ledger struct {
	Issues []Issue `json:"issues,omitempty"`
	// Turns logs each turn the critic ran, in order.
	Turns []TurnLog `json:"turns,omitempty"`
	// Waivers are the hard violations the critic waived, by violation key.
	Waivers []Waiver `json:"waivers,omitempty"`
	// Next is the number of the next issue id.
	Next int `json:"next,omitempty"`
}

// Finding is one failed check on one slide (or the deck, Slide "").
type Finding struct {
	Check    string   `json:"check"`
	Slide    string   `json:"slide,omitempty"`
	Subject  string   `json:"subject,omitempty"`
	Evidence Evidence `json:"evidence"`
}

// Run is one check that ran this turn: the slides it examined (or the
// whole deck) and what failed. A check that ran and reported no failure on
// a slide of its scope clears that slide's issues of the check.
type Run struct {
	Check string `json:"check"`
	// Deck says the check examined the whole deck (deck-scope groups);
	// otherwise Slides are the slides it examined.
	Deck   bool      `json:"deck,omitempty"`
	Slides []string  `json:"slides,omitempty"`
	Failed []Finding `json:"failed,omitempty"`
}

// Result is one turn's checks.
type Result struct {
	Turn int `json:"turn"`
	// Slides are the current deck's slide ids; an issue on any other slide
	// is dropped.
	Slides []string `json:"slides"`
	Runs   []Run    `json:"runs"`
	// Step marks a check within a turn (after one of the agent's steps,
	// Critic.Step): issues it did not check keep their status instead of
	// being persisted, which only a turn's schedule decides.
	Step bool `json:"step,omitempty"`
}

// Change is one status transition, for the record and the OTel counters.
type Change struct {
	Issue string `json:"issue"`
	Check string `json:"check"`
	Slide string `json:"slide,omitempty"`
	// From is empty for a new issue.
	From Status `json:"from,omitempty"`
	To   Status `json:"to"`
}

// Apply records one turn's results and returns the transitions it made,
// in issue order:
//   - an issue whose slide is not in r.Slides -> dropped;
//   - a failing finding with no issue yet -> a new open issue;
//   - a failing finding of an active issue -> open (evidence refreshed);
//     of a resolved one -> regressed; of a dropped one (its slide came
//     back, e.g. by an undo) -> open;
//   - an active issue whose check ran on its slide without failing ->
//     resolved (a geometric issue whose violation the critic waived
//     records the waiver's quote);
//   - an active issue whose check did not run on its slide -> persisted.
//
// Findings naming a check the library does not know are an error, and the
// ledger is then unchanged.
func (l *Ledger) Apply(lib *Library, r Result) ([]Change, error) {
	for _, run := range r.Runs {
		if _, _, ok := lib.Check(run.Check); !ok {
			return nil, fmt.Errorf("critic ledger, turn %d: unknown check %q", r.Turn, run.Check)
		}
		for _, f := range run.Failed {
			if f.Check != run.Check {
				return nil, fmt.Errorf("critic ledger, turn %d: finding of %s inside the run of %s", r.Turn, f.Check, run.Check)
			}
		}
	}
	present := map[string]bool{}
	for _, s := range r.Slides {
		present[s] = true
	}
	// Which (check, slide) pairs ran, and the findings by issue key.
	ranOn := map[string]bool{} // check|slide, or check|* for the whole deck
	found := map[string]Finding{}
	var fresh []Finding
	for _, run := range r.Runs {
		if run.Deck {
			ranOn[run.Check+"|*"] = true
		}
		for _, s := range run.Slides {
			ranOn[run.Check+"|"+s] = true
		}
		for _, f := range run.Failed {
			f.Evidence = trimEvidence(f.Evidence)
			k := f.Check + "|" + f.Slide + "|" + f.Subject
			if prev, dup := found[k]; dup {
				f.Evidence = mergeEvidence(prev.Evidence, f.Evidence)
			} else {
				fresh = append(fresh, f)
			}
			found[k] = f
		}
	}
	checked := func(is *Issue) bool {
		return ranOn[is.Check+"|*"] || is.Slide != "" && ranOn[is.Check+"|"+is.Slide]
	}
	var changes []Change
	set := func(is *Issue, to Status) {
		if is.Status != to {
			changes = append(changes, Change{Issue: is.ID, Check: is.Check, Slide: is.Slide, From: is.Status, To: to})
			is.Status, is.Changed = to, r.Turn
		}
	}
	known := map[string]bool{}
	for i := range l.Issues {
		is := &l.Issues[i]
		k := is.key()
		known[k] = true
		f, hit := found[k]
		switch {
		case is.Slide != "" && !present[is.Slide]:
			if is.Status != StatusDropped {
				set(is, StatusDropped)
			}
		case hit:
			is.Evidence, is.Checked, is.Waived = f.Evidence, r.Turn, ""
			if is.Status == StatusResolved {
				is.Regressions++
				set(is, StatusRegressed)
			} else {
				set(is, StatusOpen)
			}
		case checked(is):
			is.Checked = r.Turn
			if is.Status.Active() {
				set(is, StatusResolved)
				if w := l.waiver(is.Subject); w != nil {
					is.Waived = w.Quote
				}
			}
		case is.Status.Active() && !r.Step:
			set(is, StatusPersisted)
		}
	}
	slices.SortStableFunc(fresh, func(a, b Finding) int {
		if c := lib.order(a.Check) - lib.order(b.Check); c != 0 {
			return c
		}
		if c := slideOrder(r.Slides, a.Slide) - slideOrder(r.Slides, b.Slide); c != 0 {
			return c
		}
		return strings.Compare(a.Subject, b.Subject)
	})
	for _, f := range fresh {
		k := f.Check + "|" + f.Slide + "|" + f.Subject
		if known[k] || f.Slide != "" && !present[f.Slide] {
			continue
		}
		l.Next++
		fam := lib.familyOf(f.Check)
		is := Issue{ID: fmt.Sprintf("I%d", l.Next), Family: fam, Slide: f.Slide, Check: f.Check, Subject: f.Subject,
			Evidence: f.Evidence, Status: StatusOpen, Hard: fam.Hard(), Opened: r.Turn, Checked: r.Turn, Changed: r.Turn}
		l.Issues = append(l.Issues, is)
		changes = append(changes, Change{Issue: is.ID, Check: is.Check, Slide: is.Slide, To: StatusOpen})
	}
	return changes, nil
}

// slideOrder is a slide's position in the deck; the deck itself ("")
// first, unknown slides last.
func slideOrder(slides []string, id string) int {
	if id == "" {
		return -1
	}
	if i := slices.Index(slides, id); i >= 0 {
		return i
	}
	return len(slides)
}

// Active returns the issues that still need work, in id order.
func (l *Ledger) Active() []Issue {
	var out []Issue
	for _, is := range l.Issues {
		if is.Status.Active() {
			out = append(out, is)
		}
	}
	return out
}

// OpenHard counts active hard issues: what a gate that follows App. Q's
// hard families would hold a submit on.
func (l *Ledger) OpenHard() int {
	n := 0
	for _, is := range l.Issues {
		if is.Hard && is.Status.Active() {
			n++
		}
	}
	return n
}

// Counts returns the number of issues per status, in the order of
// Statuses (all five present, zeros included).
func (l *Ledger) Counts() []StatusCount {
	out := make([]StatusCount, len(Statuses))
	for i, s := range Statuses {
		out[i].Status = s
	}
	for _, is := range l.Issues {
		if i := slices.Index(Statuses, is.Status); i >= 0 {
			out[i].N++
		}
	}
	return out
}

// StatusCount is one status and its number of issues.
type StatusCount struct {
	Status Status `json:"status"`
	N      int    `json:"n"`
}

// Issue returns the issue with id, or nil.
func (l *Ledger) Issue(id string) *Issue {
	for i := range l.Issues {
		if l.Issues[i].ID == id {
			return &l.Issues[i]
		}
	}
	return nil
}

func trimEvidence(e Evidence) Evidence {
	e.Text = strings.TrimSpace(e.Text)
	if r := []rune(e.Text); len(r) > MaxEvidenceRunes {
		e.Text = string(r[:MaxEvidenceRunes-1]) + "…"
	}
	if len(e.Nodes) > maxEvidenceNodes {
		e.Nodes = e.Nodes[:maxEvidenceNodes]
	}
	if len(e.Boxes) > maxEvidenceNodes {
		e.Boxes = e.Boxes[:maxEvidenceNodes]
	}
	return e
}

// mergeEvidence joins two findings of one issue reported in one turn.
func mergeEvidence(a, b Evidence) Evidence {
	out := Evidence{Text: a.Text, Nodes: slices.Clone(a.Nodes), Boxes: slices.Clone(a.Boxes)}
	if b.Text != "" && b.Text != a.Text {
		out.Text = strings.TrimSpace(a.Text + " " + b.Text)
	}
	for _, n := range b.Nodes {
		if !slices.Contains(out.Nodes, n) {
			out.Nodes = append(out.Nodes, n)
		}
	}
	out.Boxes = append(out.Boxes, b.Boxes...)
	return trimEvidence(out)
}
