// Package linsys factors and solves the assembled equations of an analysis.
// It knows matrices and vectors only: no element, node or model. An
// analysis assembles a *sparse.SymMatrix (package sparse's Assembler, one
// pattern per equation numbering) and hands it to a Factorizer together
// with the node of each equation, which node-graph orderings use.
//
// SparseFactorizer, the default, is the supernodal multifrontal LDLᵀ of
// package sparse: it orders and analyses each pattern once and refactors
// new values on it (reversal states, stabilization retries, shifts,
// non-linear iterations) with the numeric phase only. DenseFactorizer is a
// reference for tests and tiny models.
//
// A zero or negligible pivot is a *SingularError whose DOF is the equation (the
// original, un-permuted index), so the analysis can name the node and DOF
// of a mechanism.
//
// SolverType and OptimizationMethod are the service's solver settings;
// Orderings turns them into the candidate orderings of a SparseFactorizer.
package linsys
