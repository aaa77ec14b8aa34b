package bench

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"
)

// MaxSuiteBytes bounds a suite file.
const MaxSuiteBytes = 4 << 20

// SharedPrefix marks a deck reference resolved in the shared real decks
// (the decks/ folder of ../shared beside the repository, or of
// $ACE_SHARED_DIR): "shared:pptx/career-tips.pptx".
const SharedPrefix = "shared:"

// Suite is a parsed suite file.
type Suite struct {
	Name        string
	Description string
	// Path is the suite file.
	Path string
	// Arms are the named configurations the suite proposes (key arms:);
	// the harness decides which run and fills in its defaults.
	Arms []Arm
	// AssetDir is the picture library the tasks' tools search (key
	// assets:, relative to the suite file), "" for none.
	AssetDir string
	// SolutionDir holds one hand-written tool-call batch per task,
	// ID.json (key solutions:, relative to the suite file; default the
	// suite's file name without extension plus "-solutions").
	SolutionDir string
	Tasks       []*Task
}

// Task is one bench task: a deck, what to do to it and how the result is
// checked.
type Task struct {
	ID  string
	Pos Pos
	// Deck is the path of the deck file, resolved (DeckRef as written).
	Deck    string
	DeckRef string
	// Instruction is the natural-language edit; Recipe, the path of a
	// recipe file (resolved relative to the suite). Exactly one is set.
	Instruction string
	Recipe      string
	Category    Category
	Tags        []string
	Checks      []Check
	// Solution is the path of the task's hand-written tool-call batch
	// (SolutionDir/ID.json); it may not exist.
	Solution string
}

// Category is the kind of edit a task asks for (the ACE paper's and
// PPTArena's edit categories).
type Category string

// Categories.
const (
	CategoryText        Category = "text"         // rewrite, insert or delete text
	CategoryFindReplace Category = "find_replace" // a term replaced wherever it occurs
	CategoryTable       Category = "table"        // cell edits, sorting, structure
	CategoryChart       Category = "chart"        // chart type and data, charts from tables
	CategoryLayout      Category = "layout"       // move, resize, rotate, align, distribute
	CategoryStyling     Category = "styling"      // fills, fonts, colours of nodes
	CategoryTheme       Category = "theme"        // theme colours and fonts, dark mode, backgrounds
	CategoryStructure   Category = "structure"    // add, delete, duplicate, reorder slides
	CategoryNotes       Category = "notes"        // speaker notes
	CategoryPictures    Category = "pictures"     // insert, replace, crop, describe pictures
	CategoryEquations   Category = "equations"    // LaTeX maths
	CategoryTranslation Category = "translation"  // text into another language, styles kept
	CategoryBulk        Category = "bulk"         // deck-wide changes
)

// Categories lists every category in a stable order.
var Categories = []Category{
	CategoryText, CategoryFindReplace, CategoryTable, CategoryChart, CategoryLayout,
	CategoryStyling, CategoryTheme, CategoryStructure, CategoryNotes, CategoryPictures,
	CategoryEquations, CategoryTranslation, CategoryBulk,
}

func knownCategory(c Category) bool {
	for _, k := range Categories {
		if k == c {
			return true
		}
	}
	return false
}

func categoryNames() string {
	s := make([]string, len(Categories))
	for i, c := range Categories {
		s[i] = string(c)
	}
	return strings.Join(s, ", ")
}

// Arm is a named configuration a task runs under (key arms:). Empty
// strings, zero numbers and nil pointers mean the harness's default.
type Arm struct {
	Name        string
	AgentModel  string
	JudgeModel  string
	RouterModel string
	// Tau is the stop threshold on the IF score (0-5); Iterations is T.
	Tau        float64
	Iterations int
	// ContextMode is the CARE mode (micro, macro, systemic, full, or off
	// for no routing).
	ContextMode string
	// Observations turns the step observations (render feedback after
	// each agent turn) on or off; VQ the visual-quality judge; Skills the
	// skill bank.
	Observations *bool
	VQ           *bool
	Skills       *bool
	Pos          Pos
}

// Options configure Load and Parse.
type Options struct {
	// SharedDir is the shared/ folder whose decks/ the "shared:" deck
	// references name. Empty: $ACE_SHARED_DIR, else the nearest folder
	// named shared beside the suite file or one of its parents (CI lays
	// ../shared beside the repository).
	SharedDir string
}

// Load reads and parses a suite file.
func Load(path string, opts Options) (*Suite, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("suite %s: %w", path, err)
	}
	return Parse(path, data, opts)
}

