package diff

import (
	"encoding/json"
	"sort"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// MaxEntries bounds the entries kept, so the judge's context stays small
// (ACE App. E.5: a cap of 200).
const MaxEntries = 200

// Kind labels an entry from the agent's perspective (ACE App. E.1).
type Kind string

// Entry kinds.
const (
	Added        Kind = "added"
	Removed      Kind = "removed"
	Modified     Kind = "modified"
	Moved        Kind = "moved"         // re-parented, same id (App. E.5 i)
	SlideReorder Kind = "slide_reorder" // a slide changed position
	ZOrder       Kind = "z_order"       // a node changed position among its siblings
	RowReorder   Kind = "row_reorder"   // a table row changed position
)

// Entry is one edit.
type Entry struct {
	Kind Kind `json:"kind"`
	// SlideID and SlideIndex locate the slide: 0-based index in the current
	// deck, or in the origin deck for a removed slide or a node of one.
	SlideID    string `json:"slideId"`
	SlideIndex int    `json:"slideIndex"`
	// NodeID is empty when the entry is about the slide itself.
	NodeID   string `json:"nodeId,omitempty"`
	NodeType string `json:"nodeType,omitempty"`
	Name     string `json:"name,omitempty"`
	// Parents are the ancestor ids between the slide and the node,
	// outermost first (current deck; origin deck for removed nodes).
	Parents []string `json:"parents,omitempty"`
	// Property names what changed in a modified entry ("characters",
	// "fontSize", "bbox", "fills", "styleOverride", ...).
	Property string `json:"property,omitempty"`
	// Before and After are compact values: hex colours, {x,y,w,h} boxes in
	// px, strings, numbers; positions are 0-based.
	Before any `json:"before,omitempty"`
	After  any `json:"after,omitempty"`
	// Siblings > 1 says the same edit was applied to that many same-named
	// siblings and only this entry was kept.
	Siblings int `json:"siblings,omitempty"`
	// Detail is one readable line for the judge.
	Detail string `json:"detail"`
	// visual marks image, vector, picture-fill or formula content.
	visual bool
	// order sorts entries by slide: the current index, or for a removed
	// slide a half step after the slide that preceded it in the origin.
	order float64
}

// Diff is the edit trace of origin -> current.
type Diff struct {
	Entries []Entry `json:"entries"`
	// Distinct is d, the number of distinct edits after de-duplication
	// and before the cap.
	Distinct int `json:"distinct"`
	// Score is the PPTArena-style similarity 1 - d/(d+100): 1 for no edit.
	Score float64 `json:"score"`
	// TouchesVisual reports an added or modified image, vector, picture
	// fill or formula: only then should rendered images go to the judge
	// (ACE App. E.6).
	TouchesVisual bool `json:"touchesVisual"`
	// Truncated counts entries dropped by MaxEntries.
	Truncated int `json:"truncated,omitempty"`

	// labels maps node and slide ids to "TYPE "name" «snippet»" labels
	// for the tree rendering (current deck first, origin as fallback).
	labels map[string]string
}

// Empty reports whether the decks differ in nothing the diff compares.
func (d *Diff) Empty() bool { return d == nil || d.Distinct == 0 }

// Score returns 1 - d/(d+100) for d distinct edits (ACE App. E.5).
func Score(d int) float64 {
	if d <= 0 {
		return 1
	}
	return 1 - float64(d)/float64(d+100)
}

// MarshalJSON writes the structured form (entries, distinct, score,
// touchesVisual, truncated).
func (d *Diff) MarshalJSON() ([]byte, error) {
	type plain Diff
	p := plain(*d)
	if p.Entries == nil {
		p.Entries = []Entry{}
	}
	return json.Marshal(p)
}

// Compute returns the JsonDiff of origin -> current with at most
// MaxEntries entries (the judge's cap). A nil deck counts as an empty one.
// The result is never nil.
func Compute(origin, current *scenegraph.Deck) *Diff {
	return ComputeLimit(origin, current, MaxEntries)
}

// ComputeLimit is Compute keeping at most limit entries; limit <= 0 keeps
// every entry (`ace diff --all`).
func ComputeLimit(origin, current *scenegraph.Deck, limit int) *Diff {
	if origin == nil {
		origin = &scenegraph.Deck{}
	}
	if current == nil {
		current = &scenegraph.Deck{}
	}
	w := newWalker(origin, current)
	w.slides()
	entries := dedupSiblings(w.entries)
	sortEntries(entries)
	d := &Diff{Distinct: len(entries), Score: Score(len(entries))}
	for _, e := range entries {
		if e.visual && e.Kind != Removed {
			d.TouchesVisual = true
		}
	}
	if limit > 0 && len(entries) > limit {
		d.Truncated = len(entries) - limit
		entries = entries[:limit]
	}
	d.Entries = entries
	d.labels = w.labelsFor(entries)
	return d
}

// sortEntries orders entries by slide (current order, removed slides at
// their origin position) and keeps discovery order within a slide, which is
// document order.
func sortEntries(es []Entry) {
	sort.SliceStable(es, func(i, j int) bool { return es[i].order < es[j].order })
}
