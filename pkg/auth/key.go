package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
)

// An API key reads gsk_<id>_<secret>:
//
//   - gsk_ marks it as a gusset key, so that secret scanners and people
//     recognise one in a log or a repository;
//   - id is 12 hexadecimal digits: public, it names the key in listings
//     and in revocation, and finds its record without a scan;
//   - secret is 32 random bytes in unpadded base64url (43 characters).
//
// Only the SHA-256 of the whole key is stored. A fast hash is right here
// (unlike for passwords): the secret has 256 bits of entropy, so there is
// nothing to guess.
const (
	keyPrefix   = "gsk_"
	idBytes     = 6
	secretBytes = 32
	// idLen and secretLen are the encoded lengths.
	idLen     = 2 * idBytes
	secretLen = (secretBytes*8 + 5) / 6
	// KeyLen is the length of every API key.
	KeyLen = len(keyPrefix) + idLen + 1 + secretLen
)

// newKey returns a fresh key and its id.
func newKey() (key, id string, err error) {
	var buf [idBytes + secretBytes]byte
	if _, err := rand.Read(buf[:]); err != nil {
		return "", "", fmt.Errorf("new API key: %w", err)
	}
	id = hex.EncodeToString(buf[:idBytes])
	return keyPrefix + id + "_" + base64.RawURLEncoding.EncodeToString(buf[idBytes:]), id, nil
}

// keyID returns the id of a presented key, or false when it does not have
// the shape of a gusset key. It checks the shape only: whether the key is
// valid is settled by comparing hashes.
func keyID(key string) (string, bool) {
	if len(key) != KeyLen || !strings.HasPrefix(key, keyPrefix) {
		return "", false
	}
	id, secret := key[len(keyPrefix):len(keyPrefix)+idLen], key[len(keyPrefix)+idLen:]
	if secret[0] != '_' {
		return "", false
	}
	for i := 0; i < len(id); i++ {
		if !isHexDigit(id[i]) {
			return "", false
		}
	}
	for i := 1; i < len(secret); i++ {
		if !isSecretChar(secret[i]) {
			return "", false
		}
	}
	return id, true
}

// hashKey is the stored form of a key: its SHA-256, hexadecimal.
func hashKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// sameHash compares two stored hashes in constant time, so that the time a
// refusal takes tells nothing about how much of a guess was right.
func sameHash(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// redactedSecret replaces the secret of a key in Redact's output.
const redactedSecret = "REDACTED"

// Redact returns s with the secret of everything shaped like an API key
// (gsk_, 12 lower-case hexadecimal digits, _, then base64url characters)
// replaced by REDACTED, for logs: a client that puts its key in a URL
// must not leave it in the server's log. The id stays, since it is
// public and tells which key to revoke. A shorter or longer secret than a
// key's is redacted too: part of a secret is still a secret.
func Redact(s string) string {
	if !strings.Contains(s, keyPrefix) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, keyPrefix)
		if i < 0 {
			break
		}
		id := i + len(keyPrefix)
		end := id
		for end < len(s) && end-id < idLen && isHexDigit(s[end]) {
			end++
		}
		if end-id == idLen && end < len(s) && s[end] == '_' {
			secret := end + 1
			stop := secret
			for stop < len(s) && isSecretChar(s[stop]) {
				stop++
			}
			if stop > secret {
				b.WriteString(s[:secret])
				b.WriteString(redactedSecret)
				s = s[stop:]
				continue
			}
		}
		b.WriteString(s[:id])
		s = s[id:]
	}
	b.WriteString(s)
	return b.String()
}

// isHexDigit reports whether c is a digit of a key's id.
func isHexDigit(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' }

// isSecretChar reports whether c is a character of unpadded base64url.
func isSecretChar(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_'
}
