package recipe

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// FuzzParseAndCompile feeds arbitrary YAML to the recipe parser, seeded
// with the shipped recipes. The parser must never panic and every error
// must point at the file with a line and column; a recipe that parses must
// compile (or fail) without panicking and without touching the deck it is
// compiled against, and a compiled result must still validate.
func FuzzParseAndCompile(f *testing.F) {
	seeds, _ := filepath.Glob("../../testdata/recipes/*.yaml")
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("steps:\n  - tool: set_text_content\n    for_each: {text: \"/(?i)q[1-4]/\"}\n    args: {nodeId: \"${match.id}\", find: Q2, text: Q3}\n"))
	f.Add([]byte("name: x\nexpect:\n  - no_text: Acme\n"))
	d, _ := deckgen.Generate(deckgen.Options{Slides: 4, Seed: 3})
	before, err := sg.Hash(d)
	if err != nil {
		f.Fatal(err)
	}
	located := regexp.MustCompile(`^(recipe fuzz\.yaml|fuzz\.yaml:\d+:\d+)`)
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Parse("fuzz.yaml", data)
		if err != nil {
			if !located.MatchString(err.Error()) {
				t.Fatalf("error does not name the file and position: %v", err)
			}
			return
		}
		plan, err := Compile(r, d, Options{})
		if after, _ := sg.Hash(d); after != before {
			t.Fatal("Compile modified the deck it was given")
		}
		if err == nil && plan.Result != nil {
			if verr := sg.Validate(plan.Result); verr != nil {
				t.Fatalf("compiled deck does not validate: %v", verr)
			}
		}
	})
}
