package critic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/acecanvas/ace/internal/judge"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/render"
)

// Critic runs a turn's checks and is the only writer of the ledger
// (ReDeck §3.4). Its model calls use the judge's role and model
// (ACE_JUDGE_MODEL): the critic is a verifier like the IF judge, and one
// model setting fewer keeps configuration simple.
type Critic struct {
	LLM *llm.Client
	// Library is the probe library; nil means Default().
	Library *Library
	// MaxTokens per answer; 0 = 1024.
	MaxTokens int
}

// Slide is one slide of the current deck as the critic names it to the
// model: its id and a short title.
type Slide struct {
	ID    string `json:"id"`
	Title string `json:"title,omitempty"`
	// Untitled: Title is the slide's first text, not a title
	// placeholder's, in a deck that has title placeholders elsewhere.
	Untitled bool `json:"untitled,omitempty"`
}

// TurnInput is everything one critic turn reads.
type TurnInput struct {
	// Turn is the 1-based turn (iteration) number.
	Turn        int    `json:"turn"`
	Instruction string `json:"instruction"`
	// Account is the agent's own account of its edit (its submit
	// summary), a claim the checks weigh against the diff; "" for none.
	Account string `json:"account,omitempty"`
	// Diff is the JsonDiff text of origin -> current with the origin's
	// snapshot, as the IF judge gets it (diff.Diff.Text(origin)).
	Diff string `json:"diff"`
	// Slides are the current deck's slides in order.
	Slides []Slide `json:"slides"`
	// Edits are the slides this turn modified and the aspects it touched
	// (EditsOf on the diff of the turn's start against its end).
	Edits Edits `json:"edits"`
	// Rendered are the slides measured this turn; Violations the
	// renderer's violations on them; Baseline the origin's violations on
	// the same slides. Only violations the origin did not have become
	// issues: ACE edits someone else's deck, and its existing defects are
	// not the agent's to fix (spec C.2: legacy defects never block).
	Rendered   []string           `json:"rendered,omitempty"`
	Violations []render.Violation `json:"violations,omitempty"`
	Baseline   []render.Violation `json:"baseline,omitempty"`
	// Images are renders of modified slides; they go to visual groups
	// only (the diff cannot show how a slide looks).
	Images []judge.Image `json:"-"`
}

// TurnReport is what a turn did.
type TurnReport struct {
	Plan    Plan       `json:"plan"`
	Changes []Change   `json:"changes,omitempty"`
	Calls   []llm.Call `json:"calls,omitempty"`
	// Problems: checks that could not run and why (also in the ledger's
	// TurnLog).
	Problems []string `json:"problems,omitempty"`
}

func (c *Critic) lib() *Library {
	if c.Library != nil {
		return c.Library
	}
	return Default()
}

// Turn schedules the turn's checks, reads the geometric ones from the
// renderer's violations, asks the model once per picked group, and
// applies the results to l. A group whose call fails or whose answer is
// unusable after one retry is a problem recorded in the turn log: its
// checks are skipped and their issues persist. Without a judge model only
// geometric checks run. The only error is a cancelled ctx, and then l is
// unchanged.
func (c *Critic) Turn(ctx context.Context, l *Ledger, in TurnInput) (TurnReport, error) {
	lib := c.lib()
	ids := make([]string, len(in.Slides))
	for i, s := range in.Slides {
		ids[i] = s.ID
	}
	plan := Schedule(lib, l, ScheduleInput{Turn: in.Turn, Slides: ids, Edits: in.Edits})
	rep := TurnReport{Plan: plan}
	runs, problems := c.geometricRuns(lib, l, in, ids)
	rep.Problems = append(rep.Problems, problems...)

	var skipped []string
	haveModel := c.LLM.HasModel(llm.RoleJudge)
	if !haveModel && len(plan.Calls) > 0 {
		rep.Problems = append(rep.Problems, "no critic model (set ACE_JUDGE_MODEL or ACE_AGENT_MODEL): model checks skipped")
	}
	for _, call := range plan.Calls {
		if !haveModel {
			skipped = append(skipped, call.Checks...)
			continue
		}
		g := lib.Group(call.Group)
		found, calls, problem, err := c.runGroup(ctx, g, call, in)
		rep.Calls = append(rep.Calls, calls...)
		if err != nil && ctx.Err() != nil {
			return rep, fmt.Errorf("critic turn %d: %w", in.Turn, ctx.Err())
		}
		if err != nil || problem != nil {
			why := problem
			if err != nil {
				why = err
			}
			rep.Problems = append(rep.Problems, fmt.Sprintf("group %s (%s): %v", g.ID, strings.Join(call.Checks, ", "), why))
			skipped = append(skipped, call.Checks...)
			continue
		}
		for _, chk := range call.Checks {
			run := Run{Check: chk, Deck: call.Deck, Slides: call.Slides}
			for _, f := range found {
				if f.Check == chk {
					run.Failed = append(run.Failed, f)
				}
			}
			runs = append(runs, run)
		}
	}
	changes, err := l.Apply(lib, Result{Turn: in.Turn, Slides: ids, Runs: runs})
	if err != nil {
		return rep, err // a library/plan mismatch: a bug, not a model problem
	}
	rep.Changes = changes
	l.Turns = append(l.Turns, TurnLog{Turn: in.Turn, Checks: plan.Checks(), Mandatory: plan.Mandatory(),
		Skipped: skipped, Calls: len(rep.Calls), Problems: rep.Problems})
	return rep, nil
}

