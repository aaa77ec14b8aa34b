package workers

import (
	"os"
	"path/filepath"

	"github.com/acecanvas/ace/internal/payloadcrypt"
)

// Config says where the infrastructure is. Empty addresses mean "embedded"
// (DESIGN.md §6).
type Config struct {
	TemporalAddress string // ACE_TEMPORAL_ADDRESS, host:port
	Namespace       string // ACE_TEMPORAL_NAMESPACE, default "default"
	NATSURL         string // ACE_NATS_URL
	RedisURL        string // ACE_REDIS_URL; empty: in-process cache and limiter
	DataDir         string // ACE_DATA_DIR, default ~/.ace
	// PayloadKeyFile is ACE_PAYLOAD_KEY_FILE: the 32-byte AES-256 key
	// that encrypts every Temporal payload; empty: payloads in plain JSON.
	PayloadKeyFile string
	// PayloadOldKeyFiles is ACE_PAYLOAD_OLD_KEY_FILES split at ":": keys
	// kept after a rotation to decode the histories they encrypted.
	PayloadOldKeyFiles []string
}

// ConfigFromEnv reads Config from the environment.
func ConfigFromEnv() Config {
	c := Config{
		TemporalAddress: os.Getenv("ACE_TEMPORAL_ADDRESS"),
		Namespace:       os.Getenv("ACE_TEMPORAL_NAMESPACE"),
		NATSURL:         os.Getenv("ACE_NATS_URL"),
		RedisURL:        os.Getenv("ACE_REDIS_URL"),
		DataDir:         os.Getenv("ACE_DATA_DIR"),

		PayloadKeyFile:     os.Getenv(payloadcrypt.EnvKeyFile),
		PayloadOldKeyFiles: payloadcrypt.SplitFiles(os.Getenv(payloadcrypt.EnvOldKeyFiles)),
	}
	if c.Namespace == "" {
		c.Namespace = "default"
	}
	if c.DataDir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			home = os.TempDir()
		}
		c.DataDir = filepath.Join(home, ".ace")
	}
	return c
}

// Embedded reports whether this config needs the embedded stack.
func (c Config) Embedded() bool { return c.TemporalAddress == "" || c.NATSURL == "" }

// PayloadRing loads the payload key ring the config names; nil (payloads
// not encrypted) when PayloadKeyFile is empty. Errors name the setting and
// the file and say what is wrong with it.
func (c Config) PayloadRing() (*payloadcrypt.Ring, error) {
	return payloadcrypt.LoadRing(c.PayloadKeyFile, c.PayloadOldKeyFiles)
}
