package mcpserver_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/acecanvas/ace/internal/mcpserver"
	"github.com/acecanvas/ace/internal/mcpserver/mcptest"
	"github.com/acecanvas/ace/internal/shareddecks"
)

// connectHTTP serves srv over streamable HTTP (httptest) and connects the
// SDK's client to it.
func connectHTTP(t testing.TB, srv *mcpserver.Server) *mcp.ClientSession {
	t.Helper()
	ts := httptest.NewServer(srv.HTTPHandler())
	t.Cleanup(ts.Close)
	c := mcp.NewClient(&mcp.Implementation{Name: "ace-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func newServer(t testing.TB, root string) *mcpserver.Server {
	t.Helper()
	srv, err := mcpserver.New(mcpserver.Config{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// A whole session over streamable HTTP on a real deck (career-tips):
// mcptest.Exercise lists what it checks.
func TestMCPSessionOverHTTP(t *testing.T) {
	w := mcptest.NewWorkspace(t, shareddecks.PPTXFile(t, "career-tips.pptx"))
	srv := newServer(t, w.Root)
	mcptest.Exercise(t, context.Background(), connectHTTP(t, srv), w)
}

// Two client sessions of one server have separate working copies: an
// edit and an open deck in one are invisible to the other.
func TestMCPSessionsAreIsolated(t *testing.T) {
	w := mcptest.NewWorkspace(t, shareddecks.PPTXFile(t, "table-report.pptx"))
	srv := newServer(t, w.Root)
	ctx := context.Background()
	a, b := connectHTTP(t, srv), connectHTTP(t, srv)
	mcptest.MustCall(t, ctx, a, mcpserver.ToolOpenDeck, map[string]any{"path": w.Deck})
	if res := mcptest.Call(t, ctx, b, mcpserver.ToolDiff, map[string]any{}); !res.IsError || !strings.Contains(mcptest.Text(res), "no deck is open") {
		t.Fatalf("session b sees a deck it never opened: %s", mcptest.Text(res))
	}
	mcptest.MustCall(t, ctx, b, mcpserver.ToolOpenDeck, map[string]any{"path": w.Deck})
	id, _ := mcptest.FirstText(t, w.Root+"/"+w.Deck, 0)
	mcptest.MustCall(t, ctx, a, "set_text_content", map[string]any{"nodeId": id, "text": "only in session a"})
	if d := mcptest.Text(mcptest.MustCall(t, ctx, b, mcpserver.ToolDiff, map[string]any{})); !strings.Contains(d, "no changes") {
		t.Fatalf("session b's diff shows session a's edit:\n%s", d)
	}
	if d := mcptest.Text(mcptest.MustCall(t, ctx, a, mcpserver.ToolDiff, map[string]any{})); !strings.Contains(d, "only in session a") {
		t.Fatalf("session a's diff lacks its edit:\n%s", d)
	}
	if res := mcptest.Call(t, ctx, b, mcpserver.ToolUndo, map[string]any{}); res.IsError || !strings.Contains(mcptest.Text(res), "Nothing to undo") {
		t.Fatalf("session b undid something: %s", mcptest.Text(res))
	}
}
