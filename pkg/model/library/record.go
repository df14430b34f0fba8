package library

import "github.com/gusset/gusset/pkg/model"

// Record is the stored section of the library section s: its properties
// with unit factors, source Library and the shape of its extreme fibres.
// Every way a library section enters a job (the API's library create, a
// text file naming a library section) builds it here, so they agree.
func (s Section) Record(mark string) model.Section {
	out := model.Section{Name: s.Name, Library: s.Library, Mark: mark, A: s.A, J: s.J, Iy: s.Iy, Iz: s.Iz,
		Ay: s.Ay, Az: s.Az, Source: "Library", AreaFactor: 1, TorsionFactor: 1, IyFactor: 1, IzFactor: 1,
		AngleType: "NotApplicable", Shapes: []model.Shape{}}
	if sh := s.Shape; sh != nil {
		f := sh.ExtremeFibres()
		out.Shapes = append(out.Shapes, model.Shape{Family: string(sh.Family), D: sh.D, B: sh.B, Tf: sh.Tf, Tw: sh.Tw, T: sh.T, R: sh.R,
			YTop: f.YPos, YBtm: f.YNeg, ZTop: f.ZPos, ZBtm: f.ZNeg})
	}
	return out
}

// Record is the stored material of the library material m.
func (m Material) Record() model.Material {
	return model.Material{Name: m.Name, YoungsModulus: m.YoungsModulus, PoissonsRatio: m.PoissonsRatio,
		MassDensity: m.MassDensity, ThermalCoeff: m.ThermalCoeff, ConcreteStrength: m.ConcreteStrength,
		Source: "Library", Library: m.Library}
}