// Step applies the geometric checks to l after one of the agent's steps
// within turn in.Turn: the renderer's violations on in.Rendered against
// in.Baseline, deterministic, no model call (the probe library's geometry
// family). An issue a step breaks again after it was resolved is
// regressed at once, which the agent sees in its next observation and can
// undo (ReDeck App. Q: 73% of potential regressions are caught at step
// level); issues the step did not check keep their status. The only error
// is a library mismatch (a bug).
func (c *Critic) Step(l *Ledger, in TurnInput) ([]Change, error) {
	lib := c.lib()
	ids := make([]string, len(in.Slides))
	for i, s := range in.Slides {
		ids[i] = s.ID
	}
	runs, _ := c.geometricRuns(lib, l, in, ids)
	if len(runs) == 0 {
		return nil, nil
	}
	return l.Apply(lib, Result{Turn: in.Turn, Slides: ids, Runs: runs, Step: true})
}

// geometricRuns turns the renderer's violations into one Run per
// geometric check over the rendered slides.
func (c *Critic) geometricRuns(lib *Library, l *Ledger, in TurnInput, ids []string) ([]Run, []string) {
	var problems []string
	rendered := make([]string, 0, len(in.Rendered))
	for _, s := range ids {
		if slices.Contains(in.Rendered, s) {
			rendered = append(rendered, s)
		}
	}
	for _, s := range in.Edits.Slides {
		if slices.Contains(ids, s) && !slices.Contains(rendered, s) {
			problems = append(problems, fmt.Sprintf("modified slide %s was not rendered: its geometry issues persist unverified", s))
		}
	}
	if len(rendered) == 0 {
		return nil, problems
	}
	legacy := map[string]bool{}
	for _, v := range in.Baseline {
		legacy[v.Key] = true
	}
	byCheck := map[string][]Finding{}
	for _, v := range in.Violations {
		if legacy[v.Key] || l.Waiver(v.Key) != nil || !slices.Contains(rendered, v.SlideID) {
			continue
		}
		chk := lib.ForViolation(v.Kind)
		if chk == "" {
			problems = append(problems, fmt.Sprintf("violation kind %q (%s) has no geometric check in the probe library", v.Kind, v.Key))
			continue
		}
		byCheck[chk] = append(byCheck[chk], Finding{Check: chk, Slide: v.SlideID, Subject: v.Key,
			Evidence: Evidence{Text: v.Reason, Nodes: v.NodeIDs, Boxes: v.Bounds}})
	}
	var runs []Run
	for gi := range lib.Groups {
		g := &lib.Groups[gi]
		if !g.Geometric() {
			continue
		}
		for _, chk := range g.Checks {
			runs = append(runs, Run{Check: chk.ID, Slides: rendered, Failed: byCheck[chk.ID]})
		}
	}
	return runs, problems
}

// runGroup is one model call for the picked checks of group g.
func (c *Critic) runGroup(ctx context.Context, g *Group, call GroupCall, in TurnInput) ([]Finding, []llm.Call, error, error) {
	var checks strings.Builder
	for _, id := range call.Checks {
		chk, _, _ := c.lib().Check(id)
		fmt.Fprintf(&checks, "- %s: %s\n", chk.ID, chk.Text)
	}
	examine := "the whole deck"
	if !call.Deck {
		examine = "slides " + strings.Join(call.Slides, ", ")
	}
	account := strings.TrimSpace(in.Account)
	if account == "" {
		account = "(none given)"
	}
	user := fmt.Sprintf(criticUser, strings.TrimSpace(in.Instruction), account, slideList(in.Slides), g.ID, g.Title,
		strings.TrimRight(checks.String(), "\n"), examine, strings.TrimSpace(in.Diff))
	var images []judge.Image
	if g.Family == FamilyVisual {
		for _, im := range in.Images {
			if call.Deck || slices.Contains(call.Slides, im.SlideID) {
				images = append(images, im)
			}
		}
	}
	var found []Finding
	parse := func(content string) (err error) {
		found, err = ParseFindings(content, call, in.Slides)
		return err
	}
	calls, problem, err := c.LLM.ChatJSON(ctx, llm.Request{Role: llm.RoleJudge, Purpose: "critic-" + g.ID,
		Messages: []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleSystem, Content: criticSystem},
			judge.UserMessage(user, images, "Rendered images of the slides to examine:")},
		Temperature: 0, MaxTokens: c.maxTokens()}, parse, findingsShape)
	if problem != nil {
		problem = fmt.Errorf("answer unusable after one retry: %w", problem)
	}
	return found, calls, problem, err
}

func (c *Critic) maxTokens() int {
	if c.MaxTokens > 0 {
		return c.MaxTokens
	}
	return 1024
}

