package render

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"math"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/acecanvas/ace/internal/cache"
)

// Options configure a Pool.
type Options struct {
	// Chromium is the browser binary. Empty: $ACE_CHROMIUM, then
	// /usr/lib/chromium/chromium (the Debian package's real binary; its
	// /usr/bin wrapper prints a shell warning), then chromium,
	// chromium-browser, google-chrome on $PATH. A set $ACE_CHROMIUM that is
	// not an executable file (or a name on $PATH) is an error naming it.
	Chromium string
	// Size is the number of browsers, one tab each. Measured on 2 cores:
	// two browsers render 13 slides/s, two tabs in one browser 10 (one
	// browser process saturates a core). 0 means 1.
	Size int
	// Timeout bounds one slide (DOM set, layout, screenshot). 0 means 30 s.
	Timeout time.Duration
	// StartTimeout bounds starting one browser. 0 means 30 s.
	StartTimeout time.Duration
	// Memo, when set, keeps what the browser measured and painted for a
	// slide's markup: a slide whose HTML (SlideHTML) is byte-identical to
	// one rendered before, at the same scale, by the same renderer build,
	// is not laid out again. The step loop re-renders every slide changed
	// since the iteration began after each step, and most are unchanged
	// since the last step; the before/after report renders them again.
	// A cache.Cache: in-process, or Redis shared by every render worker.
	Memo cache.Cache
	// Pictures, when set, also keeps every rendering that has a picture
	// (Request.Images) under the same key, and is read when Memo misses:
	// store.Memo, so a slide pictured once (a workflow's render step) is
	// read, never rendered again, by every process that shares the store
	// (the batch report, a later iteration on another worker).
	Pictures cache.Cache
	// Lazy defers starting the browsers to the first slide that is not
	// served from Memo or Pictures: a pool whose slides were all rendered
	// before never starts Chromium. A start failure is then the error of
	// that slide's render.
	Lazy bool
}

// FindChromium resolves the browser binary as Options.Chromium documents.
func FindChromium(explicit string) (string, error) {
	if explicit != "" {
		if st, err := os.Stat(explicit); err == nil && !st.IsDir() {
			return explicit, nil
		}
		if p, err := exec.LookPath(explicit); err == nil {
			return p, nil
		}
		return "", fmt.Errorf("render: Chromium binary %q not found; give the path of an installed chromium", explicit)
	}
	// A set ACE_CHROMIUM is meant: a mistyped one is an error naming it,
	// never a silent fall back to another browser.
	if env := os.Getenv("ACE_CHROMIUM"); env != "" {
		p, err := checkChromium(env)
		if err != nil {
			return "", fmt.Errorf("render: ACE_CHROMIUM=%s: %v; set ACE_CHROMIUM to the browser binary (e.g. /usr/lib/chromium/chromium) or unset it to search the defaults", env, err)
		}
		return p, nil
	}
	if st, err := os.Stat("/usr/lib/chromium/chromium"); err == nil && !st.IsDir() {
		return "/usr/lib/chromium/chromium", nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("render: no Chromium found: install the Debian package `chromium` (scripts/setup does) or set ACE_CHROMIUM to the browser binary")
}

// checkChromium resolves ACE_CHROMIUM's value: a path (it contains a "/")
// must be an executable regular file; a bare name is looked up on $PATH.
func checkChromium(v string) (string, error) {
	if !strings.ContainsRune(v, '/') {
		p, err := exec.LookPath(v)
		if err != nil {
			return "", fmt.Errorf("%q is not on $PATH", v)
		}
		return p, nil
	}
	st, err := os.Stat(v)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", errors.New("no such file")
	case err != nil:
		return "", err
	case st.IsDir():
		return "", errors.New("is a directory, not the browser binary")
	case st.Mode().Perm()&0o111 == 0:
		return "", errors.New("is not executable (chmod +x, or point at the real binary)")
	}
	return v, nil
}