// Parse parses suite YAML read from path (deck, recipe, asset and solution
// paths are relative to path's folder). Every problem (unknown key,
// duplicate task id, unknown category or check kind, a deck that is not
// there, a bad selector, colour or number) is reported with its line and
// column, all at once, as Errors.
func Parse(path string, data []byte, opts Options) (*Suite, error) {
	if len(data) > MaxSuiteBytes {
		return nil, fmt.Errorf("suite %s is %d bytes, over the %d-byte limit", path, len(data), MaxSuiteBytes)
	}
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &Error{Path: path, Pos: Pos{1, 1}, Msg: "empty suite: want a mapping with name and tasks (see docs/bench.md)"}
		}
		return nil, fmt.Errorf("suite %s: %v", path, err)
	}
	if len(doc.Content) == 0 {
		return nil, &Error{Path: path, Pos: Pos{1, 1}, Msg: "empty suite: want a mapping with name and tasks"}
	}
	dir := filepath.Dir(path)
	p := &parser{path: path}
	s := &Suite{Path: path}
	sh := &sharedDecks{opts: opts, from: dir}
	root := doc.Content[0]
	var tasksNode *yaml.Node
	p.mapping(root, map[string]func(*yaml.Node){
		"name":        func(v *yaml.Node) { s.Name = p.str(v) },
		"description": func(v *yaml.Node) { s.Description = p.str(v) },
		"assets": func(v *yaml.Node) {
			s.AssetDir = relTo(dir, p.str(v))
			if st, err := os.Stat(s.AssetDir); err != nil || !st.IsDir() {
				p.errAt(v, "assets: %q is not a folder (paths are relative to the suite file)", s.AssetDir)
			}
		},
		"solutions": func(v *yaml.Node) { s.SolutionDir = relTo(dir, p.str(v)) },
		"arms": func(v *yaml.Node) {
			for _, a := range p.seq(v) {
				s.Arms = append(s.Arms, p.arm(a))
			}
		},
		"tasks": func(v *yaml.Node) { tasksNode = v },
	})
	if root.Kind == yaml.MappingNode && s.Name == "" {
		p.errAt(root, "suite has no name: add name: <short name>")
	}
	if s.SolutionDir == "" {
		s.SolutionDir = strings.TrimSuffix(path, filepath.Ext(path)) + "-solutions"
	}
	if tasksNode != nil {
		seen := map[string]Pos{}
		for _, tn := range p.seq(tasksNode) {
			t := p.task(tn, dir, sh)
			if t == nil {
				continue
			}
			if prev, dup := seen[t.ID]; dup {
				p.errAt(tn, "task id %q is used twice (first at %s): ids must be unique", t.ID, prev)
			}
			seen[t.ID] = t.Pos
			t.Solution = filepath.Join(s.SolutionDir, t.ID+".json")
			s.Tasks = append(s.Tasks, t)
		}
	}
	armNames := map[string]bool{}
	for _, a := range s.Arms {
		if armNames[a.Name] {
			p.errs = append(p.errs, &Error{Path: path, Pos: a.Pos, Msg: fmt.Sprintf("arm %q is defined twice", a.Name)})
		}
		armNames[a.Name] = true
	}
	if len(s.Tasks) == 0 && len(p.errs) == 0 {
		p.errAt(root, "suite has no tasks")
	}
	if len(p.errs) > 0 {
		return nil, p.errs
	}
	return s, nil
}

