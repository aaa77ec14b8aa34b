package main

import (
	"strings"

	"github.com/acecanvas/ace/internal/buildinfo"
)

func init() { rootCmd.Version = version() }

// version is the module version and, for a build from a git checkout, the
// commit it was built from ("(devel) 3f925fd, modified"), read from the
// build information Go records in the binary.
func version() string {
	bi, ok := buildinfo.Read()
	if !ok {
		return "unknown"
	}
	dirty := ""
	if bi.Modified {
		dirty = ", modified"
	}
	return strings.TrimSpace(bi.Version + " " + bi.ShortRevision(7) + dirty)
}
