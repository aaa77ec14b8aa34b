package critic

import (
	"strings"
	"testing"
)

var fiveSlides = []Slide{{ID: "s1", Title: "Title"}, {ID: "s2"}, {ID: "s3"}, {ID: "s4"}, {ID: "s5"}}

func TestParseFindings(t *testing.T) {
	slideCall := GroupCall{Group: "D04", Checks: []string{"D04.1", "D04.2"}, Slides: []string{"s2", "s3"}}
	deckCall := GroupCall{Group: "C01", Checks: []string{"C01.1"}, Deck: true}
	cases := []struct {
		name string
		call GroupCall
		in   string
		want string // "check@slide[nodes]" per finding, or the error's text
		err  bool
	}{
		{"all pass", slideCall, `{"results": [{"check": "D04.1", "verdict": "pass"}, {"check": "D04.2", "verdict": "pass"}]}`, "", false},
		{"fails by id, number, quoted number and 'slide n'", slideCall, `{"results": [
			{"check": "D04.1", "verdict": "fail", "slide": "s2", "nodes": ["s2/5", "[s2/6]", "s2/5"], "evidence": "row broken"},
			{"check": "D04.1", "verdict": "Fail", "slide": 3, "evidence": "row broken"},
			{"check": "D04.2", "verdict": "fail", "slide": "3", "evidence": "header gone"},
			{"check": "D04.2", "verdict": "fail", "slide": "Slide 2", "evidence": "header gone"}]}`,
			"D04.1@s2[s2/5 s2/6] D04.1@s3[] D04.2@s3[] D04.2@s2[]", false},
		{"a bare array in a fence", slideCall, "```json\n[{\"check\": \"D04.1\", \"verdict\": \"pass\"}, {\"check\": \"D04.2\", \"verdict\": \"pass\"}]\n```", "", false},
		{"deck-level fail in a deck call", deckCall, `{"results": [{"check": "C01.1", "verdict": "fail", "slide": null, "evidence": "the footer part is missing"}]}`, "C01.1@[]", false},
		{"deck-level fail in a slide call", slideCall, `{"results": [{"check": "D04.1", "verdict": "fail", "evidence": "x"}, {"check": "D04.2", "verdict": "pass"}]}`, "a fail needs the slide id", true},
		{"check not asked", slideCall, `{"results": [{"check": "D04.3", "verdict": "pass"}]}`, `names check "D04.3", which was not asked`, true},
		{"check missing", slideCall, `{"results": [{"check": "D04.1", "verdict": "pass"}]}`, "no result for check D04.2", true},
		{"bad verdict", deckCall, `{"results": [{"check": "C01.1", "verdict": "partly"}]}`, `verdict "partly"`, true},
		{"fail without evidence", deckCall, `{"results": [{"check": "C01.1", "verdict": "fail", "slide": "s1"}]}`, "needs evidence", true},
		{"unknown slide", deckCall, `{"results": [{"check": "C01.1", "verdict": "fail", "slide": "s9", "evidence": "x"}]}`, `slide "s9" is not a slide of the deck (ids s1, s2, s3, s4, s5)`, true},
		{"slide number out of range", deckCall, `{"results": [{"check": "C01.1", "verdict": "fail", "slide": 6, "evidence": "x"}]}`, `slide "6" is not a slide`, true},
		{"no results field", deckCall, `{"findings": []}`, `"results" is missing`, true},
		{"prose", deckCall, `Looks fine to me.`, "not a JSON object", true},
		{"empty", deckCall, "  ", "empty", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseFindings(c.in, c.call, fiveSlides)
			if c.err {
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("want an error with %q, got %v (%+v)", c.want, err, got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var parts []string
			for _, f := range got {
				parts = append(parts, f.Check+"@"+f.Slide+"["+strings.Join(f.Evidence.Nodes, " ")+"]")
			}
			if s := strings.Join(parts, " "); s != c.want {
				t.Fatalf("findings %s, want %s", s, c.want)
			}
		})
	}
}

func FuzzParseFindings(f *testing.F) {
	f.Add(`{"results": [{"check": "D04.1", "verdict": "fail", "slide": "s2", "nodes": ["s2/5"], "evidence": "x"}, {"check": "D04.2", "verdict": "pass"}]}`)
	f.Add(`[{"check": "D04.1", "verdict": "fail", "slide": 2.5, "evidence": "x"}]`)
	f.Add("```json\n{\"results\": null}\n```")
	call := GroupCall{Group: "D04", Checks: []string{"D04.1", "D04.2"}, Slides: []string{"s2"}}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseFindings(s, call, fiveSlides)
		if err != nil {
			return
		}
		for _, fd := range got {
			if fd.Check != "D04.1" && fd.Check != "D04.2" || fd.Slide == "" || fd.Evidence.Text == "" {
				t.Fatalf("accepted %q as %+v", s, fd)
			}
		}
	})
}
