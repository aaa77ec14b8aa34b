package agent

import (
	"encoding/json"
	"errors"
	"fmt"

	openai "github.com/sashabaranov/go-openai"

	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/tools"
)

// Registry adapts internal/tools to the agent's Toolbox: the 100 tools as
// function definitions in the registry's stable order (so the tools part of
// the request is byte-identical too), and calls applied with tools.Apply
// as one batch, as the Apply step replays them.
type Registry struct {
	Reg  *tools.ToolRegistry
	Opts tools.Options
	fns  []openai.Tool
}

// NewRegistry wraps the tool registry with apply options (assets, blobs).
func NewRegistry(opts tools.Options) *Registry {
	r := &Registry{Reg: tools.Registry(), Opts: opts}
	for _, fd := range r.Reg.OpenAIFunctions() {
		r.fns = append(r.fns, openai.Tool{Type: openai.ToolTypeFunction, Function: &fd})
	}
	return r
}

func (r *Registry) Functions() []openai.Tool { return r.fns }

func (r *Registry) Lookup(name string) (readOnly, ok bool) {
	t, ok := r.Reg.Get(name)
	return t.ReadOnly, ok
}

func (r *Registry) Apply(base *scenegraph.Deck, calls []Call) (*scenegraph.Deck, Applied, error) {
	next, res, err := tools.Apply(base, ToolCalls(calls), r.Opts)
	if err != nil {
		var be *tools.BatchError
		if errors.As(err, &be) && be.Err != nil {
			err = be.Err // the failing call is the last one: its index adds nothing for the model
			if be.Index != len(calls)-1 {
				err = fmt.Errorf("replaying earlier call %d (%s) failed: %w", be.Index, be.Call.Tool, be.Err)
			}
		}
		return base, Applied{}, err
	}
	last := res[len(res)-1]
	b, _ := json.Marshal(last)
	return next, Applied{Result: b, Created: last.Created}, nil
}

// FromToolCalls converts tools calls (a compiled recipe) to agent calls.
func FromToolCalls(cs []tools.Call) []Call {
	out := make([]Call, len(cs))
	for i, c := range cs {
		out[i] = Call{Tool: c.Tool, Args: c.Args, As: c.As}
	}
	return out
}

// ToolCalls converts applied agent calls to tools calls (for the Apply step).
func ToolCalls(cs []Call) []tools.Call {
	out := make([]tools.Call, len(cs))
	for i, c := range cs {
		out[i] = tools.Call{Tool: c.Tool, Args: c.Args, As: c.As}
	}
	return out
}
