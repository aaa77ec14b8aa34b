// Package secret reads secret settings: a variable NAME from the
// environment, or from the file its NAME_FILE variant names (the Docker and
// Kubernetes Secrets convention, where a secret is mounted as a file and
// never enters the process environment).
//
// A value read here is remembered so that Redact can blank it out of a
// string that could reach a log line, a span attribute or a report (an
// error from a client library that quotes a URL with its password, say).
// Secrets are never logged by this package; its errors name the variable
// and the file, never the value.
package secret

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"sort"
	"strings"
	"sync"
)

// FileSuffix is appended to a setting's name to get its file variant:
// OPENAI_API_KEY_FILE for OPENAI_API_KEY.
const FileSuffix = "_FILE"

// Env returns the secret setting name: the contents of the file named by
// name+"_FILE" when that is set (one trailing "\n" or "\r\n" removed, as
// editors and `echo` add one), else the environment variable name; "" when
// neither is set.
//
// Errors: both name and name_FILE set (ambiguous; unset one), or the file
// cannot be read or is empty. The error names the variable and the file,
// never the value.
func Env(name string) (string, error) {
	return lookup(name, os.Getenv)
}

func lookup(name string, getenv func(string) string) (string, error) {
	fileVar := name + FileSuffix
	path := getenv(fileVar)
	direct := getenv(name)
	if path == "" {
		Remember(direct)
		return direct, nil
	}
	if direct != "" {
		return "", fmt.Errorf("%s and %s are both set: set only one (%s names a file holding the value)", name, fileVar, fileVar)
	}
	b, err := ReadFile(fileVar, path)
	if err != nil {
		return "", err
	}
	v := string(trimNewline(b))
	if v == "" {
		return "", fmt.Errorf("%s=%s: the file is empty; write the value of %s into it", fileVar, path, name)
	}
	Remember(v)
	return v, nil
}

// ReadFile reads the secret file path named by the setting setting (for
// error messages) and remembers its contents for Redact. Errors name the
// setting and the path and say what to fix.
func ReadFile(setting, path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		switch {
		case os.IsNotExist(err):
			return nil, fmt.Errorf("%s=%s: no such file; point %s at the file holding the secret", setting, path, setting)
		case os.IsPermission(err):
			return nil, fmt.Errorf("%s=%s: permission denied; make the file readable by the user running ace (chmod 0400 or 0600)", setting, path)
		default:
			return nil, fmt.Errorf("%s=%s: %w", setting, path, err)
		}
	}
	Remember(string(b))
	Remember(string(trimNewline(b)))
	return b, nil
}

func trimNewline(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

// minRedact is the shortest value Redact replaces: shorter ones ("1",
// "on") would blank ordinary words out of every message.
const minRedact = 4

var (
	mu     sync.RWMutex
	values = map[string]bool{}
)

// Remember adds v to the values Redact blanks out (values shorter than 4
// bytes, and whitespace-only ones, are ignored). Settings read through Env
// are remembered already; call it for secrets that come from elsewhere
// (the password in a URL's userinfo).
func Remember(v string) {
	if len(strings.TrimSpace(v)) < minRedact {
		return
	}
	mu.Lock()
	values[v] = true
	mu.Unlock()
}

// Redacted is what Redact writes in place of a secret.
const Redacted = "[REDACTED]"

// Redact returns s with every remembered secret value replaced by
// "[REDACTED]", longest first (so a value containing another is replaced
// whole).
func Redact(s string) string {
	mu.RLock()
	defer mu.RUnlock()
	if len(values) == 0 {
		return s
	}
	vs := make([]string, 0, len(values))
	for v := range values {
		vs = append(vs, v)
	}
	sort.Slice(vs, func(i, j int) bool { return len(vs[i]) > len(vs[j]) })
	for _, v := range vs {
		s = strings.ReplaceAll(s, v, Redacted)
	}
	return s
}

// URL returns raw with the password of its userinfo replaced by "xxxxx"
// (net/url's URL.Redacted), for naming a server in a message; raw as it is
// when it does not parse or has no password. It also remembers the
// password for Redact.
func URL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	if p, ok := u.User.Password(); ok {
		Remember(p)
		return u.Redacted()
	}
	return raw
}
