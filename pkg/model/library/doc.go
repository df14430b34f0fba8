// Package library holds gusset's built-in cross-section and material
// libraries. It is a pure domain package: no I/O beyond its embedded data.
//
// # Units
//
// Everything is SI: lengths in m, areas in m², second moments and torsion
// constants in m⁴, section moduli in m³, moduli of elasticity in Pa, mass
// density in kg/m³ and thermal expansion in 1/°C. Section names, however, keep
// the units their catalogues print (mm), because that is what engineers type.
//
// # Local axes
//
// A member's local x axis runs along the member. The local y axis is the
// section's "up" direction: the web of an I-section, channel or tee lies along
// y, and the flanges lie along z. Hence
//
//   - Iz = ∫y² dA is the strong-axis second moment of an I-section: AISC's Ix
//     and AS 4100's Ix both map to Iz;
//   - Iy = ∫z² dA is the weak-axis one: AISC's Iy and AS 4100's Iy map to Iy;
//   - Ay is the shear area for shear along y (the web), Az for shear along z
//     (the flanges).
//
// For a rectangular hollow section "d x b x t", d lies along y and b along z;
// for angles the vertical leg lies along y (see [FamilyAngle]).
//
// # Section libraries
//
//   - "AISC15": every shape of the AISC Shapes Database v15.0 (SI sheet),
//     addressed by its AISC_Manual_Label in either sheet: metric, e.g.
//     "W310X97", "HSS203.2X101.6X9.5", or US, e.g. "W12X65", "HSS8X4X3/8".
//     A US label gives the SI row on the same line of the database, so both
//     names of a shape give identical properties; [Section.AltName] holds
//     the other name. "Pipe20STD" and "Pipe20XS" keep their metric meaning
//     (3/4 in pipes); the US sheet's 20 in pipes are "Pipe500STD" and
//     "Pipe500XS". Data and licence: data/aisc15/NOTICE.md.
//   - "Aust300": the common Australian hot-rolled (AS/NZS 3679.1 Grade 300)
//     UB, UC and PFC sections and cold-formed (AS/NZS 1163) SHS, RHS and CHS,
//     with properties computed from the published dimensions, e.g.
//     "360UB44.7", "380PFC", "100x100x6.0SHS", "168.3x7.1CHS".
//   - "Parametric": solid and hollow rectangles and circles built from the
//     dimensions in their name, e.g. "RECT 300x200", "TUBE 100x5".
//
// AISC15 uses the database's A, Ix, Iy and J unchanged (converted to SI). The
// database leaves J blank for double angles; there J is twice the component
// angle's, since the two angles are joined only at intervals. Aust300
// computes A, Iy, Iz and J from the catalogue dimensions including root radii
// (UB, UC, PFC) and corner radii (SHS, RHS): see geometry.go for the formulas
// and aust300_test.go for the comparison with the published tables.
//
// # Shear areas
//
// No catalogue tabulates shear areas, so they follow one rule per family in
// every library (b flange width, d depth, t wall or leg thickness):
//
//	I, channel      Ay = d·tw                   Az = 5/6·2·b·tf
//	tee             Ay = d·tw                   Az = 5/6·b·tf
//	single angle    Ay = 5/6·(vertical leg)·t   Az = 5/6·(horizontal leg)·t
//	double angle    Ay = 5/6·2·d·t              Az = 5/6·2·b·t
//	hollow rect     Ay = A·d/(d+b)              Az = A·b/(d+b)
//	tube            Ay = Az = A/2
//	solid rect      Ay = Az = 5/6·A
//	solid circle    Ay = Az = 0.9·A
//
// A web between flanges carries nearly uniform shear, hence its full area; a
// plate loaded in its own plane alone gets the rectangle's 5/6.
//
// A miss is a [*NotFoundError] (matching [ErrNotFound] with errors.Is) that
// carries up to five of the library's closest names (edit distance, then
// common prefix; see suggest.go) and names them in its message; an unknown
// library is an [*UnknownLibraryError] (matching [ErrUnknownLibrary]).
//
// # Listings
//
// [SectionLibraryInfo] and [MaterialLibraryInfo] describe the libraries;
// [SearchSections] and [SearchMaterials] list a library's entries whose
// names (or AISC US labels, or material aliases) contain a search text.
//
// # Material libraries
//
// "Aust", "US" and "Euro", see [LookupMaterial]. Each entry carries the
// standard clause or table its values come from in [Material.Source].
package library
