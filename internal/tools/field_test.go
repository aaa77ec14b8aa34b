package tools

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/formats/pptx"
	sg "github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
)

// fieldDecks are the real files whose slides hold a:fld elements
// (found with unzip -p ... | grep a:fld): python-pptx's txt-text.pptx has a
// slide number after a line break inside a paragraph of other runs;
// career-tips and build_effective_agents have slide-number placeholders.
func fieldDecks(t *testing.T) []string {
	return []string{
		shareddecks.PythonPPTX(t, "txt-text.pptx")[0],
		filepath.Join(decksDir(t), "career-tips.pptx"),
		filepath.Join(decksDir(t), "build_effective_agents.pptx"),
	}
}

// zipParts reads every part of a package.
func zipParts(t *testing.T, file []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name] = b
	}
	return out
}

var fldTag = regexp.MustCompile(`<a:fld\b[^>]*>`)
var fldAttr = regexp.MustCompile(`\b(id|type)="([^"]*)"`)

// slideFields lists the a:fld elements of every slide part as
// "part id type", sorted.
func slideFields(parts map[string][]byte) []string {
	var out []string
	for name, b := range parts {
		if !strings.HasPrefix(name, "ppt/slides/slide") || !strings.HasSuffix(name, ".xml") {
			continue
		}
		for _, tag := range fldTag.FindAllString(string(b), -1) {
			id, typ := "", ""
			for _, m := range fldAttr.FindAllStringSubmatch(tag, -1) {
				if m[1] == "id" {
					id = m[2]
				} else {
					typ = m[2]
				}
			}
			out = append(out, name+" "+id+" "+typ)
		}
	}
	slices.Sort(out)
	return out
}

// firstFieldNode returns the first text holder with a field, in slide order.
func firstFieldNode(d *sg.Deck) *sg.Node {
	var found *sg.Node
	for _, s := range d.Slides {
		s.Walk(func(n *sg.Node, _ *sg.Node, _ int) bool {
			if found == nil && len(n.Fields) > 0 && n.Source != nil && n.Source.Format == "pptx" {
				found = n
			}
			return found == nil
		})
	}
	return found
}

