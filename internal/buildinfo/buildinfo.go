// Package buildinfo reads what Go records in the binary about the source
// it was built from (runtime/debug.ReadBuildInfo): the module version and
// the VCS revision, for `ace --version` and the Temporal workers' binary
// checksum.
package buildinfo

import "runtime/debug"

// Info is the module version ("(devel)" for a build from a checkout), the
// full VCS revision ("" when the build recorded none) and whether the
// checkout had uncommitted changes.
type Info struct {
	Version  string
	Revision string
	Modified bool
}

// Read returns the binary's Info; ok is false when the binary carries no
// build information.
func Read() (info Info, ok bool) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Info{}, false
	}
	info.Version = bi.Main.Version
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			info.Revision = s.Value
		case "vcs.modified":
			info.Modified = s.Value == "true"
		}
	}
	return info, true
}

// ShortRevision is the first n characters of the revision (all of a
// shorter one).
func (i Info) ShortRevision(n int) string { return i.Revision[:min(n, len(i.Revision))] }
