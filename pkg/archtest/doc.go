// Package archtest enforces the design of the repository and that the
// repository documents itself. Imports point down:
//
//	services/* → pkg/server → pkg/{httpapi, session, store, store/redisstore, queue, jobfile, samples, analysis/..., editor} → pkg/model/... → pkg/fem/...
//
// Rules (rules.go) states, package by package or for a subtree, which
// module packages and which other modules a package may import, what its
// test files may import in addition, and which standard library packages it
// may not use (net/http for the engine, the model, the editor and the
// analyses). The most specific rule wins. ReadTree reads the imports of
// every .go file, test files and files behind build tags (ccx, fault, load)
// included; Check compares them with Rules and also fails any package no
// rule covers, so a new package cannot slip in unchecked.
//
// Besides the imports, the tests check that no package but pkg/model reads
// a struct tag (TagReads: model's field definitions are the one reader, so
// the validator, the API document and the encoders cannot read a tag two
// ways), that domain packages name no HTTP routes, that `make run` builds
// only the standalone, and that no file refers to documents kept outside
// the repository.
package archtest
