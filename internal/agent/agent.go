package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/scenegraph"
)

// DefaultMaxTurns is the per-task cap on agent turns (model rounds); the
// paper ran up to 35 (ACE §3.3 settings).
const DefaultMaxTurns = 35

// DefaultMaxTokens caps one completion (the paper's max_tokens 16,384).
const DefaultMaxTokens = 16384

// maxRepairRounds bounds consecutive follow-up rounds that exist only to
// let the model correct failed calls.
const maxRepairRounds = 2

// Call is one tool call as the agent applies it.
type Call struct {
	Tool string          `json:"tool"`
	Args json.RawMessage `json:"args,omitempty"`
	// As binds the call's first created id to "$name" for later calls of
	// the same batch (recipes use it; the agent's own calls do not).
	As string `json:"as,omitempty"`
}

// Applied is what a Toolbox reports after one call.
type Applied struct {
	// Result is the JSON handed back to the model as the tool result.
	Result json.RawMessage
	// Created lists ids the call created.
	Created []string
}

// Toolbox is the action space as the agent needs it: the function
// definitions to offer, whether a name is a known (read-only) tool, and a
// way to apply calls to a deck.
//
// Apply runs calls in order on a copy of base as ONE batch and reports
// what the last call did; it must not modify base, and on failure its error
// is written for the model. The agent passes every call applied so far plus
// the new one, so state that lives between calls of a batch (the focused
// slide, symbolic names) behaves exactly as when the Apply step replays the
// whole list. Registry (tools_adapter.go) adapts internal/tools.
type Toolbox interface {
	Functions() []openai.Tool
	Lookup(name string) (readOnly, ok bool)
	Apply(base *scenegraph.Deck, calls []Call) (*scenegraph.Deck, Applied, error)
}

// Agent runs the design agent.
type Agent struct {
	LLM   *llm.Client
	Tools Toolbox
	// MaxTokens per completion; 0 = DefaultMaxTokens.
	MaxTokens int
}

// Input is one act step.
type Input struct {
	Deck *scenegraph.Deck
	// Mode is the CARE context mode; Context the routed context text.
	Mode, Context string
	// Instruction is the user's request.
	Instruction string
	// Feedback is what the loop says about the previous iteration: kept or
	// undone, why, and the judge's critique (nil on iteration 1).
	Feedback *policy.Feedback
	// MaxTurns is how many model rounds this step may use (the task's
	// remaining budget); 0 = DefaultMaxTurns.
	MaxTurns int
	// Prior are calls already applied to Base that produced Deck (a
	// compiled recipe); the agent's calls extend that batch, and
	// Output.Calls starts with them. Nil Base means Deck, no prior calls.
	Base  *scenegraph.Deck
	Prior []Call
}

// ToolError is a call that failed, as the model was told.
type ToolError struct {
	Turn int    `json:"turn"`
	Tool string `json:"tool"`
	// Kind: "unknown_tool", "malformed_arguments", "stale_id" or "tool_error".
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Args    string `json:"args,omitempty"` // as sent, truncated to 300 bytes
}

// Output is what the act step did.
type Output struct {
	// Deck is the edited working copy (the input deck when nothing applied).
	Deck *scenegraph.Deck `json:"-"`
	// Calls are the calls that applied, in order; replaying them on the
	// input deck gives Deck.
	Calls []Call `json:"calls"`
	// Turns is the number of model rounds used.
	Turns  int         `json:"turns"`
	Errors []ToolError `json:"errors,omitempty"`
	LLM    []llm.Call  `json:"llm"`
	// Summary is the model's closing text, if any.
	Summary string `json:"summary,omitempty"`
	// Stopped says why the step ended: "done" (a round needed no
	// follow-up), "no_calls", "turn_cap", "repair_cap".
	Stopped string `json:"stopped"`

	base *scenegraph.Deck // the input deck Calls apply to
}

// Messages builds the first request's messages: the byte-stable prefix as
// the system message, then the user message.
func Messages(in Input) []openai.ChatCompletionMessage {
	n := 0
	if in.Deck != nil {
		n = len(in.Deck.Slides)
	}
	return []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleSystem, Content: Prefix(in.Mode)},
		{Role: openai.ChatMessageRoleUser, Content: UserMessage(n, in.Mode, in.Context, in.Instruction, in.Feedback)},
	}
}

