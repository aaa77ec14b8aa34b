package skills

import (
	"strings"
	"testing"
)

const sample = `---
name: table-cell-edits
description: change a value in a table cell, fill in a table row, update numbers in a table, correct a figure in a grid, edit table text, add a row or a column to a table, delete a table row, sort table rows by a column, rename a table header
tool_sequence: [get_page_structure, set_table_cells, edit_table_structure]
status: stable
version: 1
---

## When to use
A request changes what a table holds.

## Clarify before starting
Which table, when the slide has several.

## Steps
1. get_page_structure on the slide to find the TABLE node and its cell ids.
2. set_table_cells with the cells' new text.

## Tips
Cells keep their run style when only the text changes.

## Error handling
| Situation | Action |
|---|---|
| stale cell id | read the table again |
`

var tools = []string{"get_page_structure", "set_table_cells", "edit_table_structure"}

func TestParseFormatRoundTrip(t *testing.T) {
	s, err := Parse([]byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "table-cell-edits" || s.Version != 1 || s.Status != StatusStable || len(s.ToolSequence) != 3 {
		t.Fatalf("parsed %+v", s)
	}
	if got := s.SectionText(SectionSteps); !strings.HasPrefix(got, "1. get_page_structure") {
		t.Fatalf("steps section %q", got)
	}
	if p := Validate([]Skill{s}, tools); len(p) != 0 {
		t.Fatalf("valid sample: %v", p)
	}
	again, err := Parse(s.Format())
	if err != nil {
		t.Fatal(err)
	}
	if again.Name != s.Name || again.Description != s.Description || again.Body != s.Body || again.Version != s.Version {
		t.Fatalf("round trip changed the skill:\n%s", s.Format())
	}
}

func TestValidateFindsEachProblem(t *testing.T) {
	base, err := Parse([]byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		mut  func(*Skill) []Skill
		want string
	}{
		{"unknown tool", func(s *Skill) []Skill { s.ToolSequence = append(s.ToolSequence, "make_it_pretty"); return nil }, `"make_it_pretty", which is not an ACE tool`},
		{"short description", func(s *Skill) []Skill { s.Description = "tables"; return nil }, "description is 6 bytes"},
		{"missing section", func(s *Skill) []Skill { s.Body = strings.Replace(s.Body, "## Tips", "## Hints", 1); return nil }, `no "## Tips" section`},
		{"empty section", func(s *Skill) []Skill {
			s.Body = strings.Replace(s.Body, "Which table, when the slide has several.", "", 1)
			return nil
		}, `"## Clarify before starting" is empty`},
		{"bad status", func(s *Skill) []Skill { s.Status = "draft"; return nil }, `status "draft"`},
		{"unknown prerequisite", func(s *Skill) []Skill { s.Prerequisites = []string{"chart-edits"}; return nil }, `prerequisite "chart-edits"`},
		{"near duplicate", func(s *Skill) []Skill {
			d := *s
			d.Name = "table-value-edits"
			d.Description = s.Description + ", fix a table"
			return []Skill{d}
		}, "near-duplicate of table-value-edits"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := base
			extra := c.mut(&s)
			probs := Validate(append([]Skill{s}, extra...), tools)
			found := false
			for _, p := range probs {
				found = found || strings.Contains(p.Message, c.want)
			}
			if !found {
				t.Fatalf("want a problem containing %q, got %v", c.want, probs)
			}
		})
	}
}

func TestTokensFoldsPluralsAndStopwords(t *testing.T) {
	got := strings.Join(Tokens("Recolouring the Tables and charts, updated series"), " ")
	if got != "recolor tabl chart updat seri" {
		t.Fatalf("Tokens = %q", got)
	}
	if got := strings.Join(Tokens("Make the title colour grey"), " "); got != "titl color gray" {
		t.Fatalf("Tokens = %q, want the verb dropped and the spellings folded", got)
	}
	if o := Overlap(Tokens("edit table cells"), Tokens(sample)); o != 1 {
		t.Fatalf("overlap %v", o)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(sample))
	f.Add([]byte("---\nname: x\n---\n"))
	f.Add([]byte("---\n---"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data)
		if err != nil {
			return
		}
		again, err := Parse(s.Format())
		if err != nil {
			t.Fatalf("formatted skill does not parse: %v\n%s", err, s.Format())
		}
		if again.Name != s.Name || again.Description != s.Description || again.Version != s.Version || again.Body != s.Body {
			t.Fatalf("round trip changed %q", data)
		}
	})
}
