package static

import (
	"errors"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/internal/par"
	"github.com/gusset/gusset/pkg/fem/shell"
)

// Frames get the static analysis's own treatment (cached fixed-end
// actions, end states, stations); every other element family is handled
// through domain.Element alone: its load vectors go into the right-hand
// sides and its resisting forces into reactions and residuals.

// others returns the elements that are not frames.
func (a *analysis) others() []domain.Element { return a.d.Elements[len(a.frames):] }

// addOtherLoads adds the equivalent node loads of the non-frame elements
// under cl to p (per global DOF).
func (a *analysis) addOtherLoads(cl *caseLoads, p []float64) error {
	var pe []float64
	var dofs []int
	for _, el := range a.others() {
		dofs = domain.DOFs(el, dofs[:0])
		pe = grow(pe, len(dofs))
		if err := el.LoadVector(cl.loads(), pe); err != nil {
			return domain.Wrapf("element %d: %w", el.ID(), err)
		}
		for i, g := range dofs {
			p[g] += pe[i]
		}
	}
	return nil
}

// addOtherResisting adds the forces the nodes exert on the non-frame
// elements active in s under displacements u and loads cl to f (per
// global DOF).
func (a *analysis) addOtherResisting(s *system, cl *caseLoads, u, f []float64) error {
	var ue, fe []float64
	var dofs []int
	for i, el := range a.others() {
		if !s.st.active(len(a.frames) + i) {
			continue
		}
		dofs = domain.DOFs(el, dofs[:0])
		ue, fe = grow(ue, len(dofs)), grow(fe, len(dofs))
		for k, g := range dofs {
			ue[k] = u[g]
		}
		if err := el.Resisting(ue, cl.loads(), fe); err != nil {
			return domain.Wrapf("element %d: %w", el.ID(), err)
		}
		for k, g := range dofs {
			f[g] += fe[k]
		}
	}
	return nil
}

// recoverOthers returns the results of the non-frame elements under
// displacements u and loads cl: the plates' own, and the internal forces
// of any other family; switched-off elements get none. Elements are
// independent, so they are recovered in parallel chunks; the shears of
// the Kirchhoff plates, which depend on their neighbours' moments, follow
// in a second pass (patchShears).
func (a *analysis) recoverOthers(s *system, cl *caseLoads, u []float64) ([]ElementResult, []PlateResult, error) {
	others := a.others()
	if len(others) == 0 {
		return nil, nil, nil
	}
	np := len(a.d.Plates)
	var plates []PlateResult
	var have []bool // plates recovered, for the shear patches
	if np > 0 {
		plates = make([]PlateResult, np)
		have = make([]bool, np)
	}
	var out []ElementResult
	if len(others) > np {
		out = make([]ElementResult, len(others)-np)
	}
	errs := make([]error, len(others))
	par.Chunks(len(others), recoverChunk, func(_, lo, hi int) {
		var ue []float64
		var dofs []int
		for i := lo; i < hi; i++ {
			el := others[i]
			active := s.st.active(len(a.frames) + i)
			dofs = domain.DOFs(el, dofs[:0])
			ue = grow(ue, len(dofs))
			for k, g := range dofs {
				ue[k] = u[g]
			}
			if pl, ok := el.(*domain.ShellElement); ok {
				plates[pl.Index].Plate = pl.PlateID
				if active {
					plates[pl.Index] = plateResult(pl, ue, cl.loads())
					have[pl.Index] = true
				}
				continue
			}
			r := &out[i-np]
			r.Element = el.ID()
			if !active {
				continue
			}
			r.Forces = make([]float64, el.NumForces())
			if err := el.InternalForces(ue, cl.loads(), r.Forces); err != nil {
				errs[i] = domain.Wrapf("element %d: %w", el.ID(), err)
			}
		}
	})
	if err := errors.Join(errs...); err != nil {
		return nil, nil, err
	}
	a.patchShears(plates, have)
	return out, plates, nil
}

// patchShears replaces the transverse shears of the Kirchhoff plates by
// those of the patch fit of the centroid moments (domain.Domain.ShearFitter)
// and recomputes the stresses, whose Txz, Tyz and VonMisesMax follow from
// them. It needs the moments of every plate of the case — as reported,
// initial strains subtracted — so it runs after all are recovered; the
// plates then only read each other's moments and write their own shears,
// so the pass is parallel too. Plates that were not recovered (have
// false) are left out of every patch; a plate whose patch gives no fit
// keeps its in-element shears.
func (a *analysis) patchShears(plates []PlateResult, have []bool) {
	np := len(plates)
	if np == 0 {
		return
	}
	m, f := make([][3]float64, np), make([][3]float64, np)
	for i := range plates {
		m[i], f[i] = plates[i].Resultants.M, plates[i].Resultants.F
	}
	alone := make([]bool, np) // Kirchhoff plates left with their in-element shears
	par.Chunks(np, recoverChunk, func(_, lo, hi int) {
		fit := a.d.ShearFitter(m, f, have)
		for i := lo; i < hi; i++ {
			v, how := fit(i)
			if how == shell.FitNone {
				alone[i] = have[i] && a.d.Plates[i].El.Theory == shell.Kirchhoff
				continue
			}
			p := &plates[i]
			p.Resultants.V = v
			p.Stresses = a.d.Plates[i].Stresses(p.Resultants)
		}
	})
	// Which plates have no fit depends on the mesh, not the case: say so
	// once per analysis (cases are recovered in parallel, hence the Once).
	a.shearAlone.Do(func() {
		var ids []int64
		for i, v := range alone {
			if v {
				ids = append(ids, a.d.Plates[i].PlateID)
			}
		}
		if len(ids) > 0 {
			a.warn("%d thin (Kirchhoff) plate(s) have too few coplanar Kirchhoff neighbours for the shear fit, so their transverse "+
				"shears come from their own moment gradient, which is coarser: %s", len(ids), domain.ListIDs(ids, 10))
		}
	})
}

// grow returns buf resized to n zeros.
func grow(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}
