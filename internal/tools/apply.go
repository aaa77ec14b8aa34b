package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"runtime/debug"
	"strings"

	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/tools/assets"
)

// Call is one tool invocation. As, when set, binds the first id the call
// creates to a symbolic name that later calls of the same batch can use as
// "$name" in any string argument.
type Call struct {
	Tool string          `json:"tool"`
	Args json.RawMessage `json:"args,omitempty"`
	As   string          `json:"as,omitempty"`
}

// Result is what one call did: ids created, changed and deleted, warnings
// for the model, and the payload of a read tool.
type Result struct {
	Tool     string          `json:"tool"`
	Created  []string        `json:"created,omitempty"`
	Changed  []string        `json:"changed,omitempty"`
	Deleted  []string        `json:"deleted,omitempty"`
	Warnings []string        `json:"warnings,omitempty"`
	Data     json.RawMessage `json:"data,omitempty"`
}

// SlideRenderer renders one slide to PNG bytes; the render package provides
// one. export_slide_image falls back to an SVG wireframe without it.
type SlideRenderer interface {
	RenderSlidePNG(d *scenegraph.Deck, slideID string, scale float64) ([]byte, error)
}

// Options configure a run of Apply.
type Options struct {
	// Assets finds images for create_image, replace_image and the stock
	// image tools; nil means assets.FromEnv() (ACE_ASSET_DIR, Unsplash when
	// UNSPLASH_ACCESS_KEY is set).
	Assets assets.Provider
	// Blobs receives the bytes of images the batch adds, only when the batch
	// commits. Nil drops them (the deck's asset table still records them).
	Blobs scenegraph.Blobs
	// Focus is the slide create_* tools use when a call names no parentId.
	Focus string
	// Renderer, when set, lets export_slide_image return a PNG.
	Renderer SlideRenderer
	// Measure, when set, renders the working deck and returns the absolute
	// bounds (slide px) of what each node paints (render.Result.Painted).
	// Layout tools that look for free space (add_footer) call it where the
	// authored box can understate what is drawn, e.g. text overflowing its
	// box. It must be deterministic for equal decks, so that replaying a
	// batch gives the same snapshot.
	Measure func(*scenegraph.Deck) (map[string]scenegraph.Rect, error)
	// Backdrop, when set, renders the given slides of the working deck and
	// returns the colour a reader sees at each point (slide px), per slide
	// id in the order asked: pictures and the layout and master art the
	// scene graph does not hold included (render.BackdropFunc). add_footer
	// picks its text colour from it; without it the colour comes from the
	// fills and boxes of the deck's own nodes. Deterministic for equal
	// decks, like Measure.
	Backdrop func(*scenegraph.Deck, map[string][]scenegraph.Vector) (map[string][]scenegraph.Color, error)
	// TextBackdrop, when set, renders the given slides (by id) of the
	// working deck and returns, per text-bearing node id on them, the
	// colours a reader sees behind its glyphs: the slide drawn with every
	// text transparent, sampled under each line (render.TextBackdropFunc,
	// render.Measured.Behind). fix_text_contrast judges text and picks its
	// colour on them; without it the colour comes from the fills of the
	// deck's own nodes, and text over a picture is left alone.
	// Deterministic for equal decks, like Measure.
	TextBackdrop func(*scenegraph.Deck, []string) (map[string][]scenegraph.Color, error)
	// FitText, when set, renders the given shrink-on-overflow texts of the
	// working deck from full size and returns, per node id, the largest
	// scale (0.25..1) at which each fits (render.FitTextFunc). After a
	// batch, every such text whose layout the batch changed is refitted
	// with it and the scale is stored (refitShrinkText), as PowerPoint
	// refits a normAutofit text when it is edited; without it the stored
	// scale stays, and is what the text is drawn and exported at.
	// Deterministic for equal decks, like Measure.
	FitText func(*scenegraph.Deck, []string) (map[string]float64, error)
}

// BatchError is a failed command: its 0-based position in the batch, the
// call as sent (after symbolic names were resolved) and why it failed.
// Nothing of the batch was applied.
type BatchError struct {
	Index int
	Call  Call
	Err   error
}

func (e *BatchError) Error() string {
	return fmt.Sprintf("command %d (%s) failed, nothing was applied: %v", e.Index, e.Call.Tool, e.Err)
}

