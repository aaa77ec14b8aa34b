package report

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/acecanvas/ace/internal/diff"
	"github.com/acecanvas/ace/internal/fonts"
	"github.com/acecanvas/ace/internal/outfile"
	"github.com/acecanvas/ace/internal/recipe"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/store"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
)

// PageScale is the PNG scale of the before/after pictures (640x360 for a
// 16:9 PPTX slide): sharp enough to judge, small enough to mail a page.
const PageScale = 0.5

// FromResult builds the page of one finished edit from its published
// result: the origin and final snapshots come from the store, the changed
// slides are pictured before and after with pool (Pairs: the pictures the
// workflow's render steps kept are read, the others rendered).
func FromResult(ctx context.Context, s store.Store, pool *render.Pool, r *acev1.EditResult, instruction string, rcp *recipe.Recipe, output string) (Edit, error) {
	e := Edit{
		Deck: r.DeckName, Output: output, Instruction: instruction,
		Outcome: r.Outcome, Reason: r.Reason,
		Warnings: append([]string(nil), r.Warnings...),
	}
	if rcp != nil {
		e.Recipe, e.RecipeSteps = rcp.Name, RecipeLines(rcp)
	}
	if e.Outcome == "" {
		e.Outcome = strings.ToLower(strings.TrimPrefix(r.Status.String(), "EDIT_STATUS_"))
	}
	for _, it := range r.Iterations {
		e.Iterations = append(e.Iterations, Iteration{
			N: int(it.N), Score: it.Score, Critique: it.Critique, GatePassed: it.GatePassed,
			NewViolations: it.NewViolations, Duration: time.Duration(it.DurationMs) * time.Millisecond,
			Selected: it.N == r.Selected, // both 1-based; 0 selects none
		})
	}
	for _, f := range r.FailedChecks {
		e.Checks = append(e.Checks, Check{Name: "expectation", Passed: false, Message: f})
	}
	if rcp != nil && len(r.FailedChecks) == 0 && r.Outcome != "failed" {
		for _, ex := range rcp.Expect {
			e.Checks = append(e.Checks, Check{Name: fmt.Sprintf("%s (line %d)", ex.Kind, ex.Pos.Line), Passed: true})
		}
	}
	if u := r.Usage; u != nil {
		e.Usage = Usage{PromptTokens: int(u.InputTokens), CachedTokens: int(u.CachedTokens), CompletionTokens: int(u.OutputTokens), CostUSD: u.CostUsd}
	}
	for _, rv := range r.Reverted {
		e.Reverted = append(e.Reverted, Reverted{Number: int(rv.Number), SlideID: rv.SlideId, Violations: rv.Violations})
	}
	e.Timeline = TimelineOf(r)
	e.Timings = []Timing{{Step: "edit (all steps)", Duration: time.Duration(r.DurationMs) * time.Millisecond}}
	if r.OriginSnapshot == "" || r.FinalSnapshot == "" {
		return e, nil // failed before a snapshot existed: the page says why
	}
	origin, err := store.GetDeck(ctx, s, r.OriginSnapshot)
	if err != nil {
		return e, err
	}
	final, err := store.GetDeck(ctx, s, r.FinalSnapshot)
	if err != nil {
		return e, err
	}
	e.Fonts = fonts.Used(final)
	d := diff.Compute(origin, final)
	e.DiffText, e.DiffEntries, e.Similarity = d.Text(origin), d.Distinct, d.Score
	if e.Rejected, err = rejectedOf(ctx, s, r, origin.Width, origin.Height); err != nil {
		return e, err
	}
	assets := store.Assets(ctx, s)
	// The kept iteration's snapshot, as its render step pictured it.
	var drawn *scenegraph.Deck
	if n := int(r.Selected); n > 0 && n <= len(r.Iterations) {
		if ref := r.Iterations[n-1].Snapshot; ref != "" && ref != r.FinalSnapshot {
			if drawn, err = store.GetDeck(ctx, s, ref); err != nil {
				drawn = nil // the final snapshot is rendered instead
			}
		}
	}
	if e.Slides, err = pairs(ctx, pool, origin, final, drawn, assets, assets, PageScale, nil); err != nil {
		return e, err
	}
	return e, nil
}

// WriteBatchTo writes one page per result into dir/reports/ and the index
// dir/report.html, and returns the index path. A deck whose page cannot be
// built fully still gets its page with a warning saying why; one deck never
// fails the batch's report. Files are written with outfile.Write: a
// symbolic link at dir/reports or at a page is an *outfile.LinkError
// unless replaceLinks is set, when the link itself is replaced.
func WriteBatchTo(ctx context.Context, dir string, s store.Store, pool *render.Pool, b Batch, results map[string]*acev1.EditResult, instruction string, rcp *recipe.Recipe, replaceLinks bool) (string, error) {
	return writeBatchIn(ctx, dir, s, pool, b, results, instruction, rcp, replaceLinks)
}

