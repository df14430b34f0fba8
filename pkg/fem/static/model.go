package static

import (
	"github.com/gusset/gusset/pkg/fem/sparse"
	"github.com/gusset/gusset/pkg/fem/transform"
)

// Model is a complete linear static frame problem in SI units.
type Model struct {
	// VerticalAxis is YAxis (default when zero) or ZAxis; it orients
	// member local axes (see package transform).
	VerticalAxis transform.Axis
	Nodes        []Node
	Materials    []Material
	Sections     []Section
	Members      []Member
	Supports     []Support
	Constraints  []Constraint
	LoadCases    []LoadCase
	Combinations []Combination
}

// Node is a joint with six DOFs, coordinates in m.
type Node struct {
	ID      string
	X, Y, Z float64
}

// Material is an isotropic linear-elastic material.
type Material struct {
	Name    string
	E, G    float64 // Pa
	Density float64 // kg/m³, for self-weight
	Alpha   float64 // thermal expansion coefficient, 1/K
}

// Section holds the properties of a cross-section in its principal axes.
// Fibre distances are optional (0 = unknown) and enable bending stresses.
type Section struct {
	Name           string
	A, Ay, Az      float64 // m²; Ay, Az shear areas, 0 = shear-rigid
	J, Iy, Iz      float64 // m⁴
	PrincipalAngle float64 // rad, angle of the principal axes from the member direction axes, about x
	// Extreme fibre distances from the centroid, m: the largest +y, the
	// largest −y (as a positive number), and likewise for z.
	YTop, YBottom, ZTop, ZBottom float64
}

// MemberType selects the member behaviour.
type MemberType int

// Member types. All but Frame are axial-only (truss) members. TensionOnly
// and Cable resist tension only, CompressionOnly and Gap compression only,
// when Options.TensionCompressionOnly is set; otherwise they act both ways.
const (
	Frame MemberType = iota
	Truss
	TensionOnly
	CompressionOnly
	Cable
	Gap
)

// axialOnly reports whether the type is a truss-like member.
func (t MemberType) axialOnly() bool { return t != Frame }

// oneWay returns +1 for tension-only, −1 for compression-only, 0 otherwise.
func (t MemberType) oneWay() int {
	switch t {
	case TensionOnly, Cable:
		return 1
	case CompressionOnly, Gap:
		return -1
	}
	return 0
}

// Member is a prismatic two-node member.
type Member struct {
	ID           string
	Type         MemberType
	NodeA, NodeB string
	Section      string
	Material     string
	// Direction orients the local y axis; for DirectionNode set
	// DirectionNode to a node ID (Direction.Node is filled in from it).
	Direction     transform.Direction
	DirectionNode string
	// Fixity codes at each end, 6 characters in DOF order ux uy uz rx ry
	// rz: F fixed, R released, S spring (stiffness from SpringsA/B, N/m or
	// N·m/rad). Empty means fully fixed.
	ReleaseA, ReleaseB string
	SpringsA, SpringsB [6]float64
	// Rigid end offsets from the node to the member end, m, in global axes
	// or, if OffsetsLocal, in the member local axes computed from the
	// node-to-node line.
	OffsetA, OffsetB transform.Vec3
	OffsetsLocal     bool
	// Multipliers on A, J, Iy and Iz; 0 means 1.
	AreaFactor, TorsionFactor, IyFactor, IzFactor float64
}

// Support restrains the DOFs of a node in global axes. Code has 6
// characters in DOF order ux uy uz rx ry rz:
//
//	F fixed, R free, S spring (Springs[i]),
//	V variable spring: the first segment of Tables[i] (linear analysis),
//	P plastic and N friction: fixed in linear analysis.
//
// V, P and N add a warning naming the node.
type Support struct {
	Node    string
	Code    string
	Springs [6]float64
	Tables  [6][]SpringSegment
	// Active makes a DOF one-way when Options.TensionCompressionOnly is
	// set: 'P' acts only with a positive reaction (pushing the node in
	// +axis), 'N' only with a negative one; 0 or 'B' both ways.
	Active [6]byte
}

