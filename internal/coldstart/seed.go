package coldstart

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	openai "github.com/sashabaranov/go-openai"

	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/skills"
	"github.com/acecanvas/ace/internal/tools"
)

// Theme counts the clustering call is asked for: the paper's cold start
// has 20-25 themes per app (App. G step 1); ACE's one catalogue of 100
// tools and its guides ask for 20-30 (issue 19).
const (
	MinThemes = 20
	MaxThemes = 30
)

// OutcomeKind says what became of one theme.
type OutcomeKind string

// Outcome kinds.
const (
	// OutcomeKept: a skill was generated, validated and kept.
	OutcomeKept OutcomeKind = "kept"
	// OutcomeNoSkill: the model answered NO_SKILL.
	OutcomeNoSkill OutcomeKind = "no_skill"
	// OutcomeDropped: the answer failed validation twice (first answer
	// and one retry with the problems listed).
	OutcomeDropped OutcomeKind = "dropped"
	// OutcomeNoPages: no page scored high enough for the theme, so
	// nothing was generated.
	OutcomeNoPages OutcomeKind = "no_pages"
)

// Outcome is one theme's result.
type Outcome struct {
	Theme string      `json:"theme"`
	Kind  OutcomeKind `json:"kind"`
	// Skill is the kept skill's name.
	Skill string `json:"skill,omitempty"`
	// Attempts is the number of generation calls (0, 1 or 2).
	Attempts int `json:"attempts"`
	// Problems are the last answer's validation problems (dropped).
	Problems []string `json:"problems,omitempty"`
	// Reason is the NO_SKILL reason.
	Reason string `json:"reason,omitempty"`
	// Answer is the start of the last refused answer (dropped).
	Answer string `json:"answer,omitempty"`
}

// Result is a seeding run, for the review step and the run record.
type Result struct {
	Pages       []Page       `json:"pages"`
	Themes      []Theme      `json:"themes"`
	Assignments []Assignment `json:"assignments"`
	// Unassigned lists the ids of pages no theme took.
	Unassigned []string `json:"unassigned,omitempty"`
	// Skills are the kept skills, in theme order.
	Skills   []skills.Skill `json:"-"`
	Outcomes []Outcome      `json:"outcomes"`
	Calls    []llm.Call     `json:"calls"`
}

// Seeder builds the cold-start bank from documentation pages
// (Designer-RSI App. G): one clustering call proposes themes, Assign
// gives each its pages, one generation call per theme writes a SKILL.md,
// and Check keeps only skills that validate.
type Seeder struct {
	LLM *llm.Client
	// Role is the model the calls go to (default llm.RoleAgent: the skills
	// are written for the agent, by the model that will read them).
	Role llm.Role
	// Tools are the live catalogue's tool names (tools.Registry().Names()).
	Tools []string
	// Core are tools every theme may name besides its pages' own: the
	// read-only tools (finding nodes) and batch_execute (applying steps
	// as one commit).
	Core []string
	// MinThemes and MaxThemes bound the clustering answer (defaults
	// MinThemes, MaxThemes).
	MinThemes, MaxThemes int
	// MaxTokens caps each answer (default 4096).
	MaxTokens int
	// Progress, when set, hears each theme's outcome as it is decided.
	Progress func(Outcome)
}

// NewSeeder returns a Seeder for ACE's live tool catalogue.
func NewSeeder(c *llm.Client) *Seeder {
	s := &Seeder{LLM: c, Role: llm.RoleAgent}
	for _, t := range tools.Registry().All() {
		s.Tools = append(s.Tools, t.Name)
		if t.ReadOnly || t.Name == "batch_execute" {
			s.Core = append(s.Core, t.Name)
		}
	}
	return s
}

func (s *Seeder) bounds() (int, int, int) {
	lo, hi, tok := s.MinThemes, s.MaxThemes, s.MaxTokens
	if lo <= 0 {
		lo = MinThemes
	}
	if hi < lo {
		hi = max(MaxThemes, lo)
	}
	if tok <= 0 {
		tok = 4096
	}
	return lo, hi, tok
}

