package activities

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.temporal.io/sdk/temporal"

	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/recipe"
	"github.com/acecanvas/ace/internal/runner"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/store"
	"github.com/acecanvas/ace/workflows"
)

func TestStepErrorsMapToRetrySemantics(t *testing.T) {
	cases := []struct {
		name      string
		err       error
		wantType  string // "" = a plain, retryable error
		retryable bool
	}{
		{"no model never retries", fmt.Errorf("act: %w", llm.ErrNoModel), workflows.ErrNoModel, false},
		{"context length never retries", fmt.Errorf("agent: %w", llm.ErrContextLength), workflows.ErrContextLength, false},
		{"a snapshot missing from the store is bad input", fmt.Errorf("snapshot x: %w", store.ErrNotFound), workflows.ErrBadInput, false},
		{"a request the model server refused never retries", fmt.Errorf("agent call: %w: status 400", llm.ErrRefused), workflows.ErrModelRefused, false},
		{"a transport error retries", errors.New("connection reset by peer"), "", true},
		{"a tool that is not deterministic never retries", fmt.Errorf("x: %w", runner.ErrNotDeterministic), workflows.ErrBadInput, false},
		{"an unknown export format never retries", fmt.Errorf("x: %w", runner.ErrBadFormat), workflows.ErrBadInput, false},
		{"a recipe that does not compile never retries", &recipe.Error{Path: "r.yaml", Msg: "unknown step"}, workflows.ErrBadInput, false},
		{"an application error passes through", temporal.NewApplicationError("busy", "Busy"), "Busy", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := classify(c.err)
			var app *temporal.ApplicationError
			if !errors.As(err, &app) {
				if c.wantType != "" {
					t.Fatalf("got %T %v, want application error %s", err, err, c.wantType)
				}
				if !errors.Is(err, c.err) {
					t.Errorf("the cause is lost: %v", err)
				}
				return
			}
			if app.Type() != c.wantType || app.NonRetryable() == c.retryable {
				t.Errorf("type %q non-retryable %v, want %q retryable %v", app.Type(), app.NonRetryable(), c.wantType, c.retryable)
			}
		})
	}
	if classify(nil) != nil {
		t.Error("nil error must stay nil")
	}
}

// Issue 16 item 3: an export refused for a character a slide file cannot
// hold (or a coordinate out of range) is bad input, never retried (a batch
// used to retry it 5 times), and the message names the node.
func TestExportOfBadTextNeverRetries(t *testing.T) {
	d := &scenegraph.Deck{ID: "d", Width: 1280, Height: 720, Slides: []*scenegraph.Node{{
		ID: "s1", Type: scenegraph.TypeSlide, Transform: scenegraph.Identity, Size: scenegraph.Vector{X: 1280, Y: 720},
		Children: []*scenegraph.Node{{ID: "t1", Type: scenegraph.TypeText, Transform: scenegraph.Identity,
			Size: scenegraph.Vector{X: 200, Y: 40}, TextContent: scenegraph.TextContent{Characters: "Q3\u0001 results"}}},
	}}}
	_, exportErr := pptx.Export(d, nil)
	if exportErr == nil {
		t.Fatal("export of text holding U+0001 succeeded")
	}
	generated := fmt.Errorf("export: %w: ppt/slides/slide1.xml (bug): XML syntax error", pptx.ErrGeneratedXML)
	for _, err := range []error{fmt.Errorf("export deck as pptx: %w", exportErr), generated} {
		var app *temporal.ApplicationError
		if !errors.As(classify(err), &app) || app.Type() != workflows.ErrBadInput || !app.NonRetryable() {
			t.Fatalf("%v classified as %v, want non-retryable %s", err, classify(err), workflows.ErrBadInput)
		}
	}
	if !strings.Contains(exportErr.Error(), `"t1"`) || !strings.Contains(exportErr.Error(), "U+0001") {
		t.Fatalf("export error %q does not name node t1 and the character", exportErr)
	}
}
