package render

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/cache"
)

// A slide whose markup was rendered before comes from Options.Memo with
// the same measurements, violations and picture; a changed slide, or the
// same slide at another scale, is rendered again.
func TestMemoServesAnUnchangedSlideAndOnlyIt(t *testing.T) {
	ctx := context.Background()
	p, err := NewPool(ctx, Options{Size: 1, Timeout: 30 * time.Second, Memo: cache.NewLRU(0, 0)})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	d := deck(text("t1", 100, 100, 200, 40, "A box too narrow for this much text", 28, "#222222"))
	first, err := p.Render(ctx, d, nil, Request{Images: true})
	if err != nil {
		t.Fatal(err)
	}
	again, err := p.Render(ctx, d, nil, Request{Images: true})
	if err != nil {
		t.Fatal(err)
	}
	if p.MemoHits() != 1 {
		t.Fatalf("%d memo hits, want 1", p.MemoHits())
	}
	a, _ := json.Marshal(first.Slides[0].Nodes)
	b, _ := json.Marshal(again.Slides[0].Nodes)
	if string(a) != string(b) || len(first.Violations) == 0 || len(first.Violations) != len(again.Violations) ||
		string(first.Slides[0].PNG) != string(again.Slides[0].PNG) {
		t.Fatalf("the remembered slide differs: %d vs %d violations", len(first.Violations), len(again.Violations))
	}
	if _, err := p.Render(ctx, d, nil, Request{Images: true, Scale: 0.5}); err != nil {
		t.Fatal(err)
	}
	d.Slides[0].Children[0].Characters = "Short"
	changed, err := p.Render(ctx, d, nil, Request{Images: true})
	if err != nil {
		t.Fatal(err)
	}
	if p.MemoHits() != 1 || len(changed.Violations) != 0 {
		t.Fatalf("a changed slide or another scale came from the memo: %d hits, %d violations", p.MemoHits(), len(changed.Violations))
	}
}