func writeBatchIn(ctx context.Context, dir string, s store.Store, pool *render.Pool, b Batch, results map[string]*acev1.EditResult, instruction string, rcp *recipe.Recipe, replaceLinks bool) (string, error) {
	pages := filepath.Join(dir, "reports")
	if err := outfile.CheckLink(pages); err != nil {
		if !replaceLinks {
			return "", err
		}
		if err := os.Remove(pages); err != nil {
			return "", err
		}
	}
	if err := os.MkdirAll(pages, 0o755); err != nil {
		return "", err
	}
	for i := range b.Rows {
		row := &b.Rows[i]
		r := results[row.Deck]
		if r == nil {
			continue
		}
		e, err := FromResult(ctx, s, pool, r, instruction, rcp, row.Output)
		if err != nil {
			e.Warnings = append(e.Warnings, "the report could not show this edit fully: "+err.Error())
		}
		if len(e.Slides) > 0 {
			row.Thumbnail = e.Slides[0].After
			if row.Thumbnail == nil {
				row.Thumbnail = e.Slides[0].Before
			}
		}
		row.Changed = len(e.Slides)
		row.Timeline = e.Timeline != nil
		name := safeName(row.Deck) + ".html"
		var page bytes.Buffer
		if err := WriteEdit(&page, e); err != nil {
			return "", err
		}
		if err := outfile.Write(filepath.Join(pages, name), page.Bytes(), replaceLinks); err != nil {
			return "", err
		}
		row.Page = "reports/" + name
	}
	index := filepath.Join(dir, "report.html")
	var page bytes.Buffer
	if err := WriteIndex(&page, b); err != nil {
		return "", fmt.Errorf("write %s: %w", index, err)
	}
	if err := outfile.Write(index, page.Bytes(), replaceLinks); err != nil {
		return "", err
	}
	return index, nil
}

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, s)
}

// Rows turns results into index rows in the given order.
func Rows(keys []string, results map[string]*acev1.EditResult, outputs map[string]string) []Row {
	var rows []Row
	for _, k := range keys {
		row := Row{Deck: k, Output: outputs[k], Outcome: "pending"}
		if r := results[k]; r != nil {
			row.Outcome, row.Reason = r.Outcome, r.Reason
			if row.Outcome == "" {
				row.Outcome = strings.ToLower(strings.TrimPrefix(r.Status.String(), "EDIT_STATUS_"))
			}
			row.Duration = time.Duration(r.DurationMs) * time.Millisecond
			if u := r.Usage; u != nil {
				row.CostUSD = u.CostUsd
			}
			// The kept iteration's score (Selected is its 1-based N); the
			// last one's when the origin stands.
			if n := len(r.Iterations); n > 0 {
				row.Score = r.Iterations[n-1].Score
				for _, it := range r.Iterations {
					if it.N == r.Selected {
						row.Score = it.Score
					}
				}
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// RecipeLines describes a recipe for a person: its description, then one
// line per step (label or tool, what it selects, the instruction).
func RecipeLines(r *recipe.Recipe) []string {
	var out []string
	if r.Description != "" {
		out = append(out, r.Description)
	}
	for _, st := range r.Steps {
		switch {
		case st.Instruction != "":
			out = append(out, "for the agent: "+st.Instruction)
		case st.ForEach != nil:
			out = append(out, fmt.Sprintf("%s (%s) on every node matching %s", labelOr(st.Label, st.Tool), st.Tool, st.ForEach))
		default:
			out = append(out, fmt.Sprintf("%s (%s)", labelOr(st.Label, st.Tool), st.Tool))
		}
	}
	return out
}

func labelOr(label, tool string) string {
	if label != "" {
		return label
	}
	return tool
}

// rejectedOf are the slides the gate refused in r's iterations (at most
// MaxRejected), with the Render step's pictures from the store; w x h is
// the slide size in px.
func rejectedOf(ctx context.Context, s store.Store, r *acev1.EditResult, w, h float64) ([]Rejected, error) {
	put := map[string]bool{}
	for _, rv := range r.Reverted {
		put[rv.SlideId] = true
	}
	var out []Rejected
	for _, it := range r.Iterations {
		for _, b := range it.Blocked {
			if len(out) == MaxRejected {
				return out, nil
			}
			var png []byte
			if b.ImageRef != "" {
				var err error
				if png, err = s.Get(ctx, b.ImageRef); err != nil {
					return out, fmt.Errorf("picture of slide %d of iteration %d: %w", b.Number, it.N, err)
				}
			}
			var vs []render.Violation
			for _, v := range b.Violations {
				rv := render.Violation{Kind: v.Kind, SlideID: b.SlideId, NodeIDs: v.NodeIds, Reason: v.Reason}
				for _, x := range v.Bounds {
					rv.Bounds = append(rv.Bounds, scenegraph.Rect{X: x.X, Y: x.Y, Width: x.Width, Height: x.Height})
				}
				vs = append(vs, rv)
			}
			out = append(out, NewRejected(int(it.N), int(b.Number), png, w, h, vs, put[b.SlideId] && it.N == r.Selected))
		}
	}
	return out, nil
}