// Act runs one act step: a model round, its calls applied in order (a
// failing call is left out and reported), and follow-up rounds while the
// model needs to see results: reads, new ids, or errors to correct (at
// most two repair rounds in a row).
// An error is returned only when no round could be completed (no model,
// transport failure after retries, context too long); tool failures are
// told to the model and recorded in Output.Errors.
func (a *Agent) Act(ctx context.Context, in Input) (*Output, error) {
	if in.Deck == nil {
		return nil, errors.New("agent: no deck given")
	}
	if a.Tools == nil {
		return nil, errors.New("agent: no toolbox configured")
	}
	if _, err := a.LLM.Model(llm.RoleAgent); err != nil {
		return nil, fmt.Errorf("a natural-language edit needs a model: %w", err)
	}
	maxTurns := in.MaxTurns
	if maxTurns <= 0 {
		maxTurns = DefaultMaxTurns
	}
	maxTokens := a.MaxTokens
	if maxTokens <= 0 {
		maxTokens = DefaultMaxTokens
	}
	out := &Output{Deck: in.Deck, base: in.Deck}
	if in.Base != nil {
		out.base, out.Calls = in.Base, slices.Clone(in.Prior)
	}
	msgs := Messages(in)
	fns := a.Tools.Functions()
	repairs := 0
	for {
		if out.Turns >= maxTurns {
			out.Stopped = "turn_cap"
			return out, nil
		}
		resp, err := a.LLM.Chat(ctx, llm.Request{
			Role: llm.RoleAgent, Purpose: "act", Messages: msgs, Tools: fns,
			Temperature: 0, MaxTokens: maxTokens,
		})
		out.LLM = append(out.LLM, resp.Call)
		if err != nil {
			if out.Turns > 0 {
				// Keep what earlier rounds applied; the loop judges it.
				out.Stopped = "llm_error: " + err.Error()
				return out, nil
			}
			return out, err
		}
		out.Turns++
		turn := out.Turns
		msg := resp.Message
		if len(msg.ToolCalls) == 0 {
			out.Summary = strings.TrimSpace(msg.Content)
			if turn == 1 {
				out.Stopped = "no_calls"
			} else {
				out.Stopped = "done"
			}
			return out, nil
		}
		// Some servers omit tool-call ids; the follow-up round needs them to
		// pair each result with its call.
		for i := range msg.ToolCalls {
			if msg.ToolCalls[i].ID == "" {
				msg.ToolCalls[i].ID = fmt.Sprintf("call_%d_%d", turn, i)
			}
			if msg.ToolCalls[i].Type == "" {
				msg.ToolCalls[i].Type = openai.ToolTypeFunction
			}
		}
		msgs = append(msgs, openai.ChatCompletionMessage{
			Role: openai.ChatMessageRoleAssistant, Content: msg.Content, ToolCalls: msg.ToolCalls,
		})
		needRead, needIDs, failed := false, false, false
		for _, tc := range msg.ToolCalls {
			result, terr := a.run(out, turn, tc, &needRead, &needIDs)
			if terr != nil {
				failed = true
			}
			msgs = append(msgs, openai.ChatCompletionMessage{
				Role: openai.ChatMessageRoleTool, ToolCallID: tc.ID, Content: result,
			})
		}
		switch {
		case needRead || needIDs:
			repairs = 0
		case failed && repairs < maxRepairRounds:
			repairs++
		case failed:
			out.Stopped = "repair_cap"
			return out, nil
		default:
			out.Stopped = "done"
			return out, nil
		}
	}
}

// run applies one tool call and returns the tool-result text for the model.
func (a *Agent) run(out *Output, turn int, tc openai.ToolCall, needRead, needIDs *bool) (string, error) {
	name := tc.Function.Name
	args := strings.TrimSpace(tc.Function.Arguments)
	fail := func(kind string, err error) (string, error) {
		out.Errors = append(out.Errors, ToolError{Turn: turn, Tool: name, Kind: kind, Message: err.Error(), Args: truncate(args, 300)})
		b, _ := json.Marshal(map[string]string{"error": err.Error()})
		return string(b), err
	}
	readOnly, ok := a.Tools.Lookup(name)
	if !ok {
		return fail("unknown_tool", fmt.Errorf("unknown tool %q: call only the functions offered in this request", name))
	}
	if args == "" {
		args = "{}"
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(args), &obj); err != nil {
		return fail("malformed_arguments", fmt.Errorf("the arguments of %s are not a valid JSON object (%v); nothing was applied, resend the call with well-formed JSON", name, err))
	}
	call := Call{Tool: name, Args: json.RawMessage(args)}
	next, res, err := a.Tools.Apply(out.base, append(slices.Clip(out.Calls), call))
	if err != nil {
		kind := "tool_error"
		if isStale(err) {
			kind = "stale_id"
		}
		return fail(kind, err)
	}
	out.Deck = next
	out.Calls = append(out.Calls, call)
	if readOnly {
		*needRead = true
	}
	if len(res.Created) > 0 && createsContainer(name) {
		// A standalone create_slide (or a new frame, copy or group): the
		// model learns the new ids only now and must populate or edit them
		// in a follow-up (App. Q.1 rule 8: create_slide is never the last
		// step). Inside batch_execute it binds them with "as" instead.
		*needIDs = true
	}
	return string(res.Result), nil
}

// createsContainer names the tools whose new ids the model typically needs
// next: new slides and frames to fill, copies and groups to edit.
func createsContainer(tool string) bool {
	switch tool {
	case "create_slide", "duplicate_slide", "create_frame", "clone_node", "group_nodes":
		return true
	}
	return false
}

func isStale(err error) bool {
	s := err.Error()
	return strings.Contains(s, "stale") || strings.Contains(s, "not found")
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
