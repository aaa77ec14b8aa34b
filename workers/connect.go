package workers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
	sdklog "go.temporal.io/sdk/log"

	"github.com/acecanvas/ace/internal/secret"
	"github.com/acecanvas/ace/internal/store"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
	"github.com/acecanvas/ace/workers/embedded"
)

// Conn is a connection to the infrastructure: the Temporal client, NATS
// with JetStream, and the content-addressed store (the NATS object store
// ACE_BLOBS, shared by every process of a deployment).
type Conn struct {
	Config
	Temporal client.Client
	NC       *nats.Conn
	JS       jetstream.JetStream
	Store    store.Store
	// Stack is the embedded stack when one was started or attached to.
	Stack *embedded.Stack
}

// Interceptors are added to every Temporal client (set by telemetry
// wiring: Temporal's OpenTelemetry tracing interceptor).
var Interceptors []interceptor.ClientInterceptor

// Logger is the SDK's logger; quiet by default (the SDK's own is noisy).
var Logger sdklog.Logger = sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))

// Connect connects to cfg's addresses, starting (or attaching to) the
// embedded stack under cfg.DataDir for the empty ones, and makes sure the
// ACE_JOBS and ACE_EVENTS streams exist.
//
// Given addresses are reached with cfg's credentials and TLS (NATSAuth,
// TemporalAuth); the embedded servers, on 127.0.0.1, plain. A refused
// connection's error names the setting to fix and holds no secret.
func Connect(ctx context.Context, cfg Config) (*Conn, error) {
	if cfg.Err != nil {
		return nil, cfg.Err
	}
	setBuildID()
	c := &Conn{Config: cfg}
	ring, err := cfg.PayloadRing()
	if err != nil {
		return nil, err
	}
	dc, fc := DataConverter(ring), FailureConverter(ring)
	if cfg.Embedded() {
		s, err := embedded.StartWith(cfg.DataDir, cfg.Embed)
		if err != nil {
			return nil, fmt.Errorf("embedded stack in %s: %w", cfg.DataDir, err)
		}
		c.Stack = s
		if c.TemporalAddress == "" {
			c.TemporalAddress = s.Temporal
		}
		if c.NATSURL == "" {
			c.NATSURL = s.NATS
		}
	}
	c.NC, err = c.connectNATS("ace", cfg.NATSURL == "", nats.MaxReconnects(-1), nats.ReconnectWait(500*time.Millisecond))
	if err != nil {
		c.Close()
		return nil, err
	}
	if c.JS, err = jetstream.New(c.NC); err != nil {
		c.Close()
		return nil, err
	}
	if err := EnsureStreams(ctx, c.JS); err != nil {
		c.Close()
		return nil, err
	}
	ns, err := store.NewNATS(ctx, c.JS, "")
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("object store on %s: %w", DisplayURL(c.NATSURL), err)
	}
	// Blobs are read through a process-wide cache: a render step reads
	// each picture of a slide once, not once per slide and per activity.
	c.Store = store.Cached(ns, blobCacheBytes)
	opts := client.Options{HostPort: c.TemporalAddress, Namespace: cfg.Namespace,
		Logger: Logger, Interceptors: Interceptors, MetricsHandler: metricsHandler,
		DataConverter: dc, FailureConverter: fc}
	if cfg.TemporalAddress != "" {
		if err := cfg.Temporal.apply(&opts); err != nil {
			c.Close()
			return nil, err
		}
	}
	c.Temporal, err = client.DialContext(ctx, opts)
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("connect to Temporal at %s: %s (%s)", c.TemporalAddress, secret.Redact(err.Error()), temporalHint(err))
	}
	return c, nil
}

// CloseTemporal closes the Temporal client and stops the embedded Temporal
// server if this process owns it; NATS and the store stay up until Close.
// Nothing may use c.Temporal afterwards.
func (c *Conn) CloseTemporal() error {
	if c.Temporal != nil {
		c.Temporal.Close()
		c.Temporal = nil
	}
	return c.Stack.StopTemporal()
}

// Close closes the clients and stops an embedded stack this process owns.
func (c *Conn) Close() error {
	if c.Temporal != nil {
		c.Temporal.Close()
	}
	if c.NC != nil {
		c.NC.Drain()
		c.NC.Close()
	}
	return c.Stack.Stop()
}

// EventsDuplicateWindow is how long ACE_EVENTS remembers a Nats-Msg-Id: a
// result republished within it (a retried Publish, a workflow re-run after
// a crash) is dropped.
const EventsDuplicateWindow = 24 * time.Hour

// EnsureStreams creates ACE_JOBS (work queue: a job is removed when a
// dispatcher acks it) and ACE_EVENTS (limits: kept a week) if missing.
func EnsureStreams(ctx context.Context, js jetstream.JetStream) error {
	streams := []jetstream.StreamConfig{
		{Name: acev1.StreamJobs, Subjects: []string{"ace.jobs.>"}, Retention: jetstream.WorkQueuePolicy,
			Storage: jetstream.FileStorage, Duplicates: time.Hour},
		{Name: acev1.StreamEvents, Subjects: []string{"ace.events.>"}, Retention: jetstream.LimitsPolicy,
			Storage: jetstream.FileStorage, Duplicates: EventsDuplicateWindow, MaxAge: 7 * 24 * time.Hour},
	}
	for _, sc := range streams {
		_, err := js.CreateStream(ctx, sc)
		if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			continue
		}
		if err != nil {
			return fmt.Errorf("create stream %s: %w", sc.Name, err)
		}
	}
	return nil
}

// blobCacheBytes bounds the blobs a process keeps read (store.Cached):
// 256 MiB, a few hundred decks' snapshots or pictures.
const blobCacheBytes = 256 << 20
