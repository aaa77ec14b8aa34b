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
	"github.com/acecanvas/ace/internal/scenegraph"
)

// Session is the agent's conversation within one iteration, carried from
// step to step (as JSON in the store between durable steps): the messages
// so far and the model turns used.
type Session struct {
	Messages []openai.ChatCompletionMessage `json:"messages"`
	Turns    int                            `json:"turns"`
	// Offered are the tools offered up front (ScopedTools); the others
	// come with load_tools (toolset.go). Empty offers every tool.
	Offered []string `json:"offered,omitempty"`
	// Skills says the first message carries a skill catalog: load_skill
	// is offered (skill.go).
	Skills bool `json:"skills,omitempty"`
}

// NewSession starts an iteration's conversation: the stable prefix, then
// the routed context, the instruction and the feedback on the previous
// iteration (Messages), with the tools its input scopes (ScopedTools).
func NewSession(in Input) *Session {
	return &Session{Messages: Messages(in), Offered: ScopedTools(in), Skills: strings.TrimSpace(in.Skills) != ""}
}

// Round is one model answer: the calls it asks for, in order (deck tools
// and the step tools submit, undo_step and check_layout), and its text.
type Round struct {
	Turn  int         `json:"turn"`
	Calls []RoundCall `json:"calls,omitempty"`
	Text  string      `json:"text,omitempty"`
}

// RoundCall is one call as the model sent it; Args may be malformed JSON
// (ApplyRound reports it to the model).
type RoundCall struct {
	ID   string `json:"id"`
	Tool string `json:"tool"`
	Args string `json:"args,omitempty"`
}

// Result answers one call of the previous round.
type Result struct {
	ID      string `json:"id"`
	Content string `json:"content"`
}

// The step tools: the agent's control of its own step loop, answered by
// the loop, not applied to the deck (ReDeck §3.1: verify_layout, rollback,
// submit).
const (
	ToolSubmit      = "submit"
	ToolUndoStep    = "undo_step"
	ToolCheckLayout = "check_layout"
)

// IsStepTool reports whether name is one of the step tools.
func IsStepTool(name string) bool {
	return name == ToolSubmit || name == ToolUndoStep || name == ToolCheckLayout
}

// stepTools are the step tools' function definitions, offered after the
// deck tools.
var stepTools = []openai.Tool{
	{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{Name: ToolSubmit,
		Description: "Hand in the edit when it is complete. The layout gate then checks that no slide has a layout violation (overflow, overlap, out of bounds, clipping, low contrast, tiny text) it did not have when this iteration began. If the gate refuses, you get the observation and keep working in this iteration.",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"summary":{"type":"string","description":"One sentence: what you changed."}},"additionalProperties":false}`)}},
	{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{Name: ToolUndoStep,
		Description: "Undo every change of your last answer that changed the deck, returning the deck to the state before it; the observation then shows that state. Use it when a step made the layout worse and a different approach is better than patching.",
		Parameters:  json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)}},
	{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{Name: ToolCheckLayout,
		Description: "Measure without changing anything: the layout observation for the slides changed so far in this iteration, or for the slides given.",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"slides":{"type":"array","items":{"type":"string"},"description":"Slide ids to measure; default the slides changed so far."}},"additionalProperties":false}`)}},
}

// Turn answers the previous round's calls with results (one per call, in
// its order) and note (a user message, when there is something to say
// that answers no call), asks the model once, and records its answer in
// the session. An error means the model could not answer (no model,
// transport failure after retries, context too long); the session is
// then unchanged but for the results.
func (a *Agent) Turn(ctx context.Context, ses *Session, results []Result, note string) (Round, llm.Call, error) {
	if a.Tools == nil {
		return Round{}, llm.Call{}, errors.New("agent: no toolbox configured")
	}
	if _, err := a.LLM.Model(llm.RoleAgent); err != nil {
		return Round{}, llm.Call{}, fmt.Errorf("a natural-language edit needs a model: %w", err)
	}
	for _, r := range results {
		ses.Messages = append(ses.Messages, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, ToolCallID: r.ID, Content: r.Content})
	}
	if strings.TrimSpace(note) != "" {
		ses.Messages = append(ses.Messages, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: note})
	}
	maxTokens := a.MaxTokens
	if maxTokens <= 0 {
		maxTokens = DefaultMaxTokens
	}
	resp, err := a.LLM.Chat(ctx, llm.Request{Role: llm.RoleAgent, Purpose: "act", Messages: ses.Messages,
		Tools: append(offeredTools(a.Tools.Functions(), ses), sessionTools(ses)...), Temperature: 0, MaxTokens: maxTokens})
	if err != nil {
		return Round{}, resp.Call, err
	}
	ses.Turns++
	msg := resp.Message
	// Some servers omit tool-call ids; the results must name them.
	for i := range msg.ToolCalls {
		if msg.ToolCalls[i].ID == "" {
			msg.ToolCalls[i].ID = fmt.Sprintf("call_%d_%d", ses.Turns, i)
		}
		if msg.ToolCalls[i].Type == "" {
			msg.ToolCalls[i].Type = openai.ToolTypeFunction
		}
	}
	ses.Messages = append(ses.Messages, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant,
		Content: msg.Content, ToolCalls: msg.ToolCalls})
	round := Round{Turn: ses.Turns, Text: strings.TrimSpace(msg.Content)}
	for _, tc := range msg.ToolCalls {
		round.Calls = append(round.Calls, RoundCall{ID: tc.ID, Tool: tc.Function.Name, Args: strings.TrimSpace(tc.Function.Arguments)})
	}
	return round, resp.Call, nil
}

