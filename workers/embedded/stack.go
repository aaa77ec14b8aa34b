package embedded

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Addresses are where a stack's servers listen.
type Addresses struct {
	PID      int    `json:"pid"`
	Temporal string `json:"temporal"`
	NATS     string `json:"nats"`
	DataDir  string `json:"dataDir"`
	Started  string `json:"started"`
}

// Stack is the embedded Temporal and NATS servers of one data directory.
// Exactly one process owns them (the one holding the lock); others attach
// to its addresses.
type Stack struct {
	Addresses
	// Owned is true when this process started the servers, false when it
	// attached to another ace process's stack.
	Owned    bool
	lock     *DirLock
	temporal *Temporal
	nats     *NATS
}

// StackFile is the file under the data directory where the owner writes
// its Addresses for other ace processes (`ace batch status`, a second
// `ace batch` while `ace dev` runs).
const StackFile = "stack.json"

// Start starts (or attaches to) the embedded stack of dataDir. Temporal
// keeps its SQLite file under dataDir/temporal, NATS its JetStream store
// under dataDir/nats. If another live process owns the directory, Start
// returns that process's addresses with Owned false.
func Start(dataDir string) (*Stack, error) {
	lock, err := LockDir(dataDir)
	if errors.Is(err, ErrLocked) {
		return attach(dataDir, err)
	}
	if err != nil {
		return nil, err
	}
	s := &Stack{Owned: true, lock: lock}
	s.DataDir, s.PID = dataDir, os.Getpid()
	if s.nats, err = StartNATS(filepath.Join(dataDir, "nats")); err != nil {
		s.Stop()
		return nil, err
	}
	if s.temporal, err = StartTemporal(filepath.Join(dataDir, "temporal")); err != nil {
		s.Stop()
		return nil, err
	}
	s.Temporal, s.NATS = s.temporal.HostPort(), s.nats.URL()
	s.Started = time.Now().UTC().Format(time.RFC3339)
	data, _ := json.MarshalIndent(s.Addresses, "", "  ")
	if err := os.WriteFile(filepath.Join(dataDir, StackFile), append(data, '\n'), 0o600); err != nil {
		s.Stop()
		return nil, fmt.Errorf("write %s: %w", StackFile, err)
	}
	return s, nil
}

// attach reads the owner's addresses; the lock error explains a missing
// or unreadable file.
func attach(dataDir string, lockErr error) (*Stack, error) {
	path := filepath.Join(dataDir, StackFile)
	var a Addresses
	for range 50 { // the owner writes the file right after its servers are up
		data, err := os.ReadFile(path)
		if err == nil && json.Unmarshal(data, &a) == nil && a.Temporal != "" {
			return &Stack{Addresses: a}, nil
		}
		time.Sleep(200 * time.Millisecond)
	}
	return nil, fmt.Errorf("%w; its %s is missing or unreadable: wait for it to finish starting, or set ACE_DATA_DIR to another directory", lockErr, path)
}

// Stop stops the servers this process owns (Temporal first, so workflow
// tasks stop before the messages they publish) and releases the lock.
// Attached stacks are left running.
func (s *Stack) Stop() error {
	if s == nil || !s.Owned {
		return nil
	}
	var errs []error
	if s.temporal != nil {
		errs = append(errs, s.temporal.Stop())
		s.temporal = nil
	}
	if s.nats != nil {
		s.nats.Stop()
		s.nats = nil
	}
	os.Remove(filepath.Join(s.DataDir, StackFile))
	errs = append(errs, s.lock.Unlock())
	return errors.Join(errs...)
}
