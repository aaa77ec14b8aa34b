package route

import (
	"context"
	"errors"
	"testing"

	"github.com/acecanvas/ace/internal/cache"
)

func TestRouteCachedServesTheSecondCallFromTheCache(t *testing.T) {
	ctx := context.Background()
	c := cache.NewLRU(0, 0)
	d := pitchDeck(12)
	calls := 0
	llm := ClassifierFunc(func(context.Context, string, string) (string, error) {
		calls++
		return `{"mode":"MACRO_PROGRAMMATIC","target_slides":[],"reason":"deck-wide"}`, nil
	})
	a, hit := RouteCached(ctx, c, "", "Translate the deck", d, llm)
	if hit || calls != 1 {
		t.Fatalf("first call hit=%v calls=%d", hit, calls)
	}
	b, hit := RouteCached(ctx, c, "", "  Translate the   deck ", d, llm)
	if !hit || calls != 1 || b.Mode != a.Mode || b.Reason != a.Reason {
		t.Fatalf("second call hit=%v calls=%d %+v", hit, calls, b)
	}
	// Another deck state is another key.
	d2 := d.Clone()
	d2.Slides[0].Children[0].Characters = "Renamed"
	if _, hit := RouteCached(ctx, c, "", "Translate the deck", d2, llm); hit || calls != 2 {
		t.Fatal("a changed deck must miss")
	}
}

func TestRouteCachedDoesNotRememberModelFailures(t *testing.T) {
	ctx := context.Background()
	c := cache.NewLRU(0, 0)
	d := pitchDeck(12)
	failing := ClassifierFunc(func(context.Context, string, string) (string, error) { return "", errors.New("503") })
	RouteCached(ctx, c, "snap", "Fix slide 3", d, failing)
	if _, hit := RouteCached(ctx, c, "snap", "Fix slide 3", d, failing); hit {
		t.Fatal("a fallback decision after a model failure was cached")
	}
}

func TestContextCached(t *testing.T) {
	ctx := context.Background()
	c := cache.NewLRU(0, 0)
	d := pitchDeck(5)
	dec := Decision{Mode: Micro, TargetSlides: []int{2}}
	a, hit, err := ContextCached(ctx, c, "snap1", d, dec, 0)
	if err != nil || hit {
		t.Fatal(err, hit)
	}
	b, hit, _ := ContextCached(ctx, c, "snap1", d, dec, 0)
	if !hit || a.Text != b.Text || b.Used.Mode != Micro || b.Note != "" {
		t.Fatal("second context not served from cache")
	}
	if _, hit, _ := ContextCached(ctx, c, "snap1", d, Decision{Mode: Micro, TargetSlides: []int{3}}, 0); hit {
		t.Fatal("other targets must miss")
	}
	if _, hit, _ := ContextCached(ctx, c, "snap1", d, dec, 5000); hit {
		t.Fatal("another budget must miss")
	}
	if _, _, err := ContextCached(ctx, c, "snap1", d, Decision{Mode: Micro}, 0); err == nil {
		t.Fatal("invalid decision must error")
	}
}

type namedClassifier struct {
	ClassifierFunc
	name string
}

func (n namedClassifier) ModelName() string { return n.name }

// Two router models sharing one cache do not reuse each other's decisions.
func TestRouteCachedKeysByRouterModel(t *testing.T) {
	ctx := context.Background()
	c := cache.NewLRU(0, 0)
	d := pitchDeck(12)
	calls := 0
	answer := ClassifierFunc(func(context.Context, string, string) (string, error) {
		calls++
		return `{"mode":"MACRO_PROGRAMMATIC","target_slides":[],"reason":"deck-wide"}`, nil
	})
	RouteCached(ctx, c, "snap", "Translate the deck", d, namedClassifier{answer, "model-a"})
	if _, hit := RouteCached(ctx, c, "snap", "Translate the deck", d, namedClassifier{answer, "model-b"}); hit || calls != 2 {
		t.Fatalf("model-b reused model-a's decision (hit=%v, calls=%d)", hit, calls)
	}
	if _, hit := RouteCached(ctx, c, "snap", "Translate the deck", d, namedClassifier{answer, "model-a"}); !hit || calls != 2 {
		t.Fatalf("model-a's own decision missed (hit=%v, calls=%d)", hit, calls)
	}
}
