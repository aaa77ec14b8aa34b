// Package securetest starts what the tests of ACE's secured cluster
// connections (issue 23) talk to: a throwaway certificate authority, and a
// nats-server and a redis-server owned by one test that admit only a user
// with a password over mutual TLS. Tests in workers and workers/processtest
// share it.
package securetest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// PKI is a throwaway certificate authority made for one test: a server
// certificate for 127.0.0.1 and localhost, a client certificate, and a
// second CA that signed neither (the "wrong CA"). All files are PEM.
type PKI struct {
	CA, WrongCA           string
	ServerCert, ServerKey string
	ClientCert, ClientKey string
	caCert                *x509.Certificate
	caKey                 *ecdsa.PrivateKey
	dir                   string
}

func NewPKI(t testing.TB) PKI {
	t.Helper()
	p := PKI{dir: t.TempDir()}
	p.caCert, p.caKey, p.CA = p.authority(t, "ace test CA", "ca.pem")
	_, _, p.WrongCA = p.authority(t, "some other CA", "wrong-ca.pem")
	p.ServerCert, p.ServerKey = p.leaf(t, "server", x509.ExtKeyUsageServerAuth)
	p.ClientCert, p.ClientKey = p.leaf(t, "client", x509.ExtKeyUsageClientAuth)
	return p
}

func (p PKI) authority(t testing.TB, cn, file string) (*x509.Certificate, *ecdsa.PrivateKey, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return cert, key, p.write(t, file, "CERTIFICATE", der)
}

func (p PKI) leaf(t testing.TB, name string, usage x509.ExtKeyUsage) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: "ace " + name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage}}
	if usage == x509.ExtKeyUsageServerAuth {
		tmpl.DNSNames = []string{"localhost"}
		tmpl.IPAddresses = []net.IP{net.ParseIP("127.0.0.1")}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, p.caCert, &key.PublicKey, p.caKey)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return p.write(t, name+".pem", "CERTIFICATE", der), p.write(t, name+"-key.pem", "PRIVATE KEY", kb)
}

func (p PKI) write(t testing.TB, name, typ string, der []byte) string {
	t.Helper()
	path := filepath.Join(p.dir, name)
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// Secret is a fresh password, so a test can tell it apart in output.
func Secret(t testing.TB) string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "s3cret-" + hex.EncodeToString(b)
}

// FreePort asks the kernel for a free 127.0.0.1 port.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startProcess runs bin with args until the test ends and waits until
// something listens on 127.0.0.1:port.
func startProcess(t testing.TB, port int, bin string, args ...string) {
	t.Helper()
	log, err := os.Create(filepath.Join(t.TempDir(), filepath.Base(bin)+".log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		log.Close()
	})
	for range 200 {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	out, _ := os.ReadFile(log.Name())
	t.Fatalf("%s did not listen on port %d:\n%s", bin, port, out)
}

// NATS starts a nats-server owned by the test on a free loopback
// port, with JetStream, a required user and password, and TLS that also
// verifies client certificates. It returns the tls:// URL and the password
// of user "ace".
func NATS(t testing.TB, pki PKI) (url, password string) {
	t.Helper()
	bin, err := exec.LookPath("nats-server")
	if err != nil {
		t.Skip("nats-server not installed (scripts/setup installs it on the project machines)")
	}
	port, password := FreePort(t), Secret(t)
	dir := t.TempDir()
	conf := filepath.Join(dir, "nats.conf")
	body := fmt.Sprintf(`listen: "127.0.0.1:%d"
jetstream { store_dir: %q }
authorization { user: "ace", password: %q }
tls { cert_file: %q, key_file: %q, ca_file: %q, verify: true, timeout: 5 }
`, port, filepath.Join(dir, "js"), password, pki.ServerCert, pki.ServerKey, pki.CA)
	if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	startProcess(t, port, bin, "-c", conf)
	return fmt.Sprintf("tls://127.0.0.1:%d", port), password
}

// Redis starts a redis-server owned by the test (never the shared
// 127.0.0.1:6379) with requirepass and TLS only (no plain port), verifying
// client certificates. It returns the rediss:// URL without credentials
// and the password.
func Redis(t testing.TB, pki PKI) (url, password string) {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redis-server not installed (scripts/setup installs it on the project machines)")
	}
	port, password := FreePort(t), Secret(t)
	// The password goes in a config file, not the command line (ps shows that).
	conf := filepath.Join(t.TempDir(), "redis.conf")
	body := fmt.Sprintf("port 0\ntls-port %d\nbind 127.0.0.1\nrequirepass %s\ntls-cert-file %s\ntls-key-file %s\n"+
		"tls-ca-cert-file %s\ntls-auth-clients yes\nsave \"\"\nappendonly no\ndir %s\n",
		port, password, pki.ServerCert, pki.ServerKey, pki.CA, t.TempDir())
	if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	startProcess(t, port, bin, conf)
	return fmt.Sprintf("rediss://127.0.0.1:%d/0", port), password
}
