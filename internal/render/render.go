package render

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// Request says what to render.
type Request struct {
	// Slides are 0-based indexes; nil renders every slide.
	Slides []int
	// Scale of the PNG relative to the slide's px size (2 = twice the
	// pixels per side). 0 means 1.
	Scale float64
	// Images asks for PNGs; without it only geometry and violations are
	// produced (about 10x cheaper: the screenshot encode dominates).
	Images bool
	// FitText names shrink-on-overflow texts (TextBox.AutoResize TRUNCATE,
	// DrawingML normAutofit) to fit as PowerPoint does when their text is
	// edited: drawn from full size and shrunk until they fit, the scale
	// found reported as Measured.AutoFitScale. Every other such text is
	// drawn at the scale its file stores (TextBox.DrawnFontScale).
	FitText []string
	// PictureOnly, with Images, paints the slides without measuring them:
	// no backdrop pass (the contrast check's), and each SlideResult holds
	// the PNG only (no Nodes, Violations or Errors). For pictures a person
	// looks at (the report's before and after), about half the browser
	// time of a measured render. A measured render of the same markup at
	// the same scale kept earlier (Options.Memo, Options.Pictures) serves
	// it too.
	PictureOnly bool
	// Progress, when set, is called after each requested slide is
	// rendered (or recalled from the memo) with how many are done and how
	// many were requested: done counts 1..total, one call at a time.
	Progress func(done, total int)
}

// Result is the render of a deck (or some of its slides).
type Result struct {
	Slides []SlideResult `json:"slides"`
	// Violations of every rendered slide, sorted by Key.
	Violations []Violation `json:"violations"`
	// Stalled is the wall time the call spent with all its unfinished
	// slides waiting for a browser tab that other work held (another
	// render, a tool measuring text): the pool's capacity, not the cost
	// of these slides. 0 when the pool had a free tab whenever asked.
	Stalled time.Duration `json:"stalledNs,omitempty"`
}

// SlideResult is one rendered slide.
type SlideResult struct {
	Index   int    `json:"index"` // 0-based
	SlideID string `json:"slideId"`
	// PNG of the slide at Request.Scale; nil unless Request.Images.
	PNG []byte `json:"-"`
	// Nodes maps a node id to its measured geometry after layout. Hidden
	// nodes are absent.
	Nodes map[string]Measured `json:"nodes"`
	// Errors are problems that did not stop the slide: invalid LaTeX, a
	// missing or undrawable image.
	Errors []NodeError `json:"errors,omitempty"`
	// Violations of this slide, sorted by Key.
	Violations []Violation `json:"violations"`
	// Duration is the wall time of this slide in the browser (set DOM,
	// lay out, measure, screenshot), excluding the wait for a free tab.
	Duration time.Duration `json:"durationNs"`
}

// Measured is a node's geometry as Chromium laid it out, in slide px.
type Measured struct {
	// Bounds is the axis-aligned box of the node (after rotation).
	Bounds scenegraph.Rect `json:"bounds"`
	// TextBounds is the box of the inked text (union of its line boxes),
	// for text-bearing nodes with visible characters; for a MATH node, the
	// box of its typeset formula (the SVG MathJax drew).
	TextBounds *scenegraph.Rect `json:"textBounds,omitempty"`
	// Clip is the intersection of the node's clipping ancestors (frames
	// with clipsContent), when it has any; the slide edge is not included.
	Clip *scenegraph.Rect `json:"clip,omitempty"`
	// Lines is the number of text lines.
	Lines int `json:"lines,omitempty"`
	// OverflowX/OverflowY are how many px the text extends past its box
	// (text reaching into an inset still fits) in the box's own, unrotated
	// axes; <= 0 means it fits.
	OverflowX float64 `json:"overflowX,omitempty"`
	OverflowY float64 `json:"overflowY,omitempty"`
	// Overflow reports OverflowX or OverflowY beyond the tolerance
	// (TextOverflowTolerance).
	Overflow bool `json:"overflow,omitempty"`
	// AutoFitScale is the scale (0.25..1) the text of a shrink-on-overflow
	// box (TextBox.AutoResize TRUNCATE, DrawingML normAutofit) is drawn
	// at: the fontScale its file stores, or for a text in Request.FitText
	// the largest scale at which it fits (bisection, within 1%); 0 when
	// drawn at full size.
	AutoFitScale float64 `json:"autoFitScale,omitempty"`
	// HasText is true when the node shows non-blank characters.
	HasText bool `json:"hasText,omitempty"`
	// MinFontSize is the smallest rendered font size of its runs, px.
	MinFontSize float64 `json:"minFontSize,omitempty"`
	// Contrast is the lowest WCAG 2.x contrast ratio of its runs against
	// Behind, the ratio relative to need being the worst; 0 when the node
	// shows no glyphs. ContrastNeed is the ratio that run needs: 4.5, or 3
	// for large text (contrast.go).
	Contrast     float64 `json:"contrast,omitempty"`
	ContrastNeed float64 `json:"contrastNeed,omitempty"`
	// Behind are the colours a reader sees behind the text: the distinct
	// mean colours of cells about one line-height wide along its first 12
	// lines, read from the slide rendered with every text transparent
	// (pictures, gradients, table cell fills, layout art included). Not
	// serialised: geometry.json carries the ratio.
	Behind []scenegraph.Color `json:"-"`
	// Art marks a shape of the slide's layout or master (drawn from the
	// original package, not a node of the deck; see underlay.go).
	Art bool `json:"art,omitempty"`
	// Image is the intrinsic size of the node's picture, px.
	Image *scenegraph.Vector `json:"image,omitempty"`
	// ImageFit is the CSS object-fit used (cover for FILL, contain for FIT).
	ImageFit string `json:"imageFit,omitempty"`
}

