package route

import (
	"os"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/formats/figma"
	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
)

// TestBoundedContextNeverSendsMore (issue 17 item 9): on the real decks
// and the real Figma response, every mode's context held to a budget is at
// most that many o200k tokens; a context over it degrades MICRO/FULL/
// SYSTEMIC -> MACRO -> OFF and says so; one within it is Context's own
// text with no note.
func TestBoundedContextNeverSendsMore(t *testing.T) {
	decks := map[string]*scenegraph.Deck{}
	for _, name := range []string{"career-tips.pptx", "build_effective_agents.pptx"} {
		data, err := os.ReadFile(shareddecks.PPTXFile(t, name))
		if err != nil {
			t.Fatal(err)
		}
		d, _, err := pptx.Import(data, name)
		if err != nil {
			t.Fatal(err)
		}
		decks[name] = d
	}
	data, err := os.ReadFile(shareddecks.Figma(t))
	if err != nil {
		t.Fatal(err)
	}
	fd, err := figma.Import(data)
	if err != nil {
		t.Fatal(err)
	}
	decks["figma"] = fd
	degraded := 0
	for name, d := range decks {
		for _, dec := range []Decision{{Mode: Micro, TargetSlides: []int{0}}, {Mode: Full}, {Mode: Systemic}, {Mode: Macro}} {
			full, err := Context(d, dec)
			if err != nil {
				t.Fatal(err)
			}
			fullTok, _ := CountTokens(full, O200K)
			for _, budget := range []int{1000, 4000, 32000} {
				text, used, note, err := Bounded(d, dec, budget)
				if err != nil {
					t.Fatal(err)
				}
				n, _ := CountTokens(text, O200K)
				switch {
				case fullTok <= budget:
					if text != full || used.Mode != dec.Mode || note != "" {
						t.Errorf("%s %s within budget %d (%d tokens) was changed to %s", name, dec.Mode, budget, fullTok, used.Mode)
					}
				case used.Mode == dec.Mode:
					t.Errorf("%s %s: %d tokens over budget %d sent as is", name, dec.Mode, fullTok, budget)
				default:
					degraded++
					if !strings.Contains(note, string(dec.Mode)) || !strings.Contains(note, string(used.Mode)) || !strings.Contains(note, ContextBudgetEnv) {
						t.Errorf("%s %s -> %s: note %q does not say what happened", name, dec.Mode, used.Mode, note)
					}
					if used.Mode != Off && n > budget {
						t.Errorf("%s %s -> %s: %d tokens over budget %d", name, dec.Mode, used.Mode, n, budget)
					}
				}
				t.Logf("%-28s %-18s budget %5d: %6d tokens -> %-18s %6d tokens", name, dec.Mode, budget, fullTok, used.Mode, n)
			}
		}
	}
	if degraded == 0 {
		t.Fatal("no context was over any budget: the test checks nothing")
	}
}

func TestContextBudgetFromEnv(t *testing.T) {
	t.Setenv(ContextBudgetEnv, "")
	if n, err := ContextBudgetFromEnv(); err != nil || n != DefaultContextBudget {
		t.Fatalf("unset: %d, %v", n, err)
	}
	t.Setenv(ContextBudgetEnv, "64000")
	if n, err := ContextBudgetFromEnv(); err != nil || n != 64000 {
		t.Fatalf("64000: %d, %v", n, err)
	}
	for _, bad := range []string{"32k", "10", "-5"} {
		t.Setenv(ContextBudgetEnv, bad)
		if _, err := ContextBudgetFromEnv(); err == nil || !strings.Contains(err.Error(), ContextBudgetEnv) {
			t.Errorf("%q: want an error naming %s, got %v", bad, ContextBudgetEnv, err)
		}
	}
}
