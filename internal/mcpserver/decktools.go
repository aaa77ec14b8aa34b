package mcpserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/acecanvas/ace/internal/deckio"
	"github.com/acecanvas/ace/internal/diff"
	"github.com/acecanvas/ace/internal/fonts"
	"github.com/acecanvas/ace/internal/judge"
	"github.com/acecanvas/ace/internal/observe"
	"github.com/acecanvas/ace/internal/outfile"
	"github.com/acecanvas/ace/internal/recipe"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/report"
	"github.com/acecanvas/ace/internal/route"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/store"
)

// The server's own tools, beside the action space.
const (
	ToolOpenDeck     = "open_deck"
	ToolRenderSlide  = "render_slide"
	ToolCheckLayout  = "check_layout"
	ToolDiff         = "diff"
	ToolUndo         = "undo"
	ToolRedo         = "redo"
	ToolSaveDeck     = "save_deck"
	ToolRunRecipe    = "run_recipe"
	ToolExportReport = "export_report"
)

// MaxRenderScale is the largest render_slide scale (the renderer's own
// limit, internal/render Request.Scale).
const MaxRenderScale = 4

type openArgs struct {
	Path string `json:"path" jsonschema:"the deck to open: .pptx, ACE scene-graph .json or Figma REST .json, relative to the workspace root or absolute inside it"`
}

type renderArgs struct {
	Slide string  `json:"slide" jsonschema:"the slide: its 1-based number (\"3\") or its id (\"s3\")"`
	Scale float64 `json:"scale,omitempty" jsonschema:"PNG scale relative to the slide's px size, above 0 and at most 4; default 1"`
}

type checkArgs struct {
	Slides []string `json:"slides,omitempty" jsonschema:"slides to measure, by 1-based number or id; default every slide that differs from the opened original"`
}

type noArgs struct{}

type saveArgs struct {
	Path      string `json:"path" jsonschema:"where to write, inside the workspace root; never the opened file"`
	Format    string `json:"format,omitempty" jsonschema:"pptx or json (ACE scene graph); default from the path's extension, which must agree"`
	Overwrite bool   `json:"overwrite,omitempty" jsonschema:"replace an existing file at path (never the opened file)"`
}

type recipeArgs struct {
	Path string `json:"path" jsonschema:"a migration recipe (.yaml, docs/recipes.md) inside the workspace root"`
}

type reportArgs struct {
	Path      string `json:"path" jsonschema:"the .html file to write inside the workspace root"`
	Overwrite bool   `json:"overwrite,omitempty" jsonschema:"replace an existing file at path"`
}

