package main

import (
	"os"
	"testing"
)

// TestMain puts every embedded stack these tests start (in process, or in
// a child ace) on free ports without the Web UI: test binaries run side by
// side, and beside a developer's `ace dev` on the default ports.
func TestMain(m *testing.M) {
	for _, kv := range [][2]string{{"ACE_TEMPORAL_PORT", "0"}, {"ACE_NATS_PORT", "0"}, {"ACE_TEMPORAL_UI_PORT", "off"}} {
		os.Setenv(kv[0], kv[1])
	}
	os.Exit(m.Run())
}
