package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/acecanvas/ace/internal/mcpserver"
	"github.com/acecanvas/ace/internal/render"
)

// mcpFlags are the options of `ace mcp`.
type mcpFlags struct {
	root    string
	http    string
	timeout time.Duration
}

func init() {
	var f mcpFlags
	cmd := &cobra.Command{
		Use:   "mcp [--root DIR] [--http ADDR]",
		Short: "Serve ACE's tools, renders and checks to desktop agents over MCP (stdio or streamable HTTP)",
		Long: `mcp serves ACE as a Model Context Protocol server: open_deck, the action
space's tools with their JSON Schemas, render_slide, check_layout, diff,
undo, redo, save_deck, run_recipe and export_report; the open deck's slide
list and routed context as resources; the agent's guidance as the edit_deck
prompt (docs/mcp.md). Without --http it speaks MCP on stdin and stdout (how
Claude Desktop, Cursor and VS Code start it); with --http ADDR it serves
streamable HTTP at http://ADDR/mcp (ADDR 127.0.0.1:0 picks a free port; the
address is printed on stderr).

Every path a client names must resolve inside --root (default the current
directory), symbolic links included; the opened deck is never written.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, _, stop := onInterrupt(cmd.Context())
			defer stop()
			return runMCP(ctx, f)
		},
	}
	cmd.Flags().StringVar(&f.root, "root", ".", "workspace root: every deck, recipe and output path must resolve inside it")
	cmd.Flags().StringVar(&f.http, "http", "", "serve streamable HTTP at ADDR (host:port) instead of stdio")
	cmd.Flags().DurationVar(&f.timeout, "timeout", 30*time.Second, "render time limit per slide")
	rootCmd.AddCommand(cmd)
}

// mcpBrowserStart bounds starting Chromium on the first render. A server
// waits for clients on a machine busy with other work, so it allows more
// than the renderer's default 30 s.
const mcpBrowserStart = 2 * time.Minute

func runMCP(ctx context.Context, f mcpFlags) error {
	if f.timeout <= 0 {
		return badInput(fmt.Errorf("mcp: --timeout %s: want a positive duration such as 30s", f.timeout))
	}
	srv, err := mcpserver.New(mcpserver.Config{Root: f.root, Version: version(), Render: render.Options{Timeout: f.timeout, StartTimeout: mcpBrowserStart}})
	if err != nil {
		return badInput(fmt.Errorf("mcp: --root: %w", err))
	}
	defer srv.Close()
	if f.http == "" {
		fmt.Fprintf(os.Stderr, "ace mcp: serving MCP on stdio, workspace root %s\n", srv.Root().Dir())
		err := srv.RunStdio(ctx)
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	ln, err := net.Listen("tcp", f.http)
	if err != nil {
		return badInput(fmt.Errorf("mcp: --http %s: %w; give a free host:port such as 127.0.0.1:8765", f.http, err))
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.HTTPHandler())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(os.Stderr, "ace mcp: serving MCP over streamable HTTP at http://%s/mcp, workspace root %s\n", ln.Addr(), srv.Root().Dir())
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return nil
	}
}