func (s *Server) addDeckTools() {
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)}
	edits := &mcp.ToolAnnotations{DestructiveHint: ptr(false), OpenWorldHint: ptr(false)}
	mcp.AddTool(s.mcp, &mcp.Tool{Name: ToolOpenDeck, Annotations: edits,
		Description: "Open a deck (.pptx, ACE scene-graph .json or Figma REST .json) inside the workspace root as this session's working copy; the file itself is never written. Returns the slide list. Opening again replaces the session's working copy and its undo history."},
		withSession(s, s.openDeck))
	mcp.AddTool(s.mcp, &mcp.Tool{Name: ToolRenderSlide, Annotations: readOnly,
		Description: "Render one slide of the working copy in headless Chromium: the PNG as image content, then its layout violations (overflow, overlap, out of bounds, clipping, low contrast, tiny text) with node ids and boxes in px."},
		withDeck(s, s.renderSlide))
	mcp.AddTool(s.mcp, &mcp.Tool{Name: ToolCheckLayout, Annotations: readOnly,
		Description: "Measure without changing anything: the layout observation for the slides that differ from the opened original (or the slides given): violations new and resolved since the original, with node ids and boxes, and the measured boxes of changed text."},
		withDeck(s, s.checkLayout))
	mcp.AddTool(s.mcp, &mcp.Tool{Name: ToolDiff, Annotations: readOnly,
		Description: "JsonDiff of the working copy against the opened original: every distinct change by slide and node, as ACE's judge reads it."},
		withDeck(s, s.diff))
	mcp.AddTool(s.mcp, &mcp.Tool{Name: ToolUndo, Annotations: edits,
		Description: "Undo the last call that changed the working copy (an edit tool, run_recipe or redo)."},
		withDeck(s, func(ctx context.Context, w *session, _ noArgs) (*mcp.CallToolResult, error) {
			return s.undoRedo(ctx, w, true)
		}))
	mcp.AddTool(s.mcp, &mcp.Tool{Name: ToolRedo, Annotations: edits,
		Description: "Redo the last undone change (until another edit clears the redo history)."},
		withDeck(s, func(ctx context.Context, w *session, _ noArgs) (*mcp.CallToolResult, error) {
			return s.undoRedo(ctx, w, false)
		}))
	mcp.AddTool(s.mcp, &mcp.Tool{Name: ToolSaveDeck, Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: ptr(false)},
		Description: "Write the working copy to a new file inside the workspace root as .pptx or ACE scene-graph .json (its pictures in a .assets folder beside it). The opened file is never written; an existing file only with overwrite."},
		withDeck(s, s.saveDeck))
	mcp.AddTool(s.mcp, &mcp.Tool{Name: ToolRunRecipe, Annotations: edits,
		Description: "Apply a declarative migration recipe (.yaml inside the workspace root) to the working copy as one undoable change. Instruction steps need a model and are skipped (listed in the warnings)."},
		withDeck(s, s.runRecipe))
	mcp.AddTool(s.mcp, &mcp.Tool{Name: ToolExportReport, Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: ptr(false)},
		Description: "Write the HTML report of the session's edit (every changed slide before and after, the JsonDiff, new layout violations) to a .html file inside the workspace root."},
		withDeck(s, s.exportReport))
}

// withSession adapts a handler of the session's working copy, locked.
func withSession[A any](s *Server, h func(context.Context, *session, A) (*mcp.CallToolResult, error)) mcp.ToolHandlerFor[A, any] {
	return func(ctx context.Context, req *mcp.CallToolRequest, a A) (*mcp.CallToolResult, any, error) {
		w := s.session(req.Session)
		w.mu.Lock()
		defer w.mu.Unlock()
		res, err := h(ctx, w, a)
		if err != nil {
			return toolError(err), nil, nil
		}
		return res, nil, nil
	}
}

// withDeck is withSession for tools that need an open deck.
func withDeck[A any](s *Server, h func(context.Context, *session, A) (*mcp.CallToolResult, error)) mcp.ToolHandlerFor[A, any] {
	return withSession(s, func(ctx context.Context, w *session, a A) (*mcp.CallToolResult, error) {
		if !w.open() {
			return nil, errNoDeck
		}
		return h(ctx, w, a)
	})
}

func (s *Server) openDeck(ctx context.Context, w *session, a openArgs) (*mcp.CallToolResult, error) {
	path, err := s.root.Resolve(a.Path)
	if err != nil {
		return nil, fmt.Errorf("open_deck: %w", err)
	}
	d, blobs, err := deckio.Load(path)
	if err != nil {
		return nil, fmt.Errorf("open_deck: %w", err)
	}
	if err := store.PutBlobs(ctx, s.store, blobs); err != nil {
		return nil, err
	}
	ref, err := store.PutDeck(ctx, s.store, d)
	if err != nil {
		return nil, err
	}
	focus := ""
	if len(d.Slides) > 0 {
		focus = d.Slides[0].ID
	}
	w.reset(path, d, ref, focus)
	var b strings.Builder
	fmt.Fprintf(&b, "Opened %s (%s): %d slides, %gx%g px; snapshot %s.\n", a.Path, path, len(d.Slides), d.Width, d.Height, ref)
	b.WriteString(slideListText(d))
	return textResult(b.String()), nil
}

