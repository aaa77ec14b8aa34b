package cache

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"syscall"

	"github.com/redis/go-redis/v9"

	"github.com/acecanvas/ace/internal/secret"
	"github.com/acecanvas/ace/internal/tlsconfig"
)

// RedisConfig says how to reach the shared Redis and authenticate to it.
// URL is redis://[user:password@]host:port/db, or rediss:// for TLS (the
// go-redis URL form); Username and Password, when set, override the URL's
// userinfo (Redis 6 ACL user, or the requirepass password alone). TLS's
// files apply to rediss:// URLs.
type RedisConfig struct {
	URL      string          // ACE_REDIS_URL
	Username string          // ACE_REDIS_USERNAME
	Password string          // ACE_REDIS_PASSWORD, or the file ACE_REDIS_PASSWORD_FILE names
	TLS      tlsconfig.Files // ACE_REDIS_TLS_CA, _CERT, _KEY, _SERVER_NAME
}

// RedisTLSSetting is the prefix of the Redis TLS settings.
const RedisTLSSetting = "ACE_REDIS_TLS"

// Addr is the URL's host:port, without credentials, for messages.
func (rc RedisConfig) Addr() string {
	u, err := url.Parse(rc.URL)
	if err != nil || u.Host == "" {
		return "(unparsable ACE_REDIS_URL)"
	}
	return u.Host
}

// Options returns the go-redis options for rc. Errors: a malformed URL, TLS
// files set for a redis:// URL, or a TLS file that cannot be used; each
// names the setting to fix and never the password.
func (rc RedisConfig) Options() (*redis.Options, error) {
	opt, err := redis.ParseURL(rc.URL)
	if err != nil {
		// go-redis quotes nothing secret, but the URL may hold a password.
		return nil, fmt.Errorf("ACE_REDIS_URL %s: %s (want redis://[user:password@]host:6379/0, or rediss:// for TLS)",
			redactedURL(rc.URL), secret.Redact(err.Error()))
	}
	secret.Remember(opt.Password)
	if rc.Username != "" {
		opt.Username = rc.Username
	}
	if rc.Password != "" {
		opt.Password = rc.Password
	}
	rc.TLS.Setting = RedisTLSSetting
	if rc.TLS.Any() {
		if opt.TLSConfig == nil {
			return nil, fmt.Errorf("%s_* are set but ACE_REDIS_URL %s is plain: use rediss:// for TLS", RedisTLSSetting, redactedURL(rc.URL))
		}
		tc, err := tlsconfig.Client(rc.TLS)
		if err != nil {
			return nil, err
		}
		if tc.ServerName == "" {
			tc.ServerName = opt.TLSConfig.ServerName // the URL's host, as go-redis sets it
		}
		opt.TLSConfig = tc
	}
	return opt, nil
}

// Refused returns the error to report when err, from a first command, shows
// that Redis refused this client for its configuration (not an outage):
// missing or wrong credentials, a TLS mismatch. The error names the server
// and the setting to fix; nil when err is no such refusal.
func (rc RedisConfig) Refused(err error) error {
	if err == nil {
		return nil
	}
	msg := secret.Redact(err.Error())
	hint := ""
	switch {
	case strings.HasPrefix(msg, "NOAUTH") || strings.Contains(msg, "Authentication required"):
		hint = "the server requires a password: set ACE_REDIS_URL's password (redis://user:password@host) or ACE_REDIS_PASSWORD_FILE"
	case strings.HasPrefix(msg, "WRONGPASS") || strings.Contains(msg, "invalid password") || strings.Contains(msg, "invalid username-password"):
		hint = "the server refused the user or password: check ACE_REDIS_URL's userinfo, ACE_REDIS_USERNAME and ACE_REDIS_PASSWORD(_FILE)"
	case strings.HasPrefix(msg, "NOPERM"):
		hint = "the ACL user lacks a permission ACE needs (GET, SET, EVALSHA, HMGET, HSET, PEXPIRE, TIME): grant it, or set another ACE_REDIS_USERNAME"
	default:
		hint = tlsconfig.Hint(err, RedisTLSSetting, "redis:// in ACE_REDIS_URL")
		if hint == "" && strings.HasPrefix(rc.URL, "redis://") && plainToTLS(err) {
			hint = "the server closed the connection at once, as a TLS-only server does: use rediss:// in ACE_REDIS_URL and set ACE_REDIS_TLS_CA"
		}
		// Under TLS 1.3 a server that requires client certificates
		// (tls-auth-clients yes) checks them after the handshake: the
		// client without one sees the connection closed (EOF or a reset),
		// not always the "certificate required" alert (RFC 8446 §4.4.2.4).
		if hint == "" && strings.HasPrefix(rc.URL, "rediss://") && rc.TLS.Cert == "" && plainToTLS(err) {
			hint = fmt.Sprintf("the server closed the TLS connection, as one does that requires a client certificate: set %s_CERT and %s_KEY to a client certificate the server's CA signed", RedisTLSSetting, RedisTLSSetting)
		}
	}
	if hint == "" {
		return nil
	}
	return fmt.Errorf("redis %s: %s; %s", rc.Addr(), msg, hint)
}

// plainToTLS reports whether err is how a TLS-only server answers a plain
// client: it reads the command as a bad handshake and hangs up.
func plainToTLS(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.ErrUnexpectedEOF)
}

// redactedURL is u without its userinfo, for messages.
func redactedURL(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "(unparsable)"
	}
	p.User = nil
	return p.String()
}
