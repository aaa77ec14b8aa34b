package embedded

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
)

// getUI fetches path from the Web UI at base and returns status and body.
func getUI(t *testing.T, base, path string) (int, []byte) {
	t.Helper()
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Get(base + path)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return resp.StatusCode, body
}

// TestWebUI starts a stack with the Temporal Web UI on a port that is
// taken (refused, naming the setting; with AnyPortIfTaken, moved to a free
// port), then fetches the UI's page and, through the UI's HTTP API, the
// namespace and a workflow the stack just ran: the real UI server in front
// of the real frontend. A second Start on the directory attaches and sees
// the owner's UI address.
func TestWebUI(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	port := taken.Addr().(*net.TCPAddr).Port
	_, err = StartWith(dir, Options{UI: true, UIPort: port})
	if !errors.Is(err, ErrPortInUse) || !strings.Contains(err.Error(), "ACE_TEMPORAL_UI_PORT") ||
		!strings.Contains(err.Error(), strconv.Itoa(port)) {
		t.Fatalf("UI port in use: got %v, want ErrPortInUse naming ACE_TEMPORAL_UI_PORT and port %d", err, port)
	}

	s, err := StartWith(dir, Options{UI: true, UIPort: port, AnyPortIfTaken: true})
	if err != nil {
		t.Fatalf("start after a refused port (the lock must have been released): %v", err)
	}
	defer s.Stop()
	if !s.Owned || s.UI == "" || strings.HasSuffix(s.UI, ":"+strconv.Itoa(port)) {
		t.Fatalf("owner %+v: want a UI on a port other than the taken %d", s.Addresses, port)
	}
	other, err := Start(dir)
	if err != nil || other.Owned || other.UI != s.UI {
		t.Fatalf("attach: %+v %v, want the owner's UI %s", other, err, s.UI)
	}

	status, page := getUI(t, s.UI, "/")
	// The UI is a SvelteKit app: its page loads /_app/ bundles that the
	// module embeds; the favicon is Temporal's.
	if status != http.StatusOK || !strings.Contains(string(page), "/_app/immutable/entry/start.") {
		t.Fatalf("GET /: %d, %.300s", status, page)
	}
	if status, _ := getUI(t, s.UI, "/_app/immutable/entry/"+entryName(t, page)); status != http.StatusOK {
		t.Fatalf("GET the page's entry bundle: %d", status)
	}

	status, body := getUI(t, s.UI, "/api/v1/namespaces/"+Namespace)
	var ns struct {
		NamespaceInfo struct{ Name, State string }
	}
	if status != http.StatusOK || json.Unmarshal(body, &ns) != nil || ns.NamespaceInfo.Name != Namespace {
		t.Fatalf("GET /api/v1/namespaces/%s: %d %.300s", Namespace, status, body)
	}

	c := dial(t, s)
	defer c.Close()
	w := startWorker(t, c)
	defer w.Stop()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "greet-ui", TaskQueue: "embedded-test"}, greet, "ui")
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	status, body = getUI(t, s.UI, "/api/v1/namespaces/"+Namespace+"/workflows/greet-ui")
	var wf struct {
		WorkflowExecutionInfo struct {
			Execution struct{ WorkflowID, RunID string }
			Type      struct{ Name string }
			Status    string
		}
	}
	if status != http.StatusOK || json.Unmarshal(body, &wf) != nil {
		t.Fatalf("describe greet-ui through the UI: %d %.300s", status, body)
	}
	info := wf.WorkflowExecutionInfo
	if info.Execution.RunID != run.GetRunID() || info.Type.Name != "greet" || !strings.Contains(strings.ToUpper(info.Status), "COMPLETED") {
		t.Fatalf("describe greet-ui through the UI: %+v, want run %s of greet, completed", info, run.GetRunID())
	}
}

// entryName is the file name of the start entry bundle the page loads.
func entryName(t *testing.T, page []byte) string {
	t.Helper()
	const marker = "/_app/immutable/entry/"
	s := string(page)
	i := strings.Index(s, marker+"start.")
	if i < 0 {
		t.Fatal("no start entry in the page")
	}
	s = s[i+len(marker):]
	return s[:strings.IndexAny(s, `"' `)]
}

// TestPortInUse: a taken Temporal or NATS port is refused before any
// server starts, naming the setting; the directory is free again after.
func TestPortInUse(t *testing.T) {
	dir := t.TempDir()
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	port := taken.Addr().(*net.TCPAddr).Port
	for _, c := range []struct {
		opts    Options
		setting string
	}{
		{Options{TemporalPort: port}, "ACE_TEMPORAL_PORT"},
		{Options{NATSPort: port}, "ACE_NATS_PORT"},
	} {
		_, err := StartWith(dir, c.opts)
		if !errors.Is(err, ErrPortInUse) || !strings.Contains(err.Error(), c.setting) {
			t.Errorf("%+v: got %v, want ErrPortInUse naming %s", c.opts, err, c.setting)
		}
		if held, _, err := Holder(dir); err != nil || held {
			t.Errorf("%+v: lock held %v (%v) after the refusal", c.opts, held, err)
		}
	}
}