// SpringSegment is one segment of a variable spring's force-displacement
// table: the stiffness up to displacement Limit (m or rad).
type SpringSegment struct {
	Stiffness float64
	Limit     float64
}

// Constraint ties slave nodes to a master node as a rigid body, DOF by
// DOF: where Code has 'F' (tied) the slave's translation equals the
// master's translation plus θ_master × (x_slave − x_master), and its
// rotation equals the master's; 'R' leaves the component independent.
// Code is in DOF order ux uy uz rx ry rz along Axes, the inclined axes
// (rows: unit vectors in global coordinates), or global axes if Axes is
// nil. Slaves are eliminated in the DOF map; a slave cannot be a master
// or carry a support on a tied DOF (any DOF, with inclined axes).
type Constraint struct {
	Master string
	Slaves []string
	Code   string
	Axes   *transform.Rotation
}

// LoadCase is one primary load case.
type LoadCase struct {
	Name       string
	NodeLoads  []NodeLoad
	Members    []MemberLoad
	Thermal    []ThermalLoad
	Prestress  []PrestressLoad
	Prescribed []PrescribedDisplacement
	// SelfWeight is the acceleration acting on member masses, in units of
	// g = 9.80665 m/s², along global X, Y, Z (e.g. {0, −1, 0} with Y up).
	SelfWeight [3]float64
}

// NodeLoad is a force and moment on a node, global axes: N and N·m.
type NodeLoad struct {
	Node string
	F    [6]float64
}

// MemberLoadType is the kind of member load.
type MemberLoadType int

// Member load kinds.
const (
	ConcentratedForce MemberLoadType = iota
	ConcentratedMoment
	DistributedForce
	DistributedMoment
)

// LoadAxes is the coordinate system of a member load's direction.
type LoadAxes int

// Load axes: Local (member axes), GlobalInclined (global direction, per
// unit member length) and GlobalProjected (global direction, per unit
// length projected on the plane normal to the load direction, so the
// member-length intensity is w·sin∠(member, direction)).
const (
	Local LoadAxes = iota
	GlobalInclined
	GlobalProjected
)

// PositionKind tells how member load positions are measured.
type PositionKind int

// Positions are Actual (m from end A of the flexible length, i.e. after
// rigid offsets) or Percent (0–100 of that length).
const (
	Actual PositionKind = iota
	Percent
)

// MemberLoad is a load on a member. Concentrated loads use A and P1.
// Distributed loads vary linearly from P1 at A to P2 at B; A = B = 0 means
// the whole member.
type MemberLoad struct {
	Member    string
	Type      MemberLoadType
	Axes      LoadAxes
	Direction transform.Axis // local axis (Local) or global axis; negative axes flip the sign
	Position  PositionKind
	A, B      float64
	P1, P2    float64 // N, N·m, N/m or N·m/m
}

// ThermalLoad is a temperature change of a member: uniform DT (K) and
// gradients DTy, DTz (K/m, temperature increase per metre along local +y
// and +z).
type ThermalLoad struct {
	Member       string
	DT, DTy, DTz float64
}

// PrestressLoad is an axial prestress force in a member, tension positive,
// N: it acts as a stress-free axial strain −P/(EA).
type PrestressLoad struct {
	Member string
	Force  float64
}

// PrescribedDisplacement imposes displacements (m, rad, global axes) on
// restrained DOFs of a node; DOFs marked in Set only. The DOFs must be
// fixed by a support.
type PrescribedDisplacement struct {
	Node  string
	Set   [6]bool
	Value [6]float64
}

// Combination is a linear combination of load cases or other combinations.
type Combination struct {
	Name  string
	Terms []Term
}

// Term is one factored component of a combination.
type Term struct {
	Case   string
	Factor float64
}