// TestFieldsSurviveTextTools applies every text and style tool to a text
// holding a slide-number field in real PowerPoint-made files, exports, and
// checks that every a:fld of every slide is still there with its id and
// type, that the edited slide did change, and that the re-imported deck
// models the field again. An unedited round trip keeps every part
// byte-identical.
func TestFieldsSurviveTextTools(t *testing.T) {
	for _, path := range fieldDecks(t) {
		name := filepath.Base(path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		d, blobs, err := pptx.Import(data, name)
		if err != nil {
			t.Fatalf("import %s: %v", name, err)
		}
		orig := zipParts(t, data)
		want := slideFields(orig)
		if len(want) == 0 {
			t.Fatalf("%s: no a:fld in its slides", name)
		}
		n := firstFieldNode(d)
		if n == nil {
			t.Fatalf("%s: the importer modelled none of its %d fields", name, len(want))
		}
		f := n.Fields[0]
		if got := []rune(n.Characters)[f.Start:f.End]; f.ID == "" || f.Type != "slidenum" || len(got) == 0 {
			t.Fatalf("%s: field %+v over %q", name, f, string(got))
		}

		t.Run(name+"/unedited", func(t *testing.T) {
			file, err := pptx.Export(d, blobs)
			if err != nil {
				t.Fatal(err)
			}
			got := zipParts(t, file)
			for p, b := range orig {
				if !bytes.Equal(got[p], b) {
					t.Errorf("part %s changed by an unedited round trip", p)
				}
			}
		})

		text := n.Characters
		runes := []rune(text)
		// A literal character outside the field to rewrite with find, and
		// a whole-text rewrite that leaves the field's characters in place.
		before := string(runes[:f.Start])
		findAt := strings.IndexFunc(before, func(r rune) bool { return r >= 'A' && r <= 'z' })
		cases := []struct {
			tool string
			args map[string]any
		}{
			{"set_text_color", map[string]any{"color": "#C00000"}},
			{"set_text_color", map[string]any{"color": "#00A000", "start": f.Start, "end": f.End}},
			{"set_text_font", map[string]any{"fontFamily": "Georgia"}},
			{"set_text_font", map[string]any{"fontSize": 41}},
			{"set_text_font", map[string]any{"fontStyle": "Bold Italic"}},
			{"set_text_range_style", map[string]any{"letterSpacing": 2, "textCase": "UPPER"}},
			{"set_text_decoration", map[string]any{"decoration": "UNDERLINE"}},
			{"set_text_align", map[string]any{"horizontal": "CENTER", "vertical": "BOTTOM"}},
			{"set_paragraph_style", map[string]any{"align": "RIGHT", "spaceBefore": 7}},
			{"set_text_box", map[string]any{"padding": 5}},
			{"set_hyperlink", map[string]any{"url": "https://example.com/fields"}},
			{"enforce_min_font_size", map[string]any{"minSize": 90}},
			{"set_text_content", map[string]any{"text": "Now " + text}},
			{"rewrite_text", map[string]any{"paragraphs": prefixed(strings.Split(text, "\n"))}},
		}
		if runs := nonFieldRunsPrefixed(n); !slices.Equal(runs, runTexts(n)) {
			cases = append(cases, struct {
				tool string
				args map[string]any
			}{"rewrite_text", map[string]any{"runs": runs}})
		}
		if findAt >= 0 {
			c := string([]rune(before)[findAt:][:1])
			cases = append(cases,
				struct {
					tool string
					args map[string]any
				}{"set_text_content", map[string]any{"find": c, "text": "Q" + c + "Q"}},
				struct {
					tool string
					args map[string]any
				}{"set_multiple_text_contents", map[string]any{"items": []map[string]any{{"nodeId": n.ID, "text": text + " end"}}}},
			)
		}
		for _, c := range cases {
			if _, ok := c.args["items"]; !ok {
				c.args["nodeId"] = n.ID
			}
			t.Run(name+"/"+c.tool, func(t *testing.T) {
				out, _ := apply(t, d, opts(t), call(c.tool, c.args))
				file, err := pptx.Export(out, blobs)
				if err != nil {
					t.Fatalf("export: %v", err)
				}
				parts := zipParts(t, file)
				if got := slideFields(parts); !slices.Equal(got, want) {
					t.Errorf("a:fld after %s:\n got %q\nwant %q", c.tool, got, want)
				}
				changed := 0
				for p, b := range parts {
					if strings.HasPrefix(p, "ppt/slides/slide") && !bytes.Equal(b, orig[p]) {
						changed++
					}
				}
				if changed == 0 {
					t.Errorf("%s changed no slide part: the test did not exercise an edit", c.tool)
				}
				back, _, err := pptx.Import(file, name)
				if err != nil {
					t.Fatalf("re-import: %v", err)
				}
				var ids []string
				back.Walk(func(m *sg.Node, _ *sg.Node, _ int) bool {
					for _, g := range m.Fields {
						ids = append(ids, g.ID)
					}
					return true
				})
				if !slices.Contains(ids, f.ID) {
					t.Errorf("re-imported deck has no field %s (has %q)", f.ID, ids)
				}
			})
		}
	}
}

// prefixed puts "Now " before every non-empty string.
func prefixed(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		if s != "" {
			s = "Now " + s
		}
		out[i] = s
	}
	return out
}

// nonFieldRunsPrefixed is rewrite_text's runs for n with "Now " before
// every run that is not a field.
func nonFieldRunsPrefixed(n *sg.Node) []string {
	out := runTexts(n)
	for k, r := range n.ParagraphRuns() {
		if r.Field < 0 {
			out[k] = "Now " + out[k]
		}
	}
	return out
}

// runTexts is the text of each of n's paragraph runs.
func runTexts(n *sg.Node) []string {
	rs := []rune(n.Characters)
	var out []string
	for _, r := range n.ParagraphRuns() {
		out = append(out, string(rs[r.Start:r.End]))
	}
	return out
}

