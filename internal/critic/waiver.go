package critic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/scenegraph"
)

// Waiver lets one hard violation through the gate because the instruction
// asks for it (issue 15): the violation's key, what it was, the words of
// the instruction that require it, and the critic's reason. Every waiver
// belongs in the run record and the report.
type Waiver struct {
	// Key is the renderer's violation key (kind|slide|node ids).
	Key    string   `json:"key"`
	Kind   string   `json:"kind"`
	Slide  string   `json:"slide"`
	Nodes  []string `json:"nodes,omitempty"`
	Quote  string   `json:"quote"`
	Reason string   `json:"reason"`
}

// WaiverInput is one waiver question.
type WaiverInput struct {
	Instruction string           `json:"instruction"`
	Violation   render.Violation `json:"violation"`
	// Touched are the node ids the edit created or changed (the tool
	// results' Created and Changed).
	Touched []string `json:"touched"`
	// Diff is the JsonDiff text the critic reads (optional context).
	Diff string `json:"diff,omitempty"`
}

// WaiverDecision is a granted waiver or a refusal saying why.
type WaiverDecision struct {
	Waiver  *Waiver    `json:"waiver,omitempty"`
	Refusal string     `json:"refusal,omitempty"`
	Calls   []llm.Call `json:"calls,omitempty"`
}

// minQuoteWords: one word of an instruction ("rotate") names an action,
// not a result that breaks the layout; a quote that requires a violation
// names the action and its extent ("by 45 degrees", "behind the title").
const minQuoteWords = 2

// Waive decides whether the instruction itself requires violation v, and
// records a granted waiver in l (nil l records nothing). The rules, all
// checked here rather than trusted to the model:
//  1. v is a hard violation the library reads (every renderer kind);
//  2. v lies on nodes the edit touched: every node it names, except for an
//     overlap, a relation between two nodes, where one of them must have
//     been touched (the other is what the instruction placed it against,
//     "behind the title"). Otherwise it is refused without a model call;
//  3. the model (judge role) says the instruction requires v and quotes
//     the words that do; an unusable answer is retried once and then
//     refused;
//  4. the quote occurs verbatim in the instruction (case and punctuation
//     kept; runs of white space and surrounding quote marks aside) and
//     has at least two words.
//
// A transport failure is returned as an error with the calls made.
func (c *Critic) Waive(ctx context.Context, l *Ledger, in WaiverInput) (WaiverDecision, error) {
	v := in.Violation
	if c.lib().ForViolation(v.Kind) == "" {
		return WaiverDecision{Refusal: fmt.Sprintf("%s is not a hard layout violation the critic knows", v.Kind)}, nil
	}
	if miss := untouched(v, in.Touched); miss != "" {
		return WaiverDecision{Refusal: miss}, nil
	}
	var ans waiverAnswer
	parse := func(content string) (err error) {
		ans, err = parseWaiverAnswer(content)
		return err
	}
	user := fmt.Sprintf(waiverUser, strings.TrimSpace(in.Instruction), v.Kind, v.SlideID, strings.Join(v.NodeIDs, ", "),
		boxesText(v.Bounds), v.Reason, strings.Join(in.Touched, ", "), orNone(strings.TrimSpace(in.Diff)))
	calls, problem, err := c.LLM.ChatJSON(ctx, llm.Request{Role: llm.RoleJudge, Purpose: "critic-waiver",
		Messages: []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleSystem, Content: waiverSystem},
			{Role: openai.ChatMessageRoleUser, Content: user}},
		Temperature: 0, MaxTokens: c.maxTokens()}, parse, waiverShape)
	d := WaiverDecision{Calls: calls}
	switch {
	case err != nil:
		return d, err
	case problem != nil:
		d.Refusal = fmt.Sprintf("the critic's answer was unusable after one retry (%v)", problem)
		return d, nil
	case !ans.Waive:
		d.Refusal = "the critic found no words of the instruction that require it: " + ans.Reason
		return d, nil
	}
	quote, qerr := VerifyQuote(in.Instruction, ans.Quote)
	if qerr != nil {
		d.Refusal = qerr.Error()
		return d, nil
	}
	d.Waiver = &Waiver{Key: v.Key, Kind: v.Kind, Slide: v.SlideID, Nodes: slices.Clone(v.NodeIDs), Quote: quote, Reason: ans.Reason}
	if l != nil && l.Waiver(v.Key) == nil {
		l.Waivers = append(l.Waivers, *d.Waiver)
	}
	return d, nil
}

