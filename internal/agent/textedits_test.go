package agent_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/diff"
	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/judge"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/route"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/internal/tools"
)

// careerTips imports the real deck career-tips.pptx.
func careerTips(t *testing.T) (*scenegraph.Deck, scenegraph.AssetSource) {
	t.Helper()
	data, err := os.ReadFile(shareddecks.PPTXFile(t, "career-tips.pptx"))
	if err != nil {
		t.Fatal(err)
	}
	d, blobs, err := pptx.Import(data, "career-tips.pptx")
	if err != nil {
		t.Fatal(err)
	}
	return d, blobs
}

// routedRun routes instruction on d as the loop does, drives the scripted
// model through it and returns the edited deck and the server.
func routedRun(t *testing.T, d *scenegraph.Deck, instruction, script string) (*scenegraph.Deck, *llmtest.Server) {
	t.Helper()
	dec := route.Heuristic(instruction, d)
	text, err := route.Context(d, dec)
	if err != nil {
		t.Fatal(err)
	}
	a, srv := newAgent(t, script)
	got, out, _ := drive(t, a, agent.Input{Deck: d, Mode: string(dec.Mode), Context: text, Instruction: instruction}, 4)
	if len(out.Errors) > 0 {
		t.Logf("tool errors %+v", out.Errors)
	}
	return got, srv
}

// exportParts exports d and returns the package's parts by name.
func exportParts(t *testing.T, d *scenegraph.Deck, blobs scenegraph.AssetSource) ([]byte, map[string]string) {
	t.Helper()
	file, err := pptx.Export(d, blobs)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	parts := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		parts[f.Name] = string(b)
	}
	return file, parts
}

// partWith returns the name and text of the first part under dir holding s.
func partWith(parts map[string]string, dir, s string) (string, string) {
	for name, x := range parts {
		if strings.HasPrefix(name, dir) && strings.HasSuffix(name, ".xml") && strings.Contains(x, s) {
			return name, x
		}
	}
	return "", ""
}

// toolResult is the content of the tool message answering call id in the
// request that followed it.
func toolResult(t *testing.T, srv *llmtest.Server, req int, id string) string {
	t.Helper()
	msgs := srv.Requests()[req].Chat.Messages
	for _, m := range msgs {
		if m.Role == "tool" && m.ToolCallID == id {
			return m.Content
		}
	}
	t.Fatalf("request %d has no tool result for %s", req, id)
	return ""
}

func toolDesc(srv *llmtest.Server, name string) string {
	for _, tl := range srv.Requests()[0].Chat.Tools {
		if tl.Function.Name == name {
			b, _ := json.Marshal(tl.Function)
			return string(b)
		}
	}
	return ""
}

// TestSpeakerNotesReachTheModelAndTheFile: slide 4 of career-tips.pptx
// has speaker notes; the MICRO context of slide 4 shows them, get_node_info
// of the slide returns them, set_slide_properties says it replaces or
// appends, and both modes end in the exported notes slide.
func TestSpeakerNotesReachTheModelAndTheFile(t *testing.T) {
	base, blobs := careerTips(t)
	base, _, err := tools.Apply(base, []tools.Call{{Tool: "set_slide_properties", Args: json.RawMessage(`{"slideId": "s4", "notes": "Introduce yourself in one sentence."}`)}}, tools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		mode, args, want string
	}{
		{"append", `{slideId: s4, notes: "Then ask who has given a talk this year.", notesMode: append}`,
			"Introduce yourself in one sentence.\nThen ask who has given a talk this year."},
		{"replace", `{slideId: s4, notes: "Keep it under a minute."}`, "Keep it under a minute."},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			got, srv := routedRun(t, base, "On slide 4, change the speaker notes ("+tc.mode+").", `
steps:
  - tool_calls: [{id: read, name: get_node_info, arguments: {nodeId: s4, limit: 1}}]
  - tool_calls: [{id: set, name: set_slide_properties, arguments: `+tc.args+`}]
  - tool_calls: [{name: submit}]
`)
			first := srv.Requests()[0].Chat.Messages
			if user := first[len(first)-1].Content; !strings.Contains(user, `"notes":"Introduce yourself in one sentence."`) {
				t.Errorf("the routed context does not show slide 4's notes:\n%.3000s", user)
			}
			if !strings.Contains(first[0].Content, "notes are its speaker notes") {
				t.Error("the mode block does not say what notes are")
			}
			if r := toolResult(t, srv, 1, "read"); !strings.Contains(r, `"notes":"Introduce yourself in one sentence."`) {
				t.Errorf("get_node_info of the slide does not return its notes: %.600s", r)
			}
			if d := toolDesc(srv, "set_slide_properties"); !strings.Contains(d, "replace (default)") || !strings.Contains(d, "append:") {
				t.Errorf("set_slide_properties does not say whether notes replace or append: %s", d)
			}
			if n := got.Slides[3].Slide.Notes; n != tc.want {
				t.Fatalf("notes %q, want %q", n, tc.want)
			}
			file, parts := exportParts(t, got, blobs)
			last := tc.want[strings.LastIndex(tc.want, "\n")+1:]
			name, xml := partWith(parts, "ppt/notesSlides/", last)
			if name == "" {
				t.Fatalf("no notes slide holds %q", last)
			}
			for _, line := range strings.Split(tc.want, "\n") {
				if !strings.Contains(xml, "<a:t>"+line+"</a:t>") {
					t.Errorf("%s lacks the paragraph %q", name, line)
				}
			}
			if tc.mode == "replace" && strings.Contains(xml, "Introduce yourself") {
				t.Errorf("%s still holds the replaced notes", name)
			}
			back, _, err := pptx.Import(file, "edited.pptx")
			if err != nil || back.Slides[3].Slide == nil || back.Slides[3].Slide.Notes != tc.want {
				t.Fatalf("re-imported notes: %v %+v", err, back.Slides[3].Slide)
			}
		})
	}
}