func (e *BatchError) Unwrap() error { return e.Err }

// Apply runs calls in order on a copy of d and returns the new deck and one
// Result per call. It is atomic: when any call fails (unknown tool, arguments
// that break the schema, an executor error, a panic inside a tool, or a deck
// that no longer validates) it returns d itself, no results and a
// *BatchError; d is never modified.
func Apply(d *scenegraph.Deck, calls []Call, opts Options) (*scenegraph.Deck, []Result, error) {
	next, results, _, err := ApplyFocused(d, calls, opts)
	return next, results, err
}

// ApplyFocused is Apply that also returns the slide the batch left focused
// (create_slide and focus_slide move the focus, delete_slide of the focused
// slide moves it to the first slide; create_slide without an index inserts
// after it). A caller that
// applies one batch in parts, such as the recipe compiler applying step
// after step, passes it on as the next part's Options.Focus and gets the
// deck the whole batch gives in one Apply (which is what the workflow's
// Apply step replays). On error the focus returned is opts.Focus.
func ApplyFocused(d *scenegraph.Deck, calls []Call, opts Options) (*scenegraph.Deck, []Result, string, error) {
	if d == nil {
		return nil, nil, opts.Focus, errors.New("apply: no deck given")
	}
	work := d.Clone()
	env := newEnv(work, opts)
	results, err := env.runAll(calls)
	if err != nil {
		return d, nil, opts.Focus, err
	}
	if opts.FitText != nil {
		if err := refitShrinkText(d, work, opts.FitText); err != nil {
			return d, nil, opts.Focus, err
		}
	}
	if err := newProblems(d, work); err != nil {
		// Find the first call after which the deck stops validating, so the
		// model is told which command to fix.
		return d, nil, opts.Focus, blame(d, calls, opts, err)
	}
	if opts.Blobs != nil {
		for k, v := range env.blobs {
			opts.Blobs[k] = v
		}
	}
	return work, results, env.Focus, nil
}

// newProblems validates after and returns an error listing the problems
// before did not already have (an imported deck may carry some).
func newProblems(before, after *scenegraph.Deck) error {
	err := scenegraph.Validate(after)
	if err == nil {
		return nil
	}
	var ve *scenegraph.ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	old := map[string]bool{}
	var be *scenegraph.ValidationError
	if errors.As(scenegraph.Validate(before), &be) {
		for _, p := range be.Problems {
			old[p.String()] = true
		}
	}
	var fresh []scenegraph.Problem
	for _, p := range ve.Problems {
		if !old[p.String()] {
			fresh = append(fresh, p)
		}
	}
	if len(fresh) == 0 {
		return nil
	}
	return &scenegraph.ValidationError{Problems: fresh}
}

func blame(d *scenegraph.Deck, calls []Call, opts Options, cause error) error {
	work := d.Clone()
	env := newEnv(work, opts)
	for i, c := range calls {
		rc, err := env.resolve(c)
		var res Result
		if err == nil {
			res, err = env.exec(rc)
		}
		if err != nil {
			return &BatchError{Index: i, Call: rc, Err: err}
		}
		if c.As != "" && len(res.Created) > 0 {
			env.bind(c.As, res.Created[0])
		}
		if perr := newProblems(d, work); perr != nil {
			return &BatchError{Index: i, Call: rc, Err: fmt.Errorf("the deck would become invalid: %w", perr)}
		}
	}
	return &BatchError{Index: len(calls) - 1, Call: lastCall(calls), Err: cause}
}

func lastCall(calls []Call) Call {
	if len(calls) == 0 {
		return Call{}
	}
	return calls[len(calls)-1]
}

// runAll executes calls in order and stops at the first failure.
func (e *Env) runAll(calls []Call) ([]Result, error) {
	results := make([]Result, 0, len(calls))
	for i, c := range calls {
		rc, err := e.resolve(c)
		if err != nil {
			return nil, &BatchError{Index: i, Call: c, Err: err}
		}
		res, err := e.exec(rc)
		if err != nil {
			return nil, &BatchError{Index: i, Call: rc, Err: err}
		}
		if c.As != "" {
			if len(res.Created) == 0 {
				return nil, &BatchError{Index: i, Call: rc, Err: fmt.Errorf("as %q: %s created no node to name", c.As, c.Tool)}
			}
			e.bind(c.As, res.Created[0])
		}
		results = append(results, res)
	}
	return results, nil
}

