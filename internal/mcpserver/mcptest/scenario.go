// Package mcptest drives ACE's MCP server (internal/mcpserver) the way a
// desktop agent does, with the SDK's own client, over whatever transport
// the caller connected (the in-process HTTP handler, or the built binary
// over stdio in workers/processtest). The same session runs on both.
package mcptest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/acecanvas/ace/internal/deckio"
	"github.com/acecanvas/ace/internal/mcpserver"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/tools"
)

// Workspace is a workspace root holding a copy of a real deck, beside
// files outside the root the session must not reach.
type Workspace struct {
	Root    string // the workspace root
	Deck    string // the deck's name inside Root
	Outside string // a copy of the deck outside Root (absolute)
}

// NewWorkspace copies deck (a real deck, e.g. shareddecks.PPTXFile) into
// a fresh root as "deck.pptx", and another copy beside the root.
func NewWorkspace(tb testing.TB, deck string) Workspace {
	tb.Helper()
	data, err := os.ReadFile(deck)
	if err != nil {
		tb.Fatal(err)
	}
	base := tb.TempDir()
	w := Workspace{Root: filepath.Join(base, "root"), Deck: "deck.pptx", Outside: filepath.Join(base, "outside.pptx")}
	if err := os.MkdirAll(w.Root, 0o755); err != nil {
		tb.Fatal(err)
	}
	for _, p := range []string{filepath.Join(w.Root, w.Deck), w.Outside} {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return w
}

// Call calls a tool and fails the test on a protocol error; the result
// may be a tool error (IsError).
func Call(tb testing.TB, ctx context.Context, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	tb.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	return res
}

// MustCall is Call that also fails on a tool error.
func MustCall(tb testing.TB, ctx context.Context, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	tb.Helper()
	res := Call(tb, ctx, cs, name, args)
	if res.IsError {
		tb.Fatalf("%s(%v) failed: %s", name, args, Text(res))
	}
	return res
}

// Text is the text content of a result, joined.
func Text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// FirstText finds the first TEXT node of slide i of the deck at path
// that holds characters: the node a one-node edit changes.
func FirstText(tb testing.TB, path string, slide int) (id, text string) {
	tb.Helper()
	d, _, err := deckio.Load(path)
	if err != nil {
		tb.Fatal(err)
	}
	d.Slides[slide].Walk(func(n, _ *scenegraph.Node, _ int) bool {
		if id == "" && n.Type == scenegraph.TypeText && strings.TrimSpace(n.Characters) != "" {
			id, text = n.ID, n.Characters
		}
		return id == ""
	})
	if id == "" {
		tb.Fatalf("%s slide %d has no text node", path, slide+1)
	}
	return id, text
}

func fileHash(tb testing.TB, path string) [32]byte {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return sha256.Sum256(b)
}

// Exercise runs a whole editing session on cs, connected to a server
// whose root is w.Root: tools listed with the action space's schemas,
// open, a one-node edit, render, diff, undo, redo, save, report; the
// saved .pptx re-imports with the edit and the original's bytes are
// unchanged; paths outside the root (../, absolute, symbolic links to a
// file and to a directory) are refused naming the root.
func Exercise(t *testing.T, ctx context.Context, cs *mcp.ClientSession, w Workspace) {
	t.Helper()
	orig := filepath.Join(w.Root, w.Deck)
	before := fileHash(t, orig)

	// tools/list: every action-space tool with its own schema, and ours.
	listed := map[string]*mcp.Tool{}
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		listed[tool.Name] = tool
	}
	reg := tools.Registry()
	for _, rt := range reg.All() {
		lt, ok := listed[rt.Name]
		if !ok {
			t.Fatalf("tools/list lacks %s", rt.Name)
		}
		var want, got any
		_ = json.Unmarshal(rt.Schema, &want)
		b, _ := json.Marshal(lt.InputSchema)
		_ = json.Unmarshal(b, &got)
		wb, _ := json.Marshal(want)
		gb, _ := json.Marshal(got)
		if !bytes.Equal(wb, gb) {
			t.Fatalf("%s: listed schema differs from internal/tools':\n got %s\nwant %s", rt.Name, gb, wb)
		}
	}
	for _, name := range []string{mcpserver.ToolOpenDeck, mcpserver.ToolRenderSlide, mcpserver.ToolCheckLayout, mcpserver.ToolDiff,
		mcpserver.ToolUndo, mcpserver.ToolRedo, mcpserver.ToolSaveDeck, mcpserver.ToolRunRecipe, mcpserver.ToolExportReport} {
		if listed[name] == nil {
			t.Fatalf("tools/list lacks %s", name)
		}
	}
	if len(listed) != len(reg.All())+9 {
		t.Fatalf("tools/list has %d tools, want %d (the action space) + 9", len(listed), len(reg.All()))
	}

	// Before open_deck, deck tools say what to do.
	if res := Call(t, ctx, cs, mcpserver.ToolDiff, map[string]any{}); !res.IsError || !strings.Contains(Text(res), "open_deck") {
		t.Fatalf("diff before open_deck: %s", Text(res))
	}

	// Paths outside the root are refused, naming the path and the root.
	if err := os.Symlink(w.Outside, filepath.Join(w.Root, "link.pptx")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(w.Outside), filepath.Join(w.Root, "up")); err != nil {
		t.Fatal(err)
	}
	realRoot, _ := filepath.EvalSymlinks(w.Root)
	for _, p := range []string{"../outside.pptx", w.Outside, "link.pptx", "up/outside.pptx", "sub/../../outside.pptx"} {
		res := Call(t, ctx, cs, mcpserver.ToolOpenDeck, map[string]any{"path": p})
		if !res.IsError || !strings.Contains(Text(res), "outside the workspace root "+realRoot) || !strings.Contains(Text(res), p) {
			t.Fatalf("open_deck %q: want a refusal naming the path and the root, got %q", p, Text(res))
		}
	}

	res := MustCall(t, ctx, cs, mcpserver.ToolOpenDeck, map[string]any{"path": w.Deck})
	if !strings.Contains(Text(res), "1. ") {
		t.Fatalf("open_deck lists no slides: %s", Text(res))
	}

	// A one-node edit.
	id, old := FirstText(t, orig, 0)
	edited := "Edited over MCP: " + old
	res = MustCall(t, ctx, cs, "set_text_content", map[string]any{"nodeId": id, "text": edited})
	var ar struct {
		Changed     []string `json:"changed"`
		DeckChanged bool     `json:"deckChanged"`
	}
	if err := json.Unmarshal([]byte(Text(res)), &ar); err != nil || !ar.DeckChanged || !slices.Contains(ar.Changed, id) {
		t.Fatalf("set_text_content: %s (%v)", Text(res), err)
	}
	// Bad arguments come back as a tool error naming the argument.
	if res := Call(t, ctx, cs, "set_text_content", map[string]any{"nodeId": id, "txt": "x"}); !res.IsError || !strings.Contains(Text(res), "txt") {
		t.Fatalf("set_text_content with a misspelt argument: %s", Text(res))
	}

	// render_slide: a PNG and the layout observation.
	res = MustCall(t, ctx, cs, mcpserver.ToolRenderSlide, map[string]any{"slide": "1", "scale": 0.5})
	var png []byte
	for _, c := range res.Content {
		if im, ok := c.(*mcp.ImageContent); ok && im.MIMEType == "image/png" {
			png = im.Data
		}
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("render_slide returned no PNG: %d bytes", len(png))
	}
	if !strings.Contains(Text(res), "layout violation") {
		t.Fatalf("render_slide text: %s", Text(res))
	}
	if res := Call(t, ctx, cs, mcpserver.ToolRenderSlide, map[string]any{"slide": "999"}); !res.IsError {
		t.Fatalf("render_slide of slide 999 passed: %s", Text(res))
	}
	res = MustCall(t, ctx, cs, mcpserver.ToolCheckLayout, map[string]any{})
	if !strings.Contains(Text(res), "measured") {
		t.Fatalf("check_layout: %s", Text(res))
	}

	// diff, undo, redo.
	if d := Text(MustCall(t, ctx, cs, mcpserver.ToolDiff, map[string]any{})); !strings.Contains(d, "Edited over MCP") {
		t.Fatalf("diff lacks the edit:\n%s", d)
	}
	MustCall(t, ctx, cs, mcpserver.ToolUndo, map[string]any{})
	if d := Text(MustCall(t, ctx, cs, mcpserver.ToolDiff, map[string]any{})); !strings.Contains(d, "no changes") {
		t.Fatalf("diff after undo:\n%s", d)
	}
	MustCall(t, ctx, cs, mcpserver.ToolRedo, map[string]any{})
	if d := Text(MustCall(t, ctx, cs, mcpserver.ToolDiff, map[string]any{})); !strings.Contains(d, "Edited over MCP") {
		t.Fatalf("diff after redo lacks the edit:\n%s", d)
	}

	// Resources and the prompt.
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: mcpserver.URISlides})
	if err != nil || len(rr.Contents) != 1 || !strings.Contains(rr.Contents[0].Text, `"number": 1`) {
		t.Fatalf("slides resource: %v %+v", err, rr)
	}
	rr, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: mcpserver.URIContext + "?instruction=" + "make%20the%20title%20on%20slide%201%20navy"})
	if err != nil || len(rr.Contents) != 1 || !strings.Contains(rr.Contents[0].Text, id) {
		t.Fatalf("context resource lacks %s: %v", id, err)
	}
	pr, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: mcpserver.PromptEditDeck, Arguments: map[string]string{"instruction": "Make the title navy"}})
	if err != nil || len(pr.Messages) != 1 || !strings.Contains(pr.Messages[0].Content.(*mcp.TextContent).Text, "# Tool-use rules") {
		t.Fatalf("edit_deck prompt: %v", err)
	}

	// save_deck: never the original, never outside the root.
	for _, p := range []string{w.Deck, "../saved.pptx", "up/saved.pptx", filepath.Join(filepath.Dir(w.Outside), "saved.pptx")} {
		if res := Call(t, ctx, cs, mcpserver.ToolSaveDeck, map[string]any{"path": p}); !res.IsError {
			t.Fatalf("save_deck %q was not refused: %s", p, Text(res))
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(w.Outside), "saved.pptx")); err == nil {
		t.Fatal("save_deck wrote outside the root")
	}
	MustCall(t, ctx, cs, mcpserver.ToolSaveDeck, map[string]any{"path": "out/edited.pptx", "format": "pptx"})
	saved, _, err := deckio.Load(filepath.Join(w.Root, "out", "edited.pptx"))
	if err != nil {
		t.Fatalf("the saved deck does not re-import: %v", err)
	}
	n := scenegraph.NewIndex(saved).Node(id)
	if n == nil || n.Characters != edited {
		t.Fatalf("the saved deck lacks the edit on %s: %+v", id, n)
	}
	MustCall(t, ctx, cs, mcpserver.ToolExportReport, map[string]any{"path": "out/report.html"})
	if b, err := os.ReadFile(filepath.Join(w.Root, "out", "report.html")); err != nil || !bytes.Contains(b, []byte("Edited over MCP")) {
		t.Fatalf("report: %v", err)
	}
	if fileHash(t, orig) != before {
		t.Fatal("the opened deck's bytes changed")
	}
}
