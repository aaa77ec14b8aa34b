// Package payloadcrypt seals and opens byte strings with AES-256-GCM under
// a key ring: one current key that seals, and older keys kept only to open
// what they sealed, each known by a key id derived from the key itself.
// It is the cipher behind ACE's Temporal payload codec (workers/codec.go),
// kept free of Temporal so that it can be tested and reused on its own.
//
// Rules and their sources:
//   - AES-256-GCM (NIST SP 800-38D) with a 96-bit random nonce per seal
//     (SP 800-38D §8.2.2, the RBG construction); a sealed value is
//     nonce || ciphertext || 16-byte tag.
//   - The key id is bound to the ciphertext as additional authenticated
//     data, so a value cannot be opened under a different id.
//   - A key is exactly 32 raw bytes (AES-256), read from a file; the key
//     id is "k" followed by the first 16 hex digits of SHA-256 over
//     "ace-payload-key-id\x00" || key: stable for a key, the same in every
//     process, and no help in recovering the key.
//
// Random nonces make 2^32 seals per key the safe limit (SP 800-38D §8.3);
// rotate the key well before that (docs/security.md).
package payloadcrypt

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/acecanvas/ace/internal/secret"
)

// KeySize is the size of a payload key in bytes (AES-256).
const KeySize = 32

// Settings naming the key files.
const (
	// EnvKeyFile names the file holding the current key: it seals every
	// new payload and opens the ones it sealed.
	EnvKeyFile = "ACE_PAYLOAD_KEY_FILE"
	// EnvOldKeyFiles lists older key files, separated by ":" (the OS path
	// list separator), kept to open payloads sealed before a rotation.
	EnvOldKeyFiles = "ACE_PAYLOAD_OLD_KEY_FILES"
)

// ErrUnknownKey is returned by Open for a key id the ring does not hold.
var ErrUnknownKey = errors.New("payload sealed with a key this process does not hold")

// Key is one AES-256-GCM key and its id.
type Key struct {
	ID   string
	aead cipher.AEAD
}

