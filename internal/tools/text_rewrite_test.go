package tools

import (
	"slices"
	"strings"
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// runLook is what a run's reader sees first: weight, decoration, size.
type runLook struct {
	bold      bool
	underline bool
	size      float64
}

func looks(n *sg.Node) []runLook {
	var out []runLook
	for _, r := range n.ParagraphRuns() {
		st := n.StyleAt(r.Start)
		out = append(out, runLook{st.FontWeight >= 600, st.TextDecoration == sg.DecorationUnderline, round2(st.FontSize)})
	}
	return out
}

// Runs mode on career-tips slide 2's "EDIT IN POWERPOINT" box (four
// paragraphs; a bold heading, a bold quoted phrase and an underlined
// link inside plain sentences): every run is translated and every run
// keeps its weight, decoration and size; paragraph styles and the other
// nodes are untouched.
func TestRewriteTextByRunsKeepsEveryRunStyle(t *testing.T) {
	d := realDeck(t, "career-tips.pptx")
	n := sg.NewIndex(d).Node("s2/79")
	before := looks(n)
	if !slices.Contains(before, runLook{true, false, 16}) || !slices.Contains(before, runLook{false, true, 16}) {
		t.Fatalf("s2/79 no longer has a bold and an underlined run: %+v", before)
	}
	old := runTexts(n)
	runs := make([]string, len(old))
	for i, s := range old {
		runs[i] = "[fr] " + s
	}
	out, res := apply(t, d, Options{}, call("rewrite_text", map[string]any{"nodeId": "s2/79", "runs": runs}))
	m := sg.NewIndex(out).Node("s2/79")
	if got := runTexts(m); !slices.Equal(got, runs) {
		t.Fatalf("runs after rewrite\n got %q\nwant %q", got, runs)
	}
	if got := looks(m); !slices.Equal(got, before) {
		t.Errorf("run styles changed\n got %+v\nwant %+v", got, before)
	}
	if m.ParagraphCount() != n.ParagraphCount() || len(m.Paragraphs) != len(n.Paragraphs) {
		t.Errorf("paragraphs %d/%d, were %d/%d", m.ParagraphCount(), len(m.Paragraphs), n.ParagraphCount(), len(n.Paragraphs))
	}
	for i := range n.Paragraphs {
		if m.Paragraphs[i] != n.Paragraphs[i] {
			t.Errorf("paragraph %d style %+v, was %+v", i, m.Paragraphs[i], n.Paragraphs[i])
		}
	}
	if string(res[0].Data) != `{"unit":"runs","total":7,"rewritten":7}` {
		t.Errorf("result %s", res[0].Data)
	}
	if other := sg.NewIndex(out).Node("s2/80"); other.Characters != sg.NewIndex(d).Node("s2/80").Characters {
		t.Error("another node changed")
	}
}

// Paragraphs mode: career-tips slide 8's "White" card is a bold heading
// paragraph and a plain sentence; each translated paragraph keeps its
// run's style. A changed paragraph with two styles is refused with the
// runs to give instead, and an unchanged one passes whatever it holds.
func TestRewriteTextByParagraphs(t *testing.T) {
	d := realDeck(t, "career-tips.pptx")
	out, res := apply(t, d, Options{}, call("rewrite_text", map[string]any{"nodeId": "s8/142",
		"paragraphs": []string{"Blanc", "C'est la couleur du lait et de la neige fraîche."}}))
	m := sg.NewIndex(out).Node("s8/142")
	if m.Characters != "Blanc\nC'est la couleur du lait et de la neige fraîche." {
		t.Fatalf("text %q", m.Characters)
	}
	if got := looks(m); !slices.Equal(got, []runLook{{true, false, 24}, {false, false, 24}}) {
		t.Errorf("run styles %+v", got)
	}
	if string(res[0].Data) != `{"unit":"paragraphs","total":2,"rewritten":2}` {
		t.Errorf("result %s", res[0].Data)
	}

	n := sg.NewIndex(d).Node("s2/79")
	paras := strings.Split(n.Characters, "\n")
	paras[0] = "MODIFIER DANS POWERPOINT®"
	out, _ = apply(t, d, Options{}, call("rewrite_text", map[string]any{"nodeId": "s2/79", "paragraphs": paras}))
	m = sg.NewIndex(out).Node("s2/79")
	if !strings.HasPrefix(m.Characters, "MODIFIER DANS POWERPOINT®\nClick on") || !bold(m, 0) {
		t.Fatalf("heading %q bold %v", m.Characters[:40], bold(m, 0))
	}
	if got, want := looks(m), looks(n); !slices.Equal(got, want) {
		t.Errorf("the unchanged paragraphs' runs changed: %+v, want %+v", got, want)
	}

	paras[1] = "Cliquez sur le bouton."
	_, _, err := Apply(d, []Call{call("rewrite_text", map[string]any{"nodeId": "s2/79", "paragraphs": paras})}, Options{})
	for _, want := range []string{`paragraph 1 of "s2/79" has runs in different styles`, `2 "\"Download as PowerPoint template\"" (paragraph 1; Inria Serif Light 16px bold #756F6F)`, "give runs"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("mixed paragraph: error lacks %q: %v", want, err)
		}
	}
}

// Bad input names the node's count and lists what to address.
func TestRewriteTextErrors(t *testing.T) {
	d := realDeck(t, "career-tips.pptx")
	for _, tc := range []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"nodeId": "s4/96", "runs": []string{"a", "b"}},
			[]string{`node "s4/96" has 3 runs, runs has 2`, `0 "I am Jayden Smith" (paragraph 0; Inria Serif Light 18.67px bold #756F6F)`, `2 "You can find me at @username" (paragraph 2;`}},
		{map[string]any{"nodeId": "s4/96", "paragraphs": []string{"a"}},
			[]string{`node "s4/96" has 3 paragraphs, paragraphs has 1`, `1 "I am here because I love to give presentations. "`}},
		{map[string]any{"nodeId": "s8/142", "paragraphs": []string{"Blanc\nNoir", "x"}},
			[]string{"paragraphs[0] contains a paragraph break"}},
		{map[string]any{"nodeId": "s8/142"}, []string{"give paragraphs"}},
		{map[string]any{"nodeId": "s8/142", "runs": []string{"a", "b"}, "paragraphs": []string{"a", "b"}}, []string{"not both"}},
		{map[string]any{"nodeId": "s8", "runs": []string{"a"}}, []string{"holds no text"}},
	} {
		_, _, err := Apply(d, []Call{call("rewrite_text", tc.args)}, Options{})
		for _, w := range tc.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error lacks %q: %v", tc.args, w, err)
			}
		}
	}
}

// A run emptied in runs mode leaves the other runs' styles in place, and
// a text rewritten into Japanese gets its East Asian slot.
func TestRewriteTextEmptyRunAndScriptSlot(t *testing.T) {
	d := realDeck(t, "career-tips.pptx")
	out, _ := apply(t, d, Options{}, call("rewrite_text", map[string]any{"nodeId": "s4/96",
		"runs": []string{"私はエイダです", "", "@ada"}}))
	m := sg.NewIndex(out).Node("s4/96")
	if m.Characters != "私はエイダです\n\n@ada" || !bold(m, 0) || bold(m, 9) {
		t.Fatalf("%q bold %v/%v", m.Characters, bold(m, 0), bold(m, 9))
	}
	if m.Style.FontFamilyEastAsian == "" {
		t.Errorf("no East Asian face for Japanese text: %+v", m.Style)
	}
}

func bold(n *sg.Node, i int) bool { st := n.StyleAt(i); return st.Bold() }