func relTo(dir, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

func (p *parser) arm(n *yaml.Node) Arm {
	a := Arm{Pos: pos(n)}
	flag := func(dst **bool) func(*yaml.Node) {
		return func(v *yaml.Node) { b := p.boolean(v); *dst = &b }
	}
	p.mapping(n, map[string]func(*yaml.Node){
		"name":         func(v *yaml.Node) { a.Name = p.str(v) },
		"agent_model":  func(v *yaml.Node) { a.AgentModel = p.str(v) },
		"judge_model":  func(v *yaml.Node) { a.JudgeModel = p.str(v) },
		"router_model": func(v *yaml.Node) { a.RouterModel = p.str(v) },
		"tau": func(v *yaml.Node) {
			if a.Tau = p.number(v); a.Tau < 0 || a.Tau > 5 {
				p.errAt(v, "tau is the IF score to stop at, 0 to 5")
			}
		},
		"iterations": func(v *yaml.Node) {
			if a.Iterations = p.integer(v); a.Iterations < 1 {
				p.errAt(v, "iterations is T, the most iterations of the loop: 1 or more")
			}
		},
		"context_mode": func(v *yaml.Node) {
			a.ContextMode = p.str(v)
			switch a.ContextMode {
			case "micro", "macro", "systemic", "full", "off", "auto":
			default:
				p.errAt(v, "context_mode %q: want auto, micro, macro, systemic, full or off", a.ContextMode)
			}
		},
		"observations": flag(&a.Observations),
		"vq":           flag(&a.VQ),
		"skills":       flag(&a.Skills),
	})
	if n.Kind == yaml.MappingNode && a.Name == "" {
		p.errAt(n, "an arm needs a name")
	}
	return a
}

func (p *parser) task(n *yaml.Node, dir string, sh *sharedDecks) *Task {
	t := &Task{Pos: pos(n)}
	before := len(p.errs)
	p.mapping(n, map[string]func(*yaml.Node){
		"id": func(v *yaml.Node) {
			t.ID = p.str(v)
			if !validID(t.ID) {
				p.errAt(v, "task id %q: use letters, digits, '-' and '_' (it names the solution file)", t.ID)
			}
		},
		"deck": func(v *yaml.Node) {
			t.DeckRef = p.str(v)
			if t.DeckRef == "" {
				return
			}
			path, err := sh.resolve(t.DeckRef)
			if err != nil {
				p.errAt(v, "deck %q: %v", t.DeckRef, err)
				return
			}
			t.Deck = path
			if st, err := os.Stat(path); err != nil || st.IsDir() {
				p.errAt(v, "deck %q: no file at %s (paths are relative to the suite file; %s names a deck under the shared decks/ folder)", t.DeckRef, path, SharedPrefix)
			}
		},
		"instruction": func(v *yaml.Node) { t.Instruction = strings.TrimSpace(p.str(v)) },
		"recipe": func(v *yaml.Node) {
			t.Recipe = relTo(dir, p.str(v))
			if _, err := os.Stat(t.Recipe); err != nil {
				p.errAt(v, "recipe %q: no file there (paths are relative to the suite file)", t.Recipe)
			}
		},
		"category": func(v *yaml.Node) {
			t.Category = Category(p.str(v))
			if !knownCategory(t.Category) {
				p.errAt(v, "unknown category %q; want one of %s", v.Value, categoryNames())
			}
		},
		"tags": func(v *yaml.Node) { t.Tags = p.strs(v) },
		"checks": func(v *yaml.Node) {
			for _, c := range p.seq(v) {
				if ck, ok := p.check(c); ok {
					t.Checks = append(t.Checks, ck)
				}
			}
		},
	})
	if n.Kind != yaml.MappingNode {
		return nil
	}
	switch {
	case t.ID == "":
		p.errAt(n, "a task needs an id")
	case t.DeckRef == "":
		p.errAt(n, "task %s needs a deck", t.ID)
	case (t.Instruction == "") == (t.Recipe == ""):
		p.errAt(n, "task %s needs exactly one of instruction and recipe", t.ID)
	case t.Category == "":
		p.errAt(n, "task %s needs a category (one of %s)", t.ID, categoryNames())
	case len(t.Checks) == 0 && len(p.errs) == before:
		p.errAt(n, "task %s has no checks: a task is only as good as what verifies it", t.ID)
	}
	return t
}

func validID(id string) bool {
	if id == "" || len(id) > 100 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// NeedsRender reports whether a check of the task needs the renderer's
// verdict in Evidence.Render (no_new_violations).
func (t *Task) NeedsRender() bool {
	for _, c := range t.Checks {
		if c.NeedsRender() {
			return true
		}
	}
	return false
}

// sharedDecks resolves "shared:" deck references, finding the shared
// folder once.
type sharedDecks struct {
	opts  Options
	from  string
	dir   string
	err   error
	found bool
}

func (s *sharedDecks) resolve(ref string) (string, error) {
	rest, ok := strings.CutPrefix(ref, SharedPrefix)
	if !ok {
		return relTo(s.from, ref), nil
	}
	if rest == "" || filepath.IsAbs(rest) || strings.Contains(filepath.ToSlash(rest), "../") {
		return "", fmt.Errorf("want %s<path under the shared decks/ folder>, e.g. shared:pptx/career-tips.pptx", SharedPrefix)
	}
	if !s.found {
		s.dir, s.err = SharedDecksDir(s.opts.SharedDir, s.from)
		s.found = true
	}
	if s.err != nil {
		return "", s.err
	}
	return filepath.Join(s.dir, filepath.FromSlash(rest)), nil
}

// SharedDecksDir returns the decks/ folder of the shared real decks:
// shared/decks for an explicit shared folder, else $ACE_SHARED_DIR/decks,
// else the decks/ of the first folder named shared found beside from or
// beside one of its parents. The error says how to point at it.
func SharedDecksDir(shared, from string) (string, error) {
	if shared == "" {
		shared = os.Getenv("ACE_SHARED_DIR")
	}
	if shared != "" {
		d := filepath.Join(shared, "decks")
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			return "", fmt.Errorf("the shared real decks are not at %s: set ACE_SHARED_DIR to the folder that holds decks/", d)
		}
		return d, nil
	}
	abs, err := filepath.Abs(from)
	if err != nil {
		return "", err
	}
	for dir := abs; ; dir = filepath.Dir(dir) {
		d := filepath.Join(dir, "shared", "decks")
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d, nil
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return "", fmt.Errorf("no shared/decks folder beside %s or its parents (CI lays ../shared beside the repository): set ACE_SHARED_DIR to the folder that holds decks/", abs)
}
