package retrieval

import (
	"slices"
	"strings"
	"testing"
)

func TestCatalogStarsFirstThenByName(t *testing.T) {
	_, offered := fixtureBank(t)
	sc := Flag(Score([]string{"change chart type", "edit table cells"}, offered), offered)
	starred := Starred(sc)
	if len(starred) < 2 {
		t.Fatalf("starred %v", starred)
	}
	text := Catalog(offered, Starred(sc), 0)
	lines := strings.Split(text, "\n")
	if lines[0] != "# Skills" || !strings.Contains(lines[1], "load_skill(name)") {
		t.Fatalf("catalog head:\n%s", text)
	}
	entries := lines[2:]
	if len(entries) != len(offered) {
		t.Fatalf("%d entries for %d skills:\n%s", len(entries), len(offered), text)
	}
	var rest []string
	for i, e := range entries {
		if i < len(starred) {
			if want := "- * " + starred[i] + ": "; !strings.HasPrefix(e, want) {
				t.Fatalf("entry %d %q: want it to start %q", i, e, want)
			}
			continue
		}
		if strings.HasPrefix(e, "- * ") {
			t.Fatalf("a starred entry after the unstarred ones: %q", e)
		}
		rest = append(rest, strings.SplitN(strings.TrimPrefix(e, "- "), ":", 2)[0])
	}
	if !slices.IsSorted(rest) {
		t.Fatalf("unstarred skills not by name: %v", rest)
	}
	if strings.Contains(text, "old-draft") {
		t.Fatal("the catalog lists a skill not offered")
	}
	gap := Catalog(offered, Starred(Flag(Score([]string{"translate notes"}, offered), offered)), 0)
	if strings.Contains(gap, "- * ") || !strings.Contains(gap, "None matched") {
		t.Fatalf("a coverage gap's catalog:\n%s", gap)
	}
	if Catalog(nil, Starred(sc), 0) != "" {
		t.Fatal("an empty set has a catalog")
	}
}

func TestCatalogKeepsItsBudget(t *testing.T) {
	_, offered := fixtureBank(t)
	sc := Flag(Score([]string{"edit table cells"}, offered), offered)
	full := Catalog(offered, Starred(sc), 0)
	n := tokens(full)
	budget := n - 40
	cut := Catalog(offered, Starred(sc), budget)
	if tokens(cut) > budget+12 { // the closing count line comes on top
		t.Fatalf("catalog of %d tokens for a budget of %d:\n%s", tokens(cut), budget, cut)
	}
	if !strings.Contains(cut, "- * table-cell-edits: ") || !strings.Contains(cut, "more skills not listed.)") {
		t.Fatalf("a cut catalog must keep the starred skill and count the rest:\n%s", cut)
	}
}

func TestGist(t *testing.T) {
	d := "change a value in a table cell, fill in a table row, update numbers in a table, correct a figure in a grid, edit table text, add a row"
	if g := Gist(d); g != "change a value in a table cell, fill in a table row, update numbers in a table, correct a figure in a grid" {
		t.Fatalf("gist %q", g)
	}
	if g := Gist(strings.Repeat("word ", 40)); len(g) > gistBytes+3 || !strings.HasSuffix(g, "...") {
		t.Fatalf("gist %q", g)
	}
}

func TestSetRoundTrip(t *testing.T) {
	_, offered := fixtureBank(t)
	rev := slices.Clone(offered)
	slices.Reverse(rev)
	a, b := EncodeSet(offered), EncodeSet(rev)
	if string(a) != string(b) {
		t.Fatal("the same skills in another order encode differently")
	}
	set, err := DecodeSet(a)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Skills) != len(offered) || !slices.IsSorted(set.Names()) {
		t.Fatalf("decoded %v", set.Names())
	}
	s, ok := set.Get("table-cell-edits")
	if !ok || s.Body == "" || s.Version != 1 || len(s.ToolSequence) == 0 {
		t.Fatalf("Get: %+v %v", s, ok)
	}
	if _, err := DecodeSet([]byte(`{"skills": ["not a skill"]}`)); err == nil || !strings.Contains(err.Error(), "skill 1") {
		t.Fatalf("bad set: %v", err)
	}
}

func FuzzDecodeSet(f *testing.F) {
	f.Add(`{"skills": []}`)
	f.Add(`{"skills": ["---\nname: a\n---\n"]}`)
	f.Add(`{"skills": "x"}`)
	f.Fuzz(func(t *testing.T, data string) {
		set, err := DecodeSet([]byte(data))
		if err != nil {
			return
		}
		again, err := DecodeSet(EncodeSet(set.Skills))
		if err != nil {
			t.Fatalf("an encoded set does not decode: %v", err)
		}
		if len(again.Skills) != len(set.Skills) {
			t.Fatalf("%d skills, %d after a round trip", len(set.Skills), len(again.Skills))
		}
		for _, s := range set.Skills {
			k, ok := again.Get(s.Name)
			if !ok || k.Description != s.Description || k.Body != s.Body {
				t.Fatalf("skill %q changed in a round trip", s.Name)
			}
		}
	})
}
