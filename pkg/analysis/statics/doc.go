// Package statics is the static family: the linear static analysis
// (Linear) and the non-linear static analysis (NonLinear, whose runs fan
// out by load case), the static settings record they share, the results
// they store together and the result queries over them.
//
// A linear run reads the model (package adapter), solves every selected
// load case with one factorization (pkg/fem/static) and packs the end
// state of nodes, members and plates into the columns of package columns.
// A non-linear run plans its cases, solves each as a part any worker
// takes (pkg/fem/nonlinear), stages the parts and gathers them into the
// same columns. Station values (forces, displacements and stresses along
// members) are not stored: the queries derive them from the end state and
// the member's loads.
//
// Units are SI (N, m, rad); node displacements and reactions are in
// global axes, member end forces in member local axes, plate results in
// plate local axes.
package statics
