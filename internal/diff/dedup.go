package diff

import (
	"encoding/json"
	"fmt"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// dedupSiblings collapses the same edit on same-named siblings into one
// entry annotated with the count (ACE App. E.5 iii), so a uniform bulk edit
// is not read as an isolated one. Siblings share the parent; the edit is
// the same when kind, property and result agree (the before values may
// differ: recolouring twelve differently coloured dots red is one edit).
func dedupSiblings(es []Entry) []Entry {
	type key struct {
		slide, parent, name, nodeType string
		kind                          Kind
		prop, after                   string
	}
	first := map[key]int{}
	var out []Entry
	for _, e := range es {
		if e.Name == "" || e.NodeID == "" || (e.Kind != Modified && e.Kind != Added && e.Kind != Removed) || e.NodeType == "TABLE_ROW" {
			out = append(out, e)
			continue
		}
		parent := e.SlideID
		if len(e.Parents) > 0 {
			parent = e.Parents[len(e.Parents)-1]
		}
		k := key{slide: e.SlideID, parent: parent, name: e.Name, nodeType: typeClass(scenegraph.NodeType(e.NodeType)), kind: e.Kind, prop: e.Property}
		if e.Kind == Modified {
			k.after = canon(e.After)
		}
		if i, ok := first[k]; ok {
			if out[i].Siblings == 0 {
				out[i].Siblings = 1
			}
			out[i].Siblings++
			out[i].visual = out[i].visual || e.visual
			continue
		}
		first[k] = len(out)
		out = append(out, e)
	}
	for i := range out {
		if out[i].Siblings > 1 {
			out[i].Detail += fmt.Sprintf(" (applied to %d same-named siblings)", out[i].Siblings)
		}
	}
	return out
}

func canon(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
