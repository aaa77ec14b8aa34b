// Package tlsconfig builds the TLS client configuration ACE uses towards
// NATS, Redis and Temporal from PEM files named by settings, and explains a
// failed handshake by the setting that fixes it.
//
// Every service reads the same three files: <PREFIX>_CA (the certificates
// that may sign the server's, PEM; empty: the system's roots),
// <PREFIX>_CERT and <PREFIX>_KEY (the client certificate and its private
// key, PEM, for servers that verify clients: mutual TLS). Errors name the
// setting and the file, never a key's contents.
package tlsconfig

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"strings"
)

// Files names a TLS client's PEM files. Setting is the settings' common
// prefix ("ACE_NATS_TLS"), used in error messages as Setting+"_CA" etc.
type Files struct {
	Setting    string
	CA         string // <Setting>_CA: PEM certificates of the CAs that may sign the server's
	Cert, Key  string // <Setting>_CERT, <Setting>_KEY: client certificate and key, PEM
	ServerName string // <Setting>_SERVER_NAME: the name the server's certificate must hold; empty: the dialed host
}

// Any reports whether any file (or the server name) is set.
func (f Files) Any() bool { return f.CA != "" || f.Cert != "" || f.Key != "" || f.ServerName != "" }

// Client returns the TLS client configuration for f: TLS 1.2 or later
// (RFC 9325 §3.1.1), server certificates verified against f.CA or, when
// empty, the system roots, and f's client certificate when set.
//
// Errors: only one of Cert and Key set; a file that cannot be read; a CA
// file without a PEM certificate; a certificate that does not match its
// key. Each names the setting to fix.
func Client(f Files) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: f.ServerName}
	if f.CA != "" {
		pem, err := os.ReadFile(f.CA)
		if err != nil {
			return nil, fmt.Errorf("%s_CA=%s: %w (point it at the PEM file of the CA that signed the server's certificate)", f.Setting, f.CA, unwrapPath(err))
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("%s_CA=%s holds no PEM certificate (want -----BEGIN CERTIFICATE----- blocks)", f.Setting, f.CA)
		}
		cfg.RootCAs = pool
	}
	switch {
	case f.Cert != "" && f.Key == "":
		return nil, fmt.Errorf("%s_CERT is set but %s_KEY is not: set both (the client certificate and its private key)", f.Setting, f.Setting)
	case f.Cert == "" && f.Key != "":
		return nil, fmt.Errorf("%s_KEY is set but %s_CERT is not: set both (the client certificate and its private key)", f.Setting, f.Setting)
	case f.Cert != "":
		for _, p := range [][2]string{{"_CERT", f.Cert}, {"_KEY", f.Key}} {
			if _, err := os.Stat(p[1]); err != nil {
				return nil, fmt.Errorf("%s%s=%s: %w", f.Setting, p[0], p[1], unwrapPath(err))
			}
		}
		pair, err := tls.LoadX509KeyPair(f.Cert, f.Key)
		if err != nil {
			return nil, fmt.Errorf("%s_CERT=%s and %s_KEY=%s: %w (want a PEM certificate and the PEM private key it was issued for)", f.Setting, f.Cert, f.Setting, f.Key, err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg, nil
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Hint says which of f's settings fixes err, a failed TLS connection to a
// server: "" when err is no TLS failure it recognizes. setting is the
// settings' prefix ("ACE_NATS_TLS"); plainScheme the URL scheme of the
// service without TLS ("nats://").
func Hint(err error, setting, plainScheme string) string {
	if err == nil {
		return ""
	}
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	var invalid x509.CertificateInvalidError
	var rec tls.RecordHeaderError
	msg := err.Error()
	switch {
	case errors.As(err, &unknown) || strings.Contains(msg, "certificate signed by unknown authority"):
		return fmt.Sprintf("the server's certificate is not signed by a trusted CA: set %s_CA to the PEM file of the CA that signed it", setting)
	case errors.As(err, &host) || strings.Contains(msg, "certificate is valid for"):
		return fmt.Sprintf("the server's certificate does not hold the name dialed: connect by a name it holds, or set %s_SERVER_NAME to one", setting)
	case errors.As(err, &invalid) || strings.Contains(msg, "certificate has expired"):
		return fmt.Sprintf("the server's certificate is not valid (expired or not for server use); renew it, or check %s_CA", setting)
	case errors.As(err, &rec) || strings.Contains(msg, "first record does not look like a TLS handshake"):
		return fmt.Sprintf("the server does not speak TLS: use %s, or unset %s_*", plainScheme, setting)
	case strings.Contains(msg, "certificate required") || strings.Contains(msg, "bad certificate") ||
		strings.Contains(msg, "unknown certificate authority") && strings.Contains(msg, "remote error"):
		return fmt.Sprintf("the server refused this client's certificate (or its absence): set %s_CERT and %s_KEY to a client certificate the server's CA signed", setting, setting)
	}
	return ""
}
