package critic

import (
	_ "embed"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/acecanvas/ace/internal/render"
)

// Family is one of the six probe families of ReDeck §3.3 / App. J, named
// for what they ask of an edit.
type Family string

// Families, in the library's order.
const (
	FamilyGeometry     Family = "geometry"     // ReDeck B_geom: the renderer's violations
	FamilyCompleteness Family = "completeness" // C: everything the instruction asks, everywhere it names
	FamilyCorrectness  Family = "correctness"  // D: numbers, names, dates, table and chart data kept right
	FamilyFidelity     Family = "fidelity"     // E: what the instruction did not ask to change is unchanged
	FamilyNarrative    Family = "narrative"    // A: the deck still tells its story
	FamilyVisual       Family = "visual"       // B_visual: the edited slides look deliberate
)

// Families lists every family in the library's order.
var Families = []Family{FamilyGeometry, FamilyCompleteness, FamilyCorrectness, FamilyFidelity, FamilyNarrative, FamilyVisual}

// Hard reports whether issues of the family are hard. ReDeck App. Q: "hard
// families (B_geom, C, D) fail the submission gate, the others do not";
// the same appendix later lists C among the soft families that decay, and
// we follow the explicit gate sentence (spec B2, "Ambiguity 2"): geometry,
// completeness and correctness are hard; narrative, visual and fidelity
// are soft. Hard says what may block a submit; whether it does is the
// gate's decision, not the ledger's.
func (f Family) Hard() bool {
	return f == FamilyGeometry || f == FamilyCompleteness || f == FamilyCorrectness
}

func (f Family) valid() bool {
	for _, g := range Families {
		if f == g {
			return true
		}
	}
	return false
}

// CheckKind says how a check is evaluated (ReDeck App. M: geometric,
// BM25 source lookup or multimodal rubric; ACE edits an existing deck, so
// the "source" is the original deck, which the model sees in the diff's
// snapshot, and a lookup kind is not needed).
type CheckKind string

// Check kinds.
const (
	// KindGeometric checks are read from the renderer's violations, with
	// no model call (internal/render.Violations).
	KindGeometric CheckKind = "geometric"
	// KindModel checks are answered by the critic model, one call per
	// group per turn.
	KindModel CheckKind = "model"
)

// Scope says what a group's checks look at.
type Scope string

// Scopes.
const (
	// ScopeSlide checks examine the slides they are given: the turn's
	// modified slides and the slides of the issues being re-checked.
	ScopeSlide Scope = "slide"
	// ScopeDeck checks examine the whole deck; a finding may name any
	// slide, or none for the deck as a whole.
	ScopeDeck Scope = "deck"
)

// Check is one atomic check ("G03.1").
type Check struct {
	ID   string    `yaml:"id" json:"id"`
	Text string    `yaml:"text" json:"text"`
	Kind CheckKind `yaml:"kind" json:"kind"`
	// Renderer is the internal/render violation kind a geometric check
	// reads (render.KindTextOverflow, ...); empty for model checks.
	Renderer string `yaml:"renderer,omitempty" json:"renderer,omitempty"`
}

// Group is a probe group: checks that share a parent id, a family and one
// model call (ReDeck App. M).
type Group struct {
	ID     string `yaml:"id" json:"id"`
	Family Family `yaml:"family" json:"family"`
	Title  string `yaml:"title" json:"title"`
	Scope  Scope  `yaml:"scope" json:"scope"`
	// On lists the edit aspects that make the group relevant to a turn
	// (AspectAny for every turn); geometric groups need none.
	On []Aspect `yaml:"on,omitempty" json:"on,omitempty"`
	// Weight 0..MaxWeight is the scheduler's base rank for the group.
	Weight int     `yaml:"weight,omitempty" json:"weight,omitempty"`
	Checks []Check `yaml:"checks" json:"checks"`
}

// Geometric reports whether the group's checks come from the renderer.
func (g *Group) Geometric() bool { return len(g.Checks) > 0 && g.Checks[0].Kind == KindGeometric }