// Pool is a bounded set of headless Chromium tabs, each with the shell page
// loaded once and reused for every slide. It is safe for concurrent use.
type Pool struct {
	opts     Options
	exec     string
	idle     chan *tab
	mu       sync.Mutex
	tabs     []*tab
	closed   bool
	blocked  atomic.Int64 // requests failed by interception, for tests and logs
	started  atomic.Int64 // browsers started, restarts included
	memoHits atomic.Int64 // slides served from Options.Memo
	// startMu serialises starting the browsers (at NewPool, or at the
	// first render of a lazy pool); running is set once they run.
	startMu sync.Mutex
	running bool
}

// tab is one browser with one tab showing the shell page.
type tab struct {
	ctx         context.Context // chromedp context of the tab
	cancel      context.CancelFunc
	allocCancel context.CancelFunc
	// up is set once the browser runs and the shell page is loaded; close
	// asks only such a browser to shut down before it kills.
	up        bool
	closeOnce sync.Once
	w, h      int64 // current viewport, px
	// blobs maps a picture's data: URI to the blob: URL of the same bytes
	// held by the tab's page (blobMarkup); blobBytes is their total size.
	blobs     map[string]string
	blobBytes int
}

// NewPool starts o.Size browsers (with o.Lazy, at the first slide to
// render). ctx bounds the start only; the browsers live until Close. Errors name the binary and the fix.
func NewPool(ctx context.Context, o Options) (*Pool, error) {
	if o.Size <= 0 {
		o.Size = 1
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = 30 * time.Second
	}
	bin, err := FindChromium(o.Chromium)
	if err != nil {
		return nil, err
	}
	loadAssets()
	p := &Pool{opts: o, exec: bin, idle: make(chan *tab, o.Size)}
	if o.Lazy {
		return p, nil
	}
	if err := p.start(ctx); err != nil {
		return nil, err
	}
	return p, nil
}

// start starts the pool's browsers unless they run (NewPool, or a lazy
// pool's first render that needs one; after a failed start, the next
// render tries again). ctx bounds the start only.
func (p *Pool) start(ctx context.Context) error {
	p.startMu.Lock()
	defer p.startMu.Unlock()
	if p.running {
		return nil
	}
	if err := p.startTabs(ctx); err != nil {
		return err
	}
	p.running = true
	return nil
}

func (p *Pool) startTabs(ctx context.Context) error {
	o := p.opts
	type res struct {
		t   *tab
		err error
	}
	ch := make(chan res, o.Size)
	for i := 0; i < o.Size; i++ {
		go func() {
			t, err := p.startTab(ctx)
			ch <- res{t, err}
		}()
	}
	var firstErr error
	for i := 0; i < o.Size; i++ {
		r := <-ch
		if r.err != nil {
			if firstErr == nil {
				firstErr = r.err
			}
			continue
		}
		p.mu.Lock()
		closed := p.closed
		if !closed {
			p.tabs = append(p.tabs, r.t)
		}
		p.mu.Unlock()
		if closed {
			r.t.close()
			continue
		}
		p.idle <- r.t
	}
	if firstErr != nil {
		// Close what this start began (the pool stays usable: a lazy
		// pool tries again on the next render).
		p.mu.Lock()
		tabs := p.tabs
		p.tabs = nil
		p.mu.Unlock()
		for range tabs {
			<-p.idle
		}
		for _, t := range tabs {
			t.close()
		}
		return firstErr
	}
	return nil
}

// Blocked returns how many network requests the pool's pages attempted and
// interception failed (every URL that is not data: or blob:).
func (p *Pool) Blocked() int64 { return p.blocked.Load() }

// BrowsersStarted counts browser starts, restarts after a crash included.
func (p *Pool) BrowsersStarted() int64 { return p.started.Load() }

