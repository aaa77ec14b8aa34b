package secret

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEnv(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	withNewline := write("key-nl", "sk-from-file\n")
	withCRLF := write("key-crlf", "sk-crlf\r\n")
	bare := write("key-bare", "sk-bare")
	empty := write("key-empty", "\n")
	cases := []struct {
		name    string
		env     map[string]string
		want    string
		wantErr string
	}{
		{"neither set is empty", map[string]string{}, "", ""},
		{"the variable itself", map[string]string{"K": "sk-direct"}, "sk-direct", ""},
		{"the file drops one trailing newline", map[string]string{"K_FILE": withNewline}, "sk-from-file", ""},
		{"the file drops a trailing CRLF", map[string]string{"K_FILE": withCRLF}, "sk-crlf", ""},
		{"a file without newline is read whole", map[string]string{"K_FILE": bare}, "sk-bare", ""},
		{"both set is refused", map[string]string{"K": "x", "K_FILE": bare}, "", "K and K_FILE are both set"},
		{"a missing file is named", map[string]string{"K_FILE": filepath.Join(dir, "nope")}, "", "K_FILE=" + filepath.Join(dir, "nope") + ": no such file"},
		{"an empty file is refused", map[string]string{"K_FILE": empty}, "", "the file is empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := lookup("K", func(k string) string { return c.env[k] })
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, c.wantErr)
				}
				if strings.Contains(err.Error(), "sk-") {
					t.Fatalf("error quotes the secret: %v", err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

func TestEnvReadsTheProcessEnvironment(t *testing.T) {
	p := filepath.Join(t.TempDir(), "tok")
	if err := os.WriteFile(p, []byte("tok-process-env\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ACE_SECRET_TEST_TOKEN_FILE", p)
	got, err := Env("ACE_SECRET_TEST_TOKEN")
	if err != nil || got != "tok-process-env" {
		t.Fatalf("Env = %q, %v", got, err)
	}
}

func TestRedactBlanksRememberedValues(t *testing.T) {
	Remember("hunter2-long-password")
	Remember("hunter2") // contained in the longer one; the longer goes first
	Remember("on")      // too short to redact
	got := Redact("dial nats://ace:hunter2-long-password@host failed; retry on hunter2")
	want := "dial nats://ace:[REDACTED]@host failed; retry on [REDACTED]"
	if got != want {
		t.Fatalf("Redact = %q, want %q", got, want)
	}
}

func TestURLHidesThePassword(t *testing.T) {
	got := URL("nats://ace:pw-in-url-1234@nats.example:4222")
	if got != "nats://ace:xxxxx@nats.example:4222" {
		t.Fatalf("URL = %q", got)
	}
	if Redact("auth pw-in-url-1234") != "auth [REDACTED]" {
		t.Fatal("URL did not remember the password for Redact")
	}
	if got := URL("redis://127.0.0.1:6379/0"); got != "redis://127.0.0.1:6379/0" {
		t.Fatalf("URL without userinfo changed: %q", got)
	}
}