// TestReplaceTextKeepsRunStyles: "Replace every 'jayden smith'" on the real
// deck is one replace_text call; the count per slide goes back to the
// model, and in the exported .pptx the name is still in its bold run.
func TestReplaceTextKeepsRunStyles(t *testing.T) {
	base, blobs := careerTips(t)
	got, srv := routedRun(t, base, "Replace every 'jayden smith' with 'Ada Lovelace'.", `
steps:
  - tool_calls: [{id: rep, name: replace_text, arguments: {find: jayden smith, replace: Ada Lovelace, wholeWord: true}}]
  - tool_calls: [{name: submit}]
`)
	if r := toolResult(t, srv, 1, "rep"); !strings.Contains(r, `"replaced":1,"slides":[{"slide":4,"slideId":"s4","text":1}]`) {
		t.Errorf("tool result: %s", r)
	}
	n := scenegraph.NewIndex(got).Node("s4/96")
	if !strings.HasPrefix(n.Characters, "I am Ada Lovelace\nI am here") {
		t.Fatalf("text %q", n.Characters)
	}
	_, parts := exportParts(t, got, blobs)
	name, xml := partWith(parts, "ppt/slides/", "Ada Lovelace")
	if name == "" {
		t.Fatal("no slide part holds the replacement")
	}
	if !regexp.MustCompile(`<a:r><a:rPr[^>]* b="1"[^>]*/><a:t>I am Ada Lovelace</a:t></a:r>`).MatchString(xml) {
		i := strings.Index(xml, "Ada Lovelace")
		t.Errorf("%s: the name is not in a bold run: %s", name, xml[max(0, i-200):i+40])
	}
	if strings.Contains(xml, "Jayden") {
		t.Errorf("%s still holds the old name", name)
	}
}

// TestFontSizeInPoints: "19 pt" goes to the tool as "19pt"; a misspelt
// unit comes back to the model as an error naming the argument; the
// exported run has sz="1900" (hundredths of a point, ECMA-376 §21.1.2.3.9).
func TestFontSizeInPoints(t *testing.T) {
	base, blobs := careerTips(t)
	got, srv := routedRun(t, base, "Set the title font size on slide 6 to 19 pt.", `
steps:
  - tool_calls: [{id: bad, name: set_text_font, arguments: {nodeId: s6/109, fontSize: "19 pts"}}]
  - tool_calls: [{id: good, name: set_text_font, arguments: {nodeId: s6/109, fontSize: "19pt"}}]
  - tool_calls: [{name: submit}]
`)
	first := srv.Requests()[0].Chat.Messages
	if !strings.Contains(first[0].Content, "1 pt = 4/3 px") {
		t.Error("the prompt does not say which unit the context's numbers are in")
	}
	if user := first[len(first)-1].Content; !strings.Contains(user, `"id":"s6/109"`) || !strings.Contains(user, " 29.3") {
		t.Errorf("the context does not show the title's size in px:\n%.3000s", user)
	}
	if d := toolDesc(srv, "set_text_font"); !strings.Contains(d, `\"19pt\"`) || !strings.Contains(d, `"type":["number","string"]`) {
		t.Errorf("set_text_font's fontSize does not take a unit: %s", d)
	}
	if r := toolResult(t, srv, 1, "bad"); !strings.Contains(r, `fontSize \"19 pts\": unknown unit; use px, pt, in, cm or mm`) {
		t.Errorf("bad unit result: %s", r)
	}
	if fs := scenegraph.NewIndex(got).Node("s6/109").StyleAt(0).FontSize; fs < 25.33 || fs > 25.34 {
		t.Fatalf("font size %v px, want 25.333 (19 pt)", fs)
	}
	_, parts := exportParts(t, got, blobs)
	name, xml := partWith(parts, "ppt/slides/", "This is a slide title")
	if !regexp.MustCompile(`<a:rPr[^>]* sz="1900"[^>]*/?><a:t>This is a slide title</a:t>`).MatchString(xml) {
		i := strings.Index(xml, "This is a slide title")
		t.Errorf("%s: the title run is not sz=\"1900\": %s", name, xml[max(0, i-300):i+30])
	}
}

