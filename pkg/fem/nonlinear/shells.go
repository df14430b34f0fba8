package nonlinear

import (
	"fmt"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/sparse"
	"github.com/gusset/gusset/pkg/fem/transform"
)

// plate is one plate as a co-rotational shell (package doc, "Plates"):
// the transform carries the rigid-body motion and the plate's linear
// stiffness acts on the deformational displacements.
type plate struct {
	pe    *domain.ShellElement
	nodes []int
	c     transform.CorotShell
	// kl is the linear stiffness at the corners in the plate's initial
	// local axes, 6N×6N: Hᵀ·k·H with the rigid links of the offset and
	// the warp, the matrix of the linear analysis before its rotation to
	// global axes.
	kl []float64
	// load are the equivalent node loads of the case on the plate at
	// λ = 1, global axes (nil: none), for its node forces.
	load []float64
}

// newPlates prepares every plate of d and adds the equivalent node loads
// of the case's plate loads (pressures and self-weight, computed once on
// the initial geometry, conservative) into each reference load of refs
// (with loads that follow their members, also into the part of the
// reference that keeps its direction).
func newPlates(d *domain.Domain, loads *domain.Loads, refs ...[]float64) ([]plate, error) {
	out := make([]plate, len(d.Plates))
	for i, pe := range d.Plates {
		pl := &out[i]
		pl.pe, pl.nodes = pe, pe.Nodes()
		x := make([]geom.Vec3, len(pl.nodes))
		for k, nd := range pl.nodes {
			x[k] = d.Pos[nd]
		}
		c, err := transform.NewCorotShell(x, pe.Rot)
		if err != nil {
			return nil, fmt.Errorf("plate %d: %w", pe.PlateID, err)
		}
		pl.c = c
		n := domain.Size(pe)
		// The global stiffness is Tᵀ·(Hᵀ·k·H)·T with T = diag(Rot), so
		// T·K·Tᵀ gives back the local matrix with the links, which the
		// domain keeps to itself.
		pl.kl = make([]float64, n*n)
		pe.Stiffness(pl.kl)
		transform.ToLocalMatrix(pe.Rot, n, pl.kl, pl.kl)
		f := make([]float64, n)
		if err := pe.LoadVector(loads, f); err != nil {
			return nil, domain.Wrapf("plate %d: %w", pe.PlateID, err)
		}
		for _, v := range f {
			if v != 0 {
				pl.load = f
				break
			}
		}
		if pl.load == nil {
			continue
		}
		for _, p := range refs {
			for e, nd := range pl.nodes {
				for k := range 6 {
					p[6*nd+k] += f[6*e+k]
				}
			}
		}
	}
	return out, nil
}

// plateWork is the scratch space of one plate's forces and tangent.
type plateWork struct {
	cfg      transform.CorotShellConfig
	u        [4]geom.Vec3
	rot      [4]geom.Rotation
	d, fl, f [transform.MaxShellDOF]float64
	k, ks    [transform.MaxShellDOF * transform.MaxShellDOF]float64
}

// configure computes the configuration of pl in state (u, rot) into w,
// its local forces f̄ = K̄·d̄ into w.fl and its global forces into w.f.
func (pl *plate) configure(u []geom.Vec3, rot []geom.Rotation, w *plateWork) error {
	nc := len(pl.nodes)
	for k, nd := range pl.nodes {
		w.u[k], w.rot[k] = u[nd], rot[nd]
	}
	if err := pl.c.Configure(w.u[:nc], w.rot[:nc], &w.cfg); err != nil {
		return domain.ModelErrorf(domain.ModelError{Plate: pl.pe.PlateID}, "plate %d: %w", pl.pe.PlateID, err)
	}
	n := 6 * nc
	w.cfg.Deformation(w.d[:n])
	for i := range n {
		s := 0.0
		for j := range n {
			s += pl.kl[i*n+j] * w.d[j]
		}
		w.fl[i] = s
	}
	w.cfg.Forces(w.fl[:n], w.f[:n])
	return nil
}

// assemblePlates adds the plates' forces of the current state to a.fint
// and, when k is not nil, the symmetric part (K + Kᵀ)/2 of their
// co-rotational tangents to k (package doc, "Solution").
func (a *analysis) assemblePlates(k *sparse.SymMatrix) error {
	var w plateWork
	for i := range a.plates {
		pl := &a.plates[i]
		if err := pl.configure(a.u, a.rot, &w); err != nil {
			return err
		}
		n := 6 * len(pl.nodes)
		for e, nd := range pl.nodes {
			for q := range 6 {
				a.fint[6*nd+q] += w.f[6*e+q]
			}
		}
		if k == nil {
			continue
		}
		w.cfg.Tangent(w.fl[:n], pl.kl, w.k[:n*n])
		symmetricPart(w.k[:n*n], w.ks[:n*n], n)
		// Plates follow the frames in d.Elements.
		a.as.Add(k, len(a.d.Frames)+i, w.ks[:n*n])
	}
	return nil
}

// plateResults recovers the plates of the current state at load factor
// lambda: the resultants of the deformational displacements by the
// linear recovery, and the node forces in the current local axes.
func (a *analysis) plateResults(lambda float64) []PlateResult {
	out := make([]PlateResult, len(a.plates))
	var w plateWork
	for i := range a.plates {
		pl := &a.plates[i]
		if err := pl.configure(a.u, a.rot, &w); err != nil {
			panic(err) // the converged state was configured: cannot fail
		}
		n := 6 * len(pl.nodes)
		// The linear recovery reads global displacements and turns them
		// by the plate's initial axes: d̄ turned back by them is what it
		// needs to see d̄ itself.
		ug := make([]float64, n)
		transform.ToGlobalVector(pl.pe.Rot, w.d[:n], ug)
		pr := &out[i]
		pr.Plate = pl.pe.PlateID
		// The plates carry no initial strains here (thermal loads are
		// refused), so the recovery needs no loads.
		pr.PlateResult = pl.pe.Result(ug, nil)
		// The node forces balance the nodes exactly: the global forces of
		// the state less the plate's share of the applied loads, turned
		// to the current local axes.
		r := w.cfg.Axes()
		for e := range len(pl.nodes) {
			for h := 0; h < 6; h += 3 {
				var v geom.Vec3
				for q := range 3 {
					v[q] = w.f[6*e+h+q]
					if pl.load != nil {
						v[q] -= lambda * pl.load[6*e+h+q]
					}
				}
				v = r.Apply(v)
				copy(pr.NodeForces[6*e+h:6*e+h+3], v[:])
			}
		}
	}
	return out
}
