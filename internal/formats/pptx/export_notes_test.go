package pptx

import (
	"bytes"
	"encoding/json"
	"path"
	"strings"
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/tools"
)

// call builds one tool call of a batch.
func call(t *testing.T, tool, as string, args map[string]any) tools.Call {
	t.Helper()
	b, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return tools.Call{Tool: tool, Args: b, As: as}
}

// notesOf lists every slide's speaker notes in deck order.
func notesOf(d *sg.Deck) []string {
	var out []string
	for _, s := range d.Slides {
		n := ""
		if s.Slide != nil {
			n = s.Slide.Notes
		}
		out = append(out, n)
	}
	return out
}

// partsUnder lists the .xml parts of a package in a folder.
func partsUnder(parts map[string][]byte, dir string) []string {
	var out []string
	for name := range parts {
		if path.Dir(name) == dir && path.Ext(name) == ".xml" {
			out = append(out, name)
		}
	}
	return out
}

// noNotesWarning fails on an export warning about speaker notes: notes
// are content, and none may be dropped.
func noNotesWarning(t *testing.T, warns []Warning) {
	t.Helper()
	for _, w := range warns {
		if strings.Contains(strings.ToLower(w.Msg), "notes") {
			t.Errorf("export warned about notes: %s", w)
		}
	}
}

const addedNotes = "Say hello first.\n\nThen: costs & <risks>, \"quoted\"\tand tabbed"

// TestNewSlideNotesOnRealDecks adds a slide with speaker notes through the
// tools to real decks (one with a notes master and notes slides, one with
// a notes master but no notes slides, one with neither), exports, and
// reads the notes back; the original parts other than the slide list stay
// byte-identical and the package has exactly one notes master.
func TestNewSlideNotesOnRealDecks(t *testing.T) {
	for _, tc := range []struct {
		file       string
		hadMaster  bool
		wantMaster string // the notes master the new notes slide uses
		// wantLayout: a title and a body pick the deck's title-and-body
		// layout: by type (Google's "tx", PowerPoint's "obj") or, for
		// untyped custom layouts, by their placeholders.
		wantLayout string
	}{
		{"career-tips.pptx", true, "ppt/notesMasters/notesMaster1.xml", "TITLE_AND_BODY"},
		{"build_effective_agents.pptx", true, "ppt/notesMasters/notesMaster1.xml", "标题和内容"},
		{"default_template.pptx", false, "ppt/notesMasters/notesMaster1.xml", "Title and Content"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			data := readDeck(t, tc.file)
			d, blobs, err := Import(data, tc.file)
			if err != nil {
				t.Fatal(err)
			}
			before := notesOf(d)
			ed, res, err := tools.Apply(d, []tools.Call{
				call(t, "create_slide", "new", map[string]any{"title": "Added by ACE", "body": "One point"}),
				call(t, "set_slide_properties", "", map[string]any{"slideId": "$new", "notes": addedNotes}),
			}, tools.Options{})
			if err != nil {
				t.Fatal(err)
			}
			newID := res[0].Created[0]
			_, at := ed.SlideByID(newID)
			d2, out := exportAndReimport(t, ed, blobs, "out.pptx")
			got := notesOf(d2)
			want := append(append(append([]string{}, before[:at]...), addedNotes), before[at:]...)
			if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
				t.Errorf("notes after the round trip:\n got %q\nwant %q", got, want)
			}
			if l := d2.Slides[at].Slide.Layout; l != tc.wantLayout {
				t.Errorf("new slide on layout %q, want %q", l, tc.wantLayout)
			}
			orig, parts := zipParts(t, data), zipParts(t, out)
			masters := partsUnder(parts, "ppt/notesMasters")
			if len(masters) != 1 || masters[0] != tc.wantMaster {
				t.Errorf("notes masters %v, want [%s]", masters, tc.wantMaster)
			}
			if tc.hadMaster && !bytes.Equal(orig[tc.wantMaster], parts[tc.wantMaster]) {
				t.Errorf("the original notes master was rewritten")
			}
			// The new slide's notes slide points at that master and back at
			// the slide.
			p, err := openPackage(out, "out.pptx", DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			slidePart := d2.Slides[at].Source.Part
			srels, _ := p.relsOf(slidePart)
			nr, ok := relByType(srels, relNotesSlide)
			if !ok {
				t.Fatalf("%s has no notes slide relationship", slidePart)
			}
			nrels, _ := p.relsOf(nr.Target)
			if r, ok := relByType(nrels, relNotesMaster); !ok || r.Target != tc.wantMaster {
				t.Errorf("%s: notes master relationship %+v", nr.Target, r)
			}
			if r, ok := relByType(nrels, relSlide); !ok || r.Target != slidePart {
				t.Errorf("%s: slide relationship %+v, want %s", nr.Target, r, slidePart)
			}
			if !tc.hadMaster {
				pres := string(parts["ppt/presentation.xml"])
				if !strings.Contains(pres, "<p:notesMasterIdLst><p:notesMasterId r:id=") {
					t.Errorf("presentation.xml lists no notes master")
				}
				mrels, _ := p.relsOf(tc.wantMaster)
				if r, ok := relByType(mrels, relTheme); !ok || !p.has(r.Target) {
					t.Errorf("generated notes master has no theme: %+v", mrels)
				}
			}
			// Everything else the original had is untouched.
			changed := map[string]bool{"[Content_Types].xml": true, "ppt/presentation.xml": true, "ppt/_rels/presentation.xml.rels": true}
			for name, b := range orig {
				if !changed[name] && !bytes.Equal(b, parts[name]) {
					t.Errorf("original part %s changed", name)
				}
			}
		})
	}
}