// RoundResult is what ApplyRound did: the deck after the round's deck calls,
// every call applied since the iteration's base (prior ones first), a
// result per deck call in the round's order, the calls that failed, and
// whether the deck changed.
type RoundResult struct {
	Deck    *scenegraph.Deck
	Calls   []Call
	Results []Result
	Errors  []ToolError
	Changed bool
	// Loaded are the skills load_skill read in this round, in order.
	Loaded []string
}

// ApplyRound applies the round's deck calls in order on the deck that
// base plus prior gives (a failing call is left out and its error is its
// result, for the model to correct); the step tools are left for the
// loop. Each call is applied with every earlier one as one batch, so state
// that lives between calls of a batch (the focused slide, "$name"
// bindings) behaves exactly as when the Apply step replays the whole
// list.
// load_tools is answered here (its result names the tools added); it
// changes nothing and is not one of the applied calls. load_skill is
// answered as "no skills" (ApplyRoundSkills answers it from a book).
func ApplyRound(box Toolbox, base *scenegraph.Deck, prior []Call, cur *scenegraph.Deck, round Round) RoundResult {
	return ApplyRoundSkills(box, base, prior, cur, round, nil)
}

// ApplyRoundSkills is ApplyRound with load_skill answered from book, the
// skill set frozen when the edit was routed (nil: the edit runs without
// skills). Loaded lists the skills it read.
func ApplyRoundSkills(box Toolbox, base *scenegraph.Deck, prior []Call, cur *scenegraph.Deck, round Round, book SkillBook) RoundResult {
	out := RoundResult{Deck: cur, Calls: slices.Clone(prior)}
	for _, rc := range round.Calls {
		if IsStepTool(rc.Tool) {
			continue
		}
		if rc.Tool == ToolLoadSkill {
			name, content, err := loadSkillResult(book, rc.Args)
			if err != nil {
				out.Errors = append(out.Errors, ToolError{Turn: round.Turn, Tool: rc.Tool, Kind: "tool_error", Message: err.Error(), Args: truncate(rc.Args, 300)})
				b, _ := json.Marshal(map[string]string{"error": err.Error()})
				content = string(b)
			} else if !slices.Contains(out.Loaded, name) {
				out.Loaded = append(out.Loaded, name)
			}
			out.Results = append(out.Results, Result{ID: rc.ID, Content: content})
			continue
		}
		if rc.Tool == ToolLoadTools {
			content, err := loadToolsResult(box, rc.Args)
			if err != nil {
				out.Errors = append(out.Errors, ToolError{Turn: round.Turn, Tool: rc.Tool, Kind: "tool_error", Message: err.Error(), Args: truncate(rc.Args, 300)})
				b, _ := json.Marshal(map[string]string{"error": err.Error()})
				content = string(b)
			}
			out.Results = append(out.Results, Result{ID: rc.ID, Content: content})
			continue
		}
		content, changed := applyOne(box, base, &out, round.Turn, rc)
		out.Results = append(out.Results, Result{ID: rc.ID, Content: content})
		out.Changed = out.Changed || changed
	}
	return out
}

// applyOne applies one call and returns its result text for the model and
// whether it changed the deck.
func applyOne(box Toolbox, base *scenegraph.Deck, out *RoundResult, turn int, rc RoundCall) (string, bool) {
	name, args := rc.Tool, strings.TrimSpace(rc.Args)
	fail := func(kind string, err error) (string, bool) {
		out.Errors = append(out.Errors, ToolError{Turn: turn, Tool: name, Kind: kind, Message: err.Error(), Args: truncate(args, 300)})
		b, _ := json.Marshal(map[string]string{"error": err.Error()})
		return string(b), false
	}
	readOnly, ok := box.Lookup(name)
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
	next, res, err := box.Apply(base, append(slices.Clip(out.Calls), call))
	if err != nil {
		kind := "tool_error"
		if isStale(err) {
			kind = "stale_id"
		}
		return fail(kind, err)
	}
	out.Deck = next
	out.Calls = append(out.Calls, call)
	return string(res.Result), !readOnly
}
