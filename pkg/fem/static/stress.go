package static

import "github.com/gusset/gusset/pkg/fem/domain"

// stressCoef are the factors turning internal forces into stresses.
type stressCoef struct {
	rA, rAy, rAz float64    // 1/A and 1/shear areas (A where 0)
	by, bz       [2]float64 // bending stress per unit My (+z, −z fibre) and Mz (+y, −y fibre)
	hasY, hasZ   bool       // bending stresses about y and z exist
}

// newStressCoef returns the stress factors of m (see stressCoef.stress).
func newStressCoef(m *domain.FrameElement) stressCoef {
	p, sec := m.Props, m.Sec
	ay, az := p.Ay, p.Az
	if ay <= 0 {
		ay = p.A
	}
	if az <= 0 {
		az = p.A
	}
	c := stressCoef{rA: 1 / p.A, rAy: 1 / ay, rAz: 1 / az}
	if !m.Type.AxialOnly() {
		if p.Iy > 0 {
			c.by, c.hasY = [2]float64{sec.ZTop / p.Iy, -sec.ZBottom / p.Iy}, true
		}
		if p.Iz > 0 {
			c.bz, c.hasZ = [2]float64{-sec.YTop / p.Iz, sec.YBottom / p.Iz}, true
		}
	}
	return c
}
