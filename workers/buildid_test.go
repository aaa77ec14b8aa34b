package workers

import (
	"regexp"
	"testing"
)

// A binary without a VCS revision (go test, -buildvcs=false) still gets a
// build ID, so the Temporal SDK never hashes the executable.
func TestBuildIDWithoutReadingTheExecutable(t *testing.T) {
	id := buildID()
	if !regexp.MustCompile(`^ace-[0-9a-f]{12}(-modified)?$`).MatchString(id) {
		t.Fatalf("buildID() = %q, want ace- and 12 hex digits", id)
	}
	if again := buildID(); again != id {
		t.Fatalf("buildID changed within one binary: %q then %q", id, again)
	}
}