func (p *Pool) startTab(ctx context.Context) (*tab, error) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(p.exec),
		chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("no-pings", true),
		chromedp.Flag("mute-audio", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("font-render-hinting", "none"),
		// Not --disable-crashpad-for-testing: without its crash handler
		// Chromium 156's network service dies and is restarted about
		// twice a second, an idle browser then burning a whole core
		// (TestIdleBrowserStaysIdle).
		// Frames are produced when a screenshot asks, not on a 60 Hz
		// clock: a measured slide takes a third less time (median of
		// BenchmarkWarmSlide1080Geometry 52 to 35 ms; with its picture,
		// BenchmarkWarmSlide1080, 164 to 118 ms; 2 cores).
		chromedp.Flag("disable-gpu-vsync", true),
		chromedp.Flag("disable-frame-rate-limit", true),
		chromedp.WindowSize(1280, 720),
	)
	allocCtx, allocCancel := chromedp.NewExecAllocator(context.Background(), opts...)
	tctx, cancel := chromedp.NewContext(allocCtx, chromedp.WithErrorf(logChromedpError))
	t := &tab{ctx: tctx, cancel: cancel, allocCancel: allocCancel}
	// The first Run starts the browser; it must not carry a deadline (that
	// would end the browser), so the start is bounded by a watchdog.
	done := make(chan error, 1)
	go func() { done <- chromedp.Do(tctx, chromedp.Func(p.setupTab)) }()
	timer := time.NewTimer(p.opts.StartTimeout)
	defer timer.Stop()
	var err error
	select {
	case err = <-done:
	case <-timer.C:
		err = fmt.Errorf("timed out after %s", p.opts.StartTimeout)
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		t.close()
		return nil, fmt.Errorf("render: starting Chromium %s: %w (check that it runs: %s --headless --no-sandbox --dump-dom about:blank)", p.exec, err, p.exec)
	}
	t.up = true
	p.started.Add(1)
	return t, nil
}

// setupTab closes the network, loads the shell page and the in-page script.
func (p *Pool) setupTab(ctx context.Context, t *chromedp.Target) error {
	// Fail every request that is not data: or blob:. CSP blocks them
	// first; this is the second wall (a CSP gap, a future feature).
	events := cdp.Events(ctx, t, fetch.RequestPaused)
	go func() {
		for ev, err := range events {
			if err != nil {
				return
			}
			u := ""
			if ev.Request != nil {
				u = ev.Request.URL
			}
			cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			if strings.HasPrefix(u, "data:") || strings.HasPrefix(u, "blob:") {
				_, _ = cdp.Call(cctx, t, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
			} else {
				p.blocked.Add(1)
				_, _ = cdp.Call(cctx, t, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
			}
			cancel()
		}
	}()
	if _, err := cdp.Call(ctx, t, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*"}}}); err != nil {
		return fmt.Errorf("enabling request interception: %w", err)
	}
	tree, err := cdp.Call(ctx, t, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		return fmt.Errorf("reading frame tree: %w", err)
	}
	if _, err := cdp.Call(ctx, t, page.SetDocumentContent, page.SetDocumentContentParams{FrameID: tree.FrameTree.Frame.ID, HTML: shellHTML}); err != nil {
		return fmt.Errorf("loading shell page: %w", err)
	}
	if _, err := chromedp.Evaluate[chromedp.Void](mathJaxJS)(ctx, t); err != nil {
		return fmt.Errorf("loading MathJax: %w", err)
	}
	// MathJax starts asynchronously; its SVG stylesheet goes into the head
	// once (formulas are converted one by one, never typeset in the page).
	if _, err := chromedp.Evaluate[chromedp.Void](`MathJax.startup.promise.then(() => { document.head.appendChild(MathJax.svgStylesheet()); })`, chromedp.EvalAwaitPromise)(ctx, t); err != nil {
		return fmt.Errorf("starting MathJax: %w", err)
	}
	if _, err := chromedp.Evaluate[chromedp.Void](pageJS)(ctx, t); err != nil {
		return fmt.Errorf("loading page script: %w", err)
	}
	return nil
}

// logChromedpError forwards chromedp's error log except the notice that
// Page.setDocumentContent (how the shell page is loaded) always triggers.
func logChromedpError(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if strings.Contains(msg, "DOM.documentUpdated") {
		return
	}
	log.Print("render: chromedp: " + msg)
}

// close ends the tab's browser and every process it started; a second
// call does nothing. A running browser is first asked to shut down
// (Browser.close, at most gracefulClose): it ends its helpers itself, so
// a browser ended this way leaves two orphans (its zygotes, reparented to
// PID 1 and reaped there) instead of about eight a SIGKILL leaves. Then
// the context is cancelled, which kills whatever is left (chromedp:
// SIGKILL to the browser, then to every process with its
// --user-data-dir). When ace dies without Close (SIGKILL, a crash), the
// kernel kills the browser (chromedp sets Pdeathsig) and its helpers end
// with it.
func (t *tab) close() {
	t.closeOnce.Do(func() {
		if t.up {
			ctx, cancel := context.WithTimeout(t.ctx, gracefulClose)
			_ = chromedp.Cancel(ctx)
			cancel()
		}
		t.cancel()
		t.allocCancel()
	})
}

// gracefulClose bounds a browser's own shutdown in close (measured:
// 0.2-0.4 s for a pool of two on 2 cores).
const gracefulClose = 2 * time.Second

// Close stops every browser, all at once (tab.close), and returns when
// they ended. Renders in flight fail.
func (p *Pool) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil
	}
	p.closed = true
	var wg sync.WaitGroup
	for _, t := range p.tabs {
		wg.Go(t.close)
	}
	wg.Wait()
	p.tabs = nil
	return nil
}

