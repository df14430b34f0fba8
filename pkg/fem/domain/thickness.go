package domain

// Rigidities returns the thicknesses of the plate's membrane, bending and
// shear rigidities, m: each its own value, or the actual thickness where
// that is 0. Recovery of stresses after the analysis (from stored
// resultants) needs the same rule as the element does.
func (p *Plate) Rigidities() (membrane, bending, shear float64) {
	or := func(v float64) float64 {
		if v == 0 {
			return p.Thickness
		}
		return v
	}
	return or(p.Membrane), or(p.Bending), or(p.Shear)
}
