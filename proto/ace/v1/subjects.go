package acev1

import (
	"fmt"
	"strings"
)

// JetStream names of bulk jobs (DESIGN.md §5).
const (
	// StreamJobs is the work-queue stream of BatchJob messages.
	StreamJobs = "ACE_JOBS"
	// StreamEvents holds Progress messages (results included).
	StreamEvents = "ACE_EVENTS"
	// ConsumerDispatch is the durable pull consumer all dispatchers share.
	ConsumerDispatch = "ace-dispatch"
)

// JobSubject is ace.jobs.<batch>.<deck>.
func JobSubject(batch, deck string) string { return "ace.jobs." + batch + "." + deck }

// EventSubject is ace.events.<batch>.<deck>.
func EventSubject(batch, deck string) string { return "ace.events." + batch + "." + deck }

// JobID is "<batch>:<deck>": the Nats-Msg-Id of the job message and the
// id of its workflow, so a redelivered or republished job is a duplicate
// at both ends.
func JobID(batch, deck string) string { return batch + ":" + deck }

// SplitJobID is the inverse of JobID; a job id without a batch (a single
// `ace edit`) gives batch "_".
func SplitJobID(id string) (batch, deck string) {
	if b, d, ok := strings.Cut(id, ":"); ok {
		return b, d
	}
	return "_", Token(id)
}

// Token makes s safe as one NATS subject token: letters, digits, '-' and
// '_' are kept, everything else becomes '_'. An empty s gives "_".
func Token(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}

// ValidToken reports whether s can be used as a batch id or deck key as is.
func ValidToken(s string) error {
	if s == "" || Token(s) != s {
		return fmt.Errorf("%q is not a valid id: use letters, digits, '-' and '_' only", s)
	}
	return nil
}
