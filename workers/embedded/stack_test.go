package embedded

import (
	"context"
	"io"
	"log/slog"
	"net"
	"os"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

func greet(ctx workflow.Context, name string) (string, error) {
	return "hello " + name, nil
}

func awaitName(ctx workflow.Context) (string, error) {
	var name string
	workflow.GetSignalChannel(ctx, "name").Receive(ctx, &name)
	return "hello " + name, nil
}

func dial(t *testing.T, s *Stack) client.Client {
	t.Helper()
	c, err := client.Dial(client.Options{HostPort: s.Temporal, Namespace: Namespace,
		Logger: sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func startWorker(t *testing.T, c client.Client) worker.Worker {
	w := worker.New(c, "embedded-test", worker.Options{})
	w.RegisterWorkflow(greet)
	w.RegisterWorkflow(awaitName)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	return w
}

// TestStackSurvivesRestart runs a workflow to completion and leaves a
// second one waiting for a signal, stops the stack, starts it again on the
// same directory, and finds both: the finished result and the waiting
// workflow, which then completes. A JetStream message survives too.
func TestStackSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	s, err := Start(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Owned {
		t.Fatal("first Start must own the stack")
	}
	other, err := Start(dir)
	if err != nil {
		t.Fatalf("second Start should attach: %v", err)
	}
	if other.Owned || other.Temporal != s.Temporal || other.NATS != s.NATS {
		t.Fatalf("attach got %+v, owner %+v", other.Addresses, s.Addresses)
	}

	c := dial(t, s)
	w := startWorker(t, c)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "greet-1", TaskQueue: "embedded-test"}, greet, "ace")
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if err := run.Get(ctx, &got); err != nil || got != "hello ace" {
		t.Fatalf("greet: %q %v", got, err)
	}
	if _, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "wait-1", TaskQueue: "embedded-test"}, awaitName); err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(s.NATS)
	if err != nil {
		t.Fatal(err)
	}
	js, _ := jetstream.New(nc)
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "T", Subjects: []string{"t.>"}, Storage: jetstream.FileStorage}); err != nil {
		t.Fatal(err)
	}
	if _, err := js.Publish(ctx, "t.1", []byte("kept")); err != nil {
		t.Fatal(err)
	}
	nc.Close()
	w.Stop()
	c.Close()
	if err := s.Stop(); err != nil {
		t.Logf("stop: %v", err)
	}

	s2, err := Start(dir)
	if err != nil {
		t.Fatalf("restart: %v", err)
	}
	defer s2.Stop()
	c2 := dial(t, s2)
	defer c2.Close()
	w2 := startWorker(t, c2)
	defer w2.Stop()
	if err := c2.GetWorkflow(ctx, "greet-1", "").Get(ctx, &got); err != nil || got != "hello ace" {
		t.Fatalf("finished workflow after restart: %q %v", got, err)
	}
	if err := c2.SignalWorkflow(ctx, "wait-1", "", "name", "again"); err != nil {
		t.Fatalf("signal the waiting workflow after restart: %v", err)
	}
	if err := c2.GetWorkflow(ctx, "wait-1", "").Get(ctx, &got); err != nil || got != "hello again" {
		t.Fatalf("waiting workflow after restart: %q %v", got, err)
	}
	nc2, err := nats.Connect(s2.NATS)
	if err != nil {
		t.Fatal(err)
	}
	defer nc2.Close()
	js2, _ := jetstream.New(nc2)
	stream, err := js2.Stream(ctx, "T")
	if err != nil {
		t.Fatal(err)
	}
	msg, err := stream.GetLastMsgForSubject(ctx, "t.1")
	if err != nil || string(msg.Data) != "kept" {
		t.Fatalf("stream message after restart: %v", err)
	}
}

// TestHolder follows the lock of a data directory through its life: never
// owned, locked as Start locks it (this process's pid, seen through another open
// file as another process sees it), free again after Unlock, and still free
// after Holder looked (it writes nothing and keeps nothing).
func TestHolder(t *testing.T) {
	dir := t.TempDir()
	if held, pid, err := Holder(dir); err != nil || held || pid != 0 {
		t.Fatalf("fresh directory: held %v pid %d err %v", held, pid, err)
	}
	lock, err := LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if held, pid, err := Holder(dir); err != nil || !held || pid != os.Getpid() {
		t.Fatalf("locked: held %v pid %d err %v, want held by %d", held, pid, err, os.Getpid())
	}
	if err := lock.Unlock(); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if held, _, err := Holder(dir); err != nil || held {
			t.Fatalf("released: held %v err %v", held, err)
		}
	}
	again, err := LockDir(dir)
	if err != nil {
		t.Fatalf("a Start after Holder looked: %v", err)
	}
	again.Unlock()
}

// TestStopTemporalKeepsNATS stops the Temporal server alone: its frontend
// refuses connections, NATS still stores and serves a message, the lock
// is still held, and Stop then stops NATS and releases the directory.
func TestStopTemporalKeepsNATS(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := Start(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	if err := s.StopTemporal(); err != nil {
		t.Fatal(err)
	}
	if err := s.StopTemporal(); err != nil {
		t.Fatalf("a second StopTemporal: %v", err)
	}
	if c, err := net.DialTimeout("tcp", s.Temporal, time.Second); err == nil {
		c.Close()
		t.Fatalf("Temporal's frontend %s still accepts connections", s.Temporal)
	}
	nc, err := nats.Connect(s.NATS)
	if err != nil {
		t.Fatalf("NATS after StopTemporal: %v", err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "KEEP", Subjects: []string{"keep"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := js.Publish(ctx, "keep", []byte("still here")); err != nil {
		t.Fatal(err)
	}
	if held, _, err := Holder(dir); err != nil || !held {
		t.Fatalf("the data directory's lock after StopTemporal: held %v, %v", held, err)
	}
	nc.Close()
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if held, _, err := Holder(dir); err != nil || held {
		t.Fatalf("the lock after Stop: held %v, %v", held, err)
	}
}