// Options controls an analysis.
type Options struct {
	// Cases lists the load cases and combinations to report; empty means
	// all of them.
	Cases []string
	// Divisions is the number of equal member divisions for stations;
	// 0 means 10.
	Divisions int
	// TensionCompressionOnly activates one-way members and supports.
	TensionCompressionOnly bool
	// ReversalIterations bounds the reversal loop; 0 means 20.
	ReversalIterations int
	// StabilizeUnrestrainedNodes adds tiny springs to DOFs without
	// stiffness instead of failing.
	StabilizeUnrestrainedNodes bool
	// SolverType and OptimizationMethod are the service's solver
	// settings; they choose the ordering of the default sparse factorizer
	// (see Orderings). They are ignored when Factorizer is set.
	SolverType         SolverType
	OptimizationMethod OptimizationMethod
	// Factorizer solves the assembled system; nil means a new
	// SparseFactorizer with the orderings of SolverType and
	// OptimizationMethod.
	Factorizer Factorizer
	// Progress, when not nil, is told how Analyze is going (see
	// Progress): at the start and end of every stage and, throttled, in
	// between. Calls come one at a time, possibly from different
	// goroutines, and the analysis waits for each, so it must return
	// quickly; it may cancel the analysis's context. Stations ignores it.
	Progress func(Progress)
}

// SolverType is the service's solverType setting.
type SolverType int

// Solver types. Both are the sparse direct solver; they differ in the
// equation ordering.
const (
	// Paradise (0) orders for least fill: approximate minimum degree or
	// nested dissection.
	Paradise SolverType = iota
	// Wavefront (1) orders for a small profile: reverse Cuthill–McKee.
	Wavefront
)

// OptimizationMethod is the service's optimizationMethod setting: how the
// equations are reordered before factorization.
type OptimizationMethod int

// Optimization methods. The zero value, OptimizeAuto, is the right choice
// for almost every model.
const (
	// OptimizeAuto lets the solver type choose; for Paradise both
	// approximate minimum degree and nested dissection are analysed and
	// the one predicting fewer factorization flops is used.
	OptimizeAuto OptimizationMethod = iota
	// OptimizeNone keeps the node order of the model (no reordering).
	OptimizeNone
	// OptimizeMinimumDegree forces approximate minimum degree (Paradise
	// only).
	OptimizeMinimumDegree
	// OptimizeNestedDissection forces nested dissection (Paradise only).
	OptimizeNestedDissection
)

// Orderings returns the candidate orderings of the default sparse
// factorizer for o's solver settings:
//
//	OptimizeNone                       → natural order (any solver type)
//	Wavefront                          → RCM
//	Paradise, OptimizeAuto             → AMD and nested dissection,
//	                                     the fewer predicted flops wins
//	Paradise, OptimizeMinimumDegree    → AMD
//	Paradise, OptimizeNestedDissection → nested dissection
//
// Analysing both Paradise candidates costs a second ordering, run
// concurrently with the first. Nested dissection usually wins on large
// 3-D frames and AMD on small or elongated ones; nested dissection also
// orders more slowly, which the flop count does not see (grid-20, 52 920
// equations, at the time of writing: AMD 8.6e10 flops ordered in about
// 0.1 s, nested dissection 3.4e10 flops in about 0.7 s). Unknown values
// are treated as OptimizeAuto and Paradise.
func (o Options) Orderings() []sparse.Method {
	switch {
	case o.OptimizationMethod == OptimizeNone:
		return []sparse.Method{sparse.Natural}
	case o.SolverType == Wavefront:
		return []sparse.Method{sparse.RCM}
	case o.OptimizationMethod == OptimizeMinimumDegree:
		return []sparse.Method{sparse.AMD}
	case o.OptimizationMethod == OptimizeNestedDissection:
		return []sparse.Method{sparse.NestedDissection}
	}
	return []sparse.Method{sparse.AMD, sparse.NestedDissection}
}

// factorizer returns the Factorizer of an analysis.
func (o Options) factorizer() Factorizer {
	if o.Factorizer != nil {
		return o.Factorizer
	}
	return &SparseFactorizer{Orderings: o.Orderings()}
}

// G is standard gravity, m/s², used to turn self-weight accelerations in g
// into m/s².
const G = 9.80665
