package workers

import (
	"os"
	"path/filepath"
)

// Config says where the infrastructure is. Empty addresses mean "embedded"
// (DESIGN.md §6).
type Config struct {
	TemporalAddress string // ACE_TEMPORAL_ADDRESS, host:port
	Namespace       string // ACE_TEMPORAL_NAMESPACE, default "default"
	NATSURL         string // ACE_NATS_URL
	RedisURL        string // ACE_REDIS_URL; empty: in-process cache and limiter
	DataDir         string // ACE_DATA_DIR, default ~/.ace
}

// ConfigFromEnv reads Config from the environment.
func ConfigFromEnv() Config {
	c := Config{
		TemporalAddress: os.Getenv("ACE_TEMPORAL_ADDRESS"),
		Namespace:       os.Getenv("ACE_TEMPORAL_NAMESPACE"),
		NATSURL:         os.Getenv("ACE_NATS_URL"),
		RedisURL:        os.Getenv("ACE_REDIS_URL"),
		DataDir:         os.Getenv("ACE_DATA_DIR"),
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
