package static

import (
	"fmt"

	"github.com/gusset/gusset/pkg/fem/domain"
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
			return fmt.Errorf("element %s: %w", el.Name(), err)
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
			return fmt.Errorf("element %s: %w", el.Name(), err)
		}
		for k, g := range dofs {
			f[g] += fe[k]
		}
	}
	return nil
}

// recoverOthers returns the internal forces of the non-frame elements
// under displacements u and loads cl; switched-off elements get none.
func (a *analysis) recoverOthers(s *system, cl *caseLoads, u []float64) ([]ElementResult, error) {
	others := a.others()
	if len(others) == 0 {
		return nil, nil
	}
	out := make([]ElementResult, len(others))
	var ue []float64
	var dofs []int
	for i, el := range others {
		out[i].Element = el.Name()
		if !s.st.active(len(a.frames) + i) {
			continue
		}
		dofs = domain.DOFs(el, dofs[:0])
		ue = grow(ue, len(dofs))
		for k, g := range dofs {
			ue[k] = u[g]
		}
		out[i].Forces = make([]float64, el.NumForces())
		if err := el.InternalForces(ue, cl.loads(), out[i].Forces); err != nil {
			return nil, fmt.Errorf("element %s: %w", el.Name(), err)
		}
	}
	return out, nil
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
