package library

import (
	"math"
	"testing"
)

// relErr is |got−want|/|want|.
func relErr(got, want float64) float64 {
	return math.Abs(got-want) / math.Abs(want)
}

// checkRel fails the test when got is not within the relative tolerance tol
// of want; what names the quantity in the message.
func checkRel(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if e := relErr(got, want); !(e <= tol) {
		t.Errorf("%s = %.6g, want %.6g (rel. error %.3g%% > %.3g%%)", what, got, want, 100*e, 100*tol)
	}
}

// mustSection looks a section up and fails the test at once on error.
func mustSection(t *testing.T, library, name string) Section {
	t.Helper()
	s, err := LookupSection(library, name)
	if err != nil {
		t.Fatalf("LookupSection(%q, %q): %v", library, name, err)
	}
	if s.Shape == nil {
		t.Fatalf("LookupSection(%q, %q): section has no shape", library, name)
	}
	return s
}
