package workers

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/acecanvas/ace/internal/cache"
	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/store"
	"github.com/acecanvas/ace/internal/tlsconfig"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
	"github.com/acecanvas/ace/workers/embedded"
	"github.com/acecanvas/ace/workers/securetest"
)

// securedConfig is how a deployment reaches the test's secured NATS and
// Redis: the settings a worker reads (NATSAuth, cache.RedisConfig).
func securedConfig(pki securetest.PKI, natsURL, natsPass, redisURL, redisPass string) Config {
	clientTLS := func(prefix string) tlsconfig.Files {
		return tlsconfig.Files{Setting: prefix, CA: pki.CA, Cert: pki.ClientCert, Key: pki.ClientKey}
	}
	return Config{Namespace: embedded.Namespace,
		NATSURL: natsURL, NATS: NATSAuth{User: "ace", Password: natsPass, TLS: clientTLS(NATSTLSSetting)},
		Redis: cache.RedisConfig{URL: redisURL, Password: redisPass, TLS: clientTLS(cache.RedisTLSSetting)}}
}

// TestSecuredNATSAndRedisRefuseStrangers connects to a nats-server that
// requires a user and mutual TLS and a redis-server that requires a
// password and mutual TLS, each started by the test, with one thing missing
// or wrong at a time: each is refused, the error names the setting that
// fixes it, and no error holds a password.
func TestSecuredNATSAndRedisRefuseStrangers(t *testing.T) {
	pki := securetest.NewPKI(t)
	natsURL, natsPass := securetest.NATS(t, pki)
	redisURL, redisPass := securetest.Redis(t, pki)
	good := securedConfig(pki, natsURL, natsPass, redisURL, redisPass)

	nc, err := ConnectNATS(good, "ace test", 5*time.Second)
	if err != nil {
		t.Fatalf("with every setting right: %v", err)
	}
	nc.Close()
	r, err := cache.NewRedis(context.Background(), good.Redis)
	if err != nil {
		t.Fatalf("with every setting right: %v", err)
	}
	if st := r.Stats(); st.Errors != 0 {
		t.Fatalf("Redis with every setting right: %+v", st)
	}
	r.Close()

	natsCases := []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"no user", func(c *Config) { c.NATS.User, c.NATS.Password = "", "" }, "ACE_NATS_PASSWORD_FILE"},
		{"wrong password", func(c *Config) { c.NATS.Password = "not-" + natsPass }, "ACE_NATS_USER"},
		{"wrong CA", func(c *Config) { c.NATS.TLS.CA = pki.WrongCA }, "set ACE_NATS_TLS_CA"},
		{"no client certificate", func(c *Config) { c.NATS.TLS.Cert, c.NATS.TLS.Key = "", "" }, "ACE_NATS_TLS_CERT and ACE_NATS_TLS_KEY"},
		{"plain URL, no TLS settings", func(c *Config) {
			c.NATSURL = strings.Replace(c.NATSURL, "tls://", "nats://", 1)
			c.NATS.TLS = tlsconfig.Files{}
		}, "ACE_NATS_TLS"},
		{"password in the URL alone", func(c *Config) {
			c.NATSURL = strings.Replace(c.NATSURL, "tls://", "tls://ace:wrong-"+natsPass+"@", 1)
			c.NATS.User, c.NATS.Password = "", ""
		}, "user:password@ in ACE_NATS_URL"},
	}
	for _, tc := range natsCases {
		t.Run("NATS "+tc.name, func(t *testing.T) {
			cfg := good
			tc.edit(&cfg)
			nc, err := ConnectNATS(cfg, "ace test", 5*time.Second)
			if err == nil {
				nc.Close()
				t.Fatal("connected")
			}
			msg := err.Error()
			if !strings.Contains(msg, tc.want) || strings.Contains(msg, natsPass) {
				t.Fatalf("error %q: want it to name %s and hold no password", msg, tc.want)
			}
			t.Log(msg)
		})
	}

	redisCases := []struct {
		name string
		edit func(*cache.RedisConfig)
		want string
	}{
		{"no password", func(c *cache.RedisConfig) { c.Password = "" }, "ACE_REDIS_PASSWORD_FILE"},
		{"wrong password", func(c *cache.RedisConfig) { c.Password = "not-" + redisPass }, "ACE_REDIS_PASSWORD"},
		{"wrong CA", func(c *cache.RedisConfig) { c.TLS.CA = pki.WrongCA }, "set ACE_REDIS_TLS_CA"},
		{"no client certificate", func(c *cache.RedisConfig) { c.TLS.Cert, c.TLS.Key = "", "" }, "ACE_REDIS_TLS_CERT and ACE_REDIS_TLS_KEY"},
		{"plain redis:// to the TLS port", func(c *cache.RedisConfig) {
			c.URL = strings.Replace(c.URL, "rediss://", "redis://", 1)
			c.TLS = tlsconfig.Files{}
		}, "use rediss:// in ACE_REDIS_URL"},
	}
	for _, tc := range redisCases {
		t.Run("Redis "+tc.name, func(t *testing.T) {
			rc := good.Redis
			tc.edit(&rc)
			r, err := cache.NewRedis(context.Background(), rc)
			if err == nil {
				r.Close()
				t.Fatal("connected")
			}
			msg := err.Error()
			if !strings.Contains(msg, tc.want) || !strings.Contains(msg, rc.Addr()) || strings.Contains(msg, redisPass) {
				t.Fatalf("error %q: want it to name %s and the server and hold no password", msg, tc.want)
			}
			t.Log(msg)
		})
	}
}

