package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/route"
	"github.com/acecanvas/ace/internal/scenegraph"
)

// Resource URIs of the open deck (per session).
const (
	URISlides          = "ace://deck/slides"
	URIContext         = "ace://deck/context"
	URIContextTemplate = "ace://deck/context{?instruction}"
	PromptEditDeck     = "edit_deck"
)

// SlideInfo is one slide of the slide-list resource.
type SlideInfo struct {
	Number int    `json:"number"` // 1-based
	ID     string `json:"id"`
	Title  string `json:"title,omitempty"`
}

// slideList is the deck's slides with their titles (route.Summaries: the
// title placeholder's text, else the first text).
func slideList(d *scenegraph.Deck) []SlideInfo {
	sums := route.Summaries(d)
	out := make([]SlideInfo, len(d.Slides))
	for i, s := range d.Slides {
		out[i] = SlideInfo{Number: i + 1, ID: s.ID}
		if i < len(sums) {
			out[i].Title = sums[i].Title
		}
	}
	return out
}

func (s *Server) addResources() {
	s.mcp.AddResource(&mcp.Resource{URI: URISlides, Name: "slides", Title: "Slides of the open deck", MIMEType: "application/json",
		Description: "The open deck's slides in order: 1-based number, id and title (JSON)."}, s.readSlides)
	s.mcp.AddResource(&mcp.Resource{URI: URIContext, Name: "context", Title: "Routed context of the open deck", MIMEType: "application/json",
		Description: "The open deck's CARE context in FULL mode (every slide's nodes, ids, geometry and text as ACE's agent reads it), degraded to the MACRO skeleton when over ACE_CONTEXT_BUDGET tokens."}, s.readContext)
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: URIContextTemplate, Name: "context-for-instruction", Title: "Routed context for an instruction", MIMEType: "application/json",
		Description: "The open deck's context routed by CARE for an instruction (MICRO, MACRO, SYSTEMIC or FULL, internal/route's heuristic router), held to ACE_CONTEXT_BUDGET tokens."}, s.readContext)
}

// deckOf is the session's current deck (a copy), or an error for a
// session without one.
func (s *Server) deckOf(ss *mcp.ServerSession) (*scenegraph.Deck, error) {
	w := s.session(ss)
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.open() {
		return nil, errNoDeck
	}
	return w.deck.Clone(), nil
}

func (s *Server) readSlides(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	d, err := s.deckOf(req.Session)
	if err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(slideList(d), "", "  ")
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "application/json", Text: string(b)}}}, nil
}

func (s *Server) readContext(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	d, err := s.deckOf(req.Session)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(req.Params.URI)
	if err != nil {
		return nil, fmt.Errorf("resource %s: %w", req.Params.URI, err)
	}
	text, used, note, err := routeContext(d, u.Query().Get("instruction"))
	if err != nil {
		return nil, err
	}
	meta := mcp.Meta{"mode": string(used.Mode)}
	if note != "" {
		meta["note"] = note
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "application/json", Text: text, Meta: meta}}}, nil
}

// mcpNote maps the agent's step tools onto this server's tools: the
// guidance below it is the agent's own (agent.Prefix), written for ACE's
// edit loop.
const mcpNote = `# In this MCP server
The guidance below is ACE's own design agent's. Here: every tool is listed, so load_tools is not needed; undo_step is undo (redo takes an undo back); check_layout measures against the deck as it was opened; render_slide shows a slide's picture with its violations; diff shows every change so far; there is no submit or gate: when check_layout shows no new violation, write the result with save_deck to a new path.`

func (s *Server) addPrompts() {
	s.mcp.AddPrompt(&mcp.Prompt{Name: PromptEditDeck, Title: "Edit the open deck",
		Description: "ACE's design-agent guidance (tool-use rules, scene-graph primer, context mode) with the open deck's routed context and your instruction.",
		Arguments:   []*mcp.PromptArgument{{Name: "instruction", Description: "what to change, in plain words", Required: true}},
	}, s.editPrompt)
}

func (s *Server) editPrompt(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	instruction := strings.TrimSpace(req.Params.Arguments["instruction"])
	if instruction == "" {
		return nil, fmt.Errorf("prompt %s: the instruction argument is empty; say what to change", PromptEditDeck)
	}
	mode, user := agent.ModeOff, agent.UserMessage(0, agent.ModeOff, "", "", instruction+"\n(No deck is open yet: call open_deck first.)", nil)
	if d, err := s.deckOf(req.Session); err == nil {
		text, used, note, err := routeContext(d, instruction)
		if err != nil {
			return nil, err
		}
		mode = string(used.Mode)
		if note != "" {
			text = note + "\n" + text
		}
		user = agent.UserMessage(len(d.Slides), mode, text, "", instruction, nil)
	}
	return &mcp.GetPromptResult{
		Description: "Edit the open deck: " + instruction,
		Messages: []*mcp.PromptMessage{
			{Role: "user", Content: &mcp.TextContent{Text: mcpNote + "\n\n" + agent.Prefix(mode) + "\n\n" + user}},
		},
	}, nil
}