// runXML is the DrawingML run (<a:r>...</a:r>) of xml whose text is
// exactly text, or "".
func runXML(xml, text string) string {
	i := strings.Index(xml, "<a:t>"+text+"</a:t>")
	if i < 0 {
		return ""
	}
	start := strings.LastIndex(xml[:i], "<a:r>")
	end := strings.Index(xml[i:], "</a:r>")
	if start < 0 || end < 0 {
		return ""
	}
	return xml[start : i+end+len("</a:r>")]
}

// French runs for career-tips s2/79: a bold heading, a sentence with a
// bold quoted phrase, a sentence ending in an underlined link to slide
// 25, and an empty last paragraph (no run).
var s279French = []string{
	"MODIFIER DANS POWERPOINT®",
	"Cliquez sur le bouton sous l’aperçu qui indique ",
	"« Télécharger comme modèle PowerPoint »",
	". Vous obtiendrez un fichier .pptx à modifier dans PowerPoint. ",
	"Pensez à installer les polices de cette présentation (les liens sont sur la ",
	"diapositive de conception",
	")",
}

// TestTranslationKeepsRunStylesInTheFile: "Translate slides 2 and 18
// into French" on career-tips.pptx. The model gets rewrite_text up
// front, reads slide 2's runs with get_text_node_info (index, paragraph,
// text, style summary), is told how many runs there are when it gives
// too few, then translates slide 2's box run by run and slide 18's
// "Yellow" card paragraph by paragraph. The exported slides keep the
// bold heading and phrase (b="1"), the underlined link (u="sng" with its
// hlinkClick) and the 12 pt description under the 16 pt heading.
func TestTranslationKeepsRunStylesInTheFile(t *testing.T) {
	base, blobs := careerTips(t)
	runs, _ := json.Marshal(s279French)
	got, srv := routedRun(t, base, "Translate slides 2 and 18 into French.", `
steps:
  - tool_calls: [{id: read, name: get_text_node_info, arguments: {nodeId: s2/79}}]
  - tool_calls: [{id: short, name: rewrite_text, arguments: {nodeId: s2/79, runs: [MODIFIER DANS POWERPOINT®, Cliquez, Pensez]}}]
  - tool_calls:
      - {id: runs, name: rewrite_text, arguments: {nodeId: s2/79, runs: `+string(runs)+`}}
      - {id: paras, name: rewrite_text, arguments: {nodeId: s18/324, paragraphs: [Jaune, "C’est la couleur de l’or, du beurre et des citrons mûrs."]}}
  - tool_calls: [{name: submit}]
`)
	if toolDesc(srv, "rewrite_text") == "" {
		t.Error("rewrite_text is not offered for a translation")
	}
	read := toolResult(t, srv, 1, "read")
	for _, want := range []string{`"run":2,"paragraph":1,`, `"text":"\"Download as PowerPoint template\"","summary":"Inria Serif Light 16px bold #756F6F"`,
		`"text":"Presentation design slide","summary":"Inria Serif Light 16px underline #413A3A link to slide s25"`, `"paragraphCount":4`} {
		if !strings.Contains(read, want) {
			t.Errorf("get_text_node_info does not show %s: %.1500s", want, read)
		}
	}
	if r := toolResult(t, srv, 2, "short"); !strings.Contains(r, `node \"s2/79\" has 7 runs, runs has 3`) || !strings.Contains(r, `5 \"Presentation design slide\" (paragraph 2;`) {
		t.Errorf("a short runs list is not explained: %s", r)
	}
	if r := toolResult(t, srv, 3, "runs"); !strings.Contains(r, `"unit":"runs","total":7,"rewritten":6`) {
		t.Errorf("rewrite result: %s", r)
	}
	ix := scenegraph.NewIndex(got)
	if n := ix.Node("s2/79"); !strings.HasPrefix(n.Characters, "MODIFIER DANS POWERPOINT®\nCliquez") {
		t.Fatalf("s2/79 not translated: %q", n.Characters)
	}

	_, parts := exportParts(t, got, blobs)
	name, xml := partWith(parts, "ppt/slides/", "Télécharger comme modèle PowerPoint")
	if name == "" {
		t.Fatal("no slide part holds the translation of slide 2")
	}
	for _, c := range []struct {
		text      string
		want, not []string
	}{
		{"MODIFIER DANS POWERPOINT®", []string{` b="1"`}, nil},
		{"« Télécharger comme modèle PowerPoint »", []string{` b="1"`, ` sz="1200"`}, nil},
		{"Cliquez sur le bouton sous l’aperçu qui indique ", []string{` sz="1200"`}, []string{` b="1"`}},
		{"diapositive de conception", []string{` u="sng"`, `<a:hlinkClick `, `ppaction://hlinksldjump`}, []string{` b="1"`}},
	} {
		r := runXML(xml, c.text)
		if r == "" {
			t.Errorf("%s: no run holds %q", name, c.text)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(r, w) {
				t.Errorf("%s: the run %q lacks %s: %s", name, c.text, w, r)
			}
		}
		for _, w := range c.not {
			if strings.Contains(r, w) {
				t.Errorf("%s: the run %q has %s: %s", name, c.text, w, r)
			}
		}
	}
	name, xml = partWith(parts, "ppt/slides/", "citrons mûrs")
	if name == "" {
		t.Fatal("no slide part holds the translation of slide 18")
	}
	if r := runXML(xml, "Jaune"); !strings.Contains(r, ` b="1"`) || strings.Contains(r, ` sz="1200"`) {
		t.Errorf("%s: the heading run is not the bold 16 pt one: %s", name, r)
	}
	if r := runXML(xml, "C’est la couleur de l’or, du beurre et des citrons mûrs."); !strings.Contains(r, ` sz="1200"`) || strings.Contains(r, ` b="1"`) {
		t.Errorf("%s: the description run is not the regular 12 pt one: %s", name, r)
	}
}

