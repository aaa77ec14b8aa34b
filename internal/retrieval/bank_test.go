package retrieval

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/acecanvas/ace/internal/skills"
)

// fixtureBank reads testdata/bank/*/SKILL.md: eight stable skills and one
// deprecated one, all valid against the tool registry's names.
func fixtureBank(t testing.TB) (all, offered []skills.Skill) {
	t.Helper()
	paths, err := filepath.Glob("testdata/bank/*/SKILL.md")
	if err != nil || len(paths) == 0 {
		t.Fatalf("fixture bank: %v (%d files)", err, len(paths))
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		s, err := skills.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		all = append(all, s)
		if s.Offered() {
			offered = append(offered, s)
		}
	}
	return all, offered
}
