package library

import (
	"errors"
	"strings"
	"testing"
)

// missOf looks a name up, expects a *NotFoundError and returns it.
func missOf(t *testing.T, kind, lib, name string) *NotFoundError {
	t.Helper()
	var err error
	if kind == "material" {
		_, err = LookupMaterial(lib, name)
	} else {
		_, err = LookupSection(lib, name)
	}
	var nf *NotFoundError
	if !errors.As(err, &nf) || !errors.Is(err, ErrNotFound) {
		t.Fatalf("%s %q in %s: err = %v, want a *NotFoundError", kind, name, lib, err)
	}
	return nf
}

// TestSuggestions: a miss names the closest entries, best first, at most
// five, and says so in its message. The expected names are catalogue rows:
// 360UB44.7 (Aust300 data, OneSteel HRSSP), W14X90 and W14X99 (AISC v15.0
// US sheet lines 202 and 201), W360X134 (SI sheet line 202), N32 (AS 3600
// grade), C30/37 (EN 1992-1-1 class).
func TestSuggestions(t *testing.T) {
	tests := []struct {
		kind, lib, name string
		first           string   // the best suggestion
		also            []string // further names among the suggestions
	}{
		{"section", LibAust300, "360 UB 44", "360UB44.7", nil},
		{"section", LibAust300, "360UB44.8", "360UB44.7", nil},
		{"section", LibAust300, "SHS 100x100x7", "100x100x6.0SHS", nil},
		{"section", LibAISC15, "W14X91", "W14X90", []string{"W14X99"}},
		{"section", LibAISC15, "w 14 x 91", "W14X90", nil},
		{"section", LibAISC15, "W360X135", "W360X134", nil},
		{"section", LibAISC15, "W310X98", "W310X97", nil},
		{"material", LibAust, "N33", "N32", nil},
		{"material", LibAust, "conc33", "N32", nil}, // through the alias CONC32
		{"material", LibEuro, "C30/35", "C30/37", nil},
	}
	for _, tc := range tests {
		t.Run(tc.lib+"/"+tc.name, func(t *testing.T) {
			nf := missOf(t, tc.kind, tc.lib, tc.name)
			if len(nf.Suggestions) == 0 || len(nf.Suggestions) > 5 || nf.Suggestions[0] != tc.first {
				t.Fatalf("suggestions %q, want 1 to 5 starting with %q", nf.Suggestions, tc.first)
			}
			for _, a := range tc.also {
				if !contains(nf.Suggestions, a) {
					t.Errorf("suggestions %q lack %q", nf.Suggestions, a)
				}
			}
			seen := map[string]bool{}
			for _, s := range nf.Suggestions {
				if seen[s] {
					t.Errorf("suggestions %q repeat %q", nf.Suggestions, s)
				}
				seen[s] = true
			}
			msg := nf.Error()
			if !strings.HasPrefix(msg, tc.kind+` "`+tc.name+`" not found in library "`+tc.lib+`"; closest: "`+tc.first+`"`) {
				t.Errorf("message %q does not name %q first", msg, tc.first)
			}
		})
	}
}

// TestNoSuggestions: a name like nothing in the library gets no
// suggestions, and the message stays the plain miss.
func TestNoSuggestions(t *testing.T) {
	tests := []struct{ kind, lib, name string }{
		{"section", LibAISC15, "QQQQQQQQQQ"},
		{"section", LibAust300, "banana"},
		{"section", LibParametric, "RECT 300"},
		{"material", LibUS, "unobtainium"},
	}
	for _, tc := range tests {
		t.Run(tc.lib+"/"+tc.name, func(t *testing.T) {
			nf := missOf(t, tc.kind, tc.lib, tc.name)
			if len(nf.Suggestions) != 0 {
				t.Errorf("suggestions %q, want none", nf.Suggestions)
			}
			if want := tc.kind + ` "` + tc.name + `" not found in library "` + tc.lib + `"`; nf.Error() != want {
				t.Errorf("message %q, want %q", nf.Error(), want)
			}
		})
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"ABC", "", 3}, {"", "AB", 2}, {"W14X91", "W14X90", 1},
		{"360UB44", "360UB44.7", 2}, {"KITTEN", "SITTING", 3}, {"×X", "X×", 2},
	}
	for _, tc := range tests {
		if got := editDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
