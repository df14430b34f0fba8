// Package archtest holds the tests that enforce the import direction of
// the design and that the repository documents itself:
//
//	services/* → pkg/server → pkg/{httpapi, session, store, queue, jobfile, samples} → pkg/model → pkg/fem/...
//
// pkg/fem imports only the standard library and gonum; pkg/model adds
// nothing but itself and pkg/fem; no package under pkg imports services or
// knows of a layer above its own. It has no code of its own.
package archtest
