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
