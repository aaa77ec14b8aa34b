package render

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/cache"
	"github.com/acecanvas/ace/internal/store"
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

// A slide pictured by one pool is read by another that shares its
// Options.Pictures (store.Memo: the workflows' render steps and the batch
// report), without starting a browser when that pool is lazy; a slide
// never pictured, or a measurement without a picture, starts one.
func TestPicturesAreSharedAndALazyPoolStartsOnlyForAMiss(t *testing.T) {
	ctx := context.Background()
	pictures := store.Memo(store.NewMemory())
	first, err := NewPool(ctx, Options{Size: 1, Timeout: 30 * time.Second, Pictures: pictures})
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	d := deck(text("t1", 100, 100, 400, 40, "Pictured once", 28, "#222222"))
	made, err := first.Render(ctx, d, nil, Request{Images: true, Scale: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := first.Render(ctx, d, nil, Request{}); err != nil { // a measurement: no picture to keep
		t.Fatal(err)
	}
	lazy, err := NewPool(ctx, Options{Size: 1, Timeout: 30 * time.Second, Pictures: pictures, Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	defer lazy.Close()
	png, ok := lazy.Pictured(ctx, d, nil, 0, 0.5)
	if !ok || string(png) != string(made.Slides[0].PNG) {
		t.Fatalf("the kept picture: found %v, equal %v", ok, string(png) == string(made.Slides[0].PNG))
	}
	if _, ok := lazy.Pictured(ctx, d, nil, 0, 1); ok {
		t.Fatal("a picture at another scale was found")
	}
	again, err := lazy.Render(ctx, d, nil, Request{Images: true, Scale: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if lazy.BrowsersStarted() != 0 || string(again.Slides[0].PNG) != string(made.Slides[0].PNG) {
		t.Fatalf("the kept slide: %d browsers started, same picture %v", lazy.BrowsersStarted(), string(again.Slides[0].PNG) == string(made.Slides[0].PNG))
	}
	if _, err := lazy.Render(ctx, d, nil, Request{}); err != nil {
		t.Fatal(err)
	}
	if lazy.BrowsersStarted() != 1 {
		t.Fatalf("a measurement nobody kept started %d browsers, want 1", lazy.BrowsersStarted())
	}
}

// A PictureOnly render (the report's pictures) is kept and found by
// Pictured, is served by a measured render's kept picture, and never
// stands for a measurement: a measured render of the same slide at the
// same scale lays it out.
func TestPictureOnlyIsKeptApartFromMeasurements(t *testing.T) {
	ctx := context.Background()
	pictures := store.Memo(store.NewMemory())
	p, err := NewPool(ctx, Options{Size: 1, Timeout: 30 * time.Second, Pictures: pictures})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	d := deck(text("t1", 100, 100, 400, 40, "A picture for a person", 28, "#222222"))
	pic, err := p.Render(ctx, d, nil, Request{Images: true, Scale: 0.5, PictureOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	s := pic.Slides[0]
	if len(s.PNG) == 0 || s.Nodes != nil || len(pic.Violations) != 0 {
		t.Fatalf("a picture-only render: %d PNG bytes, nodes %v", len(s.PNG), s.Nodes)
	}
	if png, ok := p.Pictured(ctx, d, nil, 0, 1, 0.5); !ok || string(png) != string(s.PNG) {
		t.Fatalf("Pictured at 1 then 0.5: found %v, the same picture %v", ok, string(png) == string(s.PNG))
	}
	measured, err := p.Render(ctx, d, nil, Request{Images: true, Scale: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if p.MemoHits() != 1 || len(measured.Slides[0].Nodes) == 0 {
		t.Fatalf("a measured render after a picture-only one: %d memo hits (want only Pictured's), %d nodes", p.MemoHits(), len(measured.Slides[0].Nodes))
	}
	d2 := deck(text("t1", 100, 100, 400, 40, "Measured first", 28, "#222222"))
	full, err := p.Render(ctx, d2, nil, Request{Images: true, Scale: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	again, err := p.Render(ctx, d2, nil, Request{Images: true, Scale: 0.5, PictureOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if p.MemoHits() != 2 || string(again.Slides[0].PNG) != string(full.Slides[0].PNG) {
		t.Fatalf("a picture-only render of a slide measured with its picture: %d memo hits, the same picture %v", p.MemoHits(), string(again.Slides[0].PNG) == string(full.Slides[0].PNG))
	}
}
