package judge

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/acecanvas/ace/internal/diff"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/scenegraph"
)

// Preference is a pairwise judge's answer: which of two decks better
// satisfies the brief.
type Preference string

// Preferences.
const (
	PreferA   Preference = "A"
	PreferB   Preference = "B"
	PreferTie Preference = "tie"
)

// PairwiseInput is one pairwise comparison (Designer-RSI §3.3, App. F):
// the brief and two candidate edits of the same original deck, each shown
// as the IF judge sees an edit (the JsonDiff from the original), with the
// original's per-slide snapshot given once for both.
type PairwiseInput struct {
	// Brief is the instruction both edits carried out.
	Brief string
	// Original is the judge's snapshot of the original deck
	// (diff.Snapshot or diff.RoutedSnapshot).
	Original string
	// A and B are the two edits as JsonDiff texts from the original
	// without the snapshot (diff.Diff.Text(nil)).
	A, B string
	// ImagesA and ImagesB, optional, are renders of each deck's changed
	// slides.
	ImagesA, ImagesB []Image
}

// PairwiseDecks builds a PairwiseInput from decks: the JsonDiff of origin
// to a and to b (diff.Compute, the IF judge's view), and the origin's
// snapshot of the slides either edit touched (diff.RoutedSnapshot; the
// whole deck when neither touched any), bounded by diff.SnapshotBudget.
func PairwiseDecks(brief string, origin, a, b *scenegraph.Deck) PairwiseInput {
	da, db := diff.Compute(origin, a), diff.Compute(origin, b)
	in := PairwiseInput{Brief: brief, A: da.Text(nil), B: db.Text(nil)}
	if origin == nil {
		return in
	}
	show := map[string]bool{}
	for _, e := range append(append([]diff.Entry(nil), da.Entries...), db.Entries...) {
		show[e.SlideID] = true
	}
	if len(show) == 0 {
		in.Original = diff.Snapshot(origin, diff.SnapshotBudget)
	} else {
		in.Original = diff.RoutedSnapshot(origin, show, diff.SnapshotBudget)
	}
	return in
}

// PairwiseVerdict is one pairwise answer.
type PairwiseVerdict struct {
	// Preference is A, B or tie; "" when Missing.
	Preference Preference `json:"preference,omitempty"`
	Reason     string     `json:"reason,omitempty"`
	// Missing is set when neither attempt parsed; Problem says why.
	Missing bool       `json:"missing,omitempty"`
	Problem string     `json:"problem,omitempty"`
	Calls   []llm.Call `json:"calls"`
}

// Pairwise asks the judge-role model once which edit better satisfies
// the brief, A, B or a tie, with a reason (Designer-RSI §3.3: the gate
// only ever asks which of two outputs better satisfies the brief, never
// an absolute score). An unparseable answer is retried once and then
// reported as Missing; a transport failure is an error with the calls
// made.
func (j *Judge) Pairwise(ctx context.Context, in PairwiseInput) (PairwiseVerdict, error) {
	maxTok := j.MaxTokens
	if maxTok <= 0 {
		maxTok = 1024
	}
	var pref Preference
	var reason string
	parse := func(content string) (err error) {
		pref, reason, err = ParsePairwise(content)
		return err
	}
	calls, problem, err := j.LLM.ChatJSON(ctx, llm.Request{Role: llm.RoleJudge, Purpose: "judge-pairwise",
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: pairwiseSystem}, pairwiseMessage(in)},
		Temperature: 0, MaxTokens: maxTok}, parse, `{"better": "A" | "B" | "tie", "reason": "..."}`)
	v := PairwiseVerdict{Calls: calls}
	switch {
	case err != nil:
		return v, err
	case problem != nil:
		v.Missing, v.Problem = true, problem.Error()
	default:
		v.Preference, v.Reason = pref, reason
	}
	return v, nil
}

// PairwiseTally is a pairwise comparison judged in both orders, counted
// for the first deck (in.A): a win when the judge prefers it, a loss when
// it prefers the other, a tie otherwise. A missing verdict counts as a
// tie (it can neither win nor lose a record; Missing counts them).
type PairwiseTally struct {
	Wins, Losses, Ties int
	Missing            int
	// Verdicts are the two answers: [0] with the first deck shown as A,
	// [1] with it shown as B (the order swapped).
	Verdicts [2]PairwiseVerdict
}

