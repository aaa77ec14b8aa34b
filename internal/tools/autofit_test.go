package tools

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/formats/pptx"
	sg "github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
)

// fitProbe is an Options.FitText that records which texts it is asked to
// fit and answers with the scales given (render.FitTextFunc measures them
// in Chromium; the render package tests that on real decks).
type fitProbe struct {
	asked  [][]string
	scales map[string]float64
	err    error
}

func (p *fitProbe) fit(_ *sg.Deck, ids []string) (map[string]float64, error) {
	p.asked = append(p.asked, append([]string(nil), ids...))
	return p.scales, p.err
}

// TestEditedShrinkTextIsRefitted: after a batch, a normAutofit text whose
// layout the batch changed (its characters, its box size, its box mode) is
// refitted and the scale stored floored to a whole percent with no line
// spacing reduction; a colour or a move leaves the stored scale alone;
// leaving normAutofit clears it. default_template.pptx slide 12's body
// stores fontScale 85% and lnSpcReduction 20%.
func TestEditedShrinkTextIsRefitted(t *testing.T) {
	data, err := os.ReadFile(shareddecks.PPTXFile(t, "default_template.pptx"))
	if err != nil {
		t.Fatal(err)
	}
	d0, _, err := pptx.Import(data, "default_template.pptx")
	if err != nil {
		t.Fatal(err)
	}
	body := named(t, d0, 11, "Content Placeholder 2").ID
	for _, c := range []struct {
		name      string
		call      Call
		scale     float64 // what the probe answers
		asked     bool
		wantScale float64
		wantRed   float64
	}{
		{"new text", call("set_text_content", map[string]any{"nodeId": body, "text": "Short now"}), 1, true, 0, 0},
		{"longer text", call("set_text_content", map[string]any{"nodeId": body, "text": strings.Repeat("More words here. ", 80)}), 0.5178, true, 0.51, 0},
		{"narrower box", call("resize_node", map[string]any{"nodeId": body, "width": 300}), 0.7, true, 0.7, 0},
		{"bigger font", call("set_text_font", map[string]any{"nodeId": body, "fontSize": 40}), 0.2, true, 0.25, 0},
		{"colour", call("set_text_color", map[string]any{"nodeId": body, "color": "#112233"}), 0.5, false, 0.85, 0.2},
		{"move", call("move_node", map[string]any{"nodeId": body, "x": 10, "y": 10}), 0.5, false, 0.85, 0.2},
		{"no autofit", call("set_text_box", map[string]any{"nodeId": body, "autoResize": "NONE"}), 0.5, false, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := &fitProbe{scales: map[string]float64{body: c.scale}}
			d, _ := apply(t, d0, Options{FitText: p.fit}, c.call)
			if asked := len(p.asked) > 0; asked != c.asked || (asked && !reflect.DeepEqual(p.asked, [][]string{{body}})) {
				t.Errorf("fit asked %v", p.asked)
			}
			tb := nodeIn(t, d, body).TextBox
			if tb.FontScale != c.wantScale || tb.LineSpacingReduction != c.wantRed {
				t.Errorf("stored fontScale %g, lnSpcReduction %g; want %g, %g", tb.FontScale, tb.LineSpacingReduction, c.wantScale, c.wantRed)
			}
		})
	}
	// Without a renderer the stored scale stays: what is drawn and
	// exported is still the same scale.
	d, _ := apply(t, d0, Options{}, call("set_text_content", map[string]any{"nodeId": body, "text": "Short now"}))
	if tb := nodeIn(t, d, body).TextBox; tb.FontScale != 0.85 || tb.LineSpacingReduction != 0.2 {
		t.Errorf("without FitText the stored autofit should stay: %+v", tb)
	}
	// A renderer failure fails the batch, naming the text.
	p := &fitProbe{err: errors.New("browser gone")}
	if _, _, err := Apply(d0, []Call{call("set_text_content", map[string]any{"nodeId": body, "text": "x"})}, Options{FitText: p.fit}); err == nil || !strings.Contains(err.Error(), body) || !strings.Contains(err.Error(), "browser gone") {
		t.Errorf("error %v should name %s and the cause", err, body)
	}
}
