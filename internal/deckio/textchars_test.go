package deckio_test

// Issue 16 item 3: control characters from scene-graph JSON, Figma JSON or
// a tool call. U+000B and U+2028 become line breaks (a:br); any other
// character a slide file cannot hold is refused with the node named, at
// the tool call and at import, and an export of a deck holding one fails
// with a typed error naming the node.

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/deckio"
	"github.com/acecanvas/ace/internal/formats/pptx"
	sg "github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/internal/tools"
)

// txtText is python-pptx's PowerPoint-made txt-text.pptx and its first
// text box ("TextBox 1").
func txtText(t *testing.T) (*sg.Deck, sg.Blobs, *sg.Node) {
	t.Helper()
	path := shareddecks.PythonPPTX(t, "txt-text.pptx")[0]
	d, blobs, err := deckio.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	n := d.Slides[0].Find(func(n *sg.Node) bool { return n.Name == "TextBox 2" })
	if n == nil {
		t.Fatal("txt-text.pptx: no TextBox 2")
	}
	return d, blobs, n
}

func slideXML(t *testing.T, pkg []byte, part string) string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(pkg), int64(len(pkg)))
	if err != nil {
		t.Fatal(err)
	}
	f, err := zr.Open(part)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func setText(id, text string) tools.Call {
	args, _ := json.Marshal(map[string]string{"nodeId": id, "text": text})
	return tools.Call{Tool: "set_text_content", Args: args}
}

func TestToolCallMapsLineBreaksAndRefusesControlCharacters(t *testing.T) {
	d, blobs, box := txtText(t)

	// U+000B (PowerPoint's soft return) and U+2028 both become a:br.
	out, _, err := tools.Apply(d, []tools.Call{setText(box.ID, "one\vtwo\u2028three")}, tools.Options{})
	if err != nil {
		t.Fatalf("set_text_content with U+000B: %v", err)
	}
	got := sg.NewIndex(out).Node(box.ID).Characters
	if got != "one\u2028two\u2028three" {
		t.Fatalf("characters %q, want U+000B mapped to U+2028", got)
	}
	pkg, err := pptx.Export(out, blobs)
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	xml := slideXML(t, pkg, box.Source.Part)
	want := `<a:t>one</a:t></a:r><a:br>`
	if !strings.Contains(xml, want) || strings.Count(xml[strings.Index(xml, "<a:t>one</a:t>"):], "<a:br>") < 2 {
		t.Fatalf("exported paragraph does not break lines with a:br:\n%s", xml)
	}
	back, _, err := pptx.Import(pkg, "out.pptx")
	if err != nil {
		t.Fatal(err)
	}
	if c := sg.NewIndex(back).Node(box.ID).Characters; c != "one\u2028two\u2028three" {
		t.Fatalf("re-imported text %q", c)
	}

	// Every other control character, U+FFFE and U+FFFF are refused at
	// the call, naming the argument, the character and the node; the
	// deck is unchanged.
	for _, bad := range []string{"\u0001", "\u001f", "\ufffe", "\uffff", "\u0000"} {
		_, _, err := tools.Apply(d, []tools.Call{setText(box.ID, "a"+bad+"b")}, tools.Options{})
		if err == nil {
			t.Fatalf("set_text_content with %U accepted", []rune(bad)[0])
		}
		msg := err.Error()
		for _, part := range []string{"text", box.ID, fmt.Sprintf("U+%04X", []rune(bad)[0]), "position 1"} {
			if !strings.Contains(msg, part) {
				t.Errorf("%U: error %q does not name %q", []rune(bad)[0], msg, part)
			}
		}
	}
	// Inside batch_execute too.
	batch, _ := json.Marshal(map[string]any{"operations": []any{map[string]any{"command": "set_text_content", "parameters": map[string]string{"nodeId": box.ID, "text": "x\u0002"}}}})
	if _, _, err := tools.Apply(d, []tools.Call{{Tool: "batch_execute", Args: batch}}, tools.Options{}); err == nil || !strings.Contains(err.Error(), "U+0002") {
		t.Fatalf("batch_execute with U+0002: %v", err)
	}
	if sg.NewIndex(d).Node(box.ID).Characters != box.Characters {
		t.Fatal("a refused call changed the input deck")
	}
}