// slideListText is one line per slide: number, id and title.
func slideListText(d *scenegraph.Deck) string {
	var b strings.Builder
	for _, sl := range slideList(d) {
		fmt.Fprintf(&b, "%d. %s", sl.Number, sl.ID)
		if sl.Title != "" {
			fmt.Fprintf(&b, " %q", sl.Title)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// slideRef is a slide by 1-based number or id.
func slideIndex(d *scenegraph.Deck, ref string) (int, error) {
	ref = strings.TrimSpace(ref)
	if n, err := strconv.Atoi(ref); err == nil {
		if n < 1 || n > len(d.Slides) {
			return 0, fmt.Errorf("slide %d: the deck has slides 1-%d", n, len(d.Slides))
		}
		return n - 1, nil
	}
	if _, i := d.SlideByID(ref); i >= 0 {
		return i, nil
	}
	return 0, fmt.Errorf("slide %q: no slide has that number or id (numbers 1-%d; ids as in ace://deck/slides)", ref, len(d.Slides))
}

func (s *Server) assets(ctx context.Context) scenegraph.AssetSource {
	return store.Assets(ctx, s.store)
}

func (s *Server) renderSlide(ctx context.Context, w *session, a renderArgs) (*mcp.CallToolResult, error) {
	scale := a.Scale
	if scale == 0 {
		scale = 1
	}
	if !(scale > 0 && scale <= MaxRenderScale) {
		return nil, fmt.Errorf("render_slide: scale %g: want a number above 0 and at most %d (1 = the slide's px size)", a.Scale, MaxRenderScale)
	}
	if side := max(w.deck.Width, w.deck.Height) * scale; side > 2*render.MaxSlideSide {
		return nil, fmt.Errorf("render_slide: scale %g makes the slide %g px wide; at most %d px per side: use a smaller scale", scale, side, 2*render.MaxSlideSide)
	}
	i, err := slideIndex(w.deck, a.Slide)
	if err != nil {
		return nil, fmt.Errorf("render_slide: %w", err)
	}
	res, err := s.pool.Render(ctx, w.deck, s.assets(ctx), render.Request{Slides: []int{i}, Scale: scale, Images: true})
	if err != nil {
		return nil, fmt.Errorf("render_slide: %w", err)
	}
	if len(res.Slides) != 1 {
		return nil, fmt.Errorf("render_slide: slide %d produced no picture", i+1)
	}
	sl := res.Slides[0]
	var b strings.Builder
	fmt.Fprintf(&b, "Slide %d (%s), %gx%g px at scale %g: %d layout violation(s).\n", i+1, sl.SlideID, w.deck.Width, w.deck.Height, scale, len(sl.Violations))
	for _, v := range sl.Violations {
		fmt.Fprintf(&b, "- %s\n", judge.Describe(v))
	}
	for _, e := range sl.Errors {
		fmt.Fprintf(&b, "- render note on %s: %s\n", e.NodeID, e.Message)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{
		&mcp.ImageContent{Data: sl.PNG, MIMEType: "image/png"},
		&mcp.TextContent{Text: b.String()},
	}}, nil
}

// observation measures slides of the working copy against the opened
// original, as the agent's check_layout does in the edit loop
// (internal/observe): asked names the slides, else every changed one.
func (s *Server) observation(ctx context.Context, w *session, asked []string) (observe.Observation, error) {
	var ids []string
	for _, ref := range asked {
		i, err := slideIndex(w.deck, ref)
		if err != nil {
			return observe.Observation{}, err
		}
		ids = append(ids, w.deck.Slides[i].ID)
	}
	if len(asked) == 0 {
		ids = scenegraph.ChangedSlides(w.origin, w.deck)
	}
	var cur, base []int
	for _, id := range ids {
		if _, i := w.deck.SlideByID(id); i >= 0 {
			cur = append(cur, i)
		}
		if _, i := w.origin.SlideByID(id); i >= 0 {
			base = append(base, i)
		}
	}
	assets := s.assets(ctx)
	current := &render.Result{}
	baseline := &render.Result{}
	var err error
	if len(cur) > 0 {
		if current, err = s.pool.Render(ctx, w.deck, assets, render.Request{Slides: cur}); err != nil {
			return observe.Observation{}, err
		}
	}
	if len(base) > 0 {
		if baseline, err = s.pool.Render(ctx, w.origin, assets, render.Request{Slides: base}); err != nil {
			return observe.Observation{}, err
		}
	}
	return observe.Build(observe.Input{Baseline: w.origin, Prev: w.deck, Cur: w.deck, Current: current, Base: baseline,
		Title: "Layout check against the opened original", Asked: len(asked) > 0}), nil
}

func (s *Server) checkLayout(ctx context.Context, w *session, a checkArgs) (*mcp.CallToolResult, error) {
	o, err := s.observation(ctx, w, a.Slides)
	if err != nil {
		return nil, fmt.Errorf("check_layout: %w", err)
	}
	return textResult(o.Text), nil
}

func (s *Server) diff(_ context.Context, w *session, _ noArgs) (*mcp.CallToolResult, error) {
	d := diff.ComputeLimit(w.origin, w.deck, diff.MaxEntries)
	return textResult(d.Text(w.origin)), nil
}

func (s *Server) undoRedo(ctx context.Context, w *session, undo bool) (*mcp.CallToolResult, error) {
	verb, from, to := "undo", &w.undo, &w.redo
	if !undo {
		verb, from, to = "redo", &w.redo, &w.undo
	}
	snap, ok, err := w.step(ctx, s.store, from, to)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", verb, err)
	}
	if !ok {
		return textResult(fmt.Sprintf("Nothing to %s: the working copy is as it was (snapshot %s).", verb, w.cur.Ref)), nil
	}
	return textResult(fmt.Sprintf("%s done: the working copy is snapshot %s (%d change(s) from the opened original); %d undo and %d redo step(s) left.",
		verb, snap.Ref, diff.ComputeLimit(w.origin, w.deck, diff.MaxEntries).Distinct, len(w.undo), len(w.redo))), nil
}

// outputPath resolves an output path inside the root and refuses the
// opened file (by path, and by identity for hard links).
func (s *Server) outputPath(w *session, verb, path string) (string, error) {
	out, err := s.root.Resolve(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", verb, err)
	}
	if out == w.path {
		return "", fmt.Errorf("%s: %s is the opened deck %s; ACE never writes the deck it read: give another path", verb, path, w.path)
	}
	if a, err := os.Stat(out); err == nil {
		if b, err := os.Stat(w.path); err == nil && os.SameFile(a, b) {
			return "", fmt.Errorf("%s: %s is the opened deck %s (the same file under another name); ACE never writes the deck it read: give another path", verb, path, w.path)
		}
	}
	return out, nil
}

func (s *Server) saveDeck(ctx context.Context, w *session, a saveArgs) (*mcp.CallToolResult, error) {
	out, err := s.outputPath(w, "save_deck", a.Path)
	if err != nil {
		return nil, err
	}
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(out)), ".")
	switch {
	case ext != "pptx" && ext != "json":
		return nil, fmt.Errorf("save_deck: %s: give a path ending in .pptx or .json", a.Path)
	case a.Format != "" && !strings.EqualFold(a.Format, ext):
		return nil, fmt.Errorf("save_deck: format %q but the path %s ends in .%s: make them agree", a.Format, a.Path, ext)
	}
	if err := deckio.Save(out, w.deck, s.assets(ctx), a.Overwrite); err != nil {
		return nil, fmt.Errorf("save_deck: %w", err)
	}
	st, err := os.Stat(out)
	if err != nil {
		return nil, err
	}
	return textResult(fmt.Sprintf("Saved %d slides to %s (%s, %d bytes); snapshot %s. The opened deck %s is unchanged.", len(w.deck.Slides), out, ext, st.Size(), w.cur.Ref, w.path)), nil
}

