package bench

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// suiteDir writes a deck file and returns the folder a test suite sits in.
func suiteDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "deck.pptx"), []byte("PK"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "shared", "decks", "pptx"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "shared", "decks", "pptx", "real.pptx"), []byte("PK"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestParseReadsASuite(t *testing.T) {
	dir := suiteDir(t)
	src := `name: mini
arms:
  - {name: a, agent_model: gpt-x, tau: 4, iterations: 3, context_mode: micro, observations: false, vq: true}
tasks:
  - id: t1
    deck: deck.pptx
    category: text
    tags: [x]
    instruction: Do it.
    checks:
      - text_present: {text: "Hi"}
      - no_new_violations: true
  - id: t2
    deck: shared:pptx/real.pptx
    category: bulk
    instruction: Do more.
    checks:
      - slide_count: 3
`
	s, err := Parse(filepath.Join(dir, "mini.yaml"), []byte(src), Options{SharedDir: filepath.Join(dir, "shared")})
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "mini" || len(s.Tasks) != 2 || len(s.Arms) != 1 {
		t.Fatalf("parsed %+v", s)
	}
	a := s.Arms[0]
	if a.AgentModel != "gpt-x" || a.Tau != 4 || a.Iterations != 3 || a.ContextMode != "micro" || *a.Observations || !*a.VQ || a.Skills != nil {
		t.Errorf("arm %+v", a)
	}
	t1, t2 := s.Tasks[0], s.Tasks[1]
	if t1.Deck != filepath.Join(dir, "deck.pptx") || t1.Solution != filepath.Join(dir, "mini-solutions", "t1.json") || !t1.NeedsRender() {
		t.Errorf("task 1 %+v", t1)
	}
	if t2.Deck != filepath.Join(dir, "shared", "decks", "pptx", "real.pptx") || t2.NeedsRender() || t2.Checks[0].Kind != KindSlideCount {
		t.Errorf("task 2 %+v", t2)
	}
}

func TestParseReportsEveryProblemWithItsLine(t *testing.T) {
	dir := suiteDir(t)
	src := `name: bad
tasks:
  - id: t1
    deck: missing.pptx
    category: text
    instruction: x
    checks:
      - text_present: {txt: "Hi"}
  - id: t1
    deck: deck.pptx
    category: poetry
    instruction: x
    recipe: r.yaml
    checks:
      - colour_of_sky: blue
  - id: t3
    deck: deck.pptx
    category: table
    instruction: x
    checks:
      - table_cell: {table: {slide: 0, type: TABLE}, row: 1, col: 1}
      - fill_color: {node: {slide: 2}, color: "#12345"}
`
	_, err := Parse(filepath.Join(dir, "bad.yaml"), []byte(src), Options{})
	var es Errors
	if !errors.As(err, &es) {
		t.Fatalf("want Errors, got %v", err)
	}
	msg := err.Error()
	for _, want := range []string{
		"bad.yaml:4:11: deck \"missing.pptx\": no file at",
		"bad.yaml:8:24: unknown key \"txt\"",
		"task id \"t1\" is used twice",
		"bad.yaml:11:15: unknown category \"poetry\"",
		"bad.yaml:13:13: recipe",
		"bad.yaml:15:9: unknown check \"colour_of_sky\"",
		"bad.yaml:21:37: slide numbers start at 1",
		"table_cell needs table, row and col (0-based) and one of equals and contains",
		"a node selector with a slide needs text, placeholder or type",
		"want a colour #RRGGBB",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("errors do not say %q:\n%s", want, msg)
		}
	}
}

func TestSharedDecksMissingIsAClearError(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("ACE_SHARED_DIR", "")
	src := "name: x\ntasks:\n  - id: a\n    deck: shared:pptx/career-tips.pptx\n    category: text\n    instruction: x\n    checks: [slide_count: 1]\n"
	_, err := Parse(filepath.Join(dir, "x.yaml"), []byte(src), Options{})
	if err == nil || !strings.Contains(err.Error(), "set ACE_SHARED_DIR") {
		t.Errorf("got %v, want an error saying how to point at the shared decks", err)
	}
	_, err = Parse(filepath.Join(dir, "x.yaml"), []byte(src), Options{SharedDir: dir})
	if err == nil || !strings.Contains(err.Error(), "the shared real decks are not at") {
		t.Errorf("got %v", err)
	}
}

func TestLoadSolutionRejectsBadBatches(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"empty.json":   `[]`,
		"unknown.json": `[{"tool": "paint_it_black", "args": {}}]`,
		"extra.json":   `[{"tool": "delete_slide", "args": {"slideId": "s1"}, "why": "x"}]`,
		"object.json":  `{"tool": "delete_slide"}`,
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		if _, err := LoadSolution(p); err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: %v, want an error naming the file", name, err)
		}
	}
}

// FuzzParse feeds arbitrary YAML to the suite parser, seeded with the
// shipped suite. It must never panic; an error names the file, and a
// problem in the YAML has a line and column.
func FuzzParse(f *testing.F) {
	if b, err := os.ReadFile("../../bench/suites/core.yaml"); err == nil {
		f.Add(b)
	}
	f.Add([]byte("name: x\ntasks:\n  - id: a\n    deck: deck.pptx\n    category: chart\n    instruction: y\n    checks:\n      - chart: {node: {slide: 1, type: CHART}, series: [{values: [1, 2]}]}\n"))
	f.Add([]byte("tasks: [{id: a, checks: [{position: {node: x, dx: 1}}, {aligned: {nodes: [a, b], edge: top}}]}]"))
	dir := suiteDir(f)
	path := filepath.Join(dir, "fuzz.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(path, data, Options{SharedDir: filepath.Join(dir, "shared")})
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Fatalf("error does not name the file: %v", err)
			}
			var es Errors
			if errors.As(err, &es) {
				for _, e := range es {
					if e.Pos.Line < 1 {
						t.Fatalf("error without a line: %v", e)
					}
				}
			}
			return
		}
		d := smallDeck(nil)
		for _, task := range s.Tasks {
			task.Evaluate(Evidence{Result: d, Original: d})
		}
	})
}
