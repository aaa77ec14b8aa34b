// Package mcpserver is ACE as a Model Context Protocol server (MCP,
// specification 2025-11-25, https://modelcontextprotocol.io/specification):
// a desktop agent (Claude Desktop, Cursor, VS Code) opens a deck and edits
// it with ACE's action space, sees slides rendered by headless Chromium
// with their layout violations, checks the layout, reads the JsonDiff
// against the opened original, undoes and redoes, and saves the result to
// a new file. It is built on the official Go SDK
// (github.com/modelcontextprotocol/go-sdk) and serves stdio and streamable
// HTTP alike (cmd/ace/mcp.go).
//
// Tools: open_deck, the tools of internal/tools with their own names and
// JSON Schemas (draft 2020-12), render_slide, check_layout, diff, undo,
// redo, save_deck, run_recipe and export_report. Resources: the open
// deck's slide list (ace://deck/slides) and its CARE-routed context
// (ace://deck/context, ace://deck/context{?instruction}; internal/route).
// Prompt: edit_deck, the design agent's own guidance (internal/agent).
//
// Every path a client names resolves inside the workspace root, symbolic
// links included (Root.Resolve); the opened file is never written. Each
// client session has its own working copy: every state of it is a
// snapshot in the store (internal/store), and undo and redo walk a stack
// of snapshot refs.
package mcpserver
