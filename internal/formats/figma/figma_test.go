package figma

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	sg "github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
)

func sharedFigma(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(shareddecks.Figma(t))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestImportNodesResponse(t *testing.T) {
	d, _, warns, err := ImportDetailed(sharedFigma(t), Options{Name: "nodes-response-autolayout.json"})
	if err != nil {
		t.Fatal(err)
	}
	if err := sg.Validate(d); err != nil {
		t.Fatalf("imported deck invalid: %v", err)
	}
	counts := d.CountByType()
	t.Logf("%d slides %gx%g; %v; warnings %v", len(d.Slides), d.Width, d.Height, counts, warns)
	if len(d.Slides) != 1 || d.Width != 1440 || d.Height != 616 {
		t.Fatalf("want one 1440x616 slide, got %d slides %gx%g", len(d.Slides), d.Width, d.Height)
	}
	for typ, want := range map[sg.NodeType]int{sg.TypeText: 5, sg.TypeVector: 5, sg.TypeInstance: 1, sg.TypeRectangle: 1} {
		if counts[typ] != want {
			t.Errorf("%s: %d, want %d", typ, counts[typ], want)
		}
	}
	ix := sg.NewIndex(d)
	s := d.Slides[0]
	if s.LayoutMode != sg.LayoutHorizontal || s.PrimaryAxisAlignItems != sg.AlignSpaceBetween {
		t.Errorf("slide auto-layout = %q %q", s.LayoutMode, s.PrimaryAxisAlignItems)
	}
	content := ix.Node("9204:10662")
	if content == nil || content.LayoutMode != sg.LayoutVertical || content.ItemSpacing == 0 {
		t.Fatalf("Content frame: %+v", content)
	}
	// Child placement is relative to the parent (from absolute boxes).
	if tr := ix.Node("9204:10663").Transform; tr.X() != 80 || tr.Y() != 80 || content.PaddingLeft != 80 {
		t.Errorf("Copy at (%g,%g) in Content (padding %g), want (80,80)", tr.X(), tr.Y(), content.PaddingLeft)
	}
	btn := ix.Node("9204:10676")
	if btn.Type != sg.TypeInstance || btn.ComponentID != "2976:371" || btn.CornerRadius != 5 || btn.LayoutSizingHorizontal != sg.SizingFixed {
		t.Errorf("Button instance: %s componentId %q radius %g sizing %q", btn.Type, btn.ComponentID, btn.CornerRadius, btn.LayoutSizingHorizontal)
	}
	txt := ix.Node("9204:10665")
	if txt.Characters != "Get ready to feel amazing." || txt.Style.FontSize != 20 || txt.Style.FontWeight != 500 {
		t.Errorf("text node: %q size %g weight %d", txt.Characters, txt.Style.FontSize, txt.Style.FontWeight)
	}
	if txt.LayoutSizingHorizontal != sg.SizingHug || txt.Style.TextAlignHorizontal != sg.AlignCenter || txt.Style.LineHeightPercent != 150 {
		t.Errorf("text node: sizing %q align %q lineHeight%% %g", txt.LayoutSizingHorizontal, txt.Style.TextAlignHorizontal, txt.Style.LineHeightPercent)
	}
	if len(txt.Style.Fills) == 0 || txt.Style.Fills[0].ThemeColor == nil || txt.Style.Fills[0].ThemeColor.Name != "000000" {
		t.Errorf("text colour should keep its fill style as a token reference: %+v", txt.Style.Fills)
	}
	if _, ok := d.Tokens.Colors["4659FF"]; !ok {
		t.Errorf("fill style 4659FF missing from tokens: %v", d.Tokens.Colors)
	}
	img := ix.Node("9204:10661")
	if len(img.Fills) != 1 || img.Fills[0].Type != sg.PaintSolid {
		t.Errorf("image without bytes should get a placeholder fill: %+v", img.Fills)
	}
	found := false
	for _, w := range warns {
		found = found || strings.Contains(w, "69c52b1c")
	}
	if !found {
		t.Errorf("missing image not reported: %v", warns)
	}
}

func TestImportImagesBecomeAssets(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\nfake")
	d, blobs, _, err := ImportDetailed(sharedFigma(t), Options{Images: map[string][]byte{"69c52b1c1f86a9cb9ebee87ee9326fab71a647d5": png}})
	if err != nil {
		t.Fatal(err)
	}
	n := sg.NewIndex(d).Node("9204:10661")
	if n.Fills[0].Type != sg.PaintImage || string(blobs[n.Fills[0].ImageRef]) != string(png) {
		t.Errorf("image fill not turned into an asset: %+v", n.Fills)
	}
	if err := sg.Validate(d); err != nil {
		t.Error(err)
	}
}

// A GET /v1/files response with SLIDE nodes: slides win over frames, and
// overrides are re-indexed from UTF-16 units to code points.
const filesResponse = `{"name":"Deck","document":{"id":"0:0","type":"DOCUMENT","children":[{"id":"0:1","type":"CANVAS","name":"Page","children":[
 {"id":"1:1","type":"SLIDE_GRID","children":[{"id":"1:2","type":"SLIDE_ROW","children":[
  {"id":"2:1","type":"SLIDE","name":"One","absoluteBoundingBox":{"x":0,"y":0,"width":1920,"height":1080},"fills":[{"type":"SOLID","color":{"r":1,"g":1,"b":1,"a":1}}],"children":[
   {"id":"3:1","type":"TEXT","name":"T","characters":"a😀b\nc","relativeTransform":[[1,0,10],[0,1,20]],"size":{"x":300,"y":40},
    "style":{"fontFamily":"Inter","fontSize":32,"fontWeight":400},"characterStyleOverrides":[0,1,1,2],"styleOverrideTable":{"1":{"fontWeight":700},"2":{"italic":true}},
    "lineTypes":["UNORDERED","NONE"],"lineIndentations":[1,0]},
   {"id":"3:2","type":"CONNECTOR","connectorStart":{"endpointNodeId":"3:1"},"connectorEnd":{"endpointNodeId":"9:9"}}]},
  {"id":"2:2","type":"SLIDE","name":"Two","absoluteBoundingBox":{"x":2000,"y":0,"width":1920,"height":1080}}]}]},
 {"id":"5:1","type":"FRAME","name":"Loose frame","absoluteBoundingBox":{"x":0,"y":2000,"width":100,"height":100}}]}]}}`

func TestImportFilesResponseWithSlides(t *testing.T) {
	d, err := Import([]byte(filesResponse))
	if err != nil {
		t.Fatal(err)
	}
	if err := sg.Validate(d); err != nil {
		t.Fatalf("invalid: %v", err)
	}
	if len(d.Slides) != 2 || d.Slides[0].ID != "2:1" || d.Width != 1920 {
		t.Fatalf("want the two SLIDE nodes as slides, got %d (%gx%g)", len(d.Slides), d.Width, d.Height)
	}
	txt := sg.NewIndex(d).Node("3:1")
	// "a😀b\nc": the emoji is two UTF-16 units, one code point.
	want := []int{0, 1, 2}
	if jsonOf(txt.CharacterStyleOverrides) != jsonOf(want) {
		t.Errorf("overrides = %v, want %v", txt.CharacterStyleOverrides, want)
	}
	if st := txt.StyleAt(1); !st.Bold() {
		t.Errorf("emoji should be bold: %+v", st)
	}
	if len(txt.Paragraphs) != 2 || txt.Paragraphs[0].ListType != sg.ListUnordered || txt.Paragraphs[0].Level != 1 {
		t.Errorf("paragraphs = %+v", txt.Paragraphs)
	}
	if tr := txt.Transform; tr.X() != 10 || tr.Y() != 20 {
		t.Errorf("relativeTransform not used: %v", tr)
	}
	con := sg.NewIndex(d).Node("3:2").Connector
	if con.Start.NodeID != "3:1" || con.End.NodeID != "" {
		t.Errorf("connector ends = %+v", con)
	}
}

func TestImportErrorsNameTheProblem(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{``, "cannot read JSON"},
		{`{"name":`, "cannot read JSON"},
		{`[1,2]`, "want"},
		{`{"name":"x"}`, "neither \"document\" nor \"nodes\""},
		{`{"document":{"id":"0:0","type":"DOCUMENT","children":[{"id":"0:1","type":"CANVAS","children":[]}]}}`, "no frames"},
		{`{"document":{"type":"FRAME","id":""}}`, "has no id"},
	} {
		_, err := Import([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Import(%q) = %v, want an error containing %q", c.in, err, c.want)
		}
	}
}

func jsonOf(v any) string { b, _ := json.Marshal(v); return string(b) }
