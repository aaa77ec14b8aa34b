package tlsconfig

import (
	"crypto/tls"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClientErrorsNameTheSetting: each unusable combination of files is
// refused with an error that names the setting to fix.
func TestClientErrorsNameTheSetting(t *testing.T) {
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "ca.txt")
	if err := os.WriteFile(notPEM, []byte("not a certificate\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.pem")
	cases := []struct {
		name  string
		files Files
		want  string
	}{
		{"cert without key", Files{Cert: notPEM}, "ACE_X_TLS_CERT is set but ACE_X_TLS_KEY is not"},
		{"key without cert", Files{Key: notPEM}, "ACE_X_TLS_KEY is set but ACE_X_TLS_CERT is not"},
		{"CA file missing", Files{CA: missing}, "ACE_X_TLS_CA=" + missing + ": no such file"},
		{"CA file without PEM", Files{CA: notPEM}, "ACE_X_TLS_CA=" + notPEM + " holds no PEM certificate"},
		{"cert file missing", Files{Cert: missing, Key: notPEM}, "ACE_X_TLS_CERT=" + missing},
		{"cert and key not PEM", Files{Cert: notPEM, Key: notPEM}, "ACE_X_TLS_CERT=" + notPEM + " and ACE_X_TLS_KEY=" + notPEM},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.files.Setting = "ACE_X_TLS"
			_, err := Client(tc.files)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	cfg, err := Client(Files{Setting: "ACE_X_TLS", ServerName: "temporal"})
	if err != nil || cfg.MinVersion != tls.VersionTLS12 || cfg.ServerName != "temporal" || cfg.RootCAs != nil {
		t.Fatalf("server name alone: %+v, %v; want TLS 1.2+, the name, the system roots", cfg, err)
	}
}
