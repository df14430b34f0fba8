package sparse

import "testing"

// SetFactoredHook has f called with each supernode a numeric
// factorization factors (see factoredHook) until the test ends. The hook is
// package state: a test that sets it must not run in parallel with other
// factorizations.
func SetFactoredHook(t testing.TB, f func(S int)) {
	t.Helper()
	factoredHook = f
	t.Cleanup(func() { factoredHook = nil })
}