// TestDuplicatedSlideKeepsNotes: speaker notes written on a real slide
// that has a notes slide come back; duplicating that slide (a new slide
// copied from one with notes) keeps them on the copy, while the original
// slide and its notes slide are copied byte-identical.
func TestDuplicatedSlideKeepsNotes(t *testing.T) {
	d, blobs, err := Import(readDeck(t, "career-tips.pptx"), "career-tips.pptx")
	if err != nil {
		t.Fatal(err)
	}
	const text = "Ask who has changed careers.\nPause for hands."
	ed, _, err := tools.Apply(d, []tools.Call{call(t, "set_slide_properties", "", map[string]any{"slideId": "#3", "notes": text})}, tools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	step1, warns, err := ExportDetailed(ed, blobs)
	if err != nil {
		t.Fatal(err)
	}
	noNotesWarning(t, warns)
	d1, blobs1, err := Import(step1, "step1.pptx")
	if err != nil {
		t.Fatal(err)
	}
	if got := d1.Slides[2].Slide.Notes; got != text {
		t.Fatalf("notes of slide 3 after export: %q", got)
	}
	orig := d1.Slides[2]
	ed2, res, err := tools.Apply(d1, []tools.Call{call(t, "duplicate_slide", "", map[string]any{"slideId": orig.ID})}, tools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	copyID := res[0].Created[0]
	cp, at := ed2.SlideByID(copyID)
	// The copy keeps the Source of the slide it copies: export writes it
	// from that slide's XML.
	if cp.Source == nil || cp.Source.Part != orig.Source.Part || cp.Slide.Notes != text {
		t.Fatalf("duplicate_slide made source %+v notes %q", cp.Source, cp.Slide.Notes)
	}
	d2, step2 := exportAndReimport(t, ed2, blobs1, "step2.pptx")
	if len(d2.Slides) != len(d1.Slides)+1 {
		t.Fatalf("%d slides, want %d", len(d2.Slides), len(d1.Slides)+1)
	}
	if a, b := d2.Slides[at-1].Slide.Notes, d2.Slides[at].Slide.Notes; a != text || b != text {
		t.Errorf("notes of the original %q and of the copy %q, want %q", a, b, text)
	}
	if a, b := d2.Slides[at-1].Slide.Layout, d2.Slides[at].Slide.Layout; a != b {
		t.Errorf("copy on layout %q, original on %q", b, a)
	}
	p1, p2 := zipParts(t, step1), zipParts(t, step2)
	origNotes := ""
	p, _ := openPackage(step1, "step1.pptx", DefaultLimits)
	if rels, _ := p.relsOf(orig.Source.Part); rels != nil {
		if r, ok := relByType(rels, relNotesSlide); ok {
			origNotes = r.Target
		}
	}
	for _, part := range []string{orig.Source.Part, origNotes} {
		if part == "" || !bytes.Equal(p1[part], p2[part]) {
			t.Errorf("original part %q not copied byte-identical", part)
		}
	}
	// Every slide of the output has its own notes slide (career-tips has
	// one per slide), and no two slides share one.
	seen := map[string]string{}
	p2pkg, _ := openPackage(step2, "step2.pptx", DefaultLimits)
	for _, s := range d2.Slides {
		rels, _ := p2pkg.relsOf(s.Source.Part)
		r, ok := relByType(rels, relNotesSlide)
		if !ok {
			t.Errorf("slide %s has no notes slide", s.Source.Part)
			continue
		}
		if other, dup := seen[r.Target]; dup {
			t.Errorf("%s and %s share notes slide %s", other, s.Source.Part, r.Target)
		}
		seen[r.Target] = s.Source.Part
	}
}

// TestNotesWithControlCharacters: notes holding characters XML cannot
// carry (a pasted vertical tab, a stray control code) still give a
// readable package: the vertical tab and U+2028 become a line break (a:br)
// that reads back as U+2028, the control code is dropped, the rest of the
// text comes back.
func TestNotesWithControlCharacters(t *testing.T) {
	d, _ := layoutsDeck()
	d.Slides[0].Slide.Notes = "first\vsoft break\nbell\x07 rings\n\ttabbed \u2028sep"
	out, err := Export(d, sg.Blobs{})
	if err != nil {
		t.Fatal(err)
	}
	checkPackage(t, out)
	d2, _, err := Import(out, "notes.pptx")
	if err != nil {
		t.Fatalf("re-import: %v", err)
	}
	// a:br reads back as the line separator U+2028, as in slide text.
	if got, want := d2.Slides[0].Slide.Notes, "first\u2028soft break\nbell rings\n\ttabbed \u2028sep"; got != want {
		t.Errorf("notes %q, want %q", got, want)
	}
	if !strings.Contains(string(zipParts(t, out)["ppt/notesSlides/notesSlide1.xml"]), "<a:t>first</a:t></a:r><a:br>") {
		t.Errorf("vertical tab not written as a:br")
	}
}

// TestNotesOnAnExistingSlideWithoutNotes: default_template's slides have no
// notes slides (and the package no notes master); notes given to one of
// them by an edit are written (a notes slide and a generated master) and
// read back, and the other slides are untouched.
func TestNotesOnAnExistingSlideWithoutNotes(t *testing.T) {
	data := readDeck(t, "default_template.pptx")
	d, blobs, err := Import(data, "default_template.pptx")
	if err != nil {
		t.Fatal(err)
	}
	target := d.Slides[2].ID
	ed, _, err := tools.Apply(d, []tools.Call{call(t, "set_slide_properties", "", map[string]any{"slideId": target, "notes": addedNotes})}, tools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d2, _ := exportAndReimport(t, ed, blobs, "out.pptx")
	for i, s := range d2.Slides {
		want := ""
		if i == 2 {
			want = addedNotes
		}
		got := ""
		if s.Slide != nil {
			got = s.Slide.Notes
		}
		if got != want {
			t.Errorf("slide %d notes %q, want %q", i+1, got, want)
		}
	}
}

// exportAndReimport exports d over blobs, requires no notes warning and a
// sound package, and imports the file again (named name in errors).
func exportAndReimport(t *testing.T, d *sg.Deck, blobs sg.AssetSource, name string) (*sg.Deck, []byte) {
	t.Helper()
	out, warns, err := ExportDetailed(d, blobs)
	if err != nil {
		t.Fatal(err)
	}
	noNotesWarning(t, warns)
	checkPackage(t, out)
	d2, _, err := Import(out, name)
	if err != nil {
		t.Fatalf("re-import: %v", err)
	}
	return d2, out
}

// TestEditedNotesKeepLineBreaks: career-tips' slides have notes slides;
// notes rewritten there with a line separator, a vertical tab and a stray
// control code give a readable package whose notes read back with both
// breaks as U+2028 (they were written raw, and a vertical tab made the
// part invalid XML).
func TestEditedNotesKeepLineBreaks(t *testing.T) {
	data := readDeck(t, "career-tips.pptx")
	d, blobs, err := Import(data, "career-tips.pptx")
	if err != nil {
		t.Fatal(err)
	}
	d.Slides[0].Slide.Notes = "line one\u2028line two\vline three\x07\nnext paragraph"
	d2, _ := exportAndReimport(t, d, blobs, "out.pptx")
	if got, want := d2.Slides[0].Slide.Notes, "line one\u2028line two\u2028line three\nnext paragraph"; got != want {
		t.Errorf("notes %q, want %q", got, want)
	}
}