func slideList(slides []Slide) string {
	var b strings.Builder
	for i, s := range slides {
		fmt.Fprintf(&b, "%d %s", i+1, s.ID)
		if t := strings.Join(strings.Fields(s.Title), " "); t != "" {
			if r := []rune(t); len(r) > 60 {
				t = string(r[:59]) + "…"
			}
			if s.Untitled {
				fmt.Fprintf(&b, " (no title; first text %q)", t)
			} else {
				fmt.Fprintf(&b, " %q", t)
			}
		}
		b.WriteString("\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// ParseFindings reads a critic answer for call: one JSON object (a ```json
// fence is tolerated) {"results": [...]} or a bare array of results, each
// {"check", "verdict": "pass"|"fail", "slide", "nodes", "evidence"}. Every
// check of the call needs at least one result and no other check may
// appear; a fail needs evidence and a slide of the deck (its id, or its
// 1-based number as a number, "3" or "slide 3"), except in a deck-scope
// call, where no slide means the deck as a whole. It returns the failures
// in answer order; an answer that breaks a rule is an error saying which.
func ParseFindings(text string, call GroupCall, slides []Slide) ([]Finding, error) {
	s := llm.TrimJSONFence(text)
	if s == "" {
		return nil, errors.New("the answer is empty")
	}
	type result struct {
		Check    string          `json:"check"`
		Verdict  string          `json:"verdict"`
		Slide    json.RawMessage `json:"slide"`
		Nodes    []string        `json:"nodes"`
		Evidence string          `json:"evidence"`
	}
	var results []result
	if strings.HasPrefix(s, "[") {
		if err := json.Unmarshal([]byte(s), &results); err != nil {
			return nil, fmt.Errorf("the answer is not a JSON array of results (%v)", err)
		}
	} else {
		var obj struct {
			Results *[]result `json:"results"`
		}
		if err := json.Unmarshal([]byte(s), &obj); err != nil {
			return nil, fmt.Errorf("the answer is not a JSON object (%v)", err)
		}
		if obj.Results == nil {
			return nil, errors.New(`the field "results" is missing`)
		}
		results = *obj.Results
	}
	seen := map[string]bool{}
	var out []Finding
	for i, r := range results {
		check := strings.TrimSpace(r.Check)
		if !slices.Contains(call.Checks, check) {
			return nil, fmt.Errorf("result %d names check %q, which was not asked (asked: %s)", i+1, r.Check, strings.Join(call.Checks, ", "))
		}
		seen[check] = true
		switch strings.ToLower(strings.TrimSpace(r.Verdict)) {
		case "pass":
			continue
		case "fail":
		default:
			return nil, fmt.Errorf("result %d (%s): verdict %q, want \"pass\" or \"fail\"", i+1, check, r.Verdict)
		}
		if strings.TrimSpace(r.Evidence) == "" {
			return nil, fmt.Errorf("result %d (%s): a fail needs evidence", i+1, check)
		}
		slide, err := resolveSlide(r.Slide, slides)
		if err != nil {
			return nil, fmt.Errorf("result %d (%s): %v", i+1, check, err)
		}
		if slide == "" && !call.Deck {
			return nil, fmt.Errorf("result %d (%s): a fail needs the slide id it is on", i+1, check)
		}
		var nodes []string
		for _, n := range r.Nodes {
			if n = strings.Trim(strings.TrimSpace(n), "[]"); n != "" && !slices.Contains(nodes, n) {
				nodes = append(nodes, n)
			}
		}
		out = append(out, Finding{Check: check, Slide: slide, Evidence: Evidence{Text: strings.TrimSpace(r.Evidence), Nodes: nodes}})
	}
	for _, chk := range call.Checks {
		if !seen[chk] {
			return nil, fmt.Errorf("no result for check %s", chk)
		}
	}
	return out, nil
}

// resolveSlide reads a result's slide: absent, null or "" (the deck), a
// slide id, or a 1-based slide number.
func resolveSlide(raw json.RawMessage, slides []Slide) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		var n float64
		if json.Unmarshal(raw, &n) != nil {
			return "", fmt.Errorf("slide %s is neither a slide id nor a number", raw)
		}
		v = strconv.FormatFloat(n, 'f', -1, 64)
	}
	v = strings.TrimSpace(v)
	if v == "" || strings.EqualFold(v, "deck") {
		return "", nil
	}
	for _, s := range slides {
		if s.ID == v {
			return v, nil
		}
	}
	num := strings.TrimSpace(strings.TrimPrefix(strings.ToLower(v), "slide"))
	if n, err := strconv.Atoi(num); err == nil && n >= 1 && n <= len(slides) {
		return slides[n-1].ID, nil
	}
	return "", fmt.Errorf("slide %q is not a slide of the deck (ids %s)", v, slideIDs(slides))
}

func slideIDs(slides []Slide) string {
	ids := make([]string, 0, len(slides))
	for _, s := range slides {
		ids = append(ids, s.ID)
	}
	if len(ids) > 12 {
		return strings.Join(ids[:6], ", ") + ", ..., " + strings.Join(ids[len(ids)-3:], ", ")
	}
	return strings.Join(ids, ", ")
}