// acquire takes an idle tab or waits for one.
func (p *Pool) acquire(ctx context.Context) (*tab, error) {
	if err := p.start(context.WithoutCancel(ctx)); err != nil {
		return nil, err
	}
	select {
	case t := <-p.idle:
		return t, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// release returns t, or a fresh browser in its place when t died.
func (p *Pool) release(t *tab, broken bool) {
	p.mu.Lock()
	closed := p.closed
	p.mu.Unlock()
	if closed {
		t.close()
		return
	}
	if broken {
		t.close()
		nt, err := p.startTab(context.Background())
		p.mu.Lock()
		if p.closed {
			// Close ran while the replacement started: do not leak it.
			p.mu.Unlock()
			if err == nil {
				nt.close()
			}
			return
		}
		for i, x := range p.tabs {
			if x == t {
				if err == nil {
					p.tabs[i] = nt
				} else {
					p.tabs = append(p.tabs[:i], p.tabs[i+1:]...)
				}
				break
			}
		}
		p.mu.Unlock()
		if err != nil {
			// Keep the pool's capacity: retry the start on next use.
			go func() {
				time.Sleep(time.Second)
				if t2, err := p.startTab(context.Background()); err == nil {
					p.mu.Lock()
					if p.closed {
						p.mu.Unlock()
						t2.close()
						return
					}
					p.tabs = append(p.tabs, t2)
					p.mu.Unlock()
					p.idle <- t2
				}
			}()
			return
		}
		t = nt
	}
	p.idle <- t
}

// rawSlide is what page.js returns.
type rawSlide struct {
	W      float64     `json:"w"`
	H      float64     `json:"h"`
	Nodes  []rawNode   `json:"nodes"`
	Errors []NodeError `json:"errors"`
}

type rawRect struct {
	X, Y, Width, Height float64
}

type rawNode struct {
	ID      string   `json:"id"`
	B       rawRect  `json:"b"`
	Clip    *rawRect `json:"clip"`
	Ink     *rawRect `json:"ink"`
	Lines   int      `json:"lines"`
	OvX     float64  `json:"ovX"`
	OvY     float64  `json:"ovY"`
	Text    bool     `json:"text"`
	MinFont float64  `json:"minFont"`
	// Lns are the boxes of the first text lines (slide px), for the
	// contrast check.
	Lns []rawRect `json:"lns"`
	// Behind is filled in Go from the text-less screenshot: the distinct
	// mean colours of the cells under Lns (contrast.go).
	Behind    [][3]uint8 `json:"behind,omitempty"`
	Runs      []rawRun   `json:"runs"`
	Img       *rawImg    `json:"img"`
	MathError bool       `json:"mathError"`
	FS        float64    `json:"fs"`
}

type rawRun struct {
	C [4]float64 `json:"c"`
	S float64    `json:"s"`
	W int        `json:"w"`
}

type rawImg struct {
	NW  float64 `json:"nw"`
	NH  float64 `json:"nh"`
	Fit string  `json:"fit"`
}

// drawSlide sets the slide DOM in t's shell page, measures it and, when
// scale > 0, captures a PNG of the slide at that scale. pictureOnly skips
// the backdrop pass (Request.PictureOnly).
func (t *tab) drawSlide(ctx context.Context, markup string, w, h float64, scale float64, pictureOnly bool) (*rawSlide, []byte, error) {
	vw, vh := int64(math.Ceil(w)), int64(math.Ceil(h))
	var raw *rawSlide
	var png []byte
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if vw != t.w || vh != t.h {
			if _, err := cdp.Call(ctx, tg, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: vw, Height: vh, DeviceScaleFactor: 1}); err != nil {
				return fmt.Errorf("setting viewport %dx%d: %w", vw, vh, err)
			}
			t.w, t.h = vw, vh
		}
		markup, err := t.blobMarkup(ctx, tg, markup)
		if err != nil {
			return err
		}
		arg, _ := json.Marshal(markup)
		// Without a picture the text is hidden in the same call, right
		// after the measurement (the layout is kept): the backdrop
		// screenshot follows without another round trip.
		hide := "false"
		if scale <= 0 {
			hide = "true"
		}
		r, err := chromedp.Evaluate[*rawSlide]("window.__ace.render("+string(arg)+","+hide+")", chromedp.EvalAwaitPromise)(ctx, tg)
		if err != nil {
			return fmt.Errorf("laying out slide: %w", err)
		}
		if r == nil {
			return errors.New("laying out slide: page script returned nothing")
		}
		raw = r
		if scale > 0 {
			shot, err := cdp.Call(ctx, tg, page.CaptureScreenshot, page.CaptureScreenshotParams{
				Format:           page.CaptureScreenshotFormatPng,
				Clip:             &page.Viewport{X: 0, Y: 0, Width: w, Height: h, Scale: scale},
				OptimizeForSpeed: ptr(true),
				FromSurface:      ptr(true),
			})
			if err != nil {
				return fmt.Errorf("capturing screenshot: %w", err)
			}
			png = shot.Data
		}
		region, ok := backdropRegion(raw, w, h)
		if !ok || pictureOnly {
			return nil
		}
		// What is painted behind the text, for the contrast check: the
		// same slide with every text transparent (contrast.go), only the
		// part of it under text lines.
		if scale > 0 {
			if _, err := chromedp.Evaluate[bool]("window.__ace.hideText()")(ctx, tg); err != nil {
				return fmt.Errorf("hiding the text for the backdrop: %w", err)
			}
		}
		shot, err := cdp.Call(ctx, tg, page.CaptureScreenshot, page.CaptureScreenshotParams{
			Format:           page.CaptureScreenshotFormatPng,
			Clip:             &page.Viewport{X: region.X, Y: region.Y, Width: region.Width, Height: region.Height, Scale: BackdropScale},
			OptimizeForSpeed: ptr(true),
			FromSurface:      ptr(true),
		})
		if err != nil {
			return fmt.Errorf("capturing the backdrop: %w", err)
		}
		return sampleBackdrop(raw, shot.Data, region)
	}))
	return raw, png, err
}