// MaxWeight bounds a group's weight.
const MaxWeight = 5

// Library is a validated probe library. Its zero value is not usable; use
// Default or ParseLibrary.
type Library struct {
	Groups []Group `yaml:"groups" json:"groups"`

	groupOf  map[string]int    // check id -> index in Groups
	checkAt  map[string]int    // check id -> index in its group's Checks
	group    map[string]int    // group id -> index in Groups
	byKind   map[string]string // renderer kind -> geometric check id
	position map[string]int    // check id -> library order
}

//go:embed probes.yaml
var probesYAML []byte

var (
	defaultOnce sync.Once
	defaultLib  *Library
)

// Default is the project's probe library (probes.yaml, embedded). It is
// validated by the package's tests; an invalid embedded library panics at
// first use.
func Default() *Library {
	defaultOnce.Do(func() {
		lib, err := ParseLibrary(probesYAML, "probes.yaml")
		if err != nil {
			panic(err)
		}
		defaultLib = lib
	})
	return defaultLib
}

var (
	groupIDPattern = regexp.MustCompile(`^[A-Z][0-9]{2}$`)
	familyLetter   = map[Family]byte{FamilyGeometry: 'G', FamilyCompleteness: 'C', FamilyCorrectness: 'D',
		FamilyFidelity: 'F', FamilyNarrative: 'N', FamilyVisual: 'V'}
)

// rendererKinds are the violation kinds internal/render reports; every one
// needs exactly one geometric check.
var rendererKinds = []string{render.KindTextOverflow, render.KindOverlap, render.KindOutOfBounds,
	render.KindImageClipping, render.KindLowContrast, render.KindMinFontSize, render.KindFrameOverflow}

// ParseLibrary reads and validates a probe library in the probes.yaml
// format; name is used in errors. The rules: group ids are a family letter
// and two digits, unique; check ids are the group id, a dot and a number,
// unique; every family has a group; geometric checks only in geometry
// groups and model checks only elsewhere; model groups have 3-8 checks
// (ReDeck App. M); each renderer violation kind is read by exactly one
// geometric check and each geometric check reads a known kind; aspects,
// scopes and weights are known values. Every problem found is listed.
func ParseLibrary(data []byte, name string) (*Library, error) {
	var lib Library
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&lib); err != nil {
		return nil, fmt.Errorf("probe library %s: %w", name, err)
	}
	if errs := lib.index(); len(errs) > 0 {
		return nil, fmt.Errorf("probe library %s: %w", name, errors.Join(errs...))
	}
	return &lib, nil
}

