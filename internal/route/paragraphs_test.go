package route

import (
	"reflect"
	"testing"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// A list paragraph's bullet size and colour are kept in its compact
// string ("ul ▶ bu80% #90C226"); a paragraph without a bullet shows
// neither, and a bullet that follows the text adds nothing.
func TestParagraphStringsCarryBulletLook(t *testing.T) {
	green := scenegraph.MustHex("#90C226")
	tc := &scenegraph.TextContent{Characters: "a\nb\nc\nd", Paragraphs: []scenegraph.Paragraph{
		{ListType: scenegraph.ListUnordered, Bullet: "▶", BulletSize: 0.8, BulletColor: &green},
		{ListType: scenegraph.ListUnordered, Bullet: "•"},
		{ListType: scenegraph.ListOrdered, BulletColor: &green},
		{ListType: scenegraph.ListNone, BulletSize: 0.8, BulletColor: &green},
	}}
	got := paragraphs(tc)
	want := []string{"ul ▶ bu80% #90C226", "ul •", "ol bu #90C226", ""}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("paragraphs = %q, want %q", got, want)
	}
}
