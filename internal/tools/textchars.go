package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// cleanArgs applies the scene graph's text rules to every string of a
// call's arguments before the tool runs: U+000B (PowerPoint's soft return)
// becomes the line break U+2028 (sg.NormalizeText), and any other
// character a slide file cannot hold (sg.CheckText: C0 controls but tab
// and newline, U+FFFE, U+FFFF) refuses the call with the argument and the
// node it targets named, so the edit never reports "applied" for text the
// export would have to refuse. Arguments without an escape or a raw
// U+FFFE/U+FFFF are returned unchanged without decoding.
func cleanArgs(tool string, args json.RawMessage) (json.RawMessage, error) {
	if !bytes.Contains(args, []byte(`\u`)) && !bytes.Contains(args, []byte("\xef\xbf\xbe")) && !bytes.Contains(args, []byte("\xef\xbf\xbf")) {
		return args, nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return args, nil // validateArgs reports the syntax error
	}
	changed := false
	var bad error
	var walk func(x any, path string) any
	walk = func(x any, path string) any {
		if bad != nil {
			return x
		}
		switch t := x.(type) {
		case string:
			s := sg.NormalizeText(t)
			if s != t {
				changed = true
			}
			if err := sg.CheckText(s); err != nil {
				bad = fmt.Errorf("%s: argument %s: %w", tool, path, err)
			}
			return s
		case map[string]any:
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				t[k] = walk(t[k], joinArgPath(path, k))
			}
		case []any:
			for i := range t {
				t[i] = walk(t[i], fmt.Sprintf("%s[%d]", path, i))
			}
		}
		return x
	}
	v = walk(v, "")
	if bad != nil {
		if node := targetNode(v); node != "" {
			return args, fmt.Errorf("%w (node %s)", bad, node)
		}
		return args, bad
	}
	if !changed {
		return args, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return args, err
	}
	return b, nil
}

func joinArgPath(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// targetNode is the node a call's arguments name (nodeId, id, parentId or
// the first of nodeIds), or "".
func targetNode(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	for _, k := range []string{"nodeId", "id", "chartId", "tableId", "smartArtId", "slideId", "parentId"} {
		if s, ok := m[k].(string); ok && s != "" {
			return s
		}
	}
	if ids, ok := m["nodeIds"].([]any); ok && len(ids) > 0 {
		if s, ok := ids[0].(string); ok {
			return s
		}
	}
	return ""
}
