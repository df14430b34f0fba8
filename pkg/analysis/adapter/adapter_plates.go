package adapter

import (
	"fmt"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/shell"
	"github.com/gusset/gusset/pkg/model"
)

// plateTheories maps the stored plate theory; the spelling Kirchoff is the
// interface's.
var plateTheories = map[string]shell.Theory{"Kirchoff": shell.Kirchhoff, "Mindlin": shell.Mindlin}

// PlateOf converts a stored plate. Thicknesses are SI (m) on both sides;
// the direction angle stays in degrees, as domain.Plate takes it.
func PlateOf(p *model.Plate) (domain.Plate, error) {
	th, ok := plateTheories[p.Theory]
	if !ok {
		return domain.Plate{}, unknownValue("plate", p.ID, "theory", p.Theory)
	}
	nodes := []int64{p.NodeA, p.NodeB, p.NodeC}
	if p.NodeD != 0 {
		nodes = append(nodes, p.NodeD)
	}
	ep := domain.Plate{ID: p.ID, Nodes: nodes, Material: p.Material, Theory: th,
		Thickness: p.ActualThickness, Membrane: p.MembraneThickness, Bending: p.BendingThickness, Shear: p.ShearThickness,
		Offset: p.Offset}
	switch p.Direction.Source {
	case "Angle", "":
		ep.DirectionAngle = p.Direction.DirAngle
	case "Node":
		ep.DirectionNode = p.Direction.DirNode
	case "Axis":
		ax, ok := axisNames[p.Direction.DirAxis]
		if !ok {
			return ep, unknownValue("plate", p.ID, "direction.dirAxis", p.Direction.DirAxis)
		}
		ep.DirectionAxis = ax
	default:
		return ep, unknownValue("plate", p.ID, "direction.source", p.Direction.Source)
	}
	return ep, nil
}

// plates converts every plate of the model.
func (b *builder) plates() error {
	ps, err := b.src.Structure.Plates.All(b.ctx, b.ws)
	if err != nil {
		return err
	}
	b.m.Plates = make([]domain.Plate, 0, len(ps))
	for i := range ps {
		ep, err := PlateOf(&ps[i])
		if err != nil {
			return err
		}
		b.m.Plates = append(b.m.Plates, ep)
	}
	return nil
}

// plateThermal converts a thermal load on a plate: thermalLoad is the
// uniform change and zThermalGradient the gradient through the thickness
// (along the plate's local z). A plate has no local y gradient the way a
// member has, so a yThermalGradient is left out and the run says so, once
// (yGradients).
func (b *builder) plateThermal(x model.ThermalLoad) {
	if x.YThermalGradient != 0 {
		if b.yGrad == 0 {
			b.yGradAt = fmt.Sprintf("plate %d in case %d", x.ElementID, x.LoadCase)
		}
		b.yGrad++
	}
	c := b.loadCase(x.LoadCase)
	c.PlateThermal = append(c.PlateThermal, domain.PlateThermalLoad{Plate: x.ElementID, DT: x.ThermalLoad, DTz: x.ZThermalGradient})
}

// yGradients warns of the plate thermal loads whose yThermalGradient was
// left out: one line, however many.
func (b *builder) yGradients() {
	if b.yGrad > 0 {
		b.warn("%d thermal load(s) on plates have a yThermalGradient, which is left out: a plate takes thermalLoad and "+
			"zThermalGradient (through its thickness) only (the first: %s)", b.yGrad, b.yGradAt)
	}
}

// pressures converts the plate pressure loads.
func (b *builder) pressures() error {
	ps, err := b.src.Loads.Pressures.All(b.ctx, b.ws)
	if err != nil {
		return err
	}
	for _, x := range ps {
		axes, ok := loadAxesNames[x.Axes]
		if !ok {
			return unknownValue("plate pressure load", fmt.Sprintf("(loadCase %d, plate %d)", x.LoadCase, x.Plate), "axes", x.Axes)
		}
		if x.Px == 0 && x.Py == 0 && x.Pz == 0 {
			continue
		}
		c := b.loadCase(x.LoadCase)
		c.Pressures = append(c.Pressures, domain.PlatePressure{Plate: x.Plate, Axes: axes, P: [3]float64{x.Px, x.Py, x.Pz}})
	}
	return nil
}
