// Package eigen is the buckling family and the dynamic-frequency family:
// each has one kind (Buckling, Dynamic), its settings record, the modes it
// stores per load case and the queries over them (load factors or
// natural frequencies, mode shapes, and for buckling the members'
// effective lengths).
//
// A run reads the model (package adapter), solves each selected load case
// with the modal engines (pkg/fem/buckling, pkg/fem/dynamic) and packs the
// modes into the columns of package columns. Units are SI: frequencies in
// Hz, periods in s, load factors without unit; mode shapes are in global
// axes, mass-normalised (frequencies) or scaled to a largest translation
// of 1 (buckling).
package eigen
