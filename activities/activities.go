package activities

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
	"go.temporal.io/sdk/temporal"

	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/store"
	"github.com/acecanvas/ace/internal/tools"
	"github.com/acecanvas/ace/workflows"
)

// Model is the model-backed half of the loop (route with an LLM, the design
// agent, the IF judge). Nil means no model is configured: routing uses the
// heuristic, natural-language edits fail with ErrNoModel, the judge is
// skipped and the geometry gate alone decides (DESIGN.md §6).
type Model interface {
	Route(ctx context.Context, d *scenegraph.Deck, instruction string, in workflows.RouteInput) (workflows.RouteOutput, error)
	Act(ctx context.Context, d, origin *scenegraph.Deck, in workflows.ActInput) ([]tools.Call, workflows.Usage, []string, error)
	Judge(ctx context.Context, in workflows.JudgeInput, diffText string, images [][]byte) (workflows.JudgeOutput, error)
}

// Activities holds the clients the steps need. A worker fills only the
// fields its task queues use (see Register): render workers the Renderer,
// llm workers the Model.
type Activities struct {
	Store store.Store
	// Renderer renders slides; nil fails Render with a clear error.
	Renderer Renderer
	// JS publishes results on ACE_EVENTS.
	JS jetstream.JetStream
	// Model is nil when no model is configured.
	Model Model
	// Tools configures tools.Apply (asset provider).
	Tools tools.Options
}

// Renderer is the part of *render.Pool that Render uses.
type Renderer interface {
	Render(ctx context.Context, d *scenegraph.Deck, assets scenegraph.AssetSource, req render.Request) (*render.Result, error)
}

// badInput marks err as non-retryable bad input.
func badInput(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return temporal.NewNonRetryableApplicationError(err.Error(), workflows.ErrBadInput, err)
}

// deck loads a snapshot; a missing or corrupt one is bad input.
func (a *Activities) deck(ctx context.Context, ref string) (*scenegraph.Deck, error) {
	d, err := store.GetDeck(ctx, a.Store, ref)
	if errors.Is(err, store.ErrNotFound) {
		return nil, badInput("snapshot %s is not in the store: %v", ref, err)
	}
	if err != nil {
		return nil, fmt.Errorf("load snapshot %s: %w", ref, err)
	}
	return d, nil
}
