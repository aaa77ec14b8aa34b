package embedded

import (
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
)

// Default ports of an embedded stack on 127.0.0.1: Temporal's and NATS's
// own defaults (frontend 7233, Web UI 8233 in the Temporal CLI's dev
// server, NATS 4222) plus 10000, so a Temporal or NATS installed on the
// machine keeps its ports and the embedded addresses stay the same from
// one start to the next.
const (
	DefaultTemporalPort = 17233
	DefaultUIPort       = 18233
	DefaultNATSPort     = 14222
)

// Options says where an owner's servers listen, all on 127.0.0.1. The zero
// value is what tests want: free ports the kernel picks, no Web UI.
type Options struct {
	// TemporalPort is the Temporal frontend's gRPC port (SDK clients, the
	// temporal CLI, the Web UI); 0: a free port. The history, matching
	// and worker services always take free ports (nothing outside the
	// process dials them).
	TemporalPort int
	// NATSPort is the NATS client port; 0: a free port.
	NATSPort int
	// UI serves the Temporal Web UI (github.com/temporalio/ui-server) over
	// HTTP on UIPort (0: a free port) for the Temporal frontend.
	UI     bool
	UIPort int
	// AnyPortIfTaken replaces a given port that is in use by a free one
	// instead of failing; for stacks whose address nobody types (a
	// self-hosted `ace batch` beside an `ace dev` of another data
	// directory).
	AnyPortIfTaken bool
}

// ErrPortInUse means a port the options name is taken (another ace stack
// of another data directory, or a Temporal or NATS server).
var ErrPortInUse = errors.New("port in use")

// pickPort returns port if it can be listened on, a free port for 0 (or
// for a taken port when anyIfTaken). A taken port's error names the
// setting to change.
func pickPort(port int, anyIfTaken bool, what, setting string) (int, error) {
	if port != 0 {
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err == nil {
			l.Close()
			return port, nil
		}
		if !anyIfTaken {
			return 0, fmt.Errorf("%s port 127.0.0.1:%d: %w (another ace stack of another ACE_DATA_DIR, or a server of its own): set %s to a free port, or to 0 for any free port: %v",
				what, port, ErrPortInUse, setting, err)
		}
	}
	ps, err := freePorts(1)
	if err != nil {
		return 0, err
	}
	return ps[0], nil
}

// freePorts asks the kernel for n distinct free TCP ports on 127.0.0.1.
// The listeners are held until all n are chosen so no port repeats.
func freePorts(n int, except ...int) ([]int, error) {
	ls := make([]net.Listener, 0, n)
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	ports := make([]int, 0, n)
	for len(ports) < n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("pick a free port: %w", err)
		}
		ls = append(ls, l)
		p := l.Addr().(*net.TCPAddr).Port
		if !slices.Contains(except, p) {
			ports = append(ports, p)
		}
	}
	return ports, nil
}
