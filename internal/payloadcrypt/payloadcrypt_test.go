package payloadcrypt

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func randomKey(t testing.TB) []byte {
	b := make([]byte, KeySize)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return b
}

func writeKey(t testing.TB, dir, name string, b []byte) string {
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o400); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestKeyFileErrorsSayWhatIsWrong(t *testing.T) {
	dir := t.TempDir()
	raw := randomKey(t)
	cases := []struct {
		name string
		body []byte
		want string
	}{
		{"an empty file", nil, "the file is empty"},
		{"a key with a trailing newline", append(append([]byte{}, raw...), '\n'), "33 bytes: 32 bytes and 1 bytes of surrounding whitespace"},
		{"the hex text of a key", []byte(hex.EncodeToString(raw) + "\n"), "64 hex digits"},
		{"the base64 text of a key", []byte(base64.StdEncoding.EncodeToString(raw) + "\n"), "44 characters of base64"},
		{"a 16-byte key", raw[:16], "16 bytes, 16 short of the 32"},
		{"a 40-byte file", append(append([]byte{}, raw...), raw[:8]...), "40 bytes, 8 more than the 32"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := writeKey(t, dir, strings.ReplaceAll(c.name, " ", "-"), c.body)
			_, err := ReadKeyFile(EnvKeyFile, p)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), EnvKeyFile+"="+p) {
				t.Fatalf("err = %v; want it to name %s=%s and say %q", err, EnvKeyFile, p, c.want)
			}
		})
	}
	if _, err := ReadKeyFile(EnvKeyFile, filepath.Join(dir, "absent")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("a missing key file: %v", err)
	}
	if _, err := ReadKeyFile(EnvKeyFile, writeKey(t, dir, "good", raw)); err != nil {
		t.Fatalf("32 raw bytes refused: %v", err)
	}
}

func TestSealOpenAndRotation(t *testing.T) {
	dir := t.TempDir()
	oldFile := writeKey(t, dir, "old", randomKey(t))
	newFile := writeKey(t, dir, "new", randomKey(t))
	before, err := LoadRing(oldFile, nil)
	if err != nil {
		t.Fatal(err)
	}
	plain := []byte(`{"instruction":"Make every slide title navy"}`)
	id, sealed, err := before.Seal(plain)
	if err != nil {
		t.Fatal(err)
	}
	if id != before.CurrentID() || bytes.Contains(sealed, []byte("navy")) {
		t.Fatalf("sealed under %s (current %s), plaintext visible: %v", id, before.CurrentID(), bytes.Contains(sealed, []byte("navy")))
	}
	_, again, _ := before.Seal(plain)
	if bytes.Equal(sealed, again) {
		t.Fatal("two seals of the same value are equal: the nonce is not fresh")
	}

	// Rotation: the new key seals, the old one is kept to open.
	after, err := LoadRing(newFile, []string{oldFile})
	if err != nil {
		t.Fatal(err)
	}
	if after.CurrentID() == id {
		t.Fatal("the rotated ring still seals with the old key")
	}
	got, err := after.Open(id, sealed)
	if err != nil || !bytes.Equal(got, plain) {
		t.Fatalf("old payload under the rotated ring: %q, %v", got, err)
	}
	newID, newSealed, _ := after.Seal(plain)
	if newID != after.CurrentID() {
		t.Fatalf("sealed with %s, current is %s", newID, after.CurrentID())
	}

	// Without the old key the old payload cannot be opened, and the error
	// says which setting lists old keys.
	onlyNew, _ := LoadRing(newFile, nil)
	if _, err := onlyNew.Open(id, sealed); !errors.Is(err, ErrUnknownKey) || !strings.Contains(err.Error(), EnvOldKeyFiles) {
		t.Fatalf("unknown key: %v", err)
	}
	if _, err := before.Open(newID, newSealed); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("the old ring opened a payload of the new key: %v", err)
	}

	// Tampering or a swapped key id fails authentication.
	bad := append([]byte{}, sealed...)
	bad[len(bad)-1] ^= 1
	if _, err := after.Open(id, bad); err == nil {
		t.Fatal("a tampered payload opened")
	}
	if _, err := after.Open(newID, sealed); err == nil {
		t.Fatal("a payload opened under another key id")
	}
	if _, err := after.Open(id, sealed[:10]); err == nil || !strings.Contains(err.Error(), "shorter than a nonce and tag") {
		t.Fatalf("a truncated payload: %v", err)
	}
}

func TestKeyIDIsStableAndDistinct(t *testing.T) {
	a, b := randomKey(t), randomKey(t)
	ka, _ := NewKey("a", a)
	ka2, _ := NewKey("a again", append([]byte{}, a...))
	kb, _ := NewKey("b", b)
	if ka.ID != ka2.ID || ka.ID == kb.ID || len(ka.ID) != 17 {
		t.Fatalf("ids %s %s %s", ka.ID, ka2.ID, kb.ID)
	}
	if strings.Contains(ka.ID, hex.EncodeToString(a)[:8]) {
		t.Fatal("the key id shows the key's bytes")
	}
}

func TestLoadRingFromSettings(t *testing.T) {
	dir := t.TempDir()
	if r, err := LoadRing("", nil); r != nil || err != nil {
		t.Fatalf("no key file: %v, %v; want no ring", r, err)
	}
	old1, old2 := writeKey(t, dir, "o1", randomKey(t)), writeKey(t, dir, "o2", randomKey(t))
	old := SplitFiles(old1 + string(os.PathListSeparator) + old2 + string(os.PathListSeparator))
	if _, err := LoadRing("", old); err == nil || !strings.Contains(err.Error(), EnvKeyFile) {
		t.Fatalf("old keys without a current one: %v", err)
	}
	r, err := LoadRing(writeKey(t, dir, "cur", randomKey(t)), append(old, old1))
	if err != nil || len(r.IDs()) != 3 {
		t.Fatalf("ring of a current and two old keys (one listed twice): %v, %v", r, err)
	}
}

// FuzzOpen: no input makes Open panic, and only a value Seal made opens.
func FuzzOpen(f *testing.F) {
	r := NewRing(mustKey(f))
	id, sealed, _ := r.Seal([]byte("seed"))
	f.Add(id, sealed)
	f.Add(id, []byte{})
	f.Add("k0000", []byte("short"))
	f.Fuzz(func(t *testing.T, keyID string, b []byte) {
		plain, err := r.Open(keyID, b)
		if err == nil && !(keyID == id && bytes.Equal(b, sealed) && string(plain) == "seed") {
			t.Fatalf("opened a value Seal did not make: %q", plain)
		}
	})
}

func mustKey(t testing.TB) *Key {
	k, err := NewKey("test", randomKey(t))
	if err != nil {
		t.Fatal(err)
	}
	return k
}
