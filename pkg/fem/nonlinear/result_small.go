package nonlinear

import (
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/transform"
)

// PlateResult is the state of one plate.
type PlateResult struct {
	Plate int64
	// Resultants are the stress resultants at the centroid, as the linear
	// recovery gives them from the plate's displacements
	// (domain.ShellElement.Result: a Kirchhoff plate's shears are the
	// in-element ones, not fitted over the patch). NodeForces are the
	// forces the nodes exert on the plate, six per corner, plate local
	// axes: in the Small theory the linear ones plus the geometric term
	// K_G·u, so they balance the node loads and reactions; in the
	// large-displacement theories those of the co-rotational plate, in its
	// current axes, from its deformational displacements (package doc,
	// "Plates").
	domain.PlateResult
}

// result recovers the Result of the Small state at load factor lambda.
func (s *small) result(lambda float64) (*Result, error) {
	s.setLambda(lambda)
	if _, err := s.forces(false); err != nil {
		return nil, domain.Wrapf("non-linear analysis of case %d: %w", s.caseID, err)
	}
	d := s.d
	res := &Result{Case: s.caseID, LoadFactor: lambda, History: s.hist}
	nd := len(s.u)
	f := make([]float64, nd)
	for g := range f {
		f[g] = s.fint[g] + s.sup.linear[g]*s.u[g] + s.sup.fsup[g] - lambda*s.loads.NodeF[g]
	}
	resid := make([]float64, s.num.Equations())
	react := make([]float64, nd)
	s.num.Distribute(f, resid, react)
	res.Nodes = make([]NodeResult, len(d.Pos))
	for n := range res.Nodes {
		nr := &res.Nodes[n]
		nr.Node = d.Model.Nodes[n].ID
		nr.Translation = geom.Vec3{s.u[6*n], s.u[6*n+1], s.u[6*n+2]}
		nr.Rotation = geom.Vec3{s.u[6*n+3], s.u[6*n+4], s.u[6*n+5]}
		nr.Turning = geom.ExpMap(nr.Rotation)
		for k := range 6 {
			g := 6*n + k
			switch {
			case s.num.Fixed[g]:
				nr.Reaction[k] = react[g]
				nr.HasReaction = true
			case s.sup.supported[g]:
				// Springs, laws and free (open, yielding, sliding) DOFs.
				nr.Reaction[k] = -(s.sup.linear[g]*s.u[g] + s.sup.fsup[g])
				nr.HasReaction = true
			}
		}
	}
	res.Members = make([]MemberResult, len(d.Frames))
	for i, fe := range d.Frames {
		var law *axialLaw
		if i < len(s.laws) {
			law = s.laws[i]
		}
		if err := s.memberResult(fe, law, &res.Members[i]); err != nil {
			return nil, domain.Wrapf("non-linear analysis of case %d: %w", s.caseID, err)
		}
	}
	res.Plates = make([]PlateResult, len(d.Plates))
	for i, pe := range d.Plates {
		if err := s.plateResult(pe, &res.Plates[i]); err != nil {
			return nil, domain.Wrapf("non-linear analysis of case %d: %w", s.caseID, err)
		}
	}
	return res, nil
}

// memberResult recovers member fe: the linear end actions of its
// displacements and loads (domain.FrameElement.End) plus its geometric
// end forces (domain.FrameElement.GeometricEndForces), and the basic
// deformations and forces of its flexible length, linearized. A member
// with an axial law (law not nil) has the law's axial force in place of
// the linear one, in its end actions and its geometric end forces; a
// broken brittle fuse has no end actions.
func (s *small) memberResult(fe *domain.FrameElement, law *axialLaw, mr *MemberResult) error {
	mr.Member = fe.MemberID
	mr.Axes, mr.Length = fe.Rot, fe.Props.L
	var ug, qc, q0, qg [12]float64
	domain.Gather(fe, s.u, ug[:])
	if l := s.cl.MemberLoads(fe.Index); !l.Empty() {
		if err := fe.FixedEnd(l, qc[:], q0[:]); err != nil {
			return err
		}
	}
	var st domain.FrameState
	if err := fe.End(&ug, &qc, &q0, &st); err != nil {
		return err
	}
	nState := (st.Q[6] - st.Q[0]) / 2 // the mean axial force GeometricStiffness uses
	s.geometricEndForces(fe, ug[:], nState, qg[:])
	if law != nil {
		nel := (st.Q[6] - st.Q[0]) / 2
		n, _, gone := law.eval(nel/law.ka, false)
		switch {
		case gone: // the fixed-end actions of its loads alone
			ug = [12]float64{}
			if err := fe.End(&ug, &qc, &q0, &st); err != nil {
				return err
			}
			qg = [12]float64{}
		default:
			st.Q[0] -= n - nel
			st.Q[6] += n - nel
			s.geometricEndForces(fe, ug[:], n, qg[:])
		}
		if law.kind == lawCable {
			mr.CableLength = law.stretched(n, fe.Props.L)
		}
	}
	for k := range 6 {
		mr.EndA[k] = st.Q[k] + qg[k]
		mr.EndB[k] = st.Q[6+k] + qg[6+k]
	}
	um := &st.UMem
	copy(mr.DispA[:], um[:6])
	L := fe.Props.L
	phiZ := (um[7] - um[1]) / L  // chord rotation about local z
	phiY := -(um[8] - um[2]) / L // and about local y
	mr.Basic = [transform.BasicDOF]float64{
		transform.BasicAxial: um[6] - um[0],
		transform.BasicTwist: um[9] - um[3],
		transform.BasicRzA:   um[5] - phiZ, transform.BasicRzB: um[11] - phiZ,
		transform.BasicRyA: um[4] - phiY, transform.BasicRyB: um[10] - phiY,
	}
	mr.Forces = [transform.BasicDOF]float64{
		transform.BasicAxial: mr.EndB[0],
		transform.BasicTwist: mr.EndB[3],
		transform.BasicRzA:   mr.EndA[5], transform.BasicRzB: mr.EndB[5],
		transform.BasicRyA: mr.EndA[4], transform.BasicRyB: mr.EndB[4],
	}
	return nil
}

// plateResult recovers plate pe: its linear recovery with the geometric
// node forces K_G·u, turned to plate axes, added.
func (s *small) plateResult(pe *domain.ShellElement, pr *PlateResult) error {
	n := domain.Size(pe)
	ue, kg, fg := make([]float64, n), make([]float64, n*n), make([]float64, n)
	domain.Gather(pe, s.u, ue)
	pr.Plate = pe.PlateID
	pr.PlateResult = pe.Result(ue, s.cl)
	if s.opts.PDelta == PDeltaNone {
		return nil
	}
	if err := pe.GeometricStiffness(ue, s.cl, kg); err != nil {
		return domain.Wrapf("plate %d: %w", pe.PlateID, err)
	}
	for i := range n {
		for j := range n {
			fg[i] += kg[i*n+j] * ue[j]
		}
	}
	transform.ToLocalVector(pe.Rot, fg, fg)
	for i, v := range fg {
		pr.NodeForces[i] += v
	}
	return nil
}
