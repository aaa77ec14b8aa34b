package render_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/internal/tools"
)

// TestContrastOnRealDecks reads contrast from the rendered pixels on two
// real cases: the slide number of career-tips slide 11 sits on the dark
// corner of a full-slide photo (the slide's picture background), and a
// table cell of career-tips slide 13 is given grey text on pure red. The
// shapes' declared fills say nothing about either: the slide number has
// none, and the photo is a picture.
func TestContrastOnRealDecks(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a real deck")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	pool, err := render.NewPool(ctx, render.Options{Size: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	data, err := os.ReadFile(shareddecks.PPTXFile(t, "career-tips.pptx"))
	if err != nil {
		t.Fatal(err)
	}
	d0, blobs, err := pptx.Import(data, "career-tips.pptx")
	if err != nil {
		t.Fatal(err)
	}
	apply := func(d *scenegraph.Deck, o tools.Options, tool string, args any) (*scenegraph.Deck, tools.Result) {
		t.Helper()
		b, _ := json.Marshal(args)
		next, res, err := tools.Apply(d, []tools.Call{{Tool: tool, Args: b}}, o)
		if err != nil {
			t.Fatal(err)
		}
		return next, res[0]
	}
	slide := func(d *scenegraph.Deck, i int) *render.SlideResult {
		t.Helper()
		res, err := pool.Render(ctx, d, blobs, render.Request{Slides: []int{i}})
		if err != nil {
			t.Fatal(err)
		}
		return &res.Slides[0]
	}
	flagged := func(sr *render.SlideResult, id string) bool {
		for _, v := range sr.Violations {
			if v.Kind == render.KindLowContrast && len(v.NodeIDs) == 1 && v.NodeIDs[0] == id {
				return true
			}
		}
		return false
	}
	withPixels := tools.Options{TextBackdrop: render.TextBackdropFunc(ctx, pool, blobs)}

	t.Run("slide number on a photo", func(t *testing.T) {
		s := d0.Slides[10]
		var num *scenegraph.Node
		for _, c := range s.Children {
			if c.Placeholder != nil && c.Placeholder.Role == "sldNum" {
				num = c
			}
		}
		if num == nil || num.Characters != "11" {
			t.Fatalf("career-tips slide 11 has no slide number placeholder showing 11")
		}
		m := slide(d0, 10).Nodes[num.ID]
		t.Logf("white slide number on the photo: %.2f:1 (needs %.1f)", m.Contrast, m.ContrastNeed)
		if m.Contrast < m.ContrastNeed || m.ContrastNeed != render.ContrastBody {
			t.Errorf("the original white slide number reads %.2f:1, want at least 4.5:1", m.Contrast)
		}
		// What the rebrand did on main: black on the dark photo.
		black, _ := apply(d0, tools.Options{}, "set_text_color", map[string]any{"nodeId": num.ID, "color": "#000000"})
		sr := slide(black, 10)
		t.Logf("black slide number: %.2f:1", sr.Nodes[num.ID].Contrast)
		if !flagged(sr, num.ID) || sr.Nodes[num.ID].Contrast > 1.5 {
			t.Errorf("a black slide number on the dark photo (%.2f:1) is not a low_contrast violation", sr.Nodes[num.ID].Contrast)
		}
		// fix_text_contrast on the pixels: white again, readable.
		fixed, res := apply(black, withPixels, "fix_text_contrast", map[string]any{"nodeId": s.ID})
		sr = slide(fixed, 10)
		t.Logf("after fix_text_contrast: %.2f:1; changed %v; warnings %v", sr.Nodes[num.ID].Contrast, res.Changed, res.Warnings)
		if flagged(sr, num.ID) || sr.Nodes[num.ID].Contrast < render.ContrastBody {
			t.Errorf("fix_text_contrast left the slide number at %.2f:1", sr.Nodes[num.ID].Contrast)
		}
		// On the original, fix_text_contrast leaves the white number alone,
		// with and without a renderer (the photo is not white).
		for name, o := range map[string]tools.Options{"pixels": withPixels, "no renderer": {}} {
			_, res := apply(d0, o, "fix_text_contrast", map[string]any{"nodeId": s.ID})
			for _, id := range res.Changed {
				if id == num.ID {
					t.Errorf("%s: fix_text_contrast recoloured the readable white slide number", name)
				}
			}
		}
	})

	t.Run("grey text on red cells", func(t *testing.T) {
		const tableID = "s13/255"
		d1, _ := apply(d0, tools.Options{}, "set_table_cells", map[string]any{"tableId": tableID, "cells": []any{
			map[string]any{"row": 1, "column": 1, "fill": "#FF0000", "textColor": "#8C8C8C"},
			map[string]any{"row": 2, "column": 1, "fill": "#FF0000", "textColor": "#8C8C8C"},
		}})
		cells := []string{tableID + "/r1c1", tableID + "/r2c1"}
		sr := slide(d1, 12)
		for _, id := range cells {
			m := sr.Nodes[id]
			t.Logf("%s grey on red: %.2f:1 (needs %.1f)", id, m.Contrast, m.ContrastNeed)
			if !flagged(sr, id) || m.Contrast > 1.5 {
				t.Errorf("%s: grey on pure red (%.2f:1) is not a low_contrast violation", id, m.Contrast)
			}
		}
		fixed, res := apply(d1, withPixels, "fix_text_contrast", map[string]any{"nodeId": tableID})
		sr = slide(fixed, 12)
		for _, id := range cells {
			m := sr.Nodes[id]
			t.Logf("%s after fix_text_contrast: %.2f:1", id, m.Contrast)
			if flagged(sr, id) || m.Contrast < render.ContrastBody {
				t.Errorf("%s: fix_text_contrast left %.2f:1 on the red cell (changed %v)", id, m.Contrast, res.Changed)
			}
		}
	})
}
