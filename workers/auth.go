package workers

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"go.temporal.io/sdk/client"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/acecanvas/ace/internal/secret"
	"github.com/acecanvas/ace/internal/tlsconfig"
)

// The prefixes of the TLS settings of NATS and Temporal (tlsconfig.Files:
// <prefix>_CA, _CERT, _KEY, _SERVER_NAME).
const (
	NATSTLSSetting     = "ACE_NATS_TLS"
	TemporalTLSSetting = "ACE_TEMPORAL_TLS"
)

// NATSAuth is how ACE authenticates to a NATS server it is given
// (nats-server's authentication: user and password, token, NKey, or a
// decentralized JWT user's .creds file), and the TLS files it uses. At most
// one way of authenticating may be set; the URL's userinfo
// (nats://user:password@host, nats://token@host) is another.
type NATSAuth struct {
	User     string // ACE_NATS_USER
	Password string // ACE_NATS_PASSWORD, or the file ACE_NATS_PASSWORD_FILE names
	Token    string // ACE_NATS_TOKEN, or the file ACE_NATS_TOKEN_FILE names
	Creds    string // ACE_NATS_CREDS: a .creds file (user JWT and NKey seed)
	NKey     string // ACE_NATS_NKEY: a file holding an NKey seed (SU...)
	TLS      tlsconfig.Files
}

// natsOptions returns the nats.go options that authenticate and secure a
// connection to url (the embedded server's is reached plain and gets
// none). Errors name the setting to fix and never hold a secret.
func (c Config) natsOptions() ([]nats.Option, error) {
	var opts []nats.Option
	a := c.NATS
	if u, err := url.Parse(firstURL(c.NATSURL)); err == nil && u.User != nil {
		p, _ := u.User.Password()
		secret.Remember(p)
		secret.Remember(u.User.Username()) // a token
	}
	var ways []string
	if a.User != "" || a.Password != "" {
		if a.User == "" || a.Password == "" {
			return nil, errors.New("ACE_NATS_USER and ACE_NATS_PASSWORD (or ACE_NATS_PASSWORD_FILE) go together: set both")
		}
		ways = append(ways, "ACE_NATS_USER")
		opts = append(opts, nats.UserInfo(a.User, a.Password))
	}
	if a.Token != "" {
		ways = append(ways, "ACE_NATS_TOKEN")
		opts = append(opts, nats.Token(a.Token))
	}
	if a.Creds != "" {
		ways = append(ways, "ACE_NATS_CREDS")
		if _, err := secret.ReadFile("ACE_NATS_CREDS", a.Creds); err != nil {
			return nil, err
		}
		opts = append(opts, nats.UserCredentials(a.Creds))
	}
	if a.NKey != "" {
		ways = append(ways, "ACE_NATS_NKEY")
		if _, err := secret.ReadFile("ACE_NATS_NKEY", a.NKey); err != nil {
			return nil, err
		}
		o, err := nats.NkeyOptionFromSeed(a.NKey)
		if err != nil {
			return nil, fmt.Errorf("ACE_NATS_NKEY=%s: %w (want a file holding an NKey user seed, SU...)", a.NKey, err)
		}
		opts = append(opts, o)
	}
	if len(ways) > 1 {
		return nil, fmt.Errorf("%s are set: NATS takes one way of authenticating, unset all but one", strings.Join(ways, " and "))
	}
	a.TLS.Setting = NATSTLSSetting
	if a.TLS.Any() {
		tc, err := tlsconfig.Client(a.TLS)
		if err != nil {
			return nil, err
		}
		opts = append(opts, nats.Secure(tc))
	}
	return opts, nil
}

// connectNATS connects to c.NATSURL with c's credentials and TLS, or plain
// to the embedded server when embedded. A refusal names the setting to fix.
func (c Config) connectNATS(name string, embedded bool, extra ...nats.Option) (*nats.Conn, error) {
	opts := []nats.Option{nats.Name(name)}
	if !embedded {
		auth, err := c.natsOptions()
		if err != nil {
			return nil, err
		}
		opts = append(opts, auth...)
	}
	nc, err := nats.Connect(c.NATSURL, append(opts, extra...)...)
	if err != nil {
		where := DisplayURL(c.NATSURL)
		if embedded {
			return nil, fmt.Errorf("connect to the embedded NATS at %s: %w", where, err)
		}
		return nil, fmt.Errorf("connect to NATS at %s: %s (%s)", where, secret.Redact(err.Error()), natsHint(err))
	}
	return nc, nil
}

// ConnectNATS connects to the NATS server cfg names (ACE_NATS_URL) with
// cfg's credentials and TLS, for commands that need NATS alone (the skill
// bank); Connect is the full connection.
func ConnectNATS(cfg Config, name string, timeout time.Duration) (*nats.Conn, error) {
	if cfg.Err != nil {
		return nil, cfg.Err
	}
	return cfg.connectNATS(name, false, nats.Timeout(timeout))
}

