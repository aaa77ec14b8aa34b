package workers

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/acecanvas/ace/workers/embedded"
)

// StackLost says that the embedded stack a process had attached to went
// away: its owner (the ace process that ran the Temporal and NATS servers of
// DataDir and held its lock) stopped. The servers' state (Temporal's SQLite,
// the JetStream store) stays in DataDir, so any process can start them
// again from it.
type StackLost struct {
	DataDir string
	// PID is the owner that stopped.
	PID int
	// Holder is the process that holds DataDir's lock now (it took the
	// stack over), 0 when the lock is free.
	Holder int
}

func (l *StackLost) Error() string {
	now := "its lock is free"
	if l.Holder != 0 {
		now = fmt.Sprintf("ace pid %d holds it now", l.Holder)
	}
	return fmt.Sprintf("the embedded stack in ACE_DATA_DIR=%s stopped: its owner, ace pid %d, exited (%s)", l.DataDir, l.PID, now)
}

// WatchOwner follows, every `every`, who holds the data directory lock of
// the embedded stack c is attached to. The returned context is cancelled
// once the owner is gone (the lock is free, or held by another pid: a
// process that took the stack over) or when ctx is; lost then reports the
// owner that went (nil while it runs, and always nil for a stack this
// process owns or a configured cluster, which have no owner to lose).
// stop ends the watch. Detection takes one period after the owner released
// the lock, which it does once its servers have stopped (or when the kernel
// drops it after a kill). On detection c's NATS connection, whose server is
// gone, is closed, so calls blocked on it return at once.
func WatchOwner(ctx context.Context, c *Conn, every time.Duration) (watched context.Context, lost func() *StackLost, stop func()) {
	watched, cancel := context.WithCancel(ctx)
	var (
		mu  sync.Mutex
		got *StackLost
	)
	lost = func() *StackLost {
		mu.Lock()
		defer mu.Unlock()
		return got
	}
	if c.Stack == nil || c.Stack.Owned {
		return watched, lost, cancel
	}
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-watched.Done():
				return
			case <-t.C:
			}
			l := OwnerGone(c)
			if l == nil {
				continue
			}
			mu.Lock()
			got = l
			mu.Unlock()
			cancel()
			// A request in flight to the stopped NATS server would
			// wait out its timeout: end it now.
			c.NC.Close()
			return
		}
	}()
	return watched, lost, cancel
}

// OwnerGone checks once whether the owner of the embedded stack c is
// attached to has stopped: nil while it still holds the data directory's
// lock (or while a new holder has not written its pid yet), and always nil
// for a stack this process owns or a configured cluster.
func OwnerGone(c *Conn) *StackLost {
	if c == nil || c.Stack == nil || c.Stack.Owned {
		return nil
	}
	held, pid, err := embedded.Holder(c.Stack.DataDir)
	if err != nil || held && (pid == 0 || pid == c.Stack.PID) {
		return nil
	}
	l := &StackLost{DataDir: c.Stack.DataDir, PID: c.Stack.PID}
	if held {
		l.Holder = pid
	}
	return l
}

// Reconnect connects again after the stack lost named went away: Connect
// with cfg takes the stack over when the data directory is free (the
// returned Conn's Stack is Owned: this process now runs Temporal and NATS
// from the same durable state, and must run workers for anything to
// progress), or attaches to the process that took it over first. A stale
// stack file left by an owner that was killed, or one not yet written by
// the new owner, is waited out until timeout; the last error is returned
// then.
func Reconnect(ctx context.Context, cfg Config, lost *StackLost, timeout time.Duration) (*Conn, error) {
	deadline := time.Now().Add(timeout)
	var last error
	for {
		c, err := Connect(ctx, cfg)
		switch {
		case err == nil && c.Stack != nil && !c.Stack.Owned && c.Stack.PID == lost.PID:
			c.Close()
			last = fmt.Errorf("the data directory still names the stopped owner, ace pid %d", lost.PID)
		case err == nil:
			return c, nil
		default:
			last = err
		}
		if ctx.Err() != nil {
			return nil, errors.Join(ctx.Err(), last)
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("no stack to carry on with after %v: %w", timeout, last)
		}
		select {
		case <-ctx.Done():
		case <-time.After(500 * time.Millisecond):
		}
	}
}
