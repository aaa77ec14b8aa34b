package workers

import (
	"sync"

	"go.temporal.io/sdk/worker"

	"github.com/acecanvas/ace/internal/buildinfo"
)

// setBuildID gives the Temporal SDK this binary's identity (the binary
// checksum its workers report with every poll, and the embedded server's
// own system workers too) from what Go records in the binary: the VCS
// revision, marked when the checkout was modified. Without it the SDK
// hashes the whole executable at the first worker's start: MD5 of a
// 270 MB binary, 0.4 s of CPU on the way to every embedded stack's first
// task. A binary built without VCS information keeps the SDK's hash.
var setBuildID = sync.OnceFunc(func() {
	if id := buildID(); id != "" {
		worker.SetBinaryChecksum(id)
	}
})

// buildID is "ace-REVISION" (12 hex digits, "-modified" for a build from a
// modified checkout), or "" when the binary records no revision.
func buildID() string {
	bi, ok := buildinfo.Read()
	if !ok || bi.Revision == "" {
		return ""
	}
	id := "ace-" + bi.ShortRevision(12)
	if bi.Modified {
		id += "-modified"
	}
	return id
}