// natsHint says which setting fixes err, a failed connection to a given
// NATS server.
func natsHint(err error) string {
	msg := strings.ToLower(err.Error())
	switch {
	case errors.Is(err, nats.ErrAuthorization) || strings.Contains(msg, "authorization violation") ||
		strings.Contains(msg, "authentication"):
		return "the server refused the credentials: set ACE_NATS_USER and ACE_NATS_PASSWORD_FILE, ACE_NATS_TOKEN_FILE, ACE_NATS_NKEY or ACE_NATS_CREDS, or user:password@ in ACE_NATS_URL"
	case errors.Is(err, nats.ErrSecureConnRequired):
		return "the server requires TLS: use tls:// in ACE_NATS_URL and set ACE_NATS_TLS_CA to the CA that signed its certificate"
	case errors.Is(err, nats.ErrSecureConnWanted):
		return "the server does not offer TLS: use nats:// in ACE_NATS_URL and unset ACE_NATS_TLS_*"
	case strings.Contains(msg, "closed by remote after tls handshake"):
		// TLS 1.3: a server that verifies client certificates does so after
		// the handshake and hangs up (RFC 8446 §4.4.2.4), so the client may
		// see a closed connection rather than the "certificate required" alert.
		return "the server closed the TLS connection after the handshake, as one does that requires a client certificate: set ACE_NATS_TLS_CERT and ACE_NATS_TLS_KEY to a client certificate the server's CA signed"
	}
	if h := tlsconfig.Hint(err, NATSTLSSetting, "nats:// in ACE_NATS_URL and unset ACE_NATS_TLS_*"); h != "" {
		return h
	}
	return "check ACE_NATS_URL, or leave it empty for the embedded server"
}

// TemporalAuth is how ACE authenticates to a Temporal frontend it is given:
// mutual TLS (a self-hosted server with requireClientAuth, or Temporal
// Cloud's mTLS namespaces) or an API key (Temporal Cloud), sent as
// "Authorization: Bearer <key>" over TLS.
type TemporalAuth struct {
	TLS    tlsconfig.Files // ACE_TEMPORAL_TLS_CA, _CERT, _KEY, _SERVER_NAME
	APIKey string          // ACE_TEMPORAL_API_KEY, or the file ACE_TEMPORAL_API_KEY_FILE names
}

// apply sets o's TLS and credentials for a given Temporal
// address: TLS when any TLS file or an API key is set (an API key is never
// sent in the clear).
func (a TemporalAuth) apply(o *client.Options) error {
	a.TLS.Setting = TemporalTLSSetting
	if !a.TLS.Any() && a.APIKey == "" {
		return nil
	}
	tc, err := tlsconfig.Client(a.TLS)
	if err != nil {
		return err
	}
	o.ConnectionOptions.TLS = tc
	if a.APIKey != "" {
		o.Credentials = client.NewAPIKeyStaticCredentials(a.APIKey)
	}
	return nil
}

// temporalHint says which setting fixes err, a failed dial of a given
// Temporal frontend.
func temporalHint(err error) string {
	switch status.Code(err) {
	case codes.Unauthenticated:
		return "the server refused this client: set ACE_TEMPORAL_API_KEY_FILE, or ACE_TEMPORAL_TLS_CERT and ACE_TEMPORAL_TLS_KEY for mTLS"
	case codes.PermissionDenied:
		return "the credentials are not allowed in this namespace: check ACE_TEMPORAL_NAMESPACE and the key's or certificate's grants"
	case codes.NotFound:
		return "check ACE_TEMPORAL_NAMESPACE"
	}
	if h := tlsconfig.Hint(err, TemporalTLSSetting, "a plain connection: unset ACE_TEMPORAL_TLS_* and ACE_TEMPORAL_API_KEY"); h != "" {
		return h
	}
	return "check ACE_TEMPORAL_ADDRESS, or leave it empty for the embedded server"
}

// DisplayURL is raw (one URL, or NATS's comma-separated list) without
// userinfo, for messages and logs: a password or token in the URL never
// reaches them.
func DisplayURL(raw string) string {
	parts := strings.Split(raw, ",")
	for i, p := range parts {
		u, err := url.Parse(strings.TrimSpace(p))
		if err != nil {
			parts[i] = "(unparsable URL)"
			continue
		}
		u.User = nil
		parts[i] = u.String()
	}
	return strings.Join(parts, ",")
}

func firstURL(raw string) string {
	first, _, _ := strings.Cut(raw, ",")
	return strings.TrimSpace(first)
}