// Calls are every model call of both orders.
func (t PairwiseTally) Calls() []llm.Call {
	return append(append([]llm.Call(nil), t.Verdicts[0].Calls...), t.Verdicts[1].Calls...)
}

// PairwiseBothOrders runs Pairwise twice, in.A first and then with A and
// B swapped, and tallies the answers for in.A (Designer-RSI App. F: the
// presentation order is swapped against position bias). A transport
// failure of either call is an error, with the tally so far.
func (j *Judge) PairwiseBothOrders(ctx context.Context, in PairwiseInput) (PairwiseTally, error) {
	var t PairwiseTally
	swapped := in
	swapped.A, swapped.B = in.B, in.A
	swapped.ImagesA, swapped.ImagesB = in.ImagesB, in.ImagesA
	for i, q := range []PairwiseInput{in, swapped} {
		v, err := j.Pairwise(ctx, q)
		t.Verdicts[i] = v
		if err != nil {
			return t, fmt.Errorf("pairwise judge (order %d of 2): %w", i+1, err)
		}
		first, other := PreferA, PreferB
		if i == 1 {
			first, other = PreferB, PreferA
		}
		switch v.Preference {
		case first:
			t.Wins++
		case other:
			t.Losses++
		default:
			t.Ties++
			if v.Missing {
				t.Missing++
			}
		}
	}
	return t, nil
}

// ParsePairwise reads a pairwise answer: one JSON object (a ```json fence
// is tolerated) with "better" one of "A", "B", "tie" (case-insensitive;
// "a", "b", "Tie") and "reason" a non-empty string. Anything else is an
// error saying what is wrong.
func ParsePairwise(text string) (Preference, string, error) {
	s := llm.TrimJSONFence(text)
	if s == "" {
		return "", "", errors.New("the answer is empty")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		return "", "", fmt.Errorf("the answer is not a JSON object (%v)", err)
	}
	var better string
	if raw, ok := m["better"]; !ok || json.Unmarshal(raw, &better) != nil {
		return "", "", errors.New(`the field "better" is missing or not a string`)
	}
	var p Preference
	switch strings.ToLower(strings.TrimSpace(better)) {
	case "a":
		p = PreferA
	case "b":
		p = PreferB
	case "tie":
		p = PreferTie
	default:
		return "", "", fmt.Errorf(`"better" is %q; it must be "A", "B" or "tie"`, better)
	}
	var reason string
	if r, ok := m["reason"]; !ok || json.Unmarshal(r, &reason) != nil || strings.TrimSpace(reason) == "" {
		return "", "", errors.New(`the field "reason" is missing or not a non-empty string`)
	}
	return p, strings.TrimSpace(reason), nil
}

// pairwiseMessage is the user message: the brief, the original's
// snapshot, edit A, edit B, then the renders of each when given.
func pairwiseMessage(in PairwiseInput) openai.ChatCompletionMessage {
	original := strings.TrimSpace(in.Original)
	if original == "" {
		original = "(not given)"
	}
	text := fmt.Sprintf(pairwiseUser, strings.TrimSpace(in.Brief), original, strings.TrimSpace(in.A), strings.TrimSpace(in.B))
	if len(in.ImagesA) == 0 && len(in.ImagesB) == 0 {
		return openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: text}
	}
	parts := []openai.ChatMessagePart{{Type: openai.ChatMessagePartTypeText, Text: text}}
	for _, side := range []struct {
		name string
		ims  []Image
	}{{"A", in.ImagesA}, {"B", in.ImagesB}} {
		if len(side.ims) == 0 {
			continue
		}
		parts = append(parts, openai.ChatMessagePart{Type: openai.ChatMessagePartTypeText, Text: "Rendered changed slides of EDIT " + side.name + ":"})
		for _, im := range side.ims {
			parts = append(parts,
				openai.ChatMessagePart{Type: openai.ChatMessagePartTypeText, Text: "Edit " + side.name + ", slide " + im.SlideID + ":"},
				openai.ChatMessagePart{Type: openai.ChatMessagePartTypeImageURL, ImageURL: &openai.ChatMessageImageURL{
					URL: "data:image/png;base64," + base64.StdEncoding.EncodeToString(im.PNG), Detail: openai.ImageURLDetailAuto}})
		}
	}
	return openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, MultiContent: parts}
}
