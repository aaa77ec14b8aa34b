package activities

import (
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
	"go.temporal.io/sdk/temporal"

	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/runner"
	"github.com/acecanvas/ace/internal/store"
	"github.com/acecanvas/ace/workflows"
)

// Activities holds the step functions (the in-process runner's
// runner.Steps: store, model client, renderer, tool options) and the NATS
// connection results are published on. A worker fills only what its task
// queues use: render workers a Steps.Renderer, llm workers a Steps.LLM.
type Activities struct {
	Steps *runner.Steps
	// JS publishes results on ACE_EVENTS.
	JS jetstream.JetStream
}

func (a *Activities) store() store.Store { return a.Steps.Store }

// classify maps a step error to Temporal's retry semantics: bad input, no
// model and an over-long context never retry; everything else does (the
// activity's retry policy backs off).
func classify(step string, err error) error {
	if err == nil {
		return nil
	}
	var app *temporal.ApplicationError
	switch {
	case errors.As(err, &app):
		return err
	case errors.Is(err, llm.ErrNoModel):
		return temporal.NewNonRetryableApplicationError(fmt.Sprintf("%s: %v", step, err), workflows.ErrNoModel, err)
	case errors.Is(err, llm.ErrContextLength):
		return temporal.NewNonRetryableApplicationError(fmt.Sprintf("%s: %v", step, err), workflows.ErrContextLength, err)
	case errors.Is(err, store.ErrNotFound):
		return temporal.NewNonRetryableApplicationError(fmt.Sprintf("%s: %v (was the deck put in this deployment's store?)", step, err), workflows.ErrBadInput, err)
	}
	return fmt.Errorf("%s: %w", step, err)
}

// badInput is a non-retryable error naming the input.
func badInput(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return temporal.NewNonRetryableApplicationError(err.Error(), workflows.ErrBadInput, err)
}

func usage(calls []llm.Call) workflows.Usage {
	u := llm.Sum(calls)
	return workflows.Usage{Calls: u.Calls, InputTokens: int64(u.PromptTokens), OutputTokens: int64(u.CompletionTokens),
		CachedTokens: int64(u.CachedPromptTokens), CostUSD: u.CostUSD}
}
