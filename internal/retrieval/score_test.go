package retrieval

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/skills"
	"github.com/acecanvas/ace/internal/tools"
)

func TestFixtureBankValidates(t *testing.T) {
	all, offered := fixtureBank(t)
	if p := skills.Validate(all, tools.Registry().Names()); len(p) != 0 {
		t.Fatalf("fixture bank: %v", p)
	}
	if len(offered) != len(all)-1 {
		t.Fatalf("offered %d of %d: want every skill but the deprecated one", len(offered), len(all))
	}
}

func scoreOf(t *testing.T, sc []skills.Scored, name string) skills.Scored {
	t.Helper()
	for _, s := range sc {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("%s not scored: %v", name, sc)
	return skills.Scored{}
}

// TestScoreIsOverlapPlusNameBonus checks Eq. 2 by hand on the fixture
// descriptions.
func TestScoreIsOverlapPlusNameBonus(t *testing.T) {
	_, offered := fixtureBank(t)
	sc := Score([]string{"change chart type", "recolour logo"}, offered)
	if len(sc) != len(offered) {
		t.Fatalf("%d scored for %d skills", len(sc), len(offered))
	}
	// "change chart type" -> {chang, chart, type}: all three in
	// chart-data-and-type's description, and "chart" in its name: 1 + 0.1,
	// capped at 1.
	if s := scoreOf(t, sc, "chart-data-and-type"); s.Score != 1 || s.Operation != "change chart type" {
		t.Errorf("chart-data-and-type %+v: want 1 from \"change chart type\"", s)
	}
	// text-typography shares only "chang": 1/3, no name token.
	if s := scoreOf(t, sc, "text-typography"); math.Abs(s.Score-1.0/3) > 1e-9 {
		t.Errorf("text-typography %v: want 1/3", s.Score)
	}
	// "recolour logo" -> {recolour, logo}: pictures-and-images has "logo"
	// (1/2); "change chart type" gives it nothing.
	if s := scoreOf(t, sc, "pictures-and-images"); s.Score != 0.5 || s.Operation != "recolour logo" {
		t.Errorf("pictures-and-images %+v: want 0.5 from \"recolour logo\"", s)
	}
	// A name token alone is worth NameBonus: "slide" is in slide-structure's
	// name and (as "slide") in its description too, so use a word only
	// the name has.
	nb := Score([]string{"structure"}, offered)
	if s := scoreOf(t, nb, "slide-structure"); math.Abs(s.Score-NameBonus) > 1e-9 {
		t.Errorf("slide-structure on \"structure\": %v, want the name bonus %v alone", s.Score, NameBonus)
	}
	for i := 1; i < len(sc); i++ {
		if sc[i-1].Score < sc[i].Score {
			t.Fatalf("not ordered by score at %d: %v", i, sc)
		}
	}
	// Equal scores: the skill whose name the operation holds more of
	// first, then by name. Both descriptions hold every token of "delete
	// slides"; only one name holds "slide".
	tie := []skills.Skill{
		{Name: "find-and-replace", Description: "delete a word on all slides"},
		{Name: "slide-order", Description: "delete slides, reorder slides"},
		{Name: "a-remover", Description: "delete slides"},
	}
	got := Score([]string{"delete slides"}, tie)
	if got[0].Name != "slide-order" || got[0].Score != 1 || got[1].Name != "a-remover" || got[2].Name != "find-and-replace" || got[2].Score != 1 {
		t.Fatalf("tie order %+v: want slide-order (named), then by name", got)
	}
}

func mk(scores ...float64) []skills.Scored {
	var out []skills.Scored
	for i, s := range scores {
		out = append(out, skills.Scored{Name: string(rune('a' + i)), Version: 1, Score: s})
	}
	return out
}

// TestFlagRule covers each clause of Flag's rule.
func TestFlagRule(t *testing.T) {
	cases := []struct {
		name   string
		scores []float64
		want   string // starred names
	}{
		{"nothing reaches tau: a coverage gap", []float64{0.19, 0.1, 0}, ""},
		{"one clears, padded with the next over tau", []float64{1, 0.5, 0.2, 0.19}, "ab"},
		{"one clears, nothing else over tau: one starred", []float64{0.9, 0.15}, "a"},
		{"within 0.6 of top", []float64{1, 0.7, 0.6, 0.59, 0.3}, "abc"},
		{"capped at four", []float64{0.9, 0.9, 0.8, 0.8, 0.8, 0.7}, "abcd"},
		{"a low top: tau still applies", []float64{0.3, 0.25, 0.2, 0.18}, "abc"},
		{"two clear: no padding", []float64{1, 0.8, 0.5}, "ab"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := mk(c.scores...)
			got := Flag(in, nil)
			if s := strings.Join(Starred(got), ""); s != c.want {
				t.Fatalf("starred %q, want %q", s, c.want)
			}
			if Covered(got) != (c.want != "") {
				t.Fatalf("covered %v with %q starred", Covered(got), c.want)
			}
			if Covered(in) {
				t.Fatal("Flag changed its input")
			}
		})
	}
}

