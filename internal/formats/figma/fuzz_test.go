package figma

import (
	"os"
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
)

// FuzzImport: arbitrary bytes never panic the Figma importer, and what it
// accepts validates as a scene graph. Seeds: testdata/fuzz/FuzzImport
// (written by hand for this package) plus, when present, the shared sample
// response read at test time.
func FuzzImport(f *testing.F) {
	f.Add([]byte(filesResponse))
	f.Add([]byte(`{"nodes":{"1:1":{"document":{"id":"1:1","type":"FRAME","absoluteBoundingBox":{"x":0,"y":0,"width":10,"height":10},"children":[{"id":"1:2","type":"TEXT","characters":"hi","characterStyleOverrides":[1,1],"styleOverrideTable":{"1":{"fontSize":12}}}]}}}}`))
	if b, err := os.ReadFile(shareddecks.Figma(f)); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, _, _, err := ImportDetailed(data, Options{Name: "fuzz.json"})
		if err != nil {
			return
		}
		if err := sg.Validate(d); err != nil {
			t.Fatalf("accepted input gives an invalid deck: %v", err)
		}
	})
}