// exec cleans the text of the arguments (cleanArgs: U+000B becomes a line
// break, characters a slide file cannot hold are refused), validates them,
// runs the tool (turning a panic into an
// error), and re-lays-out what the call touched.
func (e *Env) exec(c Call) (res Result, err error) {
	t, ok := Registry().Get(c.Tool)
	if !ok {
		return Result{}, fmt.Errorf("unknown tool %q; list the catalogue with `ace tools`%s", c.Tool, suggest(c.Tool))
	}
	if c.Args, err = cleanArgs(t.Name, c.Args); err != nil {
		return Result{}, err
	}
	if err := validateArgs(t.compiled, t.Name, t.Schema, c.Args); err != nil {
		return Result{}, err
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s: internal error (please report): %v\n%s", t.Name, p, firstLines(string(debug.Stack()), 12))
		}
	}()
	e.calls++
	res, err = t.Exec(e, c.Args)
	if err != nil {
		return Result{}, err
	}
	res.Tool = t.Name
	if !t.ReadOnly {
		moved := e.relayout(append(append([]string(nil), res.Changed...), res.Created...))
		res.Changed = mergeIDs(res.Changed, res.Created, moved)
		res.Warnings = append(res.Warnings, e.rescalePaths(res.Created)...)
	}
	return res, nil
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

// mergeIDs appends the ids of extra not already in base or skip.
func mergeIDs(base, skip, extra []string) []string {
	seen := map[string]bool{}
	for _, id := range base {
		seen[id] = true
	}
	for _, id := range skip {
		seen[id] = true
	}
	for _, id := range extra {
		if !seen[id] {
			seen[id] = true
			base = append(base, id)
		}
	}
	return base
}

func suggest(name string) string {
	best := ClosestTool(name)
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %s?)", best)
}

// ClosestTool is the registered tool name within edit distance 3 of name
// ("set_fill_colour" -> "set_fill_color"), or "" when none is that close.
func ClosestTool(name string) string {
	return closest(name, Registry().Names())
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Symbolic names: "$name" in a string argument stands for the id bound with
// As (or "as" inside batch_execute) earlier in the same batch.
var symName = regexp.MustCompile(`^\$([A-Za-z_][A-Za-z0-9_]*)$`)

func (e *Env) bind(name, id string) { e.names[name] = id }

// resolve replaces every "$name" string in c.Args bound earlier in the
// batch. An unbound "$name" under a key ending in "Id" or "Ids" is an error,
// since it can only be a forward or misspelt reference.
func (e *Env) resolve(c Call) (Call, error) {
	if len(c.Args) == 0 || !bytes.Contains(c.Args, []byte(`"$`)) {
		return c, nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(c.Args))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return c, fmt.Errorf("%s: arguments are not valid JSON: %v", c.Tool, err)
	}
	out, err := e.resolveValue(v, "")
	if err != nil {
		return c, fmt.Errorf("%s: %w", c.Tool, err)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return c, err
	}
	c.Args = b
	return c, nil
}

func (e *Env) resolveValue(v any, key string) (any, error) {
	switch x := v.(type) {
	case string:
		m := symName.FindStringSubmatch(x)
		if m == nil {
			return x, nil
		}
		if id, ok := e.names[m[1]]; ok {
			return id, nil
		}
		if strings.HasSuffix(key, "Id") || strings.HasSuffix(key, "Ids") {
			return nil, fmt.Errorf("%s: symbolic name %q is not bound; give an earlier command \"as\": %q (names bind in order)", key, x, m[1])
		}
		return x, nil
	case map[string]any:
		for k, val := range x {
			if k == "operations" {
				// A nested batch's operations bind and resolve in order when
				// they run, not now.
				continue
			}
			r, err := e.resolveValue(val, k)
			if err != nil {
				return nil, err
			}
			x[k] = r
		}
		return x, nil
	case []any:
		for i, val := range x {
			r, err := e.resolveValue(val, key)
			if err != nil {
				return nil, err
			}
			x[i] = r
		}
		return x, nil
	}
	return v, nil
}