func (l *Library) index() []error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	l.groupOf, l.checkAt, l.group = map[string]int{}, map[string]int{}, map[string]int{}
	l.byKind, l.position = map[string]string{}, map[string]int{}
	covered := map[Family]bool{}
	for gi := range l.Groups {
		g := &l.Groups[gi]
		if !groupIDPattern.MatchString(g.ID) {
			bad("group %q: id must be a family letter and two digits, e.g. G03", g.ID)
		}
		if _, dup := l.group[g.ID]; dup {
			bad("group %s: id used twice", g.ID)
		}
		l.group[g.ID] = gi
		if !g.Family.valid() {
			bad("group %s: unknown family %q (want one of %v)", g.ID, g.Family, Families)
		} else if g.ID != "" && g.ID[0] != familyLetter[g.Family] {
			bad("group %s: a %s group's id starts with %c", g.ID, g.Family, familyLetter[g.Family])
		}
		covered[g.Family] = true
		if strings.TrimSpace(g.Title) == "" {
			bad("group %s: no title", g.ID)
		}
		if g.Scope != ScopeSlide && g.Scope != ScopeDeck {
			bad("group %s: scope %q, want slide or deck", g.ID, g.Scope)
		}
		if g.Weight < 0 || g.Weight > MaxWeight {
			bad("group %s: weight %d outside 0..%d", g.ID, g.Weight, MaxWeight)
		}
		for _, a := range g.On {
			if !a.valid() && a != AspectAny {
				bad("group %s: unknown aspect %q in on (want one of %v or any)", g.ID, a, Aspects)
			}
		}
		geometric := g.Family == FamilyGeometry
		switch {
		case geometric && len(g.On) > 0:
			bad("group %s: geometric groups run on every rendered slide; drop on", g.ID)
		case !geometric && len(g.On) == 0:
			bad("group %s: no aspects in on; use [any] for a group relevant to every edit", g.ID)
		}
		if n := len(g.Checks); !geometric && (n < 3 || n > 8) || geometric && (n < 1 || n > 8) {
			bad("group %s: %d checks (ReDeck App. M: 3-8 per group; geometry groups follow the renderer's kinds, 1-8)", g.ID, n)
		}
		for ci, c := range g.Checks {
			if want := fmt.Sprintf("%s.%d", g.ID, ci+1); c.ID != want {
				bad("group %s: check %d has id %q, want %s", g.ID, ci+1, c.ID, want)
			}
			if _, dup := l.groupOf[c.ID]; dup {
				bad("check %s: id used twice", c.ID)
			}
			l.groupOf[c.ID], l.checkAt[c.ID], l.position[c.ID] = gi, ci, len(l.position)
			if strings.TrimSpace(c.Text) == "" {
				bad("check %s: no text", c.ID)
			}
			switch {
			case geometric && c.Kind != KindGeometric:
				bad("check %s: geometry checks are geometric (read from the renderer), not %q", c.ID, c.Kind)
			case !geometric && c.Kind != KindModel:
				bad("check %s: %s checks are model checks, not %q", c.ID, g.Family, c.Kind)
			case geometric:
				if !knownRendererKind(c.Renderer) {
					bad("check %s: renderer %q is not a violation kind internal/render reports (%v)", c.ID, c.Renderer, rendererKinds)
				} else if prev, dup := l.byKind[c.Renderer]; dup {
					bad("check %s: renderer kind %s is already read by %s", c.ID, c.Renderer, prev)
				}
				l.byKind[c.Renderer] = c.ID
			case c.Renderer != "":
				bad("check %s: a model check reads no renderer kind", c.ID)
			}
		}
	}
	for _, f := range Families {
		if !covered[f] {
			bad("family %s has no group", f)
		}
	}
	for _, k := range rendererKinds {
		if _, ok := l.byKind[k]; !ok {
			bad("renderer kind %s has no geometric check", k)
		}
	}
	return errs
}

func knownRendererKind(k string) bool {
	for _, r := range rendererKinds {
		if k == r {
			return true
		}
	}
	return false
}

// Check returns the check with id and its group; ok is false for an
// unknown id.
func (l *Library) Check(id string) (c Check, g *Group, ok bool) {
	gi, ok := l.groupOf[id]
	if !ok {
		return Check{}, nil, false
	}
	g = &l.Groups[gi]
	return g.Checks[l.checkAt[id]], g, true
}

// Group returns the group with id, or nil.
func (l *Library) Group(id string) *Group {
	gi, ok := l.group[id]
	if !ok {
		return nil
	}
	return &l.Groups[gi]
}

// ForViolation returns the geometric check that reads violations of the
// renderer kind, or "" for a kind the library does not know.
func (l *Library) ForViolation(kind string) string { return l.byKind[kind] }

// familyOf is the family of a check id ("" for an unknown id).
func (l *Library) familyOf(check string) Family {
	if _, g, ok := l.Check(check); ok {
		return g.Family
	}
	return ""
}

// order is a check's position in the library, for deterministic sorting;
// unknown ids sort last.
func (l *Library) order(check string) int {
	if p, ok := l.position[check]; ok {
		return p
	}
	return len(l.position)
}

// NumChecks counts the library's atomic checks.
func (l *Library) NumChecks() int { return len(l.position) }
