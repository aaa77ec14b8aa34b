package coldstart

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/skills"
	"github.com/acecanvas/ace/internal/tools"
)

// TestRealDocsPages: the tool reference gives one page per tool (its name
// first among the page's tools) and an intro; the recipe guide gives its
// sections; ids are unique and stable; the committed docs/tools.md is
// what ToolsDoc splits.
func TestRealDocsPages(t *testing.T) {
	pages := realPages(t)
	names := tools.Registry().Names()
	ids := map[string]bool{}
	toolPages := 0
	for _, p := range pages {
		if ids[p.ID] {
			t.Errorf("duplicate id %s", p.ID)
		}
		ids[p.ID] = true
		if name, ok := strings.CutPrefix(p.ID, "tools/"); ok && name != "intro" {
			toolPages++
			if len(p.Tools) == 0 || p.Tools[0] != name || p.Title != name {
				t.Errorf("%s: title %q tools %v", p.ID, p.Title, p.Tools)
			}
		}
		if strings.TrimSpace(p.Text) == "" {
			t.Errorf("%s is empty", p.ID)
		}
	}
	if toolPages != len(names) {
		t.Errorf("%d tool pages for %d tools", toolPages, len(names))
	}
	for _, id := range []string{"tools/intro", "recipes/intro", "recipes/shape-of-a-file", "recipes/references", "recipes/selectors", "recipes/expectations", "recipes/the-recipes-that-ship"} {
		if !ids[id] {
			t.Errorf("no page %s", id)
		}
	}
	byID := map[string]Page{}
	for _, p := range pages {
		byID[p.ID] = p
	}
	if p := byID["tools/delete_node"]; !slices.Equal(p.Tools, []string{"delete_node", "delete_slide", "edit_table_structure"}) {
		t.Errorf("delete_node names %v", p.Tools)
	}
	if g := byID["tools/get_page_structure"].Gist(); g != "Outline of one slide or the deck: its nodes to a given depth in document order (id, type, name, parentId, depth 0 = the slide, text snippet, slide bounds,..." {
		t.Errorf("gist %q", g)
	}
	if p := byID["recipes/shape-of-a-file"]; !strings.Contains(p.Text, "# shown in reports") {
		t.Errorf("a comment inside a code fence was taken for a heading: %q", p.Text)
	}
	committed, err := os.ReadFile("../../docs/tools.md")
	if err != nil {
		t.Fatal(err)
	}
	if string(committed) != ToolsDoc().Markdown {
		t.Errorf("docs/tools.md differs from the registry's Markdown; run make docs")
	}
}

