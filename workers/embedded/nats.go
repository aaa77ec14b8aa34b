package embedded

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// NATS is a running in-process NATS server with JetStream.
type NATS struct {
	srv *server.Server
}

// URL is the client URL (nats://127.0.0.1:port).
func (n *NATS) URL() string { return n.srv.ClientURL() }

// StartNATS is StartNATSAt on a free port.
func StartNATS(dir string) (*NATS, error) { return StartNATSAt(dir, 0) }

// StartNATSAt starts nats-server on 127.0.0.1:port (0: a free port) with
// JetStream storing streams and object stores under dir/jetstream. The
// caller must hold the data directory's lock.
func StartNATSAt(dir string, port int) (*NATS, error) {
	store := filepath.Join(dir, "jetstream")
	if err := os.MkdirAll(store, 0o700); err != nil {
		return nil, fmt.Errorf("nats data dir %s: %w", store, err)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	opts := &server.Options{
		ServerName: "ace-embedded",
		Host:       "127.0.0.1",
		Port:       port,
		JetStream:  true,
		StoreDir:   store,
		NoSigs:     true,
		NoLog:      true,
		// Snapshots and blobs go to the object store in chunks; allow
		// large headers and payloads for the few big decks.
		MaxPayload: 8 << 20,
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("configure embedded NATS server: %w", err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(15 * time.Second) {
		srv.Shutdown()
		return nil, fmt.Errorf("embedded NATS server (store %s) not ready after 15s", store)
	}
	return &NATS{srv: srv}, nil
}

// Stop shuts the server down and waits for JetStream to flush.
func (n *NATS) Stop() {
	if n == nil || n.srv == nil {
		return
	}
	n.srv.Shutdown()
	n.srv.WaitForShutdown()
	n.srv = nil
}
