package diff

import (
	"encoding/json"
	"testing"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// FuzzCompute: any two valid decks diff without panicking; a deck against
// its own copy is empty; the text and JSON forms render; the cap holds.
func FuzzCompute(f *testing.F) {
	a := sample()
	b := a.Clone()
	b.Slides[0].Children[0].Characters = "changed"
	b.Slides = append(b.Slides[1:], b.Slides[0])
	ea, _ := scenegraph.Encode(a)
	eb, _ := scenegraph.Encode(b)
	f.Add(ea, eb)
	f.Add(ea, []byte(`{"id":"x","width":10,"height":10,"slides":[]}`))
	f.Fuzz(func(t *testing.T, ja, jb []byte) {
		da, err := scenegraph.Decode(ja)
		if err != nil {
			return
		}
		db, err := scenegraph.Decode(jb)
		if err != nil {
			return
		}
		d := Compute(da, db)
		if len(d.Entries) > MaxEntries || d.Score <= 0 || d.Score > 1 {
			t.Fatalf("entries %d score %v", len(d.Entries), d.Score)
		}
		_ = d.Text(da)
		if _, err := json.Marshal(d); err != nil {
			t.Fatal(err)
		}
		if self := Compute(da, da.Clone()); !self.Empty() {
			t.Fatalf("deck differs from its copy: %v", kinds(self))
		}
	})
}