// Geometry returns every measured node's bounds by node id: the computed
// geometry attached beside a snapshot (never written into it as an edit).
func (r *Result) Geometry() map[string]scenegraph.Rect {
	g := map[string]scenegraph.Rect{}
	for _, s := range r.Slides {
		for id, m := range s.Nodes {
			g[id] = m.Bounds
		}
	}
	return g
}

// Render lays out and measures the requested slides of d, and paints them
// when req.Images is set. Slides render in parallel across the pool's tabs.
// A slide whose browser dies is retried once on a fresh browser; a slide
// that exceeds Options.Timeout fails. Errors name the slide.
func (p *Pool) Render(ctx context.Context, d *scenegraph.Deck, assets scenegraph.AssetSource, req Request) (*Result, error) {
	if d == nil {
		return nil, errors.New("render: nil deck")
	}
	idx := req.Slides
	if idx == nil {
		idx = make([]int, len(d.Slides))
		for i := range idx {
			idx[i] = i
		}
	}
	for _, i := range idx {
		if i < 0 || i >= len(d.Slides) {
			return nil, fmt.Errorf("render: slide %d out of range: deck %q has %d slides (0-based)", i, d.ID, len(d.Slides))
		}
	}
	scale := req.Scale
	if scale <= 0 {
		scale = 1
	}
	if req.Images && (scale > 4 || max(d.Width, d.Height)*scale > 2*MaxSlideSide) {
		return nil, fmt.Errorf("render: scale %g of a %gx%g px slide is too large (at most 4, and %d px per side)", scale, d.Width, d.Height, 2*MaxSlideSide)
	}
	if !req.Images {
		scale = 0
	}
	var fit map[string]bool
	if len(req.FitText) > 0 {
		fit = make(map[string]bool, len(req.FitText))
		for _, id := range req.FitText {
			fit[id] = true
		}
	}
	out := &Result{Slides: make([]SlideResult, len(idx))}
	// The first slide that fails (a timeout, a broken browser) fails the
	// render: the others are canceled rather than each waiting out its
	// own time limit, and the error is that slide's.
	g, gctx := errgroup.WithContext(ctx)
	var (
		doneMu sync.Mutex
		done   int
		stall  stallClock
	)
	for k, i := range idx {
		stall.add(slideStarted)
		g.Go(func() error {
			defer stall.add(slideDone)
			sr, err := p.renderSlide(gctx, d, assets, i, scale, fit, req.PictureOnly && scale > 0, &stall)
			if err != nil {
				return err
			}
			out.Slides[k] = *sr
			if req.Progress != nil {
				doneMu.Lock()
				done++
				req.Progress(done, len(idx))
				doneMu.Unlock()
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	for _, s := range out.Slides {
		out.Violations = append(out.Violations, s.Violations...)
	}
	sortViolations(out.Violations)
	out.Stalled = stall.total
	return out, nil
}

// stallClock measures Result.Stalled: the wall time during which at
// least one slide of a call waits for a tab and none is being worked on.
type stallClock struct {
	mu              sync.Mutex
	working, queued int
	since           time.Time
	total           time.Duration
}

// stallEvent is a slide's transition in stallClock.add.
type stallEvent int

const (
	slideStarted  stallEvent = iota // working (building markup, drawing)
	slideQueued                     // working to waiting for a tab
	slideDequeued                   // waiting to working
	slideDone                       // no longer working
)

func (c *stallClock) add(t stallEvent) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	if c.working == 0 && c.queued > 0 {
		c.total += now.Sub(c.since)
	}
	switch t {
	case slideStarted:
		c.working++
	case slideDone:
		c.working--
	case slideQueued:
		c.working, c.queued = c.working-1, c.queued+1
	case slideDequeued:
		c.working, c.queued = c.working+1, c.queued-1
	}
	c.since = now
}

func (p *Pool) renderSlide(ctx context.Context, d *scenegraph.Deck, assets scenegraph.AssetSource, i int, scale float64, fit map[string]bool, pictureOnly bool, stall *stallClock) (*SlideResult, error) {
	markup, notes, err := slideHTML(d, i, assets, fit)
	if err != nil {
		return nil, err
	}
	slideID := d.Slides[i].ID
	var raw *rawSlide
	var png []byte
	start := time.Now()
	key := p.memoKey(markup, d.Width, d.Height, scale)
	if raw, png = p.recall(ctx, key, scale > 0); raw != nil {
		if pictureOnly {
			return &SlideResult{Index: i, SlideID: slideID, PNG: png, Duration: time.Since(start)}, nil
		}
		return p.slideResult(d, i, raw, png, notes, start), nil
	}
	if pictureOnly {
		key = pictureKey(key)
		if _, png = p.recall(ctx, key, true); png != nil {
			return &SlideResult{Index: i, SlideID: slideID, PNG: png, Duration: time.Since(start)}, nil
		}
	}
	for attempt := 0; ; attempt++ {
		stall.add(slideQueued)
		t, err := p.acquire(ctx)
		stall.add(slideDequeued)
		if err != nil {
			return nil, fmt.Errorf("render: slide %d (%s): waiting for a browser: %w", i+1, slideID, err)
		}
		start = time.Now() // the slide's own time, not its wait for a tab
		sctx, cancel := context.WithTimeout(t.ctx, p.opts.Timeout)
		stop := context.AfterFunc(ctx, cancel)
		raw, png, err = t.drawSlide(sctx, markup, d.Width, d.Height, scale, pictureOnly)
		timedOut := errors.Is(sctx.Err(), context.DeadlineExceeded)
		stop()
		cancel()
		if err == nil {
			p.release(t, false)
			break
		}
		switch {
		case ctx.Err() != nil:
			p.release(t, t.ctx.Err() != nil)
			return nil, fmt.Errorf("render: slide %d (%s): %w", i+1, slideID, ctx.Err())
		case timedOut:
			p.release(t, true)
			return nil, fmt.Errorf("render: slide %d (%s): timed out after %s: %w", i+1, slideID, p.opts.Timeout, err)
		}
		// The browser died or the tab broke: restart it and retry once.
		p.release(t, true)
		if attempt >= 1 {
			return nil, fmt.Errorf("render: slide %d (%s): failed twice: %w", i+1, slideID, err)
		}
	}
	if pictureOnly {
		// Kept under its own key, never as a measurement.
		p.remember(ctx, key, &rawSlide{}, png)
		return &SlideResult{Index: i, SlideID: slideID, PNG: png, Duration: time.Since(start)}, nil
	}
	p.remember(ctx, key, raw, png)
	return p.slideResult(d, i, raw, png, notes, start), nil
}

// pictureKey is the memo key of a picture-only rendering (Request.
// PictureOnly) of what key names: a different entry, so that it never
// stands for a measured one.
func pictureKey(key string) string {
	if key == "" {
		return ""
	}
	return "picture:" + key
}

// slideResult turns what the browser measured into a slide's result.
func (p *Pool) slideResult(d *scenegraph.Deck, i int, raw *rawSlide, png []byte, notes []NodeError, start time.Time) *SlideResult {
	sr := &SlideResult{Index: i, SlideID: d.Slides[i].ID, PNG: png, Duration: time.Since(start)}
	sr.Errors = append(notes, raw.Errors...)
	sr.Nodes = measuredNodes(raw)
	markArt(d.Slides[i], sr.Nodes)
	sr.Violations = Violations(d, i, sr.Nodes)
	return sr
}

// memoKey names a slide's rendering: its markup, size and scale and the
// renderer's own assets (shell, page script), so a new build never reuses
// an old build's measurements.
func (p *Pool) memoKey(markup string, w, h, scale float64) string {
	if p.opts.Memo == nil && p.opts.Pictures == nil {
		return ""
	}
	sum := sha256.New()
	fmt.Fprintf(sum, "%s\x00%g\x00%g\x00%g\x00", rendererBuild(), w, h, scale)
	sum.Write([]byte(markup))
	return "render:" + hex.EncodeToString(sum.Sum(nil))
}

// memoEntry is a remembered rendering.
type memoEntry struct {
	Raw *rawSlide `json:"raw"`
	PNG []byte    `json:"png,omitempty"`
}

func (p *Pool) recall(ctx context.Context, key string, pictured bool) (*rawSlide, []byte) {
	if key == "" {
		return nil, nil
	}
	var b []byte
	ok := false
	if p.opts.Memo != nil {
		b, ok = p.opts.Memo.Get(ctx, key)
	}
	if !ok && pictured && p.opts.Pictures != nil {
		if b, ok = p.opts.Pictures.Get(ctx, key); ok && p.opts.Memo != nil {
			p.opts.Memo.Set(ctx, key, b, memoTTL)
		}
	}
	if !ok {
		return nil, nil
	}
	var e memoEntry
	if json.Unmarshal(b, &e) != nil || e.Raw == nil {
		return nil, nil
	}
	p.memoHits.Add(1)
	return e.Raw, e.PNG
}

func (p *Pool) remember(ctx context.Context, key string, raw *rawSlide, png []byte) {
	if key == "" {
		return
	}
	b, err := json.Marshal(memoEntry{Raw: raw, PNG: png})
	if err != nil {
		return
	}
	if p.opts.Memo != nil {
		p.opts.Memo.Set(ctx, key, b, memoTTL)
	}
	if p.opts.Pictures != nil && len(png) > 0 {
		p.opts.Pictures.Set(ctx, key, b, memoTTL)
	}
}

// memoTTL is how long a remembered rendering lives.
const memoTTL = time.Hour

// MemoHits is how many slides were served from Options.Memo so far.
func (p *Pool) MemoHits() int64 { return p.memoHits.Load() }

func toRect(r rawRect) scenegraph.Rect {
	return scenegraph.Rect{X: r.X, Y: r.Y, Width: r.Width, Height: r.Height}
}

// measuredNodes converts page.js output, computing contrast in Go.
func measuredNodes(raw *rawSlide) map[string]Measured {
	out := make(map[string]Measured, len(raw.Nodes))
	for _, n := range raw.Nodes {
		m := Measured{Bounds: toRect(n.B), Lines: n.Lines, HasText: n.Text, MinFontSize: n.MinFont, AutoFitScale: n.FS}
		if n.Ink != nil {
			r := toRect(*n.Ink)
			m.TextBounds = &r
		}
		if n.Clip != nil {
			r := toRect(*n.Clip)
			m.Clip = &r
		}
		if n.Text {
			m.OverflowX, m.OverflowY = roundPx(n.OvX), roundPx(n.OvY)
			m.Overflow = m.OverflowX > TextOverflowTolerance || m.OverflowY > TextOverflowTolerance
		}
		// Worst run against the worst cell under its lines: a line over
		// a different backdrop than the rest still has to be readable.
		m.Behind = behindColors(n.Behind)
		m.Contrast, m.ContrastNeed = worstContrast(n.Runs, m.Behind)
		if n.Img != nil && n.Img.NW > 0 && n.Img.NH > 0 {
			m.Image = &scenegraph.Vector{X: n.Img.NW, Y: n.Img.NH}
			m.ImageFit = n.Img.Fit
		}
		out[n.ID] = m
	}
	return out
}

// markArt flags the measured nodes that are not nodes of slide s: the
// layout and master art the renderer drew under it.
func markArt(s *scenegraph.Node, nodes map[string]Measured) {
	own := map[string]bool{}
	s.Walk(func(n, _ *scenegraph.Node, _ int) bool { own[n.ID] = true; return true })
	for id, m := range nodes {
		if !own[id] {
			m.Art = true
			nodes[id] = m
		}
	}
}

func roundPx(v float64) float64 { return math.Round(v*100) / 100 }

func sortViolations(v []Violation) {
	sort.SliceStable(v, func(i, j int) bool { return v[i].Key < v[j].Key })
}

// Pictured returns the PNG of slide i of d at the first of scales (each
// above 0) that an earlier render made, from Options.Memo or
// Options.Pictures (a measured render's picture or a PictureOnly one),
// without rendering anything or starting a browser; ok is false when no
// render of that markup at any of those scales was kept (or the pool
// keeps none). The slide's markup is built once for all scales.
func (p *Pool) Pictured(ctx context.Context, d *scenegraph.Deck, assets scenegraph.AssetSource, i int, scales ...float64) (png []byte, ok bool) {
	if d == nil || i < 0 || i >= len(d.Slides) || len(scales) == 0 || (p.opts.Memo == nil && p.opts.Pictures == nil) {
		return nil, false
	}
	markup, _, err := slideHTML(d, i, assets, nil)
	if err != nil {
		return nil, false
	}
	for _, scale := range scales {
		if scale <= 0 {
			continue
		}
		key := p.memoKey(markup, d.Width, d.Height, scale)
		if raw, png := p.recall(ctx, key, true); raw != nil && len(png) > 0 {
			return png, true
		}
		if _, png := p.recall(ctx, pictureKey(key), true); len(png) > 0 {
			return png, true
		}
	}
	return nil, false
}