func (s *Server) runRecipe(ctx context.Context, w *session, a recipeArgs) (*mcp.CallToolResult, error) {
	path, err := s.root.Resolve(a.Path)
	if err != nil {
		return nil, fmt.Errorf("run_recipe: %w", err)
	}
	r, err := recipe.Load(path)
	if err != nil {
		return nil, fmt.Errorf("run_recipe: %w", err)
	}
	opts := s.opts
	opts.Focus = w.cur.Focus
	blobs := scenegraph.Blobs{}
	opts.Blobs = blobs
	plan, err := recipe.Compile(r, w.deck, recipe.Options{Tools: opts})
	if err != nil {
		return nil, fmt.Errorf("run_recipe: %w", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Recipe %s: %d tool call(s).\n", a.Path, len(plan.Calls))
	for _, st := range plan.Steps {
		fmt.Fprintf(&b, "- step %d (line %d) %s: %d match(es), %d call(s)\n", st.Index+1, st.Line, st.Label, st.Matches, st.Calls)
	}
	for _, warn := range plan.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", warn)
	}
	if err := store.PutBlobs(ctx, s.store, blobs); err != nil {
		return nil, err
	}
	ref, err := store.PutDeck(ctx, s.store, plan.Result)
	if err != nil {
		return nil, err
	}
	if ref == w.cur.Ref {
		b.WriteString("The deck is unchanged (the recipe matched nothing to change).")
		return textResult(b.String()), nil
	}
	w.commit(plan.Result, ref, w.cur.Focus)
	fmt.Fprintf(&b, "Applied as one change (undo takes it back); snapshot %s.", ref)
	return textResult(b.String()), nil
}

func (s *Server) exportReport(ctx context.Context, w *session, a reportArgs) (*mcp.CallToolResult, error) {
	out, err := s.outputPath(w, "export_report", a.Path)
	if err != nil {
		return nil, err
	}
	if !strings.EqualFold(filepath.Ext(out), ".html") {
		return nil, fmt.Errorf("export_report: %s: give a path ending in .html", a.Path)
	}
	if _, err := os.Lstat(out); err == nil && !a.Overwrite {
		return nil, fmt.Errorf("export_report: %s exists: give another path, or overwrite: true", a.Path)
	}
	pool, err := s.pool.get()
	if err != nil {
		return nil, fmt.Errorf("export_report: %w", err)
	}
	assets := s.assets(ctx)
	pairs, err := report.Pairs(ctx, pool, w.origin, w.deck, assets, assets, 0.5)
	if err != nil {
		return nil, fmt.Errorf("export_report: %w", err)
	}
	o, err := s.observation(ctx, w, nil)
	if err != nil {
		return nil, fmt.Errorf("export_report: %w", err)
	}
	d := diff.ComputeLimit(w.origin, w.deck, diff.MaxEntries)
	e := report.Edit{
		Deck: w.name, Slides: pairs, DiffText: d.Text(w.origin), DiffEntries: d.Distinct, Similarity: diff.Score(d.Distinct),
		Violations: o.New, Fonts: fonts.Used(w.deck),
	}
	var buf bytes.Buffer
	if err := report.WriteEdit(&buf, e); err != nil {
		return nil, fmt.Errorf("export_report: %w", err)
	}
	if err := outfile.Write(out, buf.Bytes(), false); err != nil {
		var le *outfile.LinkError
		if errors.As(err, &le) {
			return nil, fmt.Errorf("export_report: %s is a symbolic link; give a plain path", a.Path)
		}
		return nil, fmt.Errorf("export_report: %w", err)
	}
	return textResult(fmt.Sprintf("Wrote the report to %s: %d changed slide(s) before and after, %d distinct change(s), %d new layout violation(s).", out, len(pairs), d.Distinct, len(o.New))), nil
}

// routeContext is the open deck's CARE context for instruction (the
// heuristic router, internal/route; an empty instruction gets FULL), held
// to the context budget (ACE_CONTEXT_BUDGET) as the agent's is.
func routeContext(d *scenegraph.Deck, instruction string) (text string, used route.Decision, note string, err error) {
	dec := route.Decision{Mode: route.Full}
	if strings.TrimSpace(instruction) != "" {
		dec = route.Heuristic(instruction, d)
	}
	budget, err := route.ContextBudgetFromEnv()
	if err != nil {
		return "", dec, "", err
	}
	return route.Bounded(d, dec, budget)
}
