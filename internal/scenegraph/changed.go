package scenegraph

// ChangedSlides returns the ids of the slides that differ between a and b:
// slides whose subtree digest (NodeDigest) changed, slides only in b (added)
// and slides only in a (removed), in b's order then a's. Unlike a JsonDiff,
// which is capped and tolerant, this is exact and complete: it is what
// decides which slides are re-rendered and which export byte-identical.
func ChangedSlides(a, b *Deck) []string {
	before := make(map[string]string, len(a.Slides))
	for _, s := range a.Slides {
		before[s.ID] = NodeDigest(s)
	}
	var out []string
	inB := make(map[string]bool, len(b.Slides))
	for _, s := range b.Slides {
		inB[s.ID] = true
		if d, ok := before[s.ID]; !ok || d != NodeDigest(s) {
			out = append(out, s.ID)
		}
	}
	for _, s := range a.Slides {
		if !inB[s.ID] {
			out = append(out, s.ID)
		}
	}
	return out
}
