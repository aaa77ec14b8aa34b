package workers

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/acecanvas/ace/internal/cache"
	"github.com/acecanvas/ace/internal/payloadcrypt"
	"github.com/acecanvas/ace/internal/secret"
	"github.com/acecanvas/ace/internal/tlsconfig"
	"github.com/acecanvas/ace/workers/embedded"
)

// Config says where the infrastructure is and how to authenticate to it.
// Empty addresses mean "embedded" (DESIGN.md §6): the embedded servers
// listen on 127.0.0.1 only and are reached without credentials or TLS, so
// the NATS and Temporal credentials below apply to given addresses only.
type Config struct {
	TemporalAddress string // ACE_TEMPORAL_ADDRESS, host:port
	Namespace       string // ACE_TEMPORAL_NAMESPACE, default "default"
	Temporal        TemporalAuth
	NATSURL         string // ACE_NATS_URL; nats://[user:password@]host:4222, tls:// for TLS
	NATS            NATSAuth
	Redis           cache.RedisConfig // ACE_REDIS_*; empty URL: in-process cache and limiter
	DataDir         string            // ACE_DATA_DIR, default ~/.ace
	// Embed is where an embedded stack this process owns listens:
	// ACE_TEMPORAL_PORT, ACE_TEMPORAL_UI_PORT ("off": no Web UI) and
	// ACE_NATS_PORT, default embedded.DefaultTemporalPort, DefaultUIPort
	// and DefaultNATSPort; 0 a free port. With no port set a taken
	// default becomes a free port (AnyPortIfTaken; `ace dev` turns that
	// off: its addresses are the ones people type). The zero value
	// (tests): free ports, no UI.
	Embed embedded.Options

	// PayloadKeyFile is ACE_PAYLOAD_KEY_FILE: the 32-byte AES-256 key
	// that encrypts every Temporal payload; empty: payloads in plain JSON.
	PayloadKeyFile string
	// PayloadOldKeyFiles is ACE_PAYLOAD_OLD_KEY_FILES split at ":": keys
	// kept after a rotation to decode the histories they encrypted.
	PayloadOldKeyFiles []string

	// Err is the first setting that could not be read (an unreadable
	// *_FILE, say); Connect returns it before connecting anywhere.
	Err error
}

// ConfigFromEnv reads Config from the environment. Secrets (passwords,
// tokens, API keys) may instead be read from the file their *_FILE
// variant names (internal/secret); a failed read is kept in Config.Err.
func ConfigFromEnv() Config {
	var errs []error
	sec := func(name string) string {
		v, err := secret.Env(name)
		if err != nil {
			errs = append(errs, err)
		}
		return v
	}
	c := Config{
		TemporalAddress: os.Getenv("ACE_TEMPORAL_ADDRESS"),
		Namespace:       os.Getenv("ACE_TEMPORAL_NAMESPACE"),
		Temporal: TemporalAuth{
			TLS:    tlsFilesFromEnv("ACE_TEMPORAL_TLS"),
			APIKey: sec("ACE_TEMPORAL_API_KEY"),
		},
		NATSURL: os.Getenv("ACE_NATS_URL"),
		NATS: NATSAuth{
			User:     os.Getenv("ACE_NATS_USER"),
			Password: sec("ACE_NATS_PASSWORD"),
			Token:    sec("ACE_NATS_TOKEN"),
			Creds:    os.Getenv("ACE_NATS_CREDS"),
			NKey:     os.Getenv("ACE_NATS_NKEY"),
			TLS:      tlsFilesFromEnv("ACE_NATS_TLS"),
		},
		Redis: cache.RedisConfig{
			URL:      os.Getenv("ACE_REDIS_URL"),
			Username: os.Getenv("ACE_REDIS_USERNAME"),
			Password: sec("ACE_REDIS_PASSWORD"),
			TLS:      tlsFilesFromEnv("ACE_REDIS_TLS"),
		},
		DataDir: os.Getenv("ACE_DATA_DIR"),

		PayloadKeyFile:     os.Getenv(payloadcrypt.EnvKeyFile),
		PayloadOldKeyFiles: payloadcrypt.SplitFiles(os.Getenv(payloadcrypt.EnvOldKeyFiles)),
	}
	c.Embed, errs = embedFromEnv(errs)
	c.Err = errors.Join(errs...)
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

// embedFromEnv reads the embedded stack's ports; a bad value is an error
// naming the setting.
func embedFromEnv(errs []error) (embedded.Options, []error) {
	o := embedded.Options{UI: true, AnyPortIfTaken: true}
	port := func(name string, def int, dst *int) {
		v := strings.TrimSpace(os.Getenv(name))
		if v == "" {
			*dst = def
			return
		}
		if name == "ACE_TEMPORAL_UI_PORT" && strings.EqualFold(v, "off") {
			o.UI = false
			return
		}
		o.AnyPortIfTaken = false
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 65535 {
			errs = append(errs, fmt.Errorf("%s=%q: want a TCP port (0 to 65535; 0: any free port)", name, v))
			return
		}
		*dst = n
	}
	port("ACE_TEMPORAL_PORT", embedded.DefaultTemporalPort, &o.TemporalPort)
	port("ACE_TEMPORAL_UI_PORT", embedded.DefaultUIPort, &o.UIPort)
	port("ACE_NATS_PORT", embedded.DefaultNATSPort, &o.NATSPort)
	return o, errs
}

// tlsFilesFromEnv reads prefix_CA, prefix_CERT, prefix_KEY and
// prefix_SERVER_NAME.
func tlsFilesFromEnv(prefix string) tlsconfig.Files {
	return tlsconfig.Files{Setting: prefix, CA: os.Getenv(prefix + "_CA"), Cert: os.Getenv(prefix + "_CERT"),
		Key: os.Getenv(prefix + "_KEY"), ServerName: os.Getenv(prefix + "_SERVER_NAME")}
}

// Embedded reports whether this config needs the embedded stack.
func (c Config) Embedded() bool { return c.TemporalAddress == "" || c.NATSURL == "" }

// PayloadRing loads the payload key ring the config names; nil (payloads
// not encrypted) when PayloadKeyFile is empty. Errors name the setting and
// the file and say what is wrong with it.
func (c Config) PayloadRing() (*payloadcrypt.Ring, error) {
	return payloadcrypt.LoadRing(c.PayloadKeyFile, c.PayloadOldKeyFiles)
}
