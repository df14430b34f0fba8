package domain

import "github.com/gusset/gusset/pkg/fem/geom"

// Model is a complete structural model in SI units, as every analysis
// reads it: nodes, materials, sections, members, supports, constraints,
// load cases and combinations.
//
// Everything is named by an id, a positive integer unique among its kind
// (load cases and combinations are one kind, since a combination's terms
// name either), and references hold ids. Ids are positive so that 0 can
// mean "none" where a reference is optional (a direction node) and in
// what a ModelError names; Build rejects the others. They are the
// caller's own ids, so that results and messages name what the caller
// knows.
type Model struct {
	// VerticalAxis is YAxis (default when zero) or ZAxis; it orients
	// member local axes (see package geom).
	VerticalAxis geom.Axis
	Nodes        []Node
	Materials    []Material
	Sections     []Section
	Members      []Member
	Plates       []Plate
	Supports     []Support
	Constraints  []Constraint
	LoadCases    []LoadCase
	Combinations []Combination
	// DrillingStiffness multiplies the plates' drilling stiffness (the
	// Hughes–Brezzi penalty G·Tm per unit area); 0 means 1.
	DrillingStiffness float64
}

// Node is a joint with six DOFs, coordinates in m.
type Node struct {
	ID      int64
	X, Y, Z float64
}

// Material is an isotropic linear-elastic material.
type Material struct {
	ID      int64
	E, G    float64 // Pa
	Density float64 // kg/m³, for self-weight
	Alpha   float64 // thermal expansion coefficient, 1/K
}

