package recipe

import (
	"encoding/json"
	"errors"
	"fmt"

	sg "github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/tools"
)

// Plan is a recipe compiled against one deck: the tool calls, in order, that
// batch_execute applies as one commit, and what each step contributed.
type Plan struct {
	Calls []tools.Call `json:"calls"`
	Steps []StepPlan   `json:"steps"`
	// Instructions are the natural-language steps, in order, for the agent.
	Instructions []string `json:"instructions,omitempty"`
	Warnings     []string `json:"warnings,omitempty"`
	// Result is the deck after the calls (the compiler applies each step to
	// see the state the next step selects on); nil in JSON.
	Result *sg.Deck `json:"-"`
}

// StepPlan says what one step compiled to.
type StepPlan struct {
	Index   int    `json:"index"` // 0-based position in steps
	Line    int    `json:"line"`
	Label   string `json:"label"`
	Matches int    `json:"matches"`
	Calls   int    `json:"calls"`
}

// Options configure Compile.
type Options struct {
	// Tools is passed to every tools.Apply (asset provider, blob sink).
	Tools tools.Options
	// HaveModel says a model is configured; without one, instruction
	// steps are skipped with a warning.
	HaveModel bool
}

// Compile turns the recipe into tool calls for deck d. Steps are compiled in
// order, each against the deck as the earlier steps left it, so a step can
// select what an earlier one created. d is not modified. A step whose call
// fails returns an error naming the step's line and the tool's reason.
func Compile(r *Recipe, d *sg.Deck, opts Options) (*Plan, error) {
	plan := &Plan{}
	opts.Tools = r.ToolOptions(opts.Tools)
	cur := d
	for i, st := range r.Steps {
		sp := StepPlan{Index: i, Line: st.Pos.Line, Label: st.label()}
		if st.Instruction != "" {
			if opts.HaveModel {
				plan.Instructions = append(plan.Instructions, st.Instruction)
			} else {
				plan.Warnings = append(plan.Warnings, fmt.Sprintf("step %d (line %d) skipped: it is an instruction for the agent and no model is configured (set OPENAI_API_KEY and ACE_AGENT_MODEL)", i+1, st.Pos.Line))
			}
			plan.Steps = append(plan.Steps, sp)
			continue
		}
		calls, matches, err := st.calls(cur)
		if err != nil {
			return nil, &Error{Path: r.Path, Pos: st.Pos, Msg: err.Error()}
		}
		sp.Matches, sp.Calls = matches, len(calls)
		if len(calls) > 0 {
			// The focus a step leaves is where the next step's
			// create_slide goes, as in the one batch the plan replays as.
			next, _, focus, err := tools.ApplyFocused(cur, calls, opts.Tools)
			if err != nil {
				var be *tools.BatchError
				if errors.As(err, &be) {
					return nil, &Error{Path: r.Path, Pos: st.Pos, Msg: fmt.Sprintf("%s on node %s: %v", st.Tool, argID(be.Call), be.Err)}
				}
				return nil, &Error{Path: r.Path, Pos: st.Pos, Msg: err.Error()}
			}
			cur, opts.Tools.Focus = next, focus
			plan.Calls = append(plan.Calls, calls...)
		}
		plan.Steps = append(plan.Steps, sp)
	}
	plan.Result = cur
	return plan, nil
}

func (st Step) label() string {
	switch {
	case st.Label != "":
		return st.Label
	case st.Instruction != "":
		return "instruction"
	}
	return st.Tool
}

// calls expands one tool step against deck d.
func (st Step) calls(d *sg.Deck) ([]tools.Call, int, error) {
	if st.ForEach == nil {
		raw, err := json.Marshal(substitute(st.Args, matchContext(d, nil, Match{})))
		if err != nil {
			return nil, 0, err
		}
		return []tools.Call{{Tool: st.Tool, Args: raw}}, 0, nil
	}
	matches := st.ForEach.Select(d)
	ix := sg.NewIndex(d)
	calls := make([]tools.Call, 0, len(matches))
	for _, m := range matches {
		raw, err := json.Marshal(substitute(st.Args, matchContext(d, ix, m)))
		if err != nil {
			return nil, 0, err
		}
		calls = append(calls, tools.Call{Tool: st.Tool, Args: raw})
	}
	return calls, len(matches), nil
}

func argID(c tools.Call) string {
	var a struct {
		NodeID string `json:"nodeId"`
	}
	_ = json.Unmarshal(c.Args, &a)
	if a.NodeID == "" {
		return "(none)"
	}
	return a.NodeID
}

// BatchExecute renders the plan as the arguments of one batch_execute call,
// the form `ace recipe plan` prints and the workflow's Act step returns.
func (p *Plan) BatchExecute() json.RawMessage {
	type op struct {
		Command string          `json:"command"`
		Params  json.RawMessage `json:"params"`
	}
	ops := make([]op, len(p.Calls))
	for i, c := range p.Calls {
		ops[i] = op{Command: c.Tool, Params: c.Args}
	}
	b, _ := json.MarshalIndent(map[string]any{"operations": ops}, "", "  ")
	return b
}