func TestSplitMarkdownRules(t *testing.T) {
	md := "# Guide\n\nIntro naming batch_execute.\n\n## A b\n\ntext a with set_text_font\n\n## Empty\n### `set_fill_color` *(read-only)*\n\nFill.\n\n## A b\n\nagain\n\n```\n## not a heading\n```\n"
	pages, err := SplitMarkdown("x/Guide.md", md, []string{"batch_execute", "set_text_font", "set_fill_color"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range pages {
		got = append(got, p.ID+"|"+p.Title+"|"+strings.Join(p.Tools, ","))
	}
	want := []string{"guide/intro|Guide|batch_execute", "guide/a-b|A b|set_text_font", "guide/set_fill_color|set_fill_color|set_fill_color", "guide/a-b-2|A b|"}
	if !slices.Equal(got, want) {
		t.Fatalf("pages\n%v\nwant\n%v", got, want)
	}
	if !strings.Contains(pages[3].Text, "## not a heading") {
		t.Errorf("fenced heading split the page: %q", pages[3].Text)
	}
	if _, err := SplitMarkdown("flat.md", "just text\n", nil); err == nil || !strings.Contains(err.Error(), "flat.md") {
		t.Errorf("a document without headings: %v", err)
	}
	dup, err := Dedup(append(pages, Page{ID: "other/x", Text: "text a  with\nset_text_font"}))
	if err != nil || len(dup) != len(pages) {
		t.Errorf("dedup kept %d of %d (err %v)", len(dup), len(pages)+1, err)
	}
	if _, err := Dedup(append(pages, pages[0])); err == nil {
		t.Error("two pages with one id were accepted")
	}
}

func TestParseThemes(t *testing.T) {
	ok := `{"themes":[{"name":"a-b","description":"d","keywords":["table"]},{"name":"c","description":"d","keywords":["chart"]}]}`
	th, err := ParseThemes("```json\n"+ok+"\n```", 2, 3)
	if err != nil || len(th) != 2 || th[0].Name != "a-b" {
		t.Fatalf("%v %v", th, err)
	}
	for _, c := range []struct{ in, want string }{
		{`{"themes":[]}`, "0 themes; give 2 to 3"},
		{`{"themes":[{"name":"A B","description":"d","keywords":["x"]},{"name":"c","description":"","keywords":["the"]}]}`, `name "A B" is not kebab-case`},
		{`{"themes":[{"name":"c","description":"d","keywords":["x"]},{"name":"c","description":"d","keywords":["y"]}]}`, `"c" is used twice`},
		{`{"themes":[{"name":"a","description":"d","keywords":["x"]},{"name":"c","description":"","keywords":["the"]}]}`, `theme "c" has no description; theme "c" has no keywords`},
		{`{"themes":[{"name":"a","description":"d","keywords":["x"],"pages":[]}]}`, "unknown field"},
		{`themes: a, b`, "not a JSON object"},
	} {
		if _, err := ParseThemes(c.in, 2, 3); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", c.in, err, c.want)
		}
	}
}

func TestParseAnswerAndCheck(t *testing.T) {
	a, err := ParseAnswer("NO_SKILL: plumbing only")
	if err != nil || !a.NoSkill || a.Reason != "plumbing only" {
		t.Fatalf("%+v %v", a, err)
	}
	a, err = ParseAnswer("```\n" + fixture(t, "table-edits-bad.md") + "```")
	if err != nil || a.Skill.Status != skills.StatusStable || a.Skill.Version != 1 {
		t.Fatalf("%+v %v", a, err)
	}
	if _, err := ParseAnswer("Sure! Here is the skill."); err == nil {
		t.Error("prose accepted as a SKILL.md")
	}
	names := tools.Registry().Names()
	good, _ := ParseAnswer(fixture(t, "speaker-notes.md"))
	if p := Check(good.Skill, nil, names, []string{"get_all_slides", "set_slide_properties", "replace_text"}); len(p) != 0 {
		t.Fatalf("valid skill refused: %v", p)
	}
	p := Check(good.Skill, nil, names, []string{"get_all_slides", "set_slide_properties"})
	if len(p) != 1 || !strings.Contains(p[0], `"replace_text", which is not among the allowed tools`) {
		t.Errorf("whitelist: %v", p)
	}
	dup, _ := ParseAnswer(fixture(t, "presenter-script.md"))
	p = Check(dup.Skill, []skills.Skill{good.Skill}, names, names)
	if len(p) != 1 || !strings.Contains(p[0], "near-duplicate of presenter-script") {
		t.Errorf("near-duplicate against the bank so far: %v", p)
	}
	p = Check(good.Skill, []skills.Skill{good.Skill}, names, names)
	if len(p) == 0 || !strings.Contains(strings.Join(p, "\n"), "2 skills have this name") {
		t.Errorf("same name twice: %v", p)
	}
}

func FuzzSplitMarkdown(f *testing.F) {
	f.Add("# T\n\nintro\n\n## A\n\ntext\n")
	f.Add("## `x` *(read-only)*\n\n```\n## y\n```\n### z\nw set_text_font\n")
	f.Fuzz(func(t *testing.T, md string) {
		pages, err := SplitMarkdown("d.md", md, []string{"set_text_font", "x"})
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, p := range pages {
			if seen[p.ID] || !strings.HasPrefix(p.ID, "d/") || strings.TrimSpace(p.Text) == "" {
				t.Fatalf("bad page %+v", p)
			}
			seen[p.ID] = true
			_ = p.Gist()
		}
	})
}

func FuzzParseAnswer(f *testing.F) {
	f.Add("NO_SKILL: x")
	f.Add("---\nname: a\ndescription: d\ntool_sequence: [x]\nstatus: stable\nversion: 1\n---\n## When to use\nx\n")
	f.Add("```\n---\nname: a\n---\n```")
	f.Fuzz(func(t *testing.T, text string) {
		a, err := ParseAnswer(text)
		if err != nil || a.NoSkill {
			return
		}
		if !skills.ValidName(a.Skill.Name) || a.Skill.Version != 1 || a.Skill.Status != skills.StatusStable {
			t.Fatalf("accepted %+v", a.Skill)
		}
	})
}

func FuzzParseThemes(f *testing.F) {
	f.Add(`{"themes":[{"name":"a","description":"d","keywords":["x"]}]}`)
	f.Fuzz(func(t *testing.T, text string) {
		th, err := ParseThemes(text, 1, 5)
		if err != nil {
			return
		}
		if len(th) < 1 || len(th) > 5 {
			t.Fatalf("%d themes accepted", len(th))
		}
		for _, x := range th {
			if !skills.ValidName(x.Name) || x.Description == "" {
				t.Fatalf("accepted %+v", x)
			}
		}
	})
}

func TestGist(t *testing.T) {
	byID := map[string]Page{}
	for _, p := range realPages(t) {
		byID[p.ID] = p
	}
	for id, want := range map[string]string{
		"tools/crop_image":        "Crop a picture to an aspect ratio (centred, e.g. 1:1 for a square avatar, 16:9 for a banner) or by explicit side fractions, and/or switch between FILL...",
		"tools/create_text":       "Create a TEXT node.",
		"recipes/intro":           "A recipe is a YAML file that says, precisely, how to change every deck of a library: new brand colours and fonts, a renamed company, a footer on every...",
		"recipes/steps":           "tool - the tool to call; batch_execute and read-only tools are refused (a recipe is already one batch)",
		"recipes/expectations":    "A failed expectation fails the deck's edit (exit 3; in a batch the deck's outcome is `expectation_failed`), names the expectation's line, and lists the...",
		"recipes/shape-of-a-file": "Every problem in a file is reported at once, each with its line and column, before any deck is touched: unknown keys, unknown tools, read-only tools, bad...",
	} {
		if got := byID[id].Gist(); got != want {
			t.Errorf("%s: gist\n%q\nwant\n%q", id, got, want)
		}
	}
}

// TestAssignFirstRunThemes: with the 27 themes of the first real seeding
// run, each theme's core tool pages are among its pages; before the
// title bonus a one-line page lost to long pages that list many words
// (set_series_color to the recipe selector table).
func TestAssignFirstRunThemes(t *testing.T) {
	var ans struct{ Themes []Theme }
	if err := json.Unmarshal([]byte(fixture(t, "first-run-themes.json")), &ans); err != nil || len(ans.Themes) != 27 {
		t.Fatalf("%d themes, %v", len(ans.Themes), err)
	}
	as, unassigned := Assign(ans.Themes, realPages(t))
	got := map[string][]string{}
	for _, a := range as {
		for _, p := range a.Pages {
			got[a.Theme] = append(got[a.Theme], strings.TrimPrefix(p.Page, "tools/"))
		}
	}
	for theme, want := range map[string][]string{
		"chart-styling":         {"set_chart_labels", "set_chart_legend", "set_series_color"},
		"charts-from-data":      {"create_data_chart", "chart_to_table", "sync_chart_from_table"},
		"shapes-and-decoration": {"create_rectangle", "create_ellipse", "set_corner_radius", "set_stroke", "set_gradient_fill"},
		"layering-and-grouping": {"set_z_order", "ungroup_node", "set_opacity"},
		"slide-structure":       {"create_slide", "delete_slide", "duplicate_slide", "reorder_slides", "set_sections"},
		"text-typography":       {"set_text_font", "set_text_range_style", "set_text_decoration", "set_text_color"},
		"speaker-notes":         {"set_slide_properties", "replace_text"},
		"equations":             {"create_math"},
	} {
		for _, w := range want {
			if !slices.Contains(got[theme], w) {
				t.Errorf("%s lacks %s: %v", theme, w, got[theme])
			}
		}
	}
	if got["equations"][0] != "create_math" || len(got["smartart-diagrams"]) != 4 {
		t.Errorf("equations %v, smartart %v", got["equations"], got["smartart-diagrams"])
	}
	if len(unassigned) > 14 {
		t.Errorf("%d pages unassigned: %v", len(unassigned), unassigned)
	}
}