// TestFlagPullsPrerequisitesOneHop: bulk-restyle needs theme-and-brand,
// which is starred beyond the cap whatever its score; a prerequisite of
// a prerequisite is not.
func TestFlagPullsPrerequisitesOneHop(t *testing.T) {
	bank := []skills.Skill{
		{Name: "a", Prerequisites: []string{"p"}},
		{Name: "p", Prerequisites: []string{"q"}},
		{Name: "q"},
	}
	sc := []skills.Scored{{Name: "a", Score: 0.9}, {Name: "b", Score: 0.9}, {Name: "c", Score: 0.9}, {Name: "d", Score: 0.9},
		{Name: "p", Score: 0}, {Name: "q", Score: 0}}
	got := Starred(Flag(sc, bank))
	if !slices.Equal(got, []string{"a", "b", "c", "d", "p"}) {
		t.Fatalf("starred %v: want the four best and a's prerequisite p (not p's q)", got)
	}

	_, offered := fixtureBank(t)
	fx := Starred(Flag(Score([]string{"enforce minimum font size on every slide"}, offered), offered))
	if !slices.Contains(fx, "bulk-restyle") || !slices.Contains(fx, "theme-and-brand") {
		t.Fatalf("starred %v: want bulk-restyle with its prerequisite theme-and-brand", fx)
	}
}

// TestRetrievalOnFixtureBank: operations a distiller would give, the
// skills a reader would pick.
func TestRetrievalOnFixtureBank(t *testing.T) {
	_, offered := fixtureBank(t)
	cases := []struct {
		ops  []string
		want []string // must be starred; the top-ranked skill is one of them
	}{
		{[]string{"edit table cells"}, []string{"table-cell-edits"}},
		{[]string{"change chart type", "show data labels"}, []string{"chart-data-and-type"}},
		{[]string{"reorder slides", "delete slide"}, []string{"slide-structure"}},
		{[]string{"replace picture", "add alt text"}, []string{"pictures-and-images"}},
		{[]string{"change theme colours", "set heading fonts"}, []string{"theme-and-brand", "text-typography"}},
		{[]string{"distribute boxes evenly", "align shapes"}, []string{"layout-alignment"}},
		{[]string{"make title bold", "change font size"}, []string{"text-typography"}},
	}
	for _, c := range cases {
		sc := Flag(Score(c.ops, offered), offered)
		got := Starred(sc)
		if len(got) == 0 || !slices.Contains(c.want, got[0]) {
			t.Errorf("%v: starred %v, want one of %v first", c.ops, got, c.want)
		}
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("%v: starred %v lacks %s", c.ops, got, w)
			}
		}
		if slices.Contains(got, "old-draft") {
			t.Errorf("%v: starred the deprecated skill", c.ops)
		}
	}
	// A request no skill covers: a coverage gap.
	if sc := Flag(Score([]string{"translate speaker notes into german"}, offered), offered); Covered(sc) {
		t.Errorf("starred %v for an uncovered request", Starred(sc))
	}
}