func ptr[T any](v T) *T { return &v }

const (
	// minBlobURI is the smallest data: URI blobMarkup hands to the page
	// as a blob (smaller ones cost less to send than to look up).
	minBlobURI = 4 << 10
	// maxBlobBytes bounds the pictures a tab's page holds as blobs (as
	// base64, bytes); past it they are all revoked and registered afresh.
	maxBlobBytes = 256 << 20
)

// blobMarkup returns markup with each picture's data:image/...;base64 URI
// of at least minBlobURI bytes replaced by a blob: URL of the same bytes
// that the tab's page holds (page.js put), registering the pictures the
// page does not hold yet in one call. A slide's pictures then cross the
// DevTools connection and are parsed once per tab, not at every render
// (the step loop renders the same slide's pictures again and again). The
// memo key is taken from the markup before (render.go), so it still
// names the picture bytes.
func (t *tab) blobMarkup(ctx context.Context, tg *chromedp.Target, markup string) (string, error) {
	type span struct{ i, j int }
	var spans []span
	for i := 0; ; {
		k := strings.Index(markup[i:], "data:image/")
		if k < 0 {
			break
		}
		k += i
		j := k + len("data:image/")
		for j < len(markup) && isDataURIByte(markup[j]) {
			j++
		}
		i = j
		if j-k >= minBlobURI && strings.Contains(markup[k:j], ";base64,") {
			spans = append(spans, span{k, j})
		}
	}
	if len(spans) == 0 {
		return markup, nil
	}
	fresh := func() []string {
		var out []string
		seen := map[string]bool{}
		for _, sp := range spans {
			u := markup[sp.i:sp.j]
			if _, ok := t.blobs[u]; !ok && !seen[u] {
				seen[u] = true
				out = append(out, u)
			}
		}
		return out
	}
	add := fresh()
	size := 0
	for _, u := range add {
		size += len(u)
	}
	if t.blobs == nil || t.blobBytes+size > maxBlobBytes {
		if len(t.blobs) > 0 {
			urls := make([]string, 0, len(t.blobs))
			for _, b := range t.blobs {
				urls = append(urls, b)
			}
			arg, _ := json.Marshal(urls)
			if _, err := chromedp.Evaluate[bool]("window.__ace.revoke("+string(arg)+")")(ctx, tg); err != nil {
				return "", fmt.Errorf("freeing the page's pictures: %w", err)
			}
		}
		t.blobs, t.blobBytes = map[string]string{}, 0
		add = fresh()
	}
	if len(add) > 0 {
		list := make([][2]string, len(add))
		for n, u := range add {
			mime, b64, _ := strings.Cut(strings.TrimPrefix(u, "data:"), ";base64,")
			list[n] = [2]string{mime, b64}
		}
		arg, _ := json.Marshal(list)
		urls, err := chromedp.Evaluate[[]string]("window.__ace.put("+string(arg)+")")(ctx, tg)
		if err != nil {
			return "", fmt.Errorf("handing the slide's pictures to the page: %w", err)
		}
		if len(urls) != len(add) {
			return "", fmt.Errorf("handing the slide's pictures to the page: %d blob URLs for %d pictures", len(urls), len(add))
		}
		for n, u := range add {
			t.blobs[u] = urls[n]
			t.blobBytes += len(u)
		}
	}
	var b strings.Builder
	b.Grow(len(markup))
	last := 0
	for _, sp := range spans {
		b.WriteString(markup[last:sp.i])
		b.WriteString(t.blobs[markup[sp.i:sp.j]])
		last = sp.j
	}
	b.WriteString(markup[last:])
	return b.String(), nil
}

// isDataURIByte reports whether c may continue a data:image/...;base64
// URI as SlideHTML writes it (a MIME type, then base64).
func isDataURIByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("+/=;,.-_", c) >= 0
}