// Section holds the properties of a cross-section in its principal axes.
// Fibre distances are optional (0 = unknown) and enable bending stresses.
type Section struct {
	ID             int64
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
// when an analysis resolves one-way members (static's
// Options.TensionCompressionOnly); otherwise they act both ways.
const (
	Frame MemberType = iota
	Truss
	TensionOnly
	CompressionOnly
	Cable
	Gap
)

// AxialOnly reports whether the type is a truss-like member.
func (t MemberType) AxialOnly() bool { return t != Frame }

// OneWay returns +1 for tension-only, −1 for compression-only, 0 otherwise.
func (t MemberType) OneWay() int {
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
	ID           int64
	Type         MemberType
	NodeA, NodeB int64
	Section      int64
	Material     int64
	// Direction orients the local y axis; for DirectionNode set
	// DirectionNode to a node id (Direction.Node is filled in from it).
	Direction     geom.Direction
	DirectionNode int64
	// Fixity codes at each end, 6 characters in DOF order ux uy uz rx ry
	// rz: F fixed, R released, S spring (stiffness from SpringsA/B, N/m or
	// N·m/rad). Empty means fully fixed.
	ReleaseA, ReleaseB string
	SpringsA, SpringsB [6]float64
	// Rigid end offsets from the node to the member end, m, in global axes
	// or, if OffsetsLocal, in the member local axes computed from the
	// node-to-node line.
	OffsetA, OffsetB geom.Vec3
	OffsetsLocal     bool
	// Multipliers on A, J, Iy and Iz; 0 means 1.
	AreaFactor, TorsionFactor, IyFactor, IzFactor float64

	// The fields below are read by the non-linear analysis only (package
	// nonlinear); every linear analysis ignores them, so a Cable or a Gap
	// acts there as its Type says and a fuse as an ordinary Frame.

	// CableLength is a Cable's unstressed length, m (≥ 0); 0 means its
	// chord (flexible) length. A cable shorter than its chord starts
	// pretensioned.
	CableLength float64
	// GapTension and GapCompression are a Gap's openings, m (≥ 0): the
	// chord elongation it takes freely in tension and its shortening in
	// compression before it acts. GapTension 0 means the gap never acts in
	// tension (a Gap is compression-only, as in the linear analysis);
	// GapCompression 0 means it acts in compression at once.
	GapTension, GapCompression float64
	// Fuse makes a Frame member a fuse, with its axial force limits in
	// tension and compression, N (≥ 0; 0 means no limit that way).
	Fuse                         FuseKind
	FuseTension, FuseCompression float64
	// Pulley marks a Frame member that the service calls a pulley, which
	// the non-linear analysis does not support.
	Pulley bool
}

// FuseKind is the non-linear axial behaviour of a fuse member. Fuses keep
// Type Frame, so the linear analyses treat them as ordinary members.
type FuseKind int

// Fuse kinds.
const (
	// NoFuse is an ordinary member.
	NoFuse FuseKind = iota
	// BrittleFuse carries its axial force up to its limit, then breaks:
	// for the rest of the load case it carries nothing at all.
	BrittleFuse
	// PlasticFuse is elastic-perfectly-plastic in its axial force, with
	// its limits as yield forces.
	PlasticFuse
)

// Support restrains the DOFs of a node in global axes. Code has 6
// characters in DOF order ux uy uz rx ry rz:
//
//	F fixed, R free, S spring (Springs[i]),
//	V variable spring: the first segment of Tables[i] (linear analysis),
//	P plastic and N friction: fixed in linear analysis (the non-linear
//	analysis reads PlasticLimit and Friction).
//
// V, P and N add a warning naming the node.
type Support struct {
	Node    int64
	Code    string
	Springs [6]float64
	Tables  [6][]SpringSegment
	// Active makes a DOF one-way when an analysis resolves one-way
	// supports: 'P' acts only with a positive reaction (pushing the node in
	// +axis), 'N' only with a negative one; 0 or 'B' both ways.
	Active [6]byte
	// PlasticLimit is the reaction limit of each P DOF, N or N·m (≥ 0; 0
	// means no limit: the DOF stays fixed). Non-linear analysis only.
	PlasticLimit [6]float64
	// Friction describes the N DOFs of the translations ux, uy, uz.
	// Non-linear analysis only.
	Friction [3]Friction
}

// Friction is the law of a friction DOF (code N) of a support: the DOF is
// fixed while its reaction is at most Factor times the reaction along
// the Normal axis of the same node, and slides beyond, resisted by that
// force.
type Friction struct {
	// Normal is the global axis (XAxis, YAxis or ZAxis) of the normal
	// reaction; 0 means none.
	Normal geom.Axis
	// Sign selects the normal reactions that press: 0 either (|R|), +1
	// positive only, −1 negative only (the others give no friction).
	Sign int
	// Factor is the friction coefficient μ (≥ 0).
	Factor float64
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
	Master int64
	Slaves []int64
	Code   string
	Axes   *geom.Rotation
}

// LoadCase is one primary load case.
type LoadCase struct {
	ID         int64
	NodeLoads  []NodeLoad
	Members    []MemberLoad
	Thermal    []ThermalLoad
	Prestress  []PrestressLoad
	Prescribed []PrescribedDisplacement
	// Masses are lumped masses at nodes, which eigen analyses of the
	// case add to the members' own.
	Masses []NodeMass
	// Pressures and PlateThermal are the loads on plates.
	Pressures    []PlatePressure
	PlateThermal []PlateThermalLoad
	// SelfWeight is the acceleration acting on member masses, in units of
	// g = 9.80665 m/s², along global X, Y, Z (e.g. {0, −1, 0} with Y up).
	SelfWeight [3]float64
}

// NodeMass is a lumped mass at a node: translational (kg) along global X,
// Y, Z in M[0:3] and rotational (kg·m²) about them in M[3:6].
type NodeMass struct {
	Node int64
	M    [6]float64
}

// NodeLoad is a force and moment on a node, global axes: N and N·m.
type NodeLoad struct {
	Node int64
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
	Member    int64
	Type      MemberLoadType
	Axes      LoadAxes
	Direction geom.Axis // local axis (Local) or global axis; negative axes flip the sign
	Position  PositionKind
	A, B      float64
	P1, P2    float64 // N, N·m, N/m or N·m/m
}

// ThermalLoad is a temperature change of a member: uniform DT (K) and
// gradients DTy, DTz (K/m, temperature increase per metre along local +y
// and +z).
type ThermalLoad struct {
	Member       int64
	DT, DTy, DTz float64
}

// PrestressLoad is an axial prestress force in a member, tension positive,
// N: it acts as a stress-free axial strain −P/(EA).
type PrestressLoad struct {
	Member int64
	Force  float64
}

// PrescribedDisplacement imposes displacements (m, rad, global axes) on
// restrained DOFs of a node; DOFs marked in Set only. The DOFs must be
// fixed by a support.
type PrescribedDisplacement struct {
	Node  int64
	Set   [6]bool
	Value [6]float64
}

// Combination is a linear combination of load cases or other combinations.
type Combination struct {
	ID    int64
	Terms []Term
}

// Term is one factored component of a combination.
type Term struct {
	Case   int64
	Factor float64
}

// G is standard gravity, m/s², used to turn self-weight accelerations in g
// into m/s².
const G = 9.80665
