// Package dynamic is the natural-frequency analysis of the engine: for each
// load case, the lowest modes of K·φ = ω²·M·φ (or those nearest a shift,
// or inside a frequency range), with frequencies in Hz, periods in s, mass
// participation along global X, Y and Z, and mode shapes at the nodes.
//
// # Masses
//
// A case's mass comes from its loads, as the commercial program takes it:
//   - self-weight gives the members their consistent mass (package
//     element: density × section area, torsional rotary inertia from
//     Iy + Iz), scaled by the self-weight's magnitude in g;
//   - lumped masses (domain.LoadCase.Masses) add at their nodes;
//   - node forces and member forces pointing down (along the negative
//     vertical axis of the model) become translational masses F/g at the
//     nodes they load, in all three directions; member forces go to the
//     nodes as their equivalent node loads. Upward forces and moments add
//     no mass.
//
// # Method
//
// The model is refined by subdividing its members (package modal), its
// stiffness is factored once per case with the shift σ (K − σ·M: σ from the
// frequency shift, else the lower limit, else 0), and block Lanczos
// (package eigen) finds the modes in the M inner product. A Sturm count of
// K − λ·M at the ends of the range found checks that no mode was missed.
//
// # Units
//
// SI: kg, m, s; frequencies in Hz, angular frequencies ω = 2π·f. Mode
// shapes are in global axes, DOF order ux uy uz rx ry rz, normalized as
// Options.Normalization says.
package dynamic
