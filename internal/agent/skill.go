package agent

import (
	"encoding/json"
	"fmt"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// ToolLoadSkill reads a skill's SKILL.md from the catalog in the user
// message (Designer-RSI App. C.3: bodies are fetched with
// load_skill(name)). Like load_tools it is answered by the agent
// (ApplyRoundSkills), not applied to the deck, and is offered only in a
// session with a catalog.
const ToolLoadSkill = "load_skill"

// SkillBook answers load_skill: the SKILL.md text of each skill the edit
// was offered, as frozen at route time (retrieval.Set), so a retried or
// replayed step reads the same version.
type SkillBook interface {
	SkillText(name string) (text string, ok bool)
}

var loadSkillTool = openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{Name: ToolLoadSkill,
	Description: "Read a skill from the Skills list in the user message: its full procedure (when to use, what to clarify, steps with tools and key parameters, tips, error handling). Changes nothing.",
	Parameters:  json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","description":"The skill's name as listed."}},"required":["name"],"additionalProperties":false}`)}}

// sessionTools are the functions after the deck tools: load_skill when
// the session has a catalog, then the step tools.
func sessionTools(ses *Session) []openai.Tool {
	if ses.Skills {
		return append([]openai.Tool{loadSkillTool}, stepTools...)
	}
	return stepTools
}

// loadSkillResult answers a load_skill call: the skill's name and its
// SKILL.md text, or an error saying what to send instead.
func loadSkillResult(book SkillBook, args string) (string, string, error) {
	if book == nil {
		return "", "", fmt.Errorf("load_skill: this edit runs without skills; carry on with the tools")
	}
	var a struct {
		Name string `json:"name"`
	}
	if strings.TrimSpace(args) == "" {
		args = "{}"
	}
	dec := json.NewDecoder(strings.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil || strings.TrimSpace(a.Name) == "" {
		return "", "", fmt.Errorf("load_skill: arguments must be {\"name\": \"<a skill listed under Skills>\"}")
	}
	name := strings.TrimSpace(a.Name)
	text, ok := book.SkillText(name)
	if !ok {
		return "", "", fmt.Errorf("load_skill: no skill named %q; use a name from the Skills list in the user message", name)
	}
	return name, text, nil
}