// NewKey makes a Key from exactly 32 raw bytes. source names where the
// bytes came from (a setting and a file) for the error, which says what is
// wrong with them and how to write a good key, never the bytes.
func NewKey(source string, raw []byte) (*Key, error) {
	if err := checkKeyBytes(raw); err != nil {
		return nil, fmt.Errorf("%s: %w; make a key with: head -c 32 /dev/urandom > FILE && chmod 0400 FILE", source, err)
	}
	block, err := aes.NewCipher(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	return &Key{ID: keyID(raw), aead: aead}, nil
}

// checkKeyBytes says precisely what is wrong with a key file's bytes.
func checkKeyBytes(b []byte) error {
	n := len(b)
	if n == KeySize {
		return nil
	}
	trimmed := bytes.TrimSpace(b)
	switch {
	case n == 0:
		return errors.New("the file is empty; it must hold exactly 32 raw bytes")
	case len(trimmed) == KeySize && n > KeySize:
		return fmt.Errorf("the file has %d bytes: 32 bytes and %d bytes of surrounding whitespace (a trailing newline?); it must hold exactly the 32 raw bytes", n, n-KeySize)
	case len(trimmed) == 2*KeySize && isHex(trimmed):
		return fmt.Errorf("the file holds %d hex digits, the text form of a 32-byte key; it must hold the 32 raw bytes (convert with: xxd -r -p)", len(trimmed))
	case len(trimmed) == 44 && utf8.Valid(trimmed) && bytes.HasSuffix(trimmed, []byte("=")):
		return errors.New("the file holds 44 characters of base64 text, the text form of a 32-byte key; it must hold the 32 raw bytes (convert with: base64 -d)")
	case n < KeySize:
		return fmt.Errorf("the file has %d bytes, %d short of the 32 an AES-256 key needs", n, KeySize-n)
	default:
		return fmt.Errorf("the file has %d bytes, %d more than the 32 an AES-256 key needs", n, n-KeySize)
	}
}

func isHex(b []byte) bool {
	_, err := hex.DecodeString(string(b))
	return err == nil
}

func keyID(raw []byte) string {
	h := sha256.New()
	h.Write([]byte("ace-payload-key-id\x00"))
	h.Write(raw)
	return "k" + hex.EncodeToString(h.Sum(nil))[:16]
}

// ReadKeyFile reads a key from path; setting names the setting that named
// the file, for errors.
func ReadKeyFile(setting, path string) (*Key, error) {
	b, err := secret.ReadFile(setting, path)
	if err != nil {
		return nil, err
	}
	return NewKey(setting+"="+path, b)
}

// Ring is the current key and the older ones kept for opening. A nil
// *Ring means payloads are not encrypted.
type Ring struct {
	current *Key
	byID    map[string]*Key
}

// NewRing makes a ring sealing with current and opening with current and
// every key in old. A key listed twice is kept once.
func NewRing(current *Key, old ...*Key) *Ring {
	r := &Ring{current: current, byID: map[string]*Key{current.ID: current}}
	for _, k := range old {
		if _, ok := r.byID[k.ID]; !ok {
			r.byID[k.ID] = k
		}
	}
	return r
}

// LoadRing reads the current key from currentFile and the older keys from
// oldFiles; nil and no error when both are empty (payloads not encrypted).
// Errors name the setting and the file and say what is wrong; old key
// files without a current one are an error (nothing could be sealed, and
// the operator surely meant to set both).
func LoadRing(currentFile string, oldFiles []string) (*Ring, error) {
	if currentFile == "" {
		if len(oldFiles) > 0 {
			return nil, fmt.Errorf("%s is set but %s is not: set %s to the current key file", EnvOldKeyFiles, EnvKeyFile, EnvKeyFile)
		}
		return nil, nil
	}
	cur, err := ReadKeyFile(EnvKeyFile, currentFile)
	if err != nil {
		return nil, err
	}
	var old []*Key
	for _, f := range oldFiles {
		k, err := ReadKeyFile(EnvOldKeyFiles, f)
		if err != nil {
			return nil, err
		}
		old = append(old, k)
	}
	return NewRing(cur, old...), nil
}

// SplitFiles splits a ":"-separated list of files (the OS path list
// separator), dropping empty entries.
func SplitFiles(list string) []string {
	var out []string
	for _, f := range filepath.SplitList(list) {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// CurrentID is the id of the key that seals.
func (r *Ring) CurrentID() string { return r.current.ID }

// IDs lists the ids of every key the ring opens with, the current first.
func (r *Ring) IDs() []string {
	ids := []string{r.current.ID}
	for id := range r.byID {
		if id != r.current.ID {
			ids = append(ids, id)
		}
	}
	return ids
}

// Seal encrypts plain with the current key; it returns the key id and
// nonce || ciphertext || tag.
func (r *Ring) Seal(plain []byte) (keyID string, sealed []byte, err error) {
	k := r.current
	nonce := make([]byte, k.aead.NonceSize(), k.aead.NonceSize()+len(plain)+k.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", nil, fmt.Errorf("payload nonce: %w", err)
	}
	return k.ID, k.aead.Seal(nonce, nonce, plain, []byte(k.ID)), nil
}

// Open decrypts what Seal returned under keyID. Errors: ErrUnknownKey
// (wrapped, naming the id and the ids held) for a key the ring lacks; a
// value too short to hold a nonce and tag; a failed authentication (the
// wrong key for that id, or a tampered value).
func (r *Ring) Open(keyID string, sealed []byte) ([]byte, error) {
	k, ok := r.byID[keyID]
	if !ok {
		return nil, fmt.Errorf("%w: key id %q, held %v (add its file to %s)", ErrUnknownKey, keyID, r.IDs(), EnvOldKeyFiles)
	}
	ns := k.aead.NonceSize()
	if len(sealed) < ns+k.aead.Overhead() {
		return nil, fmt.Errorf("sealed payload of %d bytes is shorter than a nonce and tag (%d)", len(sealed), ns+k.aead.Overhead())
	}
	plain, err := k.aead.Open(nil, sealed[:ns], sealed[ns:], []byte(keyID))
	if err != nil {
		return nil, fmt.Errorf("open payload under key %s: %w (tampered, or a different key with the same id)", keyID, err)
	}
	return plain, nil
}
