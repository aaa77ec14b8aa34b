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
	// UI is the Temporal Web UI's base URL (http://127.0.0.1:port);
	// empty when the owner serves none.
	UI      string `json:"ui,omitempty"`
	DataDir string `json:"dataDir"`
	Started string `json:"started"`
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
	ui       *WebUI
}

// StackFile is the file under the data directory where the owner writes
// its Addresses for other ace processes (`ace batch status`, a second
// `ace batch` while `ace dev` runs).
const StackFile = "stack.json"

// Start is StartWith with the zero Options: free ports, no Web UI.
func Start(dataDir string) (*Stack, error) { return StartWith(dataDir, Options{}) }

// StartWith starts (or attaches to) the embedded stack of dataDir, its
// servers on the ports opts names. Temporal keeps its SQLite file under
// dataDir/temporal, NATS its JetStream store under dataDir/nats. If
// another live process owns the directory, StartWith returns that
// process's addresses with Owned false (its ports, whatever opts says). A
// port that is in use fails with an error wrapping ErrPortInUse that names
// the setting to change (unless opts.AnyPortIfTaken), before any server
// starts.
func StartWith(dataDir string, opts Options) (*Stack, error) {
	lock, err := LockDir(dataDir)
	if errors.Is(err, ErrLocked) {
		return attach(dataDir, err)
	}
	if err != nil {
		return nil, err
	}
	s := &Stack{Owned: true, lock: lock}
	s.DataDir, s.PID = dataDir, os.Getpid()
	natsPort, temporalPort, uiPort, err := opts.pick()
	if err != nil {
		s.Stop()
		return nil, err
	}
	if s.nats, err = StartNATSAt(filepath.Join(dataDir, "nats"), natsPort); err != nil {
		s.Stop()
		return nil, err
	}
	if s.temporal, err = StartTemporalAt(filepath.Join(dataDir, "temporal"), temporalPort); err != nil {
		s.Stop()
		return nil, err
	}
	s.Temporal, s.NATS = s.temporal.HostPort(), s.nats.URL()
	if opts.UI {
		if s.ui, err = StartWebUI(uiPort, s.Temporal, Namespace); err != nil {
			s.Stop()
			return nil, err
		}
		s.UI = s.ui.URL()
	}
	s.Started = time.Now().UTC().Format(time.RFC3339)
	data, _ := json.MarshalIndent(s.Addresses, "", "  ")
	if err := os.WriteFile(filepath.Join(dataDir, StackFile), append(data, '\n'), 0o600); err != nil {
		s.Stop()
		return nil, fmt.Errorf("write %s: %w", StackFile, err)
	}
	return s, nil
}

// pick resolves opts' ports: each one given is checked free, 0 (and a
// taken one with AnyPortIfTaken) becomes a free one. uiPort is 0 without
// UI.
func (o Options) pick() (natsPort, temporalPort, uiPort int, err error) {
	if natsPort, err = pickPort(o.NATSPort, o.AnyPortIfTaken, "embedded NATS", "ACE_NATS_PORT"); err != nil {
		return
	}
	if temporalPort, err = pickPort(o.TemporalPort, o.AnyPortIfTaken, "embedded Temporal frontend", "ACE_TEMPORAL_PORT"); err != nil {
		return
	}
	if o.UI {
		uiPort, err = pickPort(o.UIPort, o.AnyPortIfTaken, "Temporal Web UI", "ACE_TEMPORAL_UI_PORT")
	}
	return
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

// StopTemporal stops the Temporal server (and its Web UI) of a stack this
// process owns, leaving NATS, and so the store, up until Stop: for work
// that reads results after the last workflow closed (ace batch's report).
// Attached stacks are left running; a second call does nothing.
func (s *Stack) StopTemporal() error {
	if s == nil || !s.Owned {
		return nil
	}
	if s.ui != nil {
		s.ui.Stop()
		s.ui = nil
	}
	if s.temporal == nil {
		return nil
	}
	err := s.temporal.Stop()
	s.temporal = nil
	return err
}

// Stop stops the servers this process owns (the Web UI, then Temporal, so
// workflow tasks stop before the messages they publish, then NATS) and
// releases the lock.
// Attached stacks are left running.
func (s *Stack) Stop() error {
	if s == nil || !s.Owned {
		return nil
	}
	var errs []error
	errs = append(errs, s.StopTemporal())
	if s.nats != nil {
		s.nats.Stop()
		s.nats = nil
	}
	os.Remove(filepath.Join(s.DataDir, StackFile))
	errs = append(errs, s.lock.Unlock())
	return errors.Join(errs...)
}