// TestWholeTextReplaceShowsTheJudgeLostRangeStyles: the same translation
// done with set_text_content (a whole-text replace) flattens s2/79, and
// the diff the judge model receives over HTTP says what was lost: the
// regular sentences (the base style is bold, so all of it turned bold)
// and the underlined, coloured link to slide 25.
func TestWholeTextReplaceShowsTheJudgeLostRangeStyles(t *testing.T) {
	d, _ := careerTips(t)
	const instruction = "Translate the text on slide 2 into French."
	dec := route.Heuristic(instruction, d)
	text, err := route.Context(d, dec)
	if err != nil {
		t.Fatal(err)
	}
	flat, _ := json.Marshal(strings.Join([]string{s279French[0], strings.Join(s279French[1:4], ""), strings.Join(s279French[4:], ""), ""}, "\n"))
	a, srv := newAgent(t, `
steps:
  - model: agent-m
    tool_calls: [{id: set, name: set_text_content, arguments: {nodeId: s2/79, text: `+string(flat)+`}}]
  - model: agent-m
    tool_calls: [{name: submit}]
  - model: judge-m
    text: '{"instruction_following_score": 3, "instruction_following_reason": "Translated, but the link and the plain sentences lost their styles."}'
`)
	got, out, _ := drive(t, a, agent.Input{Deck: d, Mode: string(dec.Mode), Context: text, Instruction: instruction}, 3)
	if len(out.Errors) > 0 {
		t.Fatalf("tool errors %+v", out.Errors)
	}
	j := &judge.Judge{LLM: a.LLM}
	if _, err := j.IF(context.Background(), judge.IFInput{Instruction: instruction, Diff: diff.Compute(d, got).RoutedText(d, dec.TargetSlides)}); err != nil {
		t.Fatal(err)
	}
	msgs := srv.RequestsFor("judge-m")[0].Chat.Messages
	seen := msgs[len(msgs)-1].Content
	for _, want := range []string{
		`~ MODIFIED TEXT "Google Shape;79;p14" [s2/79]: range styles lost (the new text has fewer parts in their own style): `,
		`regular weight on "Click on the button under the presentation preview that say…", ". You will get a .pptx file that you can edit in PowerPoint…", "Remember to download and install the fonts used in this pre…" (3 ranges -> 0)`,
		`underline, colour #413A3A, link #s25 on "Presentation design slide" (1 range -> 0)`,
	} {
		if !strings.Contains(seen, want) {
			t.Errorf("the judge was not shown %q:\n%s", want, seen)
		}
	}
	if !strings.Contains(msgs[0].Content, `"range styles lost" entry`) {
		t.Error("the judge's prompt does not say what a range styles entry means")
	}
}