// untouched says which of v's nodes the edit did not touch, or "" when v
// may be waived (rule 2 of Waive).
func untouched(v render.Violation, touched []string) string {
	var miss []string
	for _, n := range v.NodeIDs {
		if !slices.Contains(touched, n) {
			miss = append(miss, n)
		}
	}
	switch {
	case len(v.NodeIDs) == 0:
		return "the violation names no node, so it cannot be tied to what the edit touched"
	case len(miss) == 0:
		return ""
	case v.Kind == render.KindOverlap && len(miss) < len(v.NodeIDs):
		return ""
	}
	return fmt.Sprintf("only violations on nodes the edit touched can be waived; %s %s not touched by the edit",
		strings.Join(miss, ", "), map[bool]string{true: "was", false: "were"}[len(miss) == 1])
}

// VerifyQuote checks that quote occurs word for word in instruction and
// returns it trimmed. Case and punctuation must match; runs of white space
// count as one space, and quote marks or white space around the whole
// quote are ignored. A quote of fewer than two words is refused.
func VerifyQuote(instruction, quote string) (string, error) {
	q := strings.TrimSpace(strings.Trim(strings.TrimSpace(quote), "\"'“”‘’«»`"))
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	nq := norm(q)
	switch {
	case nq == "":
		return "", errors.New("the critic waived without quoting the instruction")
	case len(strings.Fields(nq)) < minQuoteWords:
		return "", fmt.Errorf("the quote %q is a single word; a waiver quotes the words that require the violation", nq)
	case !strings.Contains(norm(instruction), nq):
		return "", fmt.Errorf("the quote %q is not in the instruction word for word", nq)
	}
	return nq, nil
}

type waiverAnswer struct {
	Waive  bool
	Quote  string
	Reason string
}

// parseWaiverAnswer reads {"waive": bool, "quote": string, "reason":
// string}; a waive needs a quote, and every answer a reason.
func parseWaiverAnswer(text string) (waiverAnswer, error) {
	s := llm.TrimJSONFence(text)
	if s == "" {
		return waiverAnswer{}, errors.New("the answer is empty")
	}
	var raw struct {
		Waive  *bool   `json:"waive"`
		Quote  *string `json:"quote"`
		Reason *string `json:"reason"`
	}
	if err := json.Unmarshal([]byte(s), &raw); err != nil {
		return waiverAnswer{}, fmt.Errorf("the answer is not a JSON object with waive, quote and reason (%v)", err)
	}
	if raw.Waive == nil {
		return waiverAnswer{}, errors.New(`the field "waive" is missing`)
	}
	a := waiverAnswer{Waive: *raw.Waive}
	if raw.Reason == nil || strings.TrimSpace(*raw.Reason) == "" {
		return a, errors.New(`the field "reason" is missing or empty`)
	}
	a.Reason = strings.TrimSpace(*raw.Reason)
	if raw.Quote != nil {
		a.Quote = *raw.Quote
	}
	if a.Waive && strings.TrimSpace(a.Quote) == "" {
		return a, errors.New(`"waive" is true but "quote" is empty`)
	}
	return a, nil
}

// Waiver returns the waiver recorded for violation key, or nil.
func (l *Ledger) Waiver(key string) *Waiver {
	if l == nil {
		return nil
	}
	for i := range l.Waivers {
		if l.Waivers[i].Key == key {
			return &l.Waivers[i]
		}
	}
	return nil
}

// Unwaived returns the violations of vs the ledger has no waiver for, in
// their order: what a baseline-relative gate should count
// (render.Gate(l.Unwaived(current), baseline)).
func (l *Ledger) Unwaived(vs []render.Violation) []render.Violation {
	var out []render.Violation
	for _, v := range vs {
		if l.Waiver(v.Key) == nil {
			out = append(out, v)
		}
	}
	return out
}

// waiver is Waiver for an issue subject ("" never matches).
func (l *Ledger) waiver(subject string) *Waiver {
	if subject == "" {
		return nil
	}
	return l.Waiver(subject)
}

func boxesText(rs []scenegraph.Rect) string {
	if len(rs) == 0 {
		return "(none)"
	}
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("(%g,%g %gx%g)", round1(r.X), round1(r.Y), round1(r.Width), round1(r.Height))
	}
	return strings.Join(parts, " ")
}

func round1(f float64) float64 { return math.Round(f*10) / 10 }

func orNone(s string) string {
	if s == "" {
		return "(not given)"
	}
	return s
}
