package codectest

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/encoding/protojson"
	_ "modernc.org/sqlite"

	"github.com/acecanvas/ace/internal/cache"
	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/payloadcrypt"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/store"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
	"github.com/acecanvas/ace/workers"
	"github.com/acecanvas/ace/workflows"
)

const instruction = "Give slide 2 a shorter title that names the quarter."

// What the scripted judge says (testdata/scripts/runner-rollback.yaml) and
// the text the scripted agent writes into the deck.
var critiques = []string{"The title should be shorter and name the quarter.", "Better; the quarter is still missing."}
var written = []string{"Version A", "Version B"}

func repoRoot(t *testing.T) string {
	dir, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found")
		}
		dir = parent
	}
}

func keyFile(t *testing.T, dir, name string) string {
	b := make([]byte, payloadcrypt.KeySize)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o400); err != nil {
		t.Fatal(err)
	}
	return p
}

// deckStrings is every text of the deck at least 12 characters long (short
// ones, "Q3", could occur in any binary by chance).
func deckStrings(d *scenegraph.Deck) []string {
	var out []string
	d.Walk(func(n, _ *scenegraph.Node, _ int) bool {
		if len(n.Characters) >= 12 {
			out = append(out, n.Characters)
		}
		return true
	})
	return out
}

// TestEncryptedHistoryOnDisk runs a scripted edit (three iterations with
// the judge's critiques) through EditWorkflow on an embedded stack with
// the codec on, then reads the SQLite database of the embedded Temporal
// server: neither its history rows nor any byte of the database files holds
// the instruction, a critique, the text the agent wrote or the deck's text.
// With the key, the codec server decodes the workflow's input back to the
// instruction; after a rotation (a new current key, the old one in
// ACE_PAYLOAD_OLD_KEY_FILES) the old history still decodes, through the
// codec server and through a client, and without the old key it does not.
func TestEncryptedHistoryOnDisk(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	dataDir, keys := t.TempDir(), t.TempDir()
	oldKey := keyFile(t, keys, "payload-key-1")
	conn, err := workers.Connect(ctx, workers.Config{Namespace: "default", DataDir: dataDir, PayloadKeyFile: oldKey})
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			conn.Close()
		}
	}()
	acts, closeSteps, err := workers.NewActivities(ctx, conn, workers.AllQueues, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer closeSteps()
	srv := llmtest.Load(t, filepath.Join(repoRoot(t), "testdata", "scripts", "runner-rollback.yaml"))
	cfg := srv.Config("agent-m", "judge-m")
	cfg.RouterModel = "router-m"
	if acts.Steps.LLM, err = llm.New(cfg); err != nil {
		t.Fatal(err)
	}
	acts.Steps.Cache = cache.NewLRU(cache.DefaultEntries, cache.DefaultMaxBytes)
	ws, err := workers.StartWorkers(conn.Temporal, workers.AllQueues, acts, workers.WorkerOptions{})
	if err != nil {
		t.Fatal(err)
	}

	d, blobs := deckgen.Generate(deckgen.Options{Slides: 6, Seed: 1})
	if err := store.PutBlobs(ctx, conn.Store, blobs); err != nil {
		t.Fatal(err)
	}
	origin, err := store.PutDeck(ctx, conn.Store, d)
	if err != nil {
		t.Fatal(err)
	}
	id := fmt.Sprintf("codec-%d", time.Now().UnixNano())
	run, err := conn.Temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: workflows.QueueEdit},
		workers.EditWorkflowName, workflows.EditInput{Request: &acev1.EditRequest{JobId: id, DeckName: "generated",
			DeckRef: origin, Instruction: instruction, ExportFormat: "json"}})
	if err != nil {
		t.Fatal(err)
	}
	var res *acev1.EditResult
	if err := run.Get(ctx, &res); err != nil {
		t.Fatalf("workflow: %v", err)
	}
	if len(res.Iterations) < 2 {
		t.Fatalf("the scripted edit ran %d iterations; the test needs the judge's critiques", len(res.Iterations))
	}

	// The encrypted payloads as the server holds them: a client without
	// the codec reads the started event's input.
	raw, err := client.Dial(client.Options{HostPort: conn.TemporalAddress, Namespace: "default", Logger: workers.Logger})
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	it := raw.GetWorkflowHistory(ctx, id, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	first, err := it.Next()
	if err != nil {
		t.Fatal(err)
	}
	input := first.GetWorkflowExecutionStartedEventAttributes().GetInput()
	if len(input.GetPayloads()) == 0 {
		t.Fatal("no input payload in the started event")
	}
	for _, p := range input.GetPayloads() {
		if got := string(p.GetMetadata()["encoding"]); got != workers.MetadataEncodingEncrypted {
			t.Fatalf("started event input has encoding %q, want %s", got, workers.MetadataEncodingEncrypted)
		}
	}
	workers.StopWorkers(ws)
	stopped = true
	conn.Close() // the server checkpoints and closes its database

	// Every byte of the database files, and each history row by itself.
	secrets := append(append(append([]string{instruction}, critiques...), written...), deckStrings(d)...)
	dbDir := filepath.Join(dataDir, "temporal")
	files, _ := filepath.Glob(filepath.Join(dbDir, "temporal.db*"))
	if len(files) == 0 {
		t.Fatalf("no SQLite files in %s", dbDir)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range secrets {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("%s holds %q in plain text", filepath.Base(f), s)
			}
		}
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dbDir, "temporal.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT data FROM history_node`)
	if err != nil {
		t.Fatal(err)
	}
	n, total := 0, 0
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			t.Fatal(err)
		}
		n, total = n+1, total+len(b)
		for _, s := range secrets {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("history row %d holds %q", n, s)
			}
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n == 0 || !bytes.Contains(mustRead(t, filepath.Join(dbDir, "temporal.db")), []byte(workers.MetadataEncodingEncrypted)) {
		t.Fatalf("%d history rows and no encrypted payload in the database: the test read the wrong file", n)
	}
	t.Logf("%d history rows (%d bytes), %d texts searched, none found", n, total, len(secrets))

	// The codec server decodes with the key ...
	decoded := decode(t, workers.CodecHandler(ring(t, oldKey), ""), input)
	if !strings.Contains(decoded, instruction) {
		t.Fatalf("codec server did not decode the instruction: %s", decoded)
	}
	// ... and after a rotation, with the old key kept for decoding.
	newKey := keyFile(t, keys, "payload-key-2")
	rotated := ring(t, newKey, oldKey)
	if rotated.CurrentID() == ring(t, oldKey).CurrentID() {
		t.Fatal("the rotated ring seals with the old key")
	}
	if got := decode(t, workers.CodecHandler(rotated, ""), input); !strings.Contains(got, instruction) {
		t.Fatalf("the rotated codec server lost the old history: %s", got)
	}
	status, body := post(t, workers.CodecHandler(ring(t, newKey), ""), input)
	if status != http.StatusBadRequest || !strings.Contains(body, payloadcrypt.EnvOldKeyFiles) {
		t.Fatalf("without the old key: %d %s; want 400 naming %s", status, body, payloadcrypt.EnvOldKeyFiles)
	}

	// A client of the restarted stack with the rotated ring reads the old
	// workflow's result.
	conn2, err := workers.Connect(ctx, workers.Config{Namespace: "default", DataDir: dataDir,
		PayloadKeyFile: newKey, PayloadOldKeyFiles: []string{oldKey}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn2.Close()
	var again *acev1.EditResult
	if err := conn2.Temporal.GetWorkflow(ctx, id, "").Get(ctx, &again); err != nil {
		t.Fatalf("the old result under the rotated key: %v", err)
	}
	if again.FinalSnapshot != res.FinalSnapshot || len(again.Iterations) != len(res.Iterations) {
		t.Fatalf("old result read back as %s (%d iterations), was %s (%d)", again.FinalSnapshot, len(again.Iterations), res.FinalSnapshot, len(res.Iterations))
	}
}

func mustRead(t *testing.T, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func ring(t *testing.T, current string, old ...string) *payloadcrypt.Ring {
	r, err := payloadcrypt.LoadRing(current, old)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// post sends payloads to h as the Web UI does (POST /{namespace}/decode,
// Payloads as protobuf JSON) and returns the status and body.
func post(t *testing.T, h http.Handler, payloads *commonpb.Payloads) (int, string) {
	srv := httptest.NewServer(h)
	defer srv.Close()
	body, err := protojson.Marshal(payloads)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/default/decode", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Namespace", "default")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// decode posts payloads to the codec server h and returns the decoded
// payloads' data as one string.
func decode(t *testing.T, h http.Handler, payloads *commonpb.Payloads) string {
	status, body := post(t, h, payloads)
	if status != http.StatusOK {
		t.Fatalf("decode: %d %s", status, body)
	}
	var out commonpb.Payloads
	if err := protojson.Unmarshal([]byte(body), &out); err != nil {
		t.Fatalf("decode answer %s: %v", body, err)
	}
	var b strings.Builder
	for _, p := range out.GetPayloads() {
		b.Write(p.GetData())
	}
	return b.String()
}
