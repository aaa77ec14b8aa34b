package route

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/acecanvas/ace/internal/cache"
	"github.com/acecanvas/ace/internal/scenegraph"
)

// RouteCached is Route behind a cache keyed by (deck snapshot hash,
// instruction, SerializerVersion, whether a model routes and, when the
// classifier has a ModelName method, which model). snapshot is the
// deck's content hash (the store ref); "" computes it. It reports whether
// the decision came from the cache. A decision that fell back to the
// heuristic because the model failed is not cached, so a transient outage
// is not remembered for a day. c may be nil (no caching).
func RouteCached(ctx context.Context, c cache.Cache, snapshot, instruction string, d *scenegraph.Deck, llm Classifier) (Decision, bool) {
	if c == nil || d == nil {
		return Route(ctx, instruction, d, llm), false
	}
	kind, version := "route:h", SerializerVersion
	if llm != nil {
		kind = "route:llm"
		// Deployments with different router models may share one Redis:
		// a decision is only reused for the model that made it.
		if m, ok := llm.(interface{ ModelName() string }); ok {
			version += "|" + m.ModelName()
		}
	}
	key := cache.Key(kind, snapshotOf(snapshot, d), instruction, version)
	if raw, ok := c.Get(ctx, key); ok {
		var dec Decision
		if json.Unmarshal(raw, &dec) == nil && dec.Mode != "" {
			return dec, true
		}
	}
	dec := Route(ctx, instruction, d, llm)
	if llm != nil && dec.Source == "heuristic" {
		return dec, false
	}
	if raw, err := json.Marshal(dec); err == nil {
		c.Set(ctx, key, raw, cache.DefaultTTL)
	}
	return dec, false
}

// Routed is a routed context as the agent receives it: the text, the
// decision it serializes (Mode may be lower than the route's when the
// context was over budget) and the note saying so ("" when not).
type Routed struct {
	Text string   `json:"text"`
	Used Decision `json:"used"`
	Note string   `json:"note,omitempty"`
}

// ContextCached is Bounded behind the cache, keyed by (snapshot, mode and
// targets, budget, SerializerVersion). It reports whether the context came
// from the cache. c may be nil; budget <= 0 means DefaultContextBudget.
func ContextCached(ctx context.Context, c cache.Cache, snapshot string, d *scenegraph.Deck, dec Decision, budget int) (Routed, bool, error) {
	build := func() (Routed, error) {
		text, used, note, err := Bounded(d, dec, budget)
		return Routed{Text: text, Used: used, Note: note}, err
	}
	if c == nil || d == nil {
		r, err := build()
		return r, false, err
	}
	key := cache.Key("ctx:"+string(dec.Mode), snapshotOf(snapshot, d), fmt.Sprint(dec.TargetSlides, budget), SerializerVersion)
	if raw, ok := c.Get(ctx, key); ok {
		var r Routed
		if json.Unmarshal(raw, &r) == nil && r.Used.Mode != "" {
			return r, true, nil
		}
	}
	r, err := build()
	if err != nil {
		return Routed{}, false, err
	}
	if raw, err := json.Marshal(r); err == nil {
		c.Set(ctx, key, raw, cache.DefaultTTL)
	}
	return r, false, nil
}

func snapshotOf(snapshot string, d *scenegraph.Deck) string {
	if s := strings.TrimSpace(snapshot); s != "" {
		return s
	}
	h, err := scenegraph.Hash(d)
	if err != nil {
		return "unhashable:" + d.ID
	}
	return h
}
