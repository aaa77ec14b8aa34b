package render

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
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

// noisyPNG is a w x h PNG of pseudo-random colours (it does not compress
// below minBlobURI).
func noisyPNG(t testing.TB, w, h int, seed uint32) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	x := seed
	for i := range img.Pix {
		x = x*1664525 + 1013904223
		img.Pix[i] = uint8(x >> 24)
		if i%4 == 3 {
			img.Pix[i] = 255
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestPicturesCrossToThePageOnce: a slide's pictures of minBlobURI bytes
// or more are handed to the tab's page once, as blobs, and later renders
// name the blob. Rendering the slide again adds no blob and paints the same
// pixels with the same intrinsic sizes; a second picture adds one; a
// picture smaller than minBlobURI stays a data: URI.
func TestPicturesCrossToThePageOnce(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p, err := NewPool(ctx, Options{Size: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	blobs := scenegraph.Blobs{}
	d := deck()
	big := d.AddAsset(blobs, noisyPNG(t, 300, 200, 1), "image/png", "noise.png", 300, 200)
	small := d.AddAsset(blobs, twoTonePNG(t, 40, 20), "image/png", "small.png", 40, 20)
	d.Slides[0].Children = []*scenegraph.Node{imageNode("big", 100, 100, 300, 200, big), imageNode("small", 500, 100, 40, 20, small)}
	held := func() int { return len(p.tabs[0].blobs) }
	render := func() *SlideResult {
		t.Helper()
		res, err := p.Render(ctx, d, blobs, Request{Images: true})
		if err != nil {
			t.Fatal(err)
		}
		sr := res.Slides[0]
		if len(sr.Errors) > 0 {
			t.Fatalf("render errors: %v", sr.Errors)
		}
		for id, want := range map[string]scenegraph.Vector{"big": {X: 300, Y: 200}, "small": {X: 40, Y: 20}} {
			if m := sr.Nodes[id]; m.Image == nil || *m.Image != want {
				t.Errorf("%s: intrinsic size %v, want %v", id, m.Image, want)
			}
		}
		return &sr
	}
	first := render()
	if held() != 1 {
		t.Fatalf("after the first render the page holds %d pictures, want 1 (the small one stays a data: URI)", held())
	}
	again := render()
	if held() != 1 {
		t.Errorf("after rendering the slide again the page holds %d pictures, want 1", held())
	}
	if !bytes.Equal(first.PNG, again.PNG) {
		t.Error("the second render's picture differs from the first")
	}
	// The noise is painted: its mean is a mid grey, not the white slide.
	img, err := png.Decode(bytes.NewReader(again.PNG))
	if err != nil {
		t.Fatal(err)
	}
	if c := cellMeans(img, rawRect{X: 100, Y: 100, Width: 300, Height: 200}, rawRect{Width: 1280, Height: 720}); len(c) == 0 || c[0][0] < 90 || c[0][0] > 165 {
		t.Errorf("mean colour over the noise picture %v, want a mid grey (the picture painted)", c)
	}
	d.Slides[0].Children = append(d.Slides[0].Children, imageNode("other", 100, 400, 300, 200, d.AddAsset(blobs, noisyPNG(t, 300, 200, 2), "image/png", "noise2.png", 300, 200)))
	render()
	if held() != 2 {
		t.Errorf("after adding a second large picture the page holds %d, want 2", held())
	}
}
