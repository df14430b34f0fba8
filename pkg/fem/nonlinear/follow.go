package nonlinear

import (
	"slices"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/sparse"
	"github.com/gusset/gusset/pkg/fem/transform"
)

// Member loads that turn with their members (Options.FollowLocalLoads;
// package doc, "Loads").

// followers are the member loads of a case given in member local axes,
// when they turn with their members.
type followers struct {
	// p0 is the part of P that keeps its direction, per global DOF: the
	// node loads and the equivalent node loads of the other member loads.
	p0 []float64
	// qc are each member's local fixed-end actions of its following loads
	// at λ = 1, in its element frame (so they hold in every
	// configuration); has marks the members that have any.
	qc  [][12]float64
	has []bool
	// skew is the skew part of their load stiffness in the last assembled
	// tangent (follow_solve.go).
	skew []skewTerm
}

// setLoads resolves the loads of case caseID into the reference load a.p
// (initial configuration), the local fixed-end actions a.fix of the
// member loads that keep their directions and, with
// Options.FollowLocalLoads, the followers a.fol. loads are the case's
// loads, all of which keep their directions without the option.
func (a *analysis) setLoads(caseID int64, loads *domain.Loads) error {
	d := a.d
	fixed, follow := loads, (*domain.Loads)(nil)
	if a.opts.FollowLocalLoads {
		var err error
		if fixed, err = loadsWhere(d, caseID, false); err != nil {
			return err
		}
		if follow, err = loadsWhere(d, caseID, true); err != nil {
			return err
		}
	}
	a.p = append([]float64(nil), fixed.NodeF...)
	a.fix = make([][12]float64, len(d.Frames))
	if _, err := addMemberLoads(d, fixed, a.p, a.fix); err != nil {
		return err
	}
	if follow == nil || len(follow.Member) == 0 {
		return nil
	}
	f := &followers{p0: slices.Clone(a.p), qc: make([][12]float64, len(d.Frames))}
	var err error
	if f.has, err = addMemberLoads(d, follow, a.p, f.qc); err != nil {
		return err
	}
	if slices.Contains(f.has, true) {
		a.fol = f
		a.opts.Factorizer = &followFactorizer{inner: a.opts.Factorizer, fol: f}
	}
	return nil
}

// loadsWhere resolves the part of case caseID (a primary case or a
// combination) whose member loads are in member local axes (local set)
// or the rest of it: node loads, member loads in global axes and
// self-weight (local unset).
func loadsWhere(d *domain.Domain, caseID int64, local bool) (*domain.Loads, error) {
	part := func(primary int64) (*domain.Loads, error) {
		i := slices.IndexFunc(d.Model.LoadCases, func(lc domain.LoadCase) bool { return lc.ID == primary })
		if i < 0 {
			return nil, domain.ModelErrorf(domain.ModelError{Case: primary}, "load case \"%d\" does not exist", primary)
		}
		lc := d.Model.LoadCases[i]
		keep := lc.Members[:0:0]
		for _, ml := range lc.Members {
			if (ml.Axes == domain.Local) == local {
				keep = append(keep, ml)
			}
		}
		if local {
			lc = domain.LoadCase{ID: lc.ID}
		}
		lc.Members = keep
		return d.Resolve(&lc)
	}
	if !d.IsCombination(caseID) {
		return part(caseID)
	}
	l, _, err := d.Combined(caseID, part)
	return l, err
}

// addMemberLoads adds the equivalent node loads of the member loads of
// loads, in the initial configuration, to p (per global DOF) and writes
// their local fixed-end actions into fix (per member); it reports which
// members are loaded.
func addMemberLoads(d *domain.Domain, loads *domain.Loads, p []float64, fix [][12]float64) ([]bool, error) {
	loaded := make([]bool, len(d.Frames))
	var pe, q0 [12]float64
	for i, fe := range d.Frames {
		l := loads.MemberLoads(i)
		if l.Empty() {
			continue
		}
		loaded[i] = true
		if err := fe.FixedEnd(l, fix[i][:], q0[:]); err != nil {
			return nil, err
		}
		pe = [12]float64{}
		if err := fe.LoadVector(loads, pe[:]); err != nil {
			return nil, domain.Wrapf("member %d: %w", fe.MemberID, err)
		}
		for e, nd := range fe.Nodes() {
			for k := range 6 {
				p[6*nd+k] += pe[6*e+k]
			}
		}
	}
	return loaded, nil
}

