package agent

import (
	"encoding/json"

	openai "github.com/sashabaranov/go-openai"

	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/tools"
)

// Registry adapts internal/tools to the agent's Toolbox: the 98 tools as
// function definitions in the registry's stable order (so the tools part of
// the request is byte-identical too), and each call applied as its own
// atomic commit with tools.Apply.
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

func (r *Registry) Apply(d *scenegraph.Deck, c Call) (*scenegraph.Deck, Applied, error) {
	next, res, err := tools.Apply(d, []tools.Call{{Tool: c.Tool, Args: c.Args}}, r.Opts)
	if err != nil {
		if be, ok := err.(*tools.BatchError); ok && be.Err != nil {
			err = be.Err // one call per commit: the index adds nothing for the model
		}
		return d, Applied{}, err
	}
	var created []string
	for _, x := range res {
		created = append(created, x.Created...)
	}
	var b []byte
	if len(res) == 1 {
		b, _ = json.Marshal(res[0])
	} else {
		b, _ = json.Marshal(res)
	}
	return next, Applied{Result: b, Created: created}, nil
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
