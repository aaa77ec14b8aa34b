package coldstart

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/skills"
	"github.com/acecanvas/ace/internal/tools"
)

func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "run", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// realPages are the pages of the real tool reference and recipe guide.
func realPages(t *testing.T) []Page {
	t.Helper()
	recipes, err := os.ReadFile("../../docs/recipes.md")
	if err != nil {
		t.Fatal(err)
	}
	pages, err := DocPages(ToolsDoc(), Doc{Name: "docs/recipes.md", Markdown: string(recipes)})
	if err != nil {
		t.Fatal(err)
	}
	return pages
}

func userText(r llmtest.Recorded) string {
	var b strings.Builder
	for _, m := range r.Chat.Messages {
		b.WriteString(m.Content)
		b.WriteString("\n")
	}
	return b.String()
}

// TestSeedRun seeds from the real docs through the scripted server: the
// themes answer is refused once (too few themes) and asked again; page
// assignment gives each theme its pages; the bank so far rides in every
// later generation request; an invalid skill is retried once with its
// problems listed and then kept; a near-duplicate is refused twice and
// dropped; NO_SKILL is honoured; a theme no page matches costs no call;
// the written folder parses and validates against the live tool names.
func TestSeedRun(t *testing.T) {
	srv := llmtest.NewServer(t, &llmtest.Script{Name: "seed-run", Steps: []llmtest.Step{
		{Text: fixture(t, "themes-short.json")},
		{Text: fixture(t, "themes.json")},
		{Text: fixture(t, "speaker-notes.md")},
		{Text: fixture(t, "table-edits-bad.md")},
		{Text: "```markdown\n" + fixture(t, "table-edits.md") + "```\n"},
		{Text: fixture(t, "presenter-script.md")},
		{Text: fixture(t, "presenter-script.md")},
		{Text: fixture(t, "session-status.txt")},
	}})
	client, err := llm.New(srv.Config("seed-model", ""))
	if err != nil {
		t.Fatal(err)
	}
	s := NewSeeder(client)
	s.MinThemes, s.MaxThemes = 3, 6
	var heard []OutcomeKind
	s.Progress = func(o Outcome) { heard = append(heard, o.Kind) }
	pages := realPages(t)
	res, err := s.Seed(context.Background(), pages)
	if err != nil {
		t.Fatal(err)
	}
	if e := srv.Errors(); len(e) > 0 || srv.Unserved() != 0 {
		t.Fatalf("script errors %v, %d steps unserved", e, srv.Unserved())
	}
	reqs := srv.Requests()
	if len(reqs) != 8 || len(res.Calls) != 8 {
		t.Fatalf("%d requests, %d calls recorded; want 8", len(reqs), len(res.Calls))
	}

	// Clustering: titles and gists of every page, one retry naming the count.
	first := userText(reqs[0])
	for _, want := range []string{"tools/set_slide_properties: set_slide_properties - Set a slide's name, speaker notes", "recipes/selectors: Selectors -", "Propose 3 to 6 themes"} {
		if !strings.Contains(first, want) {
			t.Errorf("clustering request lacks %q", want)
		}
	}
	if !strings.Contains(userText(reqs[1]), "the answer has 1 themes; give 3 to 6") {
		t.Errorf("the clustering retry does not name the problem:\n%s", userText(reqs[1]))
	}
	if len(res.Themes) != 5 {
		t.Fatalf("themes %v", res.Themes)
	}

	// Assignment.
	for _, a := range res.Assignments {
		t.Logf("%s: %v", a.Theme, a.Pages)
	}
	pagesOf := func(theme string) []string {
		for _, a := range res.Assignments {
			if a.Theme == theme {
				var ids []string
				for _, p := range a.Pages {
					ids = append(ids, p.Page)
				}
				return ids
			}
		}
		t.Fatalf("no assignment for %s", theme)
		return nil
	}
	if got := pagesOf("speaker-notes"); len(got) == 0 || got[0] != "tools/set_slide_properties" {
		t.Errorf("speaker-notes pages %v: want set_slide_properties first", got)
	}
	table := pagesOf("table-edits")
	for _, want := range []string{"tools/create_table", "tools/edit_table_structure", "tools/set_table_cells", "tools/sort_table_rows"} {
		if !slices.Contains(table, want) {
			t.Errorf("table-edits pages %v lack %s", table, want)
		}
	}
	for _, a := range res.Assignments {
		if len(a.Pages) > PagesPerTheme {
			t.Errorf("%s got %d pages, more than N=%d", a.Theme, len(a.Pages), PagesPerTheme)
		}
	}
	if got := pagesOf("hologram-rig"); len(got) != 0 {
		t.Errorf("hologram-rig got pages %v", got)
	}
	if !slices.Contains(res.Unassigned, "tools/create_math") {
		t.Errorf("create_math should be unassigned with these themes: %v", res.Unassigned)
	}

	// Generation requests: pages, whitelist, bank so far.
	gen1 := userText(reqs[2])
	if !strings.Contains(gen1, "=== tools/set_slide_properties: set_slide_properties\nSet a slide's name, speaker notes") ||
		!strings.Contains(gen1, "BANK SO FAR (do not duplicate these)\n(empty)") {
		t.Errorf("first generation request lacks its page or the empty bank:\n%s", gen1)
	}
	allowed := gen1[strings.Index(gen1, "ALLOWED TOOLS\n"):]
	allowed = allowed[:strings.Index(allowed, "\n\n")]
	if !strings.Contains(allowed, "set_slide_properties") || !strings.Contains(allowed, "batch_execute") ||
		!strings.Contains(allowed, "get_page_structure") || strings.Contains(allowed, "create_table") {
		t.Errorf("speaker-notes whitelist: %s", allowed)
	}
	gen2 := userText(reqs[3])
	if !strings.Contains(gen2, "- speaker-notes: add speaker notes, write presenter notes") {
		t.Errorf("second generation request lacks the bank so far:\n%s", gen2)
	}
	retry := reqs[4].Chat.Messages
	last := retry[len(retry)-1].Content
	for _, want := range []string{`"table_fill", which is not an ACE tool`, `body has no "## Clarify before starting" section`} {
		if !strings.Contains(last, want) {
			t.Errorf("retry message lacks %q:\n%s", want, last)
		}
	}
	if len(retry) != 4 || retry[2].Content != fixture(t, "table-edits-bad.md") {
		t.Errorf("the retry does not carry the refused answer (%d messages)", len(retry))
	}

	// Outcomes.
	want := []OutcomeKind{OutcomeKept, OutcomeKept, OutcomeDropped, OutcomeNoSkill, OutcomeNoPages}
	if !slices.Equal(heard, want) {
		t.Fatalf("outcomes %v, want %v", heard, want)
	}
	drop := res.Outcomes[2]
	if drop.Attempts != 2 || len(drop.Problems) == 0 || !strings.Contains(strings.Join(drop.Problems, "\n"), "near-duplicate") {
		t.Errorf("dropped outcome %+v", drop)
	}
	if res.Outcomes[1].Attempts != 2 || res.Outcomes[0].Attempts != 1 || res.Outcomes[4].Attempts != 0 {
		t.Errorf("attempts %+v", res.Outcomes)
	}
	if !strings.Contains(res.Outcomes[3].Reason, "plumbing") {
		t.Errorf("NO_SKILL reason %q", res.Outcomes[3].Reason)
	}

	// The folder for review.
	dir := filepath.Join(t.TempDir(), "seed")
	if err := WriteDir(dir, res.Skills); err != nil {
		t.Fatal(err)
	}
	var bank []skills.Skill
	for _, name := range []string{"speaker-notes", "table-edits"} {
		b, err := os.ReadFile(filepath.Join(dir, name, "SKILL.md"))
		if err != nil {
			t.Fatal(err)
		}
		sk, err := skills.Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		if sk.Status != skills.StatusStable || sk.Version != 1 {
			t.Errorf("%s: status %s version %d, want stable 1", name, sk.Status, sk.Version)
		}
		bank = append(bank, sk)
	}
	if p := skills.Validate(bank, tools.Registry().Names()); len(p) != 0 {
		t.Errorf("written bank does not validate: %v", p)
	}
	if err := WriteDir(dir, res.Skills); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("second write into the same folder: %v", err)
	}
}

// TestSeedClusteringUnusable: two unusable clustering answers stop the
// run with the problem named and no generation call.
func TestSeedClusteringUnusable(t *testing.T) {
	srv := llmtest.NewServer(t, &llmtest.Script{Name: "bad-themes", Steps: []llmtest.Step{
		{Text: "Here are some themes: tables, charts."},
		{Text: fixture(t, "themes-short.json")},
	}})
	client, err := llm.New(srv.Config("seed-model", ""))
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewSeeder(client).Seed(context.Background(), realPages(t))
	if err == nil || !strings.Contains(err.Error(), "the answer has 1 themes; give 20 to 30") {
		t.Fatalf("err %v", err)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Fatalf("%d requests, want 2", n)
	}
}
