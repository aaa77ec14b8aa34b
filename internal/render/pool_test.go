package render

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// A browser that dies between renders is replaced and the slide retried.
func TestPoolRestartsADeadBrowser(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p, err := NewPool(ctx, Options{Size: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	d := deck(rect("r", 10, 10, 100, 100, "#FF0000"))
	if _, err := p.Render(ctx, d, nil, Request{}); err != nil {
		t.Fatal(err)
	}
	tb, err := p.acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	proc := chromedp.FromContext(tb.ctx).Browser.Process()
	if proc == nil {
		t.Fatal("no browser process")
	}
	if err := proc.Kill(); err != nil {
		t.Fatal(err)
	}
	_, _ = proc.Wait()
	p.release(tb, false) // hand the dead tab back as if nobody noticed
	res, err := p.Render(ctx, d, nil, Request{Images: true})
	if err != nil {
		t.Fatalf("render after the browser died: %v", err)
	}
	if len(res.Slides[0].PNG) == 0 || res.Slides[0].Nodes["r"].Bounds.Width != 100 {
		t.Errorf("retried render incomplete: %+v", res.Slides[0].Nodes["r"])
	}
	if n := p.BrowsersStarted(); n != 2 {
		t.Errorf("browsers started = %d, want 2 (one restart)", n)
	}
}

func TestRenderHonoursCancellationAndTimeout(t *testing.T) {
	p := sharedPool(t)
	d := deck(rect("r", 10, 10, 100, 100, "#FF0000"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Render(ctx, d, nil, Request{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: err = %v, want context.Canceled", err)
	}
	// A pool whose per-slide limit is shorter than any render times out
	// with an error naming the slide, and recovers for the next caller.
	ctx2, cancel2 := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel2()
	short, err := NewPool(ctx2, Options{Size: 1, Timeout: time.Microsecond})
	if err != nil {
		t.Fatal(err)
	}
	defer short.Close()
	_, err = short.Render(ctx2, d, nil, Request{Images: true})
	if err == nil || !strings.Contains(err.Error(), "timed out") || !strings.Contains(err.Error(), "slide 1 (s1)") {
		t.Errorf("timeout error = %v", err)
	}
	short.opts.Timeout = 30 * time.Second
	if _, err := short.Render(ctx2, d, nil, Request{}); err != nil {
		t.Errorf("pool did not recover after a timeout: %v", err)
	}
}

func TestConcurrentRendersShareThePool(t *testing.T) {
	p := sharedPool(t)
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := float64(50 + 10*i)
			d := deck(rect("r", 0, 0, w, 20, "#000000"))
			res, err := p.Render(context.Background(), d, nil, Request{})
			if err != nil {
				errs <- err
				return
			}
			if got := res.Slides[0].Nodes["r"].Bounds.Width; got != w {
				errs <- errors.New("a render saw another render's slide")
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestBadRequestsGetClearErrors(t *testing.T) {
	p := sharedPool(t)
	d := deck()
	if _, err := p.Render(context.Background(), d, nil, Request{Slides: []int{3}}); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("slide out of range: %v", err)
	}
	if _, err := HTML(&scenegraph.Deck{ID: "x", Slides: []*scenegraph.Node{{ID: "s", Type: scenegraph.TypeSlide}}}, 0, nil); err == nil || !strings.Contains(err.Error(), "Deck.Width") {
		t.Errorf("zero-size deck: %v", err)
	}
	if _, err := NewPool(context.Background(), Options{Chromium: "/nonexistent/chromium"}); err == nil {
		t.Error("a missing browser binary must fail")
	}
}

func TestOversizedRequestsAreRefused(t *testing.T) {
	d := deck()
	d.Width = 100000
	if _, err := HTML(d, 0, nil); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("huge slide: %v", err)
	}
	if _, err := sharedPool(t).Render(context.Background(), deck(), nil, Request{Scale: 50, Images: true}); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("huge scale: %v", err)
	}
}
