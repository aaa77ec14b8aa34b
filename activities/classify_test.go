package activities

import (
	"errors"
	"fmt"
	"testing"

	"go.temporal.io/sdk/temporal"

	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/recipe"
	"github.com/acecanvas/ace/internal/runner"
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
