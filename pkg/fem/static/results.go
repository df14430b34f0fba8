package static

import (
	"time"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/shell"
)

// Results holds the outcome of an analysis: one CaseResult per requested
// load case or combination, in request order (or model order: load cases,
// then combinations), and warnings a person should read.
type Results struct {
	Cases    []CaseResult
	Warnings []string
	Timings  Timings
}

// Timings are the wall times of the phases of an analysis, for logs and
// benchmarks. With the reversal loop they add up over its iterations.
type Timings struct {
	Setup    time.Duration // model checks, member stiffness matrices
	Assembly time.Duration // symbolic and numeric assembly of the stiffness
	Factor   time.Duration // ordering, symbolic analysis, numeric factorization
	Loads    time.Duration // load vectors and combined loads
	Solve    time.Duration // block solves, expansion and superposition of displacements
	Recovery time.Duration // member results, reactions and equilibrium summaries
	Total    time.Duration // the whole Analyze call
	// Factorizations counts calls of the Factorizer (one per reversal
	// state and stabilization retry).
	Factorizations int
	// Equations is the number of equations of the (last) system solved.
	Equations int
}

// CaseResult holds the results of one load case or combination.
type CaseResult struct {
	Case    int64        // the load case's or combination's id
	Nodes   []NodeResult // model node order
	Members []MemberResult
	// Plates are the results of the plates, in model order; nil when
	// there are none.
	Plates []PlateResult
	// Elements are the internal forces of the elements of families other
	// than frames and plates (domain.Element.InternalForces), in domain
	// order; nil when there are none.
	Elements []ElementResult
	Summary  ReactionSummary
}

// PlateResult holds the recovered results of one plate, in plate local
// axes: the stress resultants at the centroid, the forces the nodes exert
// on the plate, the stresses and the Wood–Armer design moments (see
// package shell for every sign). The transverse shears of a Kirchhoff
// plate, and the shear stresses that follow from them, are those of the
// patch fit of its own and its neighbours' centroid moments
// (domain.Domain.ShearFitter), not of the element alone; a plate whose
// patch cannot give a gradient (a lone plate, a single row of quads)
// keeps the in-element ones, which can be 30 % off.
type PlateResult struct {
	Plate int64
	domain.PlateResult
	Stresses shell.Stresses
	// Design are the Wood–Armer moments for reinforcement along local x
	// and y, N·m/m: top x, top y (≥ 0), bottom x, bottom y (≤ 0).
	Design [4]float64
}

// plateResult recovers plate p under its node displacements ue (global,
// in its DOF order) and loads c, by itself: a Kirchhoff plate's shears
// are the in-element ones until patchShears replaces them.
func plateResult(p *domain.ShellElement, ue []float64, c *domain.Loads) PlateResult {
	r := PlateResult{Plate: p.PlateID, PlateResult: p.Result(ue, c)}
	r.Stresses = p.Stresses(r.Resultants)
	r.Design[0], r.Design[1], r.Design[2], r.Design[3] = shell.WoodArmer(r.Resultants.M)
	return r
}

// ElementResult is the basic recovery of an element of another family
// than frames.
type ElementResult struct {
	Element int64     // domain.Element.ID
	Forces  []float64 // domain.Element.InternalForces, the family's axes and order
}

// NodeResult is the displacement of a node and, where it has a support
// (springs included), the reaction, global axes.
type NodeResult struct {
	Node        int64
	Disp        [6]float64 // m, rad
	Reaction    [6]float64 // N, N·m: forces the supports exert on the node
	HasReaction bool
}

// ReactionSummary checks equilibrium of a case: the applied loads and the
// reactions, as resultants about the global origin (Fx Fy Fz Mx My Mz),
// must cancel, and the largest out-of-balance force on a free equation
// (Residual) must be negligible next to MaxLoad, the largest applied
// node-load component (member loads included as equivalent node loads).
type ReactionSummary struct {
	Load     [6]float64
	Reaction [6]float64
	Residual float64
	MaxLoad  float64
}

// MemberResult holds the recovered results of one member.
type MemberResult struct {
	Member int64
	// Inactive is set when the reversal loop switched the member off.
	Inactive bool
	// EndA and EndB are the end actions in member local axes: the forces
	// and moments the nodes (through offsets and releases) exert on the
	// member ends, DOF order Fx Fy Fz Mx My Mz.
	EndA, EndB [6]float64
	// DispA are the member's own end-A displacements [ux uy uz rx ry rz]
	// in member local axes: those of the flexible length's end, past
	// offsets and releases (a released DOF moves apart from its node).
	// With EndA and the member loads they fix the whole member state:
	// Stations rebuilds the stations from them.
	DispA [6]float64
	// Axes are the member's local axes (rows: unit x, y, z in global
	// coordinates, principal angle included): they turn the local station
	// displacements into global ones.
	Axes     geom.Rotation
	Stations []Station
}

// Station holds internal forces and displacements at X (m from end A of
// the flexible length). At a concentrated load two stations share X: the
// first excludes the load (just before it), the second includes it.
type Station struct {
	X float64
	// Forces are [N Vy Vz T My Mz]: the actions of the part beyond X on
	// the part before X, local axes; N is tension positive, Mz positive
	// for tension at −y, My positive for tension at +z.
	Forces [6]float64
	// Disp are the local displacements [ux uy uz rx ry rz].
	Disp   [6]float64
	Stress Stress
}

// Stress holds member stresses at a station, Pa. Bending stresses need the
// section's fibre distances; without them they are zero and Max/Min
// reduce to the axial stress.
type Stress struct {
	Axial          float64    // N/A
	ShearY, ShearZ float64    // Vy/Ay, Vz/Az (A when the shear area is 0)
	BendingY       [2]float64 // My·z/Iy at z = +ZTop and z = −ZBottom
	BendingZ       [2]float64 // −Mz·y/Iz at y = +YTop and y = −YBottom
	Max, Min       float64    // extreme normal stress over the four corner combinations
}
