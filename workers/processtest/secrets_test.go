package processtest

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/workers/securetest"
)

// secretsScript answers an instruction edit of any deck: the router picks
// slide 1, the agent submits, the judge passes. What the edit does does
// not matter here; that every model call carries the API key does.
const secretsScript = `
name: secrets
steps:
  - model: judge-m
    forever: true
    when_last: "CHECKS (group"
    pass_checks: true
  - model: router-m
    forever: true
    text: '{"mode": "MICRO_SPATIAL", "target_slides": [1], "reason": "the title is on slide 1"}'
  - model: agent-m
    forever: true
    tool_calls: [{name: submit}]
  - model: judge-m
    forever: true
    text: '{"instruction_following_score": 4, "instruction_following_reason": "Nothing needed changing."}'
`

// TestSecretsStayOutOfLogsSpansAndReports runs a self-hosted `ace batch`
// of an instruction (a model call per step) with every secret ACE reads
// configured from a file (the *_FILE variants): the NATS password and the
// Redis password of servers that demand them over mutual TLS (both started
// by the test), the model's API key, the OTLP exporter's auth header and
// the 32-byte payload key. It then searches everything the run left
// behind (every line ace printed, every span and metric the OTLP
// collector received, encoded, and every file under the output and data
// directories: reports, summaries, the store, the Temporal database) for
// each secret, raw and, for the payload key, hex and base64 (issue 23).
// It also checks the run's model calls arrived as GenAI chat spans.
func TestSecretsStayOutOfLogsSpansAndReports(t *testing.T) {
	pki := securetest.NewPKI(t)
	natsURL, natsPass := securetest.NATS(t, pki)
	redisURL, redisPass := securetest.Redis(t, pki)
	apiKey, otelToken := securetest.Secret(t), securetest.Secret(t)
	payloadKey := make([]byte, 32)
	if _, err := rand.Read(payloadKey); err != nil {
		t.Fatal(err)
	}
	secrets := t.TempDir()
	file := func(name string, b []byte) string {
		p := filepath.Join(secrets, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	script, err := llmtest.ParseScript([]byte(secretsScript), "secrets")
	if err != nil {
		t.Fatal(err)
	}
	model := llmtest.NewServer(t, script)
	collector := newReceiver()
	endpoint := collector.serveHTTP(t)

	out, data := t.TempDir(), t.TempDir()
	env := []string{"ACE_DATA_DIR=" + data,
		"ACE_NATS_URL=" + natsURL, "ACE_NATS_USER=ace", "ACE_NATS_PASSWORD_FILE=" + file("nats-password", []byte(natsPass+"\n")),
		"ACE_NATS_TLS_CA=" + pki.CA, "ACE_NATS_TLS_CERT=" + pki.ClientCert, "ACE_NATS_TLS_KEY=" + pki.ClientKey,
		"ACE_REDIS_URL=" + redisURL, "ACE_REDIS_PASSWORD_FILE=" + file("redis-password", []byte(redisPass)),
		"ACE_REDIS_TLS_CA=" + pki.CA, "ACE_REDIS_TLS_CERT=" + pki.ClientCert, "ACE_REDIS_TLS_KEY=" + pki.ClientKey,
		"OPENAI_BASE_URL=" + model.URL(), "OPENAI_API_KEY_FILE=" + file("api-key", []byte(apiKey)),
		"ACE_AGENT_MODEL=agent-m", "ACE_JUDGE_MODEL=judge-m", "ACE_ROUTER_MODEL=router-m",
		"ACE_PAYLOAD_KEY_FILE=" + file("payload.key", payloadKey),
		"OTEL_EXPORTER_OTLP_ENDPOINT=" + endpoint, "OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf",
		"OTEL_EXPORTER_OTLP_HEADERS=authorization=Bearer%20" + otelToken,
	}
	deck := telemetryDecks(t)[0]
	run := runTimed(t, env, 15*time.Minute, "batch", "-i", "Make the title on slide 1 shorter.", "-o", out, deck)
	if run.err != nil {
		t.Fatalf("ace batch: %v; output:\n%s", run.err, strings.Join(run.lines, "\n"))
	}

	// The run used every secret: otherwise finding none proves nothing.
	reqs := model.Requests()
	if len(reqs) == 0 {
		t.Fatal("the model server saw no request")
	}
	for _, r := range reqs {
		if got := r.Header.Get("Authorization"); got != "Bearer "+apiKey {
			t.Fatalf("model request %d authorized with %q, want the key from OPENAI_API_KEY_FILE", r.N, got)
		}
	}
	collector.mu.Lock()
	spans := collector.spans
	var telemetry bytes.Buffer
	for _, s := range spans {
		b, err := proto.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		telemetry.Write(b)
	}
	for _, ms := range collector.metrics {
		for _, m := range ms {
			b, err := proto.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			telemetry.Write(b)
		}
	}
	collector.mu.Unlock()
	if len(spans) == 0 {
		t.Fatal("the OTLP collector received no span")
	}
	// The model calls are traced with the GenAI semantic conventions'
	// attributes (issue 20): one chat span per request the server saw.
	chats := 0
	for _, s := range spans {
		if !strings.HasPrefix(s.Name, "chat ") {
			continue
		}
		chats++
		for _, k := range []string{"gen_ai.request.model", "gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens"} {
			if _, ok := attr(s.Attributes, k); !ok {
				t.Errorf("model span %s has no %s", s.Name, k)
			}
		}
	}
	if chats != len(reqs) {
		t.Errorf("%d chat spans for %d model requests", chats, len(reqs))
	}

	forms := map[string][]byte{
		"the NATS password":             []byte(natsPass),
		"the Redis password":            []byte(redisPass),
		"the model API key":             []byte(apiKey),
		"the OTLP header token":         []byte(otelToken),
		"the payload key":               payloadKey,
		"the payload key in hex":        []byte(hex.EncodeToString(payloadKey)),
		"the payload key in base64":     []byte(base64.StdEncoding.EncodeToString(payloadKey)),
		"the payload key in base64 URL": []byte(base64.RawURLEncoding.EncodeToString(payloadKey)),
	}
	search := func(where string, b []byte) {
		for name, s := range forms {
			if bytes.Contains(b, s) {
				t.Errorf("%s holds %s", where, name)
			}
		}
	}
	search("ace's output", []byte(strings.Join(run.lines, "\n")))
	search("the exported spans and metrics", telemetry.Bytes())
	files := 0
	for _, root := range []string{out, data} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !d.Type().IsRegular() {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files++
			search(path, b)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "summary.txt")); err != nil {
		t.Errorf("the run wrote no summary: %v", err)
	}
	t.Logf("searched %d output lines, %d spans, %d metrics' encodings and %d files for %d secret forms",
		len(run.lines), len(spans), len(collector.metrics), files, len(forms))
}
