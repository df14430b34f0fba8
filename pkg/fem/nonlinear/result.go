package nonlinear

import (
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/transform"
)

// Result is the converged state of one load case.
type Result struct {
	Case int64
	// LoadFactor is the load factor of the last converged step: 1 when
	// Analyze returns a Result.
	LoadFactor float64
	// Nodes are the node results, model node order.
	Nodes []NodeResult
	// Members are the member results, model member order.
	Members []MemberResult
	// Plates are the plate results, model plate order. In the
	// large-displacement theories they are in the plate's current local
	// axes: its initial axes carried along by its rigid-body motion
	// (package doc, "Plates").
	Plates []PlateResult
	// History is every iteration of every step, in order (the records
	// Options.Progress was given).
	History []Iteration
	// Applied is the load applied at LoadFactor, per global DOF (6 per
	// node, model node order, global axes): the node loads and the
	// equivalent node loads of the element loads. Residual is the largest
	// out-of-balance force or moment left on a free equation.
	Applied  []float64
	Residual float64
}

// NodeResult is the state of one node.
type NodeResult struct {
	Node int64
	// Translation is the displacement from the initial position, global
	// axes.
	Translation geom.Vec3
	// Rotation is the rotation vector geom.LogMap(Turning): the total
	// rotation of the node, angle ≤ π, about global axes (rad). In the
	// Small theory it is the plain (additive) rotation DOFs.
	Rotation geom.Vec3
	// Turning is the node's total turning matrix Q (package geom): Q·v₀
	// is where a vector v₀ fixed to the node has turned to. In the Small
	// theory it is geom.ExpMap(Rotation), for uniformity: the analysis
	// does not use it.
	Turning geom.Rotation
	// Reaction is the force and moment the supports exert on the node,
	// global axes, ux … rz, at the fixed DOFs (F_int − λ·P) and the
	// spring DOFs (−k·u, −k·θ); in the Small theory also at the DOFs of
	// support laws (package doc): a variable or one-way spring's force,
	// zero at an open contact, the limit at a yielding or sliding DOF.
	// Zero elsewhere. HasReaction is set when the node has a supported
	// DOF.
	Reaction    [6]float64
	HasReaction bool
}

// MemberResult is the state of one member in its deformed configuration
// (large-displacement theories) or on its initial geometry (Small: Axes
// are its local axes, Length its flexible length, EndA and EndB its end
// actions at its flexible ends with the geometric (P-Δ, P-δ) term —
// domain.FrameElement.End plus domain.FrameElement.GeometricEndForces —
// Basic the linearized basic deformations of its own end displacements
// (after releases) and Forces read from EndA and EndB: N = EndB[0],
// T = EndB[3], Mz(A) = EndA[5], Mz(B) = EndB[5], My(A) = EndA[4],
// My(B) = EndB[4], which with the geometric term are not kb·v).
type MemberResult struct {
	Member int64
	// Basic are the basic deformations v (transform.BasicAxial …
	// BasicRyB: chord elongation, m; relative twist and end rotations
	// relative to the element frame, rad) and Forces the basic forces
	// q = kb·v conjugate to them (axial force N, tension positive; torque
	// T; end moments Mz(A), Mz(B), My(A), My(B)).
	Basic, Forces [transform.BasicDOF]float64
	// Axes is the current element frame (rows e1, e2, e3 in global
	// coordinates; e1 along the chord A→B; package transform) and Length
	// the current chord length.
	Axes   geom.Rotation
	Length float64
	// EndA and EndB are the forces and moments the nodes exert on the
	// member ends, Fx Fy Fz Mx My Mz along the current element axes
	// (Axes), as static's end actions in member local axes: −EndA[0] and
	// EndB[0] are the axial force, tension positive. For a loaded member
	// they include the fixed-end actions of its loads, in equilibrium with
	// the node forces of P (package doc, "Loads"): those of loads that
	// follow the member as they are, in its frame; those of loads that keep
	// their directions, computed on the initial local axes, turned with
	// them into the current frame.
	EndA, EndB [6]float64
	// CableLength is, for a Cable member, its current stretched length
	// L0·(1 + N/EA), m: L0 the unstressed length (domain.Member.CableLength,
	// 0: the initial chord length) and N the law's tension. Taut, it is
	// the current chord length in the large-displacement theories (the
	// chord length the small displacements give, to first order, in the
	// Small theory); slack (N = 0), L0. Zero for other members.
	CableLength float64
	// DispA are the displacements [ux uy uz rx ry rz] of the member's own
	// end A in its initial local axes (static.MemberResult.DispA): in the
	// Small theory those of its flexible end, past offsets and releases;
	// in the large-displacement theories node A's translation and
	// rotation vector turned to the initial local axes.
	DispA [6]float64
}

