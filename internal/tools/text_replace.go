package tools

import (
	"fmt"
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// replaceText replaces every occurrence of find in n's characters by repl.
// Characters outside the occurrences keep their styles; the replacement
// takes the style of the first character it replaces, so renaming a bold
// company name keeps it bold. It returns how many occurrences it replaced.
// Line breaks are refused in find and repl: paragraph styles are per line,
// and a find-and-replace must not reflow them.
func replaceText(n *sg.Node, find, repl string) (int, error) {
	if strings.Contains(find, "\n") || strings.Contains(repl, "\n") {
		return 0, fmt.Errorf("find and text must not contain line breaks; replace whole paragraphs without find")
	}
	if !strings.Contains(n.Characters, find) {
		return 0, fmt.Errorf("node %q does not contain %q (find is case-sensitive); read its text with get_text_node_info", n.ID, find)
	}
	src := []rune(n.Characters)
	f, r := []rune(find), []rune(repl)
	keyAt := func(i int) int {
		if i < len(n.CharacterStyleOverrides) {
			return n.CharacterStyleOverrides[i]
		}
		return 0
	}
	out := make([]rune, 0, len(src))
	keys := make([]int, 0, len(src))
	newPos := make([]int, len(src)) // old offset -> new, -1 inside an occurrence
	count := 0
	for i := 0; i < len(src); {
		if i+len(f) <= len(src) && string(src[i:i+len(f)]) == find {
			k := keyAt(i)
			for j := i; j < i+len(f); j++ {
				newPos[j] = -1
			}
			for range r {
				keys = append(keys, k)
			}
			out = append(out, r...)
			i += len(f)
			count++
			continue
		}
		newPos[i] = len(out)
		out = append(out, src[i])
		keys = append(keys, keyAt(i))
		i++
	}
	n.Characters = string(out)
	n.RemapFields(string(src), newPos)
	// Drop trailing base-style keys so the slice stays as short as it was
	// meant to be, and drop it entirely when nothing is overridden.
	last := len(keys)
	for last > 0 && keys[last-1] == 0 {
		last--
	}
	if last == 0 {
		n.CharacterStyleOverrides, n.StyleOverrideTable = nil, nil
	} else {
		n.CharacterStyleOverrides = keys[:last]
	}
	return count, nil
}
