package critic

import (
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/render"
)

// TestDefaultLibraryIsValid checks the embedded library against the rules
// ParseLibrary enforces and states the shape the spec asks for: about 40
// groups, every family, every renderer kind read by one geometric check.
func TestDefaultLibraryIsValid(t *testing.T) {
	lib, err := ParseLibrary(probesYAML, "probes.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(lib.Groups); n < 36 || n > 44 {
		t.Errorf("%d groups; ReDeck App. M has 40", n)
	}
	groups, checks := map[string]bool{}, map[string]bool{}
	perFamily := map[Family]int{}
	for _, g := range lib.Groups {
		if groups[g.ID] {
			t.Errorf("group id %s twice", g.ID)
		}
		groups[g.ID] = true
		perFamily[g.Family]++
		for _, c := range g.Checks {
			if checks[c.ID] {
				t.Errorf("check id %s twice", c.ID)
			}
			checks[c.ID] = true
			if !strings.HasPrefix(c.ID, g.ID+".") {
				t.Errorf("check %s is not under its group %s", c.ID, g.ID)
			}
			if (c.Kind == KindGeometric) != (g.Family == FamilyGeometry) {
				t.Errorf("check %s: kind %s in family %s", c.ID, c.Kind, g.Family)
			}
		}
	}
	for _, f := range Families {
		if perFamily[f] == 0 {
			t.Errorf("family %s has no group", f)
		}
	}
	for _, kind := range []string{render.KindTextOverflow, render.KindOverlap, render.KindOutOfBounds,
		render.KindImageClipping, render.KindLowContrast, render.KindMinFontSize} {
		id := lib.ForViolation(kind)
		c, g, ok := lib.Check(id)
		if !ok || c.Renderer != kind || g.Family != FamilyGeometry || c.Kind != KindGeometric {
			t.Errorf("renderer kind %s: check %q (%+v)", kind, id, c)
		}
	}
	if lib.NumChecks() != len(checks) || lib.NumChecks() < 120 {
		t.Errorf("%d checks indexed, %d listed", lib.NumChecks(), len(checks))
	}
	if Default().NumChecks() != lib.NumChecks() {
		t.Error("Default() differs from the embedded file")
	}
}

func TestParseLibraryNamesEveryProblem(t *testing.T) {
	good := string(probesYAML)
	cases := []struct {
		name, from, to, want string
	}{
		{"duplicate group", "  - id: C02\n", "  - id: C01\n", "group C01: id used twice"},
		{"unknown family", "family: fidelity\n    title: Text nobody", "family: style\n    title: Text nobody", `unknown family "style"`},
		{"geometric check reads no known kind", "renderer: min_font_size", "renderer: tiny_text", `renderer "tiny_text" is not a violation kind`},
		{"kind left without a check", "      - {id: G04.2, kind: geometric, renderer: min_font_size, text: \"No text is set below the smallest readable size for the slide's height.\"}\n", "", "renderer kind min_font_size has no geometric check"},
		{"model check in geometry", "{id: G01.1, kind: geometric", "{id: G01.1, kind: model", "geometry checks are geometric"},
		{"check numbering", "{id: D02.3,", "{id: D02.9,", "check 3 has id \"D02.9\", want D02.3"},
		{"unknown aspect", "on: [chart]\n    weight: 2", "on: [charts]\n    weight: 2", `unknown aspect "charts"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(good, c.from) {
				t.Fatalf("fixture text %q not in probes.yaml", c.from)
			}
			_, err := ParseLibrary([]byte(strings.Replace(good, c.from, c.to, 1)), "edited.yaml")
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "edited.yaml") {
				t.Fatalf("want an error naming the file and %q, got %v", c.want, err)
			}
		})
	}
	// A family with no group at all.
	start, end := strings.Index(good, "  # ---- narrative"), strings.Index(good, "  # ---- visual")
	_, err := ParseLibrary([]byte(good[:start]+good[end:]), "x.yaml")
	if err == nil || !strings.Contains(err.Error(), "family narrative has no group") {
		t.Fatalf("want the missing family named, got %v", err)
	}
	if _, err := ParseLibrary([]byte("groups:\n  - id: G01\n    colour: red\n"), "typo.yaml"); err == nil || !strings.Contains(err.Error(), "colour") {
		t.Fatalf("unknown fields must be refused, got %v", err)
	}
}

func FuzzParseLibrary(f *testing.F) {
	f.Add(string(probesYAML))
	f.Add("groups: []")
	f.Add("groups:\n  - id: G01\n    family: geometry\n    checks: [{id: G01.1, kind: geometric, renderer: overlap, text: x}]\n")
	f.Fuzz(func(t *testing.T, s string) {
		lib, err := ParseLibrary([]byte(s), "fuzz.yaml")
		if err != nil {
			return
		}
		// A library that parses is fully indexed.
		for _, g := range lib.Groups {
			for _, c := range g.Checks {
				if _, gg, ok := lib.Check(c.ID); !ok || gg.ID != g.ID {
					t.Fatalf("check %s not indexed", c.ID)
				}
			}
		}
	})
}
