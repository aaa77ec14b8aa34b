package workers

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	acev1 "github.com/acecanvas/ace/proto/ace/v1"
)

// uniqueNames gives each item, in order, a name of its own from the name
// it wants: a name no earlier item took is kept; a name an earlier item
// took becomes name-2, name-3, ... skipping every name any item of the
// list wants for itself. So no item is ever given another item's own name
// (a/deck, b/deck and c/deck-2 get deck, deck-3 and deck-2), and the same
// list always gives the same names. fold maps a name to what it collides
// as (case folding for file names on case-insensitive file systems).
func uniqueNames(wants []string, fold func(string) string) []string {
	wanted := make(map[string]bool, len(wants))
	for _, w := range wants {
		wanted[fold(w)] = true
	}
	taken := make(map[string]bool, len(wants))
	out := make([]string, len(wants))
	var again []int
	for i, w := range wants {
		if taken[fold(w)] {
			again = append(again, i)
			continue
		}
		taken[fold(w)] = true
		out[i] = w
	}
	for _, i := range again {
		for n := 2; ; n++ {
			c := fmt.Sprintf("%s-%d", wants[i], n)
			if !wanted[fold(c)] && !taken[fold(c)] {
				taken[fold(c)] = true
				out[i] = c
				break
			}
		}
	}
	return out
}

func same(s string) string { return s }

// distinctPaths drops the second and later mentions of one file (the same
// absolute path).
func distinctPaths(paths []string) []string {
	var out []string
	files := map[string]bool{}
	for _, p := range paths {
		if abs, err := filepath.Abs(p); err == nil {
			if files[abs] {
				continue
			}
			files[abs] = true
		}
		out = append(out, p)
	}
	return out
}

// deckKeys are the deck keys of a batch's files, in order: each file's
// name without its extension as a token (acev1.Token), unique in the batch
// and never another file's own key (uniqueNames).
func deckKeys(paths []string) []string {
	wants := make([]string, len(paths))
	for i, p := range paths {
		wants[i] = acev1.Token(strings.TrimSuffix(filepath.Base(p), filepath.Ext(p)))
	}
	return uniqueNames(wants, same)
}

// OutputNames maps each deck key of a batch (key -> the deck's file path)
// to the name its edited deck is written under in the output folder,
// without extension: the deck's own file name where no other deck of the
// batch has it, else a suffixed name that is no deck's own name
// (uniqueNames, shorter keys first, names compared ignoring case). It depends
// only on the batch's decks, not on which have finished, so a rerun or a
// later summary writes each deck to the same file.
func OutputNames(decks map[string]string) map[string]string {
	keys := make([]string, 0, len(decks))
	for k := range decks {
		keys = append(keys, k)
	}
	// Shorter keys first: a deck's key is its own name's token, or that
	// token with a suffix when another deck had the name first
	// (deckKeys), so the deck that holds the plain key keeps its name here.
	sort.Slice(keys, func(i, j int) bool {
		if len(keys[i]) != len(keys[j]) {
			return len(keys[i]) < len(keys[j])
		}
		return keys[i] < keys[j]
	})
	wants := make([]string, len(keys))
	for i, k := range keys {
		base := filepath.Base(decks[k])
		wants[i] = strings.TrimSuffix(base, filepath.Ext(base))
		if decks[k] == "" || wants[i] == "" {
			wants[i] = k
		}
	}
	names := uniqueNames(wants, strings.ToLower)
	out := make(map[string]string, len(keys))
	for i, k := range keys {
		out[k] = names[i]
	}
	return out
}

// OutputNamesFor is OutputNames for deck files about to be submitted, as
// given to PrepareJobs (a file named twice is one deck): one name per
// distinct file, in order.
func OutputNamesFor(paths []string) []string {
	distinct := distinctPaths(paths)
	keys := deckKeys(distinct)
	decks := make(map[string]string, len(keys))
	for i, k := range keys {
		decks[k] = distinct[i]
	}
	names := OutputNames(decks)
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = names[k]
	}
	return out
}