// TestBatchThroughSecuredNATSAndRedis runs a natural-language batch the
// cluster way through a NATS and a Redis that admit only the right user,
// password and client certificate over TLS (both started by the test):
// the jobs, events and decks travel through the secured NATS, and the llm
// workers' route cache, built by NewActivities from the same settings,
// writes its routing decision to the secured Redis.
func TestBatchThroughSecuredNATSAndRedis(t *testing.T) {
	pki := securetest.NewPKI(t)
	natsURL, natsPass := securetest.NATS(t, pki)
	redisURL, redisPass := securetest.Redis(t, pki)
	cfg := securedConfig(pki, natsURL, natsPass, redisURL, redisPass)

	dir := t.TempDir()
	lock, err := embedded.LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock()
	temporal, err := embedded.StartTemporal(filepath.Join(dir, "temporal"))
	if err != nil {
		t.Fatal(err)
	}
	defer temporal.Stop()
	cfg.TemporalAddress, cfg.DataDir = temporal.HostPort(), dir

	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	conn, err := Connect(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if conn.Stack != nil {
		t.Fatal("addresses were given, yet an embedded stack started")
	}
	acts, closeSteps, err := NewActivities(ctx, conn, AllQueues, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer closeSteps()
	if st := acts.Steps.Cache.Stats(); st.Backend != "redis" || st.Errors != 0 {
		t.Fatalf("llm workers' route cache on the secured Redis: %+v", st)
	}
	script, err := llmtest.ParseScript([]byte(redisBatchScript), "redis-batch")
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t, script)
	lcfg := srv.Config("agent-m", "judge-m")
	lcfg.RouterModel = "router-m"
	if acts.Steps.LLM, err = llm.New(lcfg); err != nil {
		t.Fatal(err)
	}
	ws, err := StartWorkers(conn.Temporal, AllQueues, acts, WorkerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer StopWorkers(ws)
	dctx, stop := context.WithCancel(ctx)
	defer stop()
	go Dispatch(dctx, conn)

	d, blobs := deckgen.Generate(deckgen.Options{Slides: 6, Seed: 2})
	if err := store.PutBlobs(ctx, conn.Store, blobs); err != nil {
		t.Fatal(err)
	}
	origin, err := store.PutDeck(ctx, conn.Store, d)
	if err != nil {
		t.Fatal(err)
	}
	batch := acev1.Token(fmt.Sprintf("secured%d", time.Now().UnixNano()))
	jobs := []Job{{Key: "deck", Path: "deck.json", Request: &acev1.EditRequest{BatchId: batch, JobId: acev1.JobID(batch, "deck"),
		DeckName: "deck.json", DeckRef: origin, Instruction: "Retitle slide 2 to name the pricing experiments.", ExportFormat: "json"}}}
	if err := Submit(ctx, conn.JS, batch, jobs); err != nil {
		t.Fatal(err)
	}
	st, err := Follow(ctx, conn.JS, batch, []string{"deck"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := st.Decks["deck"].Result; r == nil || r.Status != acev1.EditStatus_EDIT_STATUS_OK || r.FinalSnapshot == origin {
		t.Fatalf("result %+v", r)
	}
	if n := len(srv.RequestsFor("router-m")); n != 1 {
		t.Fatalf("%d router calls, want 1", n)
	}
	// Read the secured Redis back with the same settings.
	opt, err := cfg.Redis.Options()
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opt)
	defer rdb.Close()
	if keys, err := rdb.Keys(ctx, "ace:route:llm:*").Result(); err != nil || len(keys) != 1 {
		t.Fatalf("route cache keys in the secured Redis: %v (%v), want the one this edit wrote", keys, err)
	}
}