// followStart resets P to the part that keeps its direction, before an
// assembly adds the followers of the configuration it computes (follow),
// and, when it assembles a tangent (wantK), the skew part of their load
// stiffness.
func (a *analysis) followStart(wantK bool) {
	if a.fol == nil {
		return
	}
	copy(a.p, a.fol.p0)
	if wantK {
		a.fol.skew = a.fol.skew[:0]
	}
}

// follow adds to P the equivalent node loads of member e's followers in
// its current element frame, cfg: p_b = −eᵀ·qc_b per end force and
// moment b, e the frame's axes (rows). When k is not nil it adds the
// symmetric part of their load stiffness at load factor lambda to it and
// records the skew part for the solves (package doc, "Loads").
func (a *analysis) follow(e int, cfg *transform.CorotConfig, lambda float64, k *sparse.SymMatrix) {
	if a.fol == nil || !a.fol.has[e] {
		return
	}
	ax := cfg.Axes()
	m := &a.members[e]
	qc := &a.fol.qc[e]
	var p [4]geom.Vec3
	for b := range 4 {
		p[b] = ax.ApplyT(geom.Vec3{qc[3*b], qc[3*b+1], qc[3*b+2]}).Scale(-1)
		at := 6*m.a + 3*(b%2)
		if b >= 2 {
			at = 6*m.b + 3*(b%2)
		}
		for k := range 3 {
			a.p[at+k] += p[b][k]
		}
	}
	if k == nil {
		return
	}
	var kl, ks [144]float64
	loadStiffness(cfg, p, lambda, &kl)
	symmetricPart(kl[:], ks[:], 12)
	a.as.Add(k, e, ks[:])
	a.addSkew(e, &kl)
}

// loadStiffness writes into kl (row-major 12×12) the load stiffness
// −∂(λ·p)/∂d of loads p (global, per end force and moment) fixed to the
// element frame of cfg: p_b turns with the frame's spin, δp_b = (w·δd) ×
// p_b with w = eᵀ·Ω̄ (transform.CorotConfig.FrameSpin), so
// −∂(λ·p_b)/∂d = λ·[p_b]ₓ·w.
func loadStiffness(cfg *transform.CorotConfig, p [4]geom.Vec3, lambda float64, kl *[144]float64) {
	var w [3][12]float64
	cfg.FrameSpin(&w)
	for b := range 4 {
		s := geom.Skew(p[b])
		for r := range 3 {
			for j := range 12 {
				kl[(3*b+r)*12+j] = lambda * (s[r][0]*w[0][j] + s[r][1]*w[1][j] + s[r][2]*w[2][j])
			}
		}
	}
}

// endLoadActions returns the actions of member i's loads on its end
// blocks (force A, moment A, force B, moment B) at load factor lambda,
// in its current element frame ax: followers' local fixed-end actions as
// they are; those of loads that keep their directions turned from the
// initial local axes through global axes, e·r0ᵀ, so that the end actions
// stay in equilibrium with the node forces of P.
func (a *analysis) endLoadActions(i int, ax geom.Rotation, lambda float64) [4]geom.Vec3 {
	var out [4]geom.Vec3
	r0 := a.members[i].fe.Rot
	for b := range 4 {
		f := &a.fix[i]
		v := ax.Apply(r0.ApplyT(geom.Vec3{f[3*b], f[3*b+1], f[3*b+2]}))
		if a.fol != nil && a.fol.has[i] {
			q := &a.fol.qc[i]
			v = v.Add(geom.Vec3{q[3*b], q[3*b+1], q[3*b+2]})
		}
		out[b] = v.Scale(lambda)
	}
	return out
}
