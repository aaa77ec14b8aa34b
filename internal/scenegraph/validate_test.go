package scenegraph_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	sg "github.com/acecanvas/ace/internal/scenegraph"
)

func problems(t *testing.T, err error) []sg.Problem {
	t.Helper()
	if err == nil {
		return nil
	}
	var ve *sg.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want *ValidationError, got %T: %v", err, err)
	}
	return ve.Problems
}

func hasProblem(ps []sg.Problem, path, msg string) bool {
	for _, p := range ps {
		if p.Path == path && strings.Contains(p.Msg, msg) {
			return true
		}
	}
	return false
}

func TestValidateReportsEveryProblemWithItsPath(t *testing.T) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 5, Seed: 1})
	s := d.Slides[1]
	title, body := s.Children[0], s.Children[1]
	body.ID = title.ID                                                                       // duplicate id
	title.Size.X = -5                                                                        // negative size
	title.Transform[0][2] = math.NaN()                                                       // NaN
	title.CharacterStyleOverrides = make([]int, 500)                                         // overrides beyond the text
	d.Slides[2].Children[1].Type = "BLOB"                                                    // unknown type
	d.Slides[0].Children[2].Fills[0].ImageRef = strings.Repeat("a", 64)                      // missing asset
	title.Children = []*sg.Node{{ID: "kid", Type: sg.TypeRectangle, Transform: sg.Identity}} // child on a leaf
	title.LayoutMode = sg.LayoutHorizontal                                                   // auto-layout on TEXT
	rect := &sg.Node{ID: "r1", Type: sg.TypeRectangle, Transform: sg.Identity, AutoLayout: sg.AutoLayout{PaddingLeft: 4}}
	s.Children = append(s.Children, rect) // auto-layout fields on a RECTANGLE

	ps := problems(t, sg.Validate(d))
	want := []struct{ path, msg string }{
		{"slides[1].children[1].id", "used twice (first at slides[1].children[0])"},
		{"slides[1].children[0].size.x", "negative value -5"},
		{"slides[1].children[0].relativeTransform[0][2]", "not a finite number"},
		{"slides[1].children[0].characterStyleOverrides", "500 entries for a text of"},
		{"slides[2].children[1].type", `unknown node type "BLOB"`},
		{"slides[0].children[2].fills[0].imageRef", "not in the deck's asset table"},
		{"slides[1].children[0].children", "a TEXT cannot have children"},
		{"slides[1].children[0].layoutMode", "a TEXT cannot hold auto-layout fields"},
		{"slides[1].children[2].layoutMode", "a RECTANGLE cannot hold auto-layout fields"},
	}
	for _, w := range want {
		if !hasProblem(ps, w.path, w.msg) {
			t.Errorf("missing problem %s: %s\ngot:\n%v", w.path, w.msg, (&sg.ValidationError{Problems: ps}).Error())
		}
	}
}

func TestValidateNodeUnderItsOwnDescendant(t *testing.T) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 4, Seed: 1})
	row := d.Slides[3].Children[1] // the card row
	card := row.Children[0]
	card.Children = append(card.Children, &sg.Node{ID: row.ID, Type: sg.TypeFrame, Transform: sg.Identity})
	ps := problems(t, sg.Validate(d))
	if !hasProblem(ps, "slides[3].children[1].children[0].children[2].id", "listed under its own descendant") {
		t.Fatalf("cycle by id not reported: %v", ps)
	}
	// The same thing with real pointers (a tool bug) must not loop forever.
	d2, _ := deckgen.Generate(deckgen.Options{Slides: 4, Seed: 1})
	row2 := d2.Slides[3].Children[1]
	row2.Children[0].Children = append(row2.Children[0].Children, row2)
	ps = problems(t, sg.Validate(d2))
	if !hasProblem(ps, "slides[3].children[1].children[0].children[2]", "appears twice in the tree") {
		t.Fatalf("pointer cycle not reported: %v", ps)
	}
}

func TestValidateLimits(t *testing.T) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 10, Seed: 1})
	lim := sg.DefaultLimits
	lim.MaxNodes = 20
	if ps := problems(t, sg.ValidateWithLimits(d, lim)); !hasProblem(ps, ps[0].Path, "more than 20 nodes") {
		t.Fatalf("node limit: %v", ps)
	}
	lim = sg.DefaultLimits
	lim.MaxTextRunes = 10
	if ps := problems(t, sg.ValidateWithLimits(d, lim)); len(ps) == 0 || !strings.Contains(ps[0].Msg, "over the limit of 10") {
		t.Fatalf("text limit: %v", ps)
	}
	lim = sg.DefaultLimits
	lim.MaxDepth = 1
	if ps := problems(t, sg.ValidateWithLimits(d, lim)); len(ps) == 0 || !strings.Contains(ps[0].Msg, "over the limit of 1") {
		t.Fatalf("depth limit: %v", ps)
	}
}

func TestDecodeBadInputGivesClearErrors(t *testing.T) {
	d, _ := deckgen.Generate(deckgen.Options{Slides: 3, Seed: 1})
	good, _ := sg.Encode(d)
	cases := []struct {
		name, input, want string
	}{
		{"empty", "", "deck JSON is empty"},
		{"truncated", string(good[:len(good)/2]), "truncated"},
		{"syntax", `{"id": "d", "width": 1280,, }`, "syntax error at byte 27 (line 1, column 28)"},
		{"wrong type", `{"id": "d", "width": "wide", "height": 720, "slides": []}`, "field width"},
		{"unknown field", `{"id": "d", "width": 1280, "height": 720, "slides": [], "colour": 1}`, `unknown field "colour"`},
		{"trailing data", `{"id": "d", "width": 1280, "height": 720, "slides": []} {}`, "unexpected data after the deck"},
		{"null slide", `{"id": "d", "width": 1280, "height": 720, "slides": [null]}`, "slide is null"},
		{"zero size", `{"id": "d", "width": 0, "height": 720, "slides": []}`, "both must be positive"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := sg.Decode([]byte(c.input))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("want error containing %q, got %v", c.want, err)
			}
		})
	}
	t.Run("over the size limit", func(t *testing.T) {
		lim := sg.DefaultLimits
		lim.MaxBytes = 100
		_, err := sg.DecodeWithLimits(good, lim)
		if err == nil || !strings.Contains(err.Error(), "over the limit of 100 bytes") {
			t.Fatalf("got %v", err)
		}
	})
}

func TestValidateAcceptsGeneratedAndMinimalDecks(t *testing.T) {
	min := `{"id":"d","width":1280,"height":720,"tokens":{"fonts":{"major":{},"minor":{}}},"slides":[{"id":"s1","type":"SLIDE","relativeTransform":[[1,0,0],[0,1,0]],"size":{"x":1280,"y":720}}]}`
	if _, err := sg.Decode([]byte(min)); err != nil {
		t.Fatal(err)
	}
}
