package workers

import (
	"strings"

	"github.com/acecanvas/ace/internal/scenegraph"
)

func deckText(d *scenegraph.Deck) string {
	var b strings.Builder
	d.Walk(func(n, _ *scenegraph.Node, _ int) bool {
		if n.Characters != "" {
			b.WriteString(n.Characters)
			b.WriteByte('\n')
		}
		return true
	})
	return b.String()
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}
