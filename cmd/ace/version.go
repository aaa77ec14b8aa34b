package main

import (
	"runtime/debug"
	"strings"
)

func init() { rootCmd.Version = version() }

// version is the module version and, for a build from a git checkout, the
// commit it was built from ("(devel) 3f925fd, modified"), read from the
// build information Go records in the binary.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = ", modified"
			}
		}
	}
	if len(rev) > 7 {
		rev = rev[:7]
	}
	return strings.TrimSpace(v + " " + rev + dirty)
}