// Seed runs the cold start over pages (DocPages). It returns an error
// when the clustering answer is unusable twice or a call fails after the
// client's retries; the Result then holds what was done so far. A theme
// whose skill cannot be made valid is dropped and reported, not an error.
func (s *Seeder) Seed(ctx context.Context, pages []Page) (Result, error) {
	res := Result{Pages: pages}
	if len(pages) == 0 {
		return res, errors.New("coldstart: no documentation pages to seed from")
	}
	lo, hi, maxTok := s.bounds()
	role := s.Role
	if role == "" {
		role = llm.RoleAgent
	}

	// (1) Themes: one call over the page titles and gists.
	var themes []Theme
	calls, problem, err := s.LLM.ChatJSON(ctx, llm.Request{Role: role, Purpose: "seed-themes",
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: themesSystem},
			{Role: openai.ChatMessageRoleUser, Content: themesUser(pages, lo, hi)},
		}, Temperature: 0, MaxTokens: maxTok},
		func(content string) (err error) { themes, err = ParseThemes(content, lo, hi); return err }, themesShape)
	res.Calls = append(res.Calls, calls...)
	if err != nil {
		return res, fmt.Errorf("coldstart: clustering call: %w", err)
	}
	if problem != nil {
		return res, fmt.Errorf("coldstart: the clustering answer was unusable twice: %w", problem)
	}
	res.Themes = themes

	// (2) Pages per theme, by the shared tokenizer.
	res.Assignments, res.Unassigned = Assign(themes, pages)
	byID := map[string]Page{}
	for _, p := range pages {
		byID[p.ID] = p
	}

	// (3) One skill per theme, (4) validated against the bank so far.
	for i, th := range themes {
		var its []Page
		for _, ps := range res.Assignments[i].Pages {
			its = append(its, byID[ps.Page])
		}
		out, err := s.generate(ctx, th, its, res.Skills, role, maxTok, &res.Calls)
		if err != nil {
			return res, err
		}
		if out.Kind == OutcomeKept {
			res.Skills = append(res.Skills, out.skill)
		}
		res.Outcomes = append(res.Outcomes, out.Outcome)
		if s.Progress != nil {
			s.Progress(out.Outcome)
		}
	}
	return res, nil
}

type generated struct {
	Outcome
	skill skills.Skill
}

// generate asks for one theme's skill, retrying once with the problems
// listed when the answer does not validate.
func (s *Seeder) generate(ctx context.Context, th Theme, pages []Page, bank []skills.Skill, role llm.Role, maxTok int, calls *[]llm.Call) (generated, error) {
	g := generated{Outcome: Outcome{Theme: th.Name}}
	if len(pages) == 0 {
		g.Kind = OutcomeNoPages
		return g, nil
	}
	allowed := s.allowed(pages)
	msgs := []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleSystem, Content: skillSystem},
		{Role: openai.ChatMessageRoleUser, Content: skillUser(th, pages, allowed, bank)},
	}
	for attempt := 1; attempt <= 2; attempt++ {
		resp, err := s.LLM.Chat(ctx, llm.Request{Role: role, Purpose: "seed-skill-" + th.Name,
			Messages: msgs, Temperature: 0, MaxTokens: maxTok})
		*calls = append(*calls, resp.Call)
		if err != nil {
			return g, fmt.Errorf("coldstart: generating the skill for theme %s: %w", th.Name, err)
		}
		g.Attempts = attempt
		text := resp.Message.Content
		ans, perr := ParseAnswer(text)
		var problems []string
		switch {
		case perr != nil:
			problems = []string{perr.Error()}
		case ans.NoSkill:
			g.Kind, g.Reason = OutcomeNoSkill, ans.Reason
			return g, nil
		default:
			problems = Check(ans.Skill, bank, s.Tools, allowed)
		}
		if len(problems) == 0 {
			g.Kind, g.Skill, g.skill = OutcomeKept, ans.Skill.Name, ans.Skill
			return g, nil
		}
		g.Kind, g.Problems, g.Answer = OutcomeDropped, problems, trimForLog(text)
		msgs = append(msgs,
			openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: text},
			openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: retryUser(problems)})
	}
	return g, nil
}

// allowed is a theme's tool whitelist: the tools its pages document or
// name, and the core tools, in catalogue order.
func (s *Seeder) allowed(pages []Page) []string {
	in := map[string]bool{}
	for _, t := range s.Core {
		in[t] = true
	}
	for _, p := range pages {
		for _, t := range p.Tools {
			in[t] = true
		}
	}
	var out []string
	for _, t := range s.Tools {
		if in[t] {
			out = append(out, t)
		}
	}
	return out
}

// Doc is one Markdown document to seed from.
type Doc struct {
	// Name is its path as shown in ids and errors ("docs/recipes.md").
	Name     string
	Markdown string
}

// DocPages splits docs into pages (SplitMarkdown) against the live tool
// catalogue's names and deduplicates them (Dedup), in the order given.
func DocPages(docs ...Doc) ([]Page, error) {
	names := tools.Registry().Names()
	var all []Page
	for _, d := range docs {
		ps, err := SplitMarkdown(d.Name, d.Markdown, names)
		if err != nil {
			return nil, err
		}
		all = append(all, ps...)
	}
	return Dedup(all)
}

// ToolsDoc is docs/tools.md as the live registry writes it (`ace tools
// --markdown`), so a seed run never reads a stale copy.
func ToolsDoc() Doc {
	return Doc{Name: "docs/tools.md", Markdown: tools.Registry().Markdown()}
}

// WriteDir writes each skill as DIR/NAME/SKILL.md for review. dir must
// not exist or be empty, so a run never overwrites a reviewed bank.
func WriteDir(dir string, bank []skills.Skill) error {
	if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
		return fmt.Errorf("%s is not empty: give a new folder for the seeded skills (a run never overwrites one)", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, s := range bank {
		d := filepath.Join(dir, s.Name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(d, "SKILL.md"), s.Format(), 0o644); err != nil {
			return err
		}
	}
	return nil
}
