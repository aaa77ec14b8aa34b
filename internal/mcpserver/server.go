package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/acecanvas/ace/internal/render"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/store"
	"github.com/acecanvas/ace/internal/tools"
)

// Name is the server's name in the MCP initialize handshake.
const Name = "ace"

// Config configures a Server.
type Config struct {
	// Root is the workspace root directory (required): every path a
	// client names must resolve inside it (Root.Resolve).
	Root string
	// Store keeps the sessions' snapshots and the decks' pictures; nil
	// means an in-memory store (store.NewMemory) that lives as long as the
	// server.
	Store store.Store
	// Render configures the Chromium pool, started on the first render
	// (render_slide, check_layout, export_report and the layout tools that
	// measure, such as add_footer).
	Render render.Options
	// Version is reported in the initialize handshake.
	Version string
	// Logger receives the SDK's log; nil means none.
	Logger *slog.Logger
}

// Server is ACE's MCP server: one SDK server whose tools work on
// per-session working copies.
type Server struct {
	root  Root
	store store.Store
	pool  *lazyPool
	opts  tools.Options
	mcp   *mcp.Server

	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*session
}

// New builds the server and registers its tools, resources and prompts.
// Errors: a root that is not an existing directory.
func New(cfg Config) (*Server, error) {
	root, err := NewRoot(cfg.Root)
	if err != nil {
		return nil, err
	}
	st := cfg.Store
	if st == nil {
		st = store.NewMemory()
	}
	s := &Server{root: root, store: st, pool: &lazyPool{opts: cfg.Render}, sessions: map[*mcp.ServerSession]*session{}}
	s.opts = toolOptions(s.pool, st)
	version := cfg.Version
	if version == "" {
		version = "dev"
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: Name, Title: "ACE, the agentic canvas editor", Version: version}, &mcp.ServerOptions{
		Instructions:       instructions,
		Logger:             cfg.Logger,
		InitializedHandler: s.initialized,
	})
	s.addDeckTools()
	s.addActionSpace()
	s.addResources()
	s.addPrompts()
	return s, nil
}

// instructions tell a client what the server is for and how a session
// goes (sent in the initialize result).
const instructions = `ACE edits slide decks (.pptx, ACE scene-graph .json, Figma REST .json) through a scene graph with auto-layout.
Start with open_deck (a path inside the workspace root); the file you open is never written.
Edit with the action-space tools (the same names and arguments as ACE's agent uses), look with render_slide, measure with check_layout, review with diff, step back with undo and redo, and write the result with save_deck to a new path.
The resources ace://deck/slides and ace://deck/context describe the open deck; the prompt edit_deck carries ACE's editing guidance.`

// MCP is the SDK server, for a transport to run (Run, Connect).
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Root is the workspace root.
func (s *Server) Root() Root { return s.root }

// RunStdio serves one client over stdin and stdout until it disconnects
// or ctx ends.
func (s *Server) RunStdio(ctx context.Context) error {
	return s.mcp.Run(ctx, &mcp.StdioTransport{})
}

// HTTPHandler serves MCP's streamable HTTP transport (one session per
// Mcp-Session-Id; requests whose Host is not localhost while arriving on
// a loopback address are refused, the SDK's DNS-rebinding protection).
func (s *Server) HTTPHandler() http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, nil)
}

// Close stops the Chromium pool, if one was started.
func (s *Server) Close() error { return s.pool.close() }

// initialized drops a session's working copy when the session ends.
func (s *Server) initialized(_ context.Context, req *mcp.InitializedRequest) {
	ss := req.Session
	go func() {
		_ = ss.Wait()
		s.mu.Lock()
		delete(s.sessions, ss)
		s.mu.Unlock()
	}()
}

// session returns the working copy of a client session, made on first
// use. Sessions never share one.
func (s *Server) session(ss *mcp.ServerSession) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.sessions[ss]
	if w == nil {
		w = &session{}
		s.sessions[ss] = w
	}
	return w
}

// lazyPool is a render.Pool started on first use, so a session that never
// renders starts no browser.
type lazyPool struct {
	opts render.Options
	mu   sync.Mutex
	pool *render.Pool
}

func (l *lazyPool) get() (*render.Pool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pool == nil {
		p, err := render.NewPool(context.Background(), l.opts)
		if err != nil {
			return nil, err
		}
		l.pool = p
	}
	return l.pool, nil
}

