// Package shell holds the pure routines of the flat shell elements: a
// 3- or 4-node plate in its own plane, with membrane, bending and
// transverse-shear stiffness, and the strain matrices that recovery and
// load vectors need. Like package element for frames, every routine takes
// the corner coordinates in the element's local plane and writes into
// buffers the caller owns; the plate's local axes, the projection of a
// warped quad onto its mean plane and the offset of the reference surface
// along the normal are transforms, done by the caller (package domain),
// not here.
//
// # Units
//
// SI throughout: m, N, Pa, rad, K. Matrices are row-major.
//
// # Local plane and DOF order
//
// Corners (X[i], Y[i]) are given counter-clockwise seen from local +z, the
// plate normal. Each corner has six DOFs in local axes, in the node order
// of the engine:
//
//	0 u  1 v  2 w  3 θx  4 θy  5 θz
//
// The membrane routines use the triple (u, v, θz) of each corner and the
// bending routines the triple (w, θx, θy): a membrane or bending matrix of
// an N-corner element is 3N×3N, corner by corner in that triple order.
// [Assemble] scatters both into the 6N×6N element matrix.
//
// # Sign conventions
//
// Rotations follow the right-hand rule about the local axes. The normal
// turns by βx = θy in the x-z plane and βy = −θx in the y-z plane, so a
// point at height z above the reference surface moves by u = z·βx,
// v = z·βy. Thin-plate (Kirchhoff) kinematics are θx = ∂w/∂y and
// θy = −∂w/∂x.
//
//   - Membrane strains ε = (εx, εy, γxy) = (u,x, v,y, u,y + v,x); membrane
//     forces n = (Fx, Fy, Fxy) = Dm·ε, N/m, tension positive.
//   - Curvatures κ = (βx,x, βy,y, βx,y + βy,x), so κx = −w,xx for a thin
//     plate; moments m = (Mx, My, Mxy) = Db·κ, N·m/m. Mx = ∫σx·z dz: a
//     positive moment puts the +z (top) face in tension.
//   - Transverse shear strains γ = (γxz, γyz) = (w,x + βx, w,y + βy);
//     shear forces q = (Vxz, Vyz) = Ds·γ, N/m. A Kirchhoff plate has no
//     shear strain: its shear forces are those of equilibrium,
//     Vxz = Mx,x + Mxy,y and Vyz = Mxy,x + My,y (see below).
//   - Drilling: θz is tied to the in-plane rotation ω = (v,x − u,y)/2 of
//     the membrane field by the Hughes–Brezzi penalty γ·∫(θz − ω)² dA.
//
// # Formulations
//
//   - Membrane, quad: bilinear u, v and θz with the Hughes–Brezzi drilling
//     term (Hughes & Brezzi, Comput. Methods Appl. Mech. Eng. 72, 1989),
//     2×2 Gauss points.
//   - Membrane, triangle: constant strain with linear θz and the same
//     drilling term.
//   - Bending, Kirchhoff: DKQ (Batoz & Ben Tahar, Int. J. Numer. Methods
//     Eng. 18, 1982) and DKT (Batoz, Bathe & Ho, Int. J. Numer. Methods Eng.
//     15, 1980).
//   - Bending, Mindlin: MITC4 (Bathe & Dvorkin, Int. J. Numer. Methods Eng.
//     21, 1985) and MITC3 (Lee & Bathe, Comput. Struct. 82, 2004), whose
//     assumed transverse shear strains keep thin plates free of shear
//     locking; the triangle's shear rigidity is further stabilized by the
//     factor t²/(t² + 0.1·h²) of Lyly, Stenberg and Vihinen (see
//     StabilizeTri), without which MITC3 still locks in thin plates.
//
// # Transverse shears of Kirchhoff plates
//
// The gradient of a DKT or DKQ moment field inside one element does not
// converge to the shear forces (KirchhoffCurvatureGradient). Its centroid
// moments do, so an analysis recovers the shears of a Kirchhoff plate by
// a least-squares quadratic fit of the centroid moments of its patch —
// the coplanar Kirchhoff plates within two rings of corner-sharing
// neighbours, turned into its axes (TurnMoments) — and takes V from the
// slope of the fit at its centroid (PatchShear). That is a mesh-level
// step, after every plate of a load case is recovered: package domain
// builds the patches and package static runs it. Element.Resultants
// alone still gives the in-element value, which is the fallback where a
// patch cannot give a gradient.
package shell
