package auth

import (
	"strings"
	"testing"
)

// keyID never panics, and accepts only strings that have a key's exact
// shape: its id is then the 12 characters after the prefix.
func FuzzKeyID(f *testing.F) {
	good, _, err := newKey()
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"", good, good[:len(good)-1], "gsk_", "gsk_zzzzzzzzzzzz_" + strings.Repeat("a", 43),
		"Bearer " + good, strings.Repeat("\xff", KeyLen)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, ok := keyID(s)
		if !ok {
			return
		}
		if len(s) != KeyLen || !strings.HasPrefix(s, "gsk_") || s[4:16] != id || s[16] != '_' {
			t.Fatalf("keyID(%q) accepted a string of another shape (id %q)", s, id)
		}
	})
}

// Redact never panics, leaves no key in what it returns (a key is
// replaced by its id and REDACTED), changes nothing without the key
// prefix, and is idempotent.
func FuzzRedact(f *testing.F) {
	good, id, err := newKey()
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"", "/api/v1/job/status", "/api/v1/" + good, "/x/" + good + "/y?key=" + good + "&a=b",
		"gsk_gsk_" + good, good[:20], "gsk_" + id + "_", good + good, "/gsk_" + strings.ToUpper(id) + "_abc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := Redact(s)
		if !strings.Contains(s, keyPrefix) && r != s {
			t.Fatalf("Redact(%q) = %q changed a string without a key", s, r)
		}
		for i := 0; i+KeyLen <= len(r); i++ {
			if _, ok := keyID(r[i : i+KeyLen]); ok {
				t.Fatalf("Redact(%q) = %q still holds a key at %d", s, r, i)
			}
		}
		if rr := Redact(r); rr != r {
			t.Fatalf("Redact is not idempotent: %q, then %q", r, rr)
		}
	})
}