// TestSetTextContentOverField pins what happens when new text replaces a
// field's characters: the field becomes the literal text the caller gave
// (no a:fld is written for it), and every other field of the deck stays.
func TestSetTextContentOverField(t *testing.T) {
	path := shareddecks.PythonPPTX(t, "txt-text.pptx")[0]
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, blobs, err := pptx.Import(data, "txt-text.pptx")
	if err != nil {
		t.Fatal(err)
	}
	n := firstFieldNode(d)
	if n == nil {
		t.Fatal("no field modelled in txt-text.pptx")
	}
	f := n.Fields[0]
	runes := []rune(n.Characters)
	// The field's cached text "1" becomes "7": the caller wrote that digit.
	text := string(runes[:f.Start]) + "7" + string(runes[f.End:])
	out, _ := apply(t, d, opts(t), call("set_text_content", map[string]any{"nodeId": n.ID, "text": text}))
	if m := nodeIn(t, out, n.ID); len(m.Fields) != 0 {
		t.Fatalf("field kept over replaced characters: %+v", m.Fields)
	}
	file, err := pptx.Export(out, blobs)
	if err != nil {
		t.Fatal(err)
	}
	parts := zipParts(t, file)
	want := slideFields(zipParts(t, data))
	got := slideFields(parts)
	if len(got) != len(want)-1 {
		t.Fatalf("a:fld: got %q, want %q less the replaced one", got, want)
	}
	for _, g := range got {
		if strings.Contains(g, f.ID) {
			t.Errorf("replaced field %s still written: %q", f.ID, got)
		}
	}
	var xml string
	for p, b := range parts {
		if strings.HasPrefix(p, "ppt/slides/slide") && bytes.Contains(b, []byte("Zoo")) {
			xml = string(b)
		}
	}
	if !strings.Contains(xml, "<a:t>7</a:t></a:r>") {
		t.Errorf("replacement not written as a literal run:\n%s", xml)
	}
}

// TestAddFooterSlideNumberIsAField: add_footer's slide number is a live
// slide-number field (a:fld type="slidenum") in the exported file, both
// where it fills the slide's slide-number placeholder (career-tips slide
// 6) and where it creates a new text (table-report slide 2, which has
// none), so PowerPoint renumbers it when slides move; before it was
// literal text.
func TestAddFooterSlideNumberIsAField(t *testing.T) {
	for _, c := range []struct {
		deck   string
		slide  int
		create bool
	}{{"career-tips.pptx", 5, false}, {"table-report.pptx", 1, true}} {
		data, err := os.ReadFile(filepath.Join(decksDir(t), c.deck))
		if err != nil {
			t.Fatal(err)
		}
		d, blobs, err := pptx.Import(data, c.deck)
		if err != nil {
			t.Fatal(err)
		}
		s := d.Slides[c.slide]
		out, res := apply(t, d, opts(t), call("add_footer", map[string]any{"slideNumber": true, "slideIds": []string{s.ID}}))
		if len(res) != 1 {
			t.Fatalf("%s slide %d: %+v", c.deck, c.slide+1, res)
		}
		ids := res[0].Changed
		if c.create {
			ids = res[0].Created
		}
		var num *sg.Node
		for _, id := range ids {
			if n := nodeIn(t, out, id); n != nil && n.Placeholder != nil && n.Placeholder.Role == "sldNum" {
				num = n
			}
		}
		if num == nil {
			t.Fatalf("%s slide %d: no slide-number node among %v (created %v)", c.deck, c.slide+1, ids, c.create)
		}
		want := strconv.Itoa(c.slide + 1)
		if num.Characters != want || len(num.Fields) != 1 || num.Fields[0].Type != sg.FieldSlideNumber || num.Fields[0].End != len(want) {
			t.Fatalf("%s slide %d: %q fields %+v, want %q as one slidenum field", c.deck, c.slide+1, num.Characters, num.Fields, want)
		}
		file, err := pptx.Export(out, blobs)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, f := range slideFields(zipParts(t, file)) {
			if strings.Contains(f, num.Fields[0].ID) && strings.HasSuffix(f, " slidenum") {
				found = true
			}
		}
		if !found {
			t.Errorf("%s slide %d: exported slides hold no a:fld %s of type slidenum", c.deck, c.slide+1, num.Fields[0].ID)
		}
	}
}
