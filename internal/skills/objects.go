package skills

import (
	"context"
	"errors"
	"fmt"
	"regexp"
)

// Objects is the bank's backend: a small key/value store with an
// exclusive create. Versions are written with Create, so two writers can
// never both commit version N of a skill (compare-and-set); stats, the
// coverage pool and round logs are overwritten with Put.
//
// Keys are slash-separated paths of [-_=.a-zA-Z0-9] segments (ValidKey):
// skill/NAME/vN, change/NAME/vN, stats/NAME, record/ID, coverage/LABEL,
// gatelog/ROUND/N, round/ID.
//
// Implementations: DirObjects (files under a folder, the embedded
// default) and NATSObjects (a JetStream key/value bucket, the cluster).
type Objects interface {
	// Get returns the key's bytes; an error wrapping ErrNotFound when
	// the key holds nothing.
	Get(ctx context.Context, key string) ([]byte, error)
	// Put sets the key to data, overwriting what it held.
	Put(ctx context.Context, key string, data []byte) error
	// Create sets the key to data only if it holds nothing. If it
	// already holds the same bytes Create returns nil (an idempotent
	// retry); if different bytes, an error wrapping ErrExists.
	Create(ctx context.Context, key string, data []byte) error
	// List returns the keys starting with prefix, sorted.
	List(ctx context.Context, prefix string) ([]string, error)
}

var (
	// ErrNotFound: the key, skill or version does not exist.
	ErrNotFound = errors.New("not found")
	// ErrExists: Create found the key holding different bytes.
	ErrExists = errors.New("already exists")
	// ErrConflict: a commit lost a compare-and-set race or named a
	// version other than current+1.
	ErrConflict = errors.New("version conflict")
)

// keyRE: a first segment of [-_=a-zA-Z0-9] (no dot: NATSObjects makes
// it the KV subject's first token), then "/" segments that may hold dots
// between other characters.
var keyRE = regexp.MustCompile(`^[-_=a-zA-Z0-9]+(/[-_=a-zA-Z0-9]+(\.[-_=a-zA-Z0-9]+)*)*$`)

// ValidKey reports whether key is a bank key: slash-separated segments of
// letters, digits and "-_=", where segments after the first may also hold
// single dots between other characters; at most 512 bytes. Such keys are
// both safe relative file paths and valid JetStream KV keys.
func ValidKey(key string) bool { return len(key) <= 512 && keyRE.MatchString(key) }

func checkKey(key string) error {
	if !ValidKey(key) {
		return fmt.Errorf("skills: bad object key %q: use slash-separated segments of letters, digits and -_=.", key)
	}
	return nil
}
