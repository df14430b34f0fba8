package auth

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

// A new key has the documented shape, parses back to its id, and differs
// from the next one.
func TestNewKeyShape(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		key, id, err := newKey()
		if err != nil {
			t.Fatal(err)
		}
		if len(key) != KeyLen || !strings.HasPrefix(key, "gsk_"+id+"_") {
			t.Fatalf("key %q (id %q) does not read gsk_<id>_<secret> in %d characters", key, id, KeyLen)
		}
		if got, ok := keyID(key); !ok || got != id {
			t.Fatalf("keyID(%q) = %q, %v, want %q", key, got, ok, id)
		}
		if seen[key] || seen[id] {
			t.Fatalf("key or id repeated: %s", key)
		}
		seen[key], seen[id] = true, true
	}
}

// keyID refuses anything but the exact shape.
func TestKeyIDRefusesOtherShapes(t *testing.T) {
	good, _, err := newKey()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		key  string
	}{
		{"empty", ""},
		{"one short", good[:len(good)-1]},
		{"one long", good + "A"},
		{"other prefix", "gsx_" + good[4:]},
		{"upper-case id", "gsk_" + strings.ToUpper(good[4:16]) + good[16:]},
		{"separator missing", good[:16] + "-" + good[17:]},
		{"padding in the secret", good[:len(good)-1] + "="},
		{"space in the secret", good[:20] + " " + good[21:]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if id, ok := keyID(tt.key); ok {
				t.Errorf("keyID(%q) = %q, true; want a refusal", tt.key, id)
			}
		})
	}
}

// The stored hash is the SHA-256 of the whole key (FIPS 180-4), so that
// an operator can check a record by hand: sha256sum of the key.
func TestHashKeyIsSHA256(t *testing.T) {
	sum := sha256.Sum256([]byte("gsk_000000000000_abc"))
	if got, want := hashKey("gsk_000000000000_abc"), hex.EncodeToString(sum[:]); got != want {
		t.Errorf("hashKey = %s, want %s", got, want)
	}
	// The SHA-256 test vector of "abc" (FIPS 180-2, appendix B.1).
	if got := hashKey("abc"); got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("hashKey(abc) = %s", got)
	}
	if !sameHash(hashKey("x"), hashKey("x")) || sameHash(hashKey("x"), hashKey("y")) || sameHash(hashKey("x"), "") {
		t.Error("sameHash does not tell equal hashes from different ones")
	}
}

// A key anywhere in a path or query is logged as its id and REDACTED;
// what is not shaped like a key is left alone.
func TestRedact(t *testing.T) {
	key, id, err := newKey()
	if err != nil {
		t.Fatal(err)
	}
	hidden := "gsk_" + id + "_REDACTED"
	for _, c := range []struct{ name, in, want string }{
		{"path segment", "/api/v1/job/" + key + "/status", "/api/v1/job/" + hidden + "/status"},
		{"whole path", "/" + key, "/" + hidden},
		{"query value", "/api/v1/job/status?key=" + key + "&x=1", "/api/v1/job/status?key=" + hidden + "&x=1"},
		{"two keys", key + "," + key, hidden + "," + hidden},
		{"truncated secret", key[:30], "gsk_" + id + "_REDACTED"},
		{"no secret", "/gsk_" + id + "_", "/gsk_" + id + "_"},
		{"upper-case id", "/gsk_ABCDEF012345_secret", "/gsk_ABCDEF012345_secret"},
		{"no key", "/api/v1/job/structure/nodes/12", "/api/v1/job/structure/nodes/12"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Redact(c.in); got != c.want {
				t.Errorf("Redact(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}
