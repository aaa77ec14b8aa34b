package workers

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"sync"

	"go.temporal.io/sdk/worker"

	"github.com/acecanvas/ace/internal/buildinfo"
)

// setBuildID gives the Temporal SDK this binary's identity (the binary
// checksum its workers report with every poll, and the embedded server's
// own system workers too) without reading the whole executable: the SDK
// would hash it (MD5 of a 270 MB binary, 0.4 s of CPU on the way to every
// embedded stack's first task).
var setBuildID = sync.OnceFunc(func() {
	if id := buildID(); id != "" {
		worker.SetBinaryChecksum(id)
	}
})

// buildID is "ace-" and the VCS revision Go recorded in the binary (12 hex
// digits, "-modified" for a build from a modified checkout), else a hash
// of the executable's path, size and modification time (a build with
// -buildvcs=false: each build is a new file), or "" when neither is
// known.
func buildID() string {
	if bi, ok := buildinfo.Read(); ok && bi.Revision != "" {
		id := "ace-" + bi.ShortRevision(12)
		if bi.Modified {
			id += "-modified"
		}
		return id
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	st, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	h := sha256.Sum256(fmt.Appendf(nil, "%s\x00%d\x00%d", exe, st.Size(), st.ModTime().UnixNano()))
	return "ace-" + hex.EncodeToString(h[:6])
}