func TestSceneGraphJSONImportMapsAndRefuses(t *testing.T) {
	d, _, box := txtText(t)
	for _, c := range []struct {
		text, want string // want "" = refused
		char       string
	}{
		{"a\vb", "a\u2028b", ""},
		{"a\u0001b", "", "U+0001"},
		{"a\ufffeb", "", "U+FFFE"},
	} {
		box.Characters = c.text
		box.CharacterStyleOverrides = nil
		box.Paragraphs = box.Paragraphs[:1]
		data, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := deckio.Decode("deck.json", data)
		if c.want == "" {
			if err == nil {
				t.Fatalf("%q: scene-graph JSON accepted", c.text)
			}
			var ve *sg.ValidationError
			if !errors.As(err, &ve) || ve.Problems[0].Node != box.ID || !strings.HasSuffix(ve.Problems[0].Path, ".characters") {
				t.Fatalf("%q: error %v does not name node %s and its characters", c.text, err, box.ID)
			}
			if !strings.Contains(err.Error(), c.char) || !strings.Contains(err.Error(), box.ID) {
				t.Fatalf("%q: message %q", c.text, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", c.text, err)
		}
		if ch := sg.NewIndex(got).Node(box.ID).Characters; ch != c.want {
			t.Fatalf("%q imported as %q, want %q", c.text, ch, c.want)
		}
	}
}

func TestFigmaImportMapsAndRefuses(t *testing.T) {
	data, err := os.ReadFile(shareddecks.Figma(t))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	// The first TEXT node of the response.
	var text map[string]any
	var find func(n map[string]any)
	find = func(n map[string]any) {
		if text != nil {
			return
		}
		if n["type"] == "TEXT" {
			text = n
			return
		}
		kids, _ := n["children"].([]any)
		for _, k := range kids {
			if m, ok := k.(map[string]any); ok {
				find(m)
			}
		}
	}
	for _, v := range doc["nodes"].(map[string]any) {
		find(v.(map[string]any)["document"].(map[string]any))
	}
	if text == nil {
		t.Fatal("no TEXT node in the Figma sample")
	}
	figmaID := text["id"].(string)
	orig := text["characters"].(string)

	text["characters"] = "Line one\vline two"
	b, _ := json.Marshal(doc)
	d, _, err := deckio.Decode("figma.json", b)
	if err != nil {
		t.Fatalf("Figma text with U+000B: %v", err)
	}
	n := d.Slides[0].Find(func(n *sg.Node) bool { return n.Source != nil && n.Source.ShapeID == figmaID })
	if n == nil || n.Characters != "Line one\u2028line two" {
		t.Fatalf("Figma node %s imported as %+v, want U+000B as U+2028", figmaID, n)
	}

	text["characters"] = orig + "\u0007"
	b, _ = json.Marshal(doc)
	_, _, err = deckio.Decode("figma.json", b)
	var ve *sg.ValidationError
	if !errors.As(err, &ve) || !strings.Contains(err.Error(), "U+0007") || !strings.HasSuffix(ve.Problems[0].Path, ".characters") || ve.Problems[0].Node != n.ID {
		t.Fatalf("Figma text with U+0007: error %v, want one naming node %s and its characters", err, n.ID)
	}
}

// An export of a deck holding a bad character (built in memory, past every
// check) fails with the validator's typed error naming the node, not with
// "generated XML ... is invalid (bug)".
func TestExportRefusesControlCharacterNamingTheNode(t *testing.T) {
	d, blobs, box := txtText(t)
	box.Characters = "ab\u0001"
	box.CharacterStyleOverrides = nil
	_, err := pptx.Export(d, blobs)
	var ve *sg.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("export error %T %v, want *scenegraph.ValidationError", err, err)
	}
	if p := ve.Problems[0]; p.Node != box.ID || !p.Value || !strings.Contains(p.Msg, "U+0001") {
		t.Fatalf("problem %+v, want node %s and U+0001", p, box.ID)
	}
	if strings.Contains(err.Error(), "(bug)") {
		t.Fatalf("export blamed itself: %v", err)
	}
}