// Render implements render.Renderer.
func (l *lazyPool) Render(ctx context.Context, d *scenegraph.Deck, assets scenegraph.AssetSource, req render.Request) (*render.Result, error) {
	p, err := l.get()
	if err != nil {
		return nil, err
	}
	return p.Render(ctx, d, assets, req)
}

func (l *lazyPool) close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pool == nil {
		return nil
	}
	err := l.pool.Close()
	l.pool = nil
	return err
}

// toolOptions are the options every tool call runs with: measurement,
// backdrops, text fitting and slide pictures through the renderer, as the
// in-process runner gives its agent (internal/runner Steps.toolOptions),
// with pictures from the store.
func toolOptions(r render.Renderer, st store.Store) tools.Options {
	ctx := context.Background()
	assets := store.Assets(ctx, st)
	return tools.Options{
		Measure:      render.MeasureFunc(ctx, r, assets),
		Backdrop:     render.BackdropFunc(ctx, r, assets),
		TextBackdrop: render.TextBackdropFunc(ctx, r, assets),
		FitText:      render.FitTextFunc(ctx, r, assets),
		Renderer:     render.SlidePNG{Ctx: ctx, Renderer: r, Assets: assets},
	}
}

// addActionSpace registers every tool of internal/tools under its own
// name, with its description and full JSON Schema. A call applies to the
// session's working copy as one atomic tools.Apply; a call that changes
// the deck stores the new snapshot and can be undone.
func (s *Server) addActionSpace() {
	for _, t := range tools.Registry().All() {
		var schema map[string]any
		if err := json.Unmarshal(t.Schema, &schema); err != nil {
			panic(fmt.Sprintf("mcpserver: tool %s: schema: %v", t.Name, err))
		}
		s.mcp.AddTool(&mcp.Tool{
			Name:        t.Name,
			Description: t.Description,
			InputSchema: schema,
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: t.ReadOnly, DestructiveHint: ptr(!t.ReadOnly), OpenWorldHint: ptr(false)},
		}, s.actionHandler(t))
	}
}

// actionResult is what an action-space call returns, as JSON text.
type actionResult struct {
	tools.Result
	// Snapshot is the store ref of the working copy after the call.
	Snapshot string `json:"snapshot"`
	// DeckChanged is false for read tools and edits that left the deck
	// as it was (nothing to undo then).
	DeckChanged bool `json:"deckChanged"`
}

func (s *Server) actionHandler(t tools.Tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		w := s.session(req.Session)
		w.mu.Lock()
		defer w.mu.Unlock()
		if !w.open() {
			return toolError(errNoDeck), nil
		}
		args := req.Params.Arguments
		if len(args) == 0 || string(args) == "null" {
			args = json.RawMessage(`{}`)
		}
		opts := s.opts
		opts.Focus = w.cur.Focus
		blobs := scenegraph.Blobs{}
		opts.Blobs = blobs
		next, results, focus, err := tools.ApplyFocused(w.deck, []tools.Call{{Tool: t.Name, Args: args}}, opts)
		if err != nil {
			var be *tools.BatchError
			if errors.As(err, &be) {
				err = be.Err
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, t.Name+":") {
				msg = t.Name + ": " + msg
			}
			return toolError(errors.New(msg + " (nothing was changed)")), nil
		}
		out := actionResult{Snapshot: w.cur.Ref}
		if len(results) > 0 {
			out.Result = results[0]
		}
		if !t.ReadOnly {
			if err := store.PutBlobs(ctx, s.store, blobs); err != nil {
				return nil, err
			}
			ref, err := store.PutDeck(ctx, s.store, next)
			if err != nil {
				return nil, err
			}
			if ref != w.cur.Ref {
				out.DeckChanged = true
				w.commit(next, ref, focus)
				out.Snapshot = ref
			} else {
				w.cur.Focus = focus // focus_slide: not an edit, nothing to undo
			}
		}
		return jsonResult(out)
	}
}

// toolError is a tool result the client's model reads as a failure
// (MCP tools/call isError), with the message as its text.
func toolError(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
}

// jsonResult is v as indented JSON text content.
func jsonResult(v any) (*mcp.CallToolResult, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
}

// textResult is plain text content.
func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

func ptr[T any](v T) *T { return &v }