// result recovers the Result of the current state, reached at load
// factor lambda.
func (a *analysis) result(lambda float64) *Result {
	d := a.d
	res := &Result{Case: a.caseID, LoadFactor: lambda, History: a.hist}
	x := a.displacements()
	res.Nodes = make([]NodeResult, len(d.Pos))
	for n := range res.Nodes {
		nr := &res.Nodes[n]
		nr.Node = d.Model.Nodes[n].ID
		nr.Translation, nr.Turning = a.u[n], a.rot[n]
		nr.Rotation = geom.Vec3{x[6*n+3], x[6*n+4], x[6*n+5]}
		for k := range 6 {
			g := 6*n + k
			switch {
			case a.num.Fixed[g]:
				nr.Reaction[k] = a.fint[g] - lambda*a.p[g]
				nr.HasReaction = true
			case a.num.Spring[g] != 0:
				nr.Reaction[k] = -a.num.Spring[g] * x[g]
				nr.HasReaction = true
			}
		}
	}
	res.Members = make([]MemberResult, len(a.members))
	var cfg transform.CorotConfig
	var f [12]float64
	for i := range a.members {
		m := &a.members[i]
		mr := &res.Members[i]
		mr.Member = m.fe.MemberID
		q, gone, err := m.configure(a.u, a.rot, &cfg, false, nil)
		if err != nil { // the converged state was configured: cannot fail
			panic(err)
		}
		mr.Basic, mr.Forces = cfg.Basic(), q
		ta, ra := m.fe.Rot.Apply(a.u[m.a]), m.fe.Rot.Apply(geom.Vec3{x[6*m.a+3], x[6*m.a+4], x[6*m.a+5]})
		copy(mr.DispA[:3], ta[:])
		copy(mr.DispA[3:], ra[:])
		mr.Axes, mr.Length = cfg.Axes(), cfg.Length()
		if gone { // a broken brittle fuse: no forces but its loads' own
			q = [transform.BasicDOF]float64{}
			mr.Forces = q
		}
		if m.law != nil && m.law.kind == lawCable {
			mr.CableLength = m.law.stretched(q[transform.BasicAxial], m.fe.Props.L)
		}
		cfg.Forces(q, f[:])
		fixed := a.endLoadActions(i, mr.Axes, lambda)
		for b := range 4 {
			v := mr.Axes.Apply(geom.Vec3{f[3*b], f[3*b+1], f[3*b+2]}).Add(fixed[b])
			end := &mr.EndA
			if b >= 2 {
				end = &mr.EndB
			}
			copy(end[3*(b%2):3*(b%2)+3], v[:])
		}
	}
	res.Plates = a.plateResults(lambda)
	return res
}

// stretched returns the length of a cable under tension n ≥ 0 whose
// initial chord (flexible length) is length: its unstressed length
// L0 = length + slack stretched by n/kc, kc = EA/L0, that is
// L0·(1 + n/EA). A slack cable (n = 0) keeps L0.
func (l *axialLaw) stretched(n, length float64) float64 {
	return length + l.slack + n/l.kc
}
