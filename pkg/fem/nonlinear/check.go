package nonlinear

import (
	"fmt"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/element"
	"github.com/gusset/gusset/pkg/fem/geom"
)

// checkScope refuses what the analysis in theory th does not support yet
// (package doc, "Not supported yet"), naming the member, plate, node or
// case.
func checkScope(d *domain.Domain, name string, th Theory) error {
	if d.DOF == nil {
		return fmt.Errorf("the domain was built without supports (MembersOnly); no analysis runs on it")
	}
	if th == Small {
		return checkSmall(d, name)
	}
	m := d.Model
	if len(m.Plates) > 0 {
		return fmt.Errorf("plate %s: plates are not supported yet by the large-displacement analysis", m.Plates[0].ID)
	}
	if len(d.Elements) != len(d.Frames) {
		el := d.Elements[len(d.Frames)]
		return fmt.Errorf("element %s: only frame members are supported yet by the large-displacement analysis", el.Name())
	}
	for i := range m.Members {
		mm := &m.Members[i]
		switch mm.Type {
		case domain.Frame, domain.Truss:
		default:
			return fmt.Errorf("member %s: one-way members (tension-only, compression-only, cable, gap) are not supported yet by the large-displacement analysis", mm.ID)
		}
		if mm.OffsetA != (geom.Vec3{}) || mm.OffsetB != (geom.Vec3{}) {
			return fmt.Errorf("member %s: rigid end offsets are not supported yet by the large-displacement analysis", mm.ID)
		}
		if mm.Type == domain.Frame {
			r, err := element.ParseReleases(mm.ReleaseA, mm.ReleaseB, mm.SpringsA, mm.SpringsB)
			if err != nil {
				return fmt.Errorf("member %s: %w", mm.ID, err)
			}
			if r.Any() {
				return fmt.Errorf("member %s: end releases are not supported yet by the large-displacement analysis", mm.ID)
			}
		}
	}
	if err := linearSupports(m, "large-displacement analysis"); err != nil {
		return err
	}
	if len(m.Constraints) > 0 {
		return fmt.Errorf("constraint with master node %s: constraints are not supported yet by the large-displacement analysis", m.Constraints[0].Master)
	}
	if d.IsCombination(name) {
		return fmt.Errorf("load case %s is a combination: the large-displacement analysis runs primary load cases only", name)
	}
	for i := range m.LoadCases {
		lc := &m.LoadCases[i]
		if lc.Name != name {
			continue
		}
		if len(lc.Prescribed) > 0 {
			return fmt.Errorf("load case %s: prescribed displacements (node %s) are not supported yet by the large-displacement analysis", name, lc.Prescribed[0].Node)
		}
		if len(lc.Thermal) > 0 {
			return fmt.Errorf("load case %s: thermal loads (member %s) are not supported yet by the large-displacement analysis", name, lc.Thermal[0].Member)
		}
		if len(lc.Prestress) > 0 {
			return fmt.Errorf("load case %s: prestress loads (member %s) are not supported yet by the large-displacement analysis", name, lc.Prestress[0].Member)
		}
	}
	return nil
}

// checkSmall refuses what the Small theory does not support: what acts
// one way or beyond elasticity (it needs the reversal iterations of the
// linear analysis, not run here) and combinations. Everything an element
// gives through domain.Element takes part: releases, offsets, plates,
// constraints, prescribed displacements, thermal and prestress loads.
func checkSmall(d *domain.Domain, name string) error {
	m := d.Model
	for i := range m.Members {
		mm := &m.Members[i]
		switch mm.Type {
		case domain.Frame, domain.Truss:
		default:
			return fmt.Errorf("member %s: one-way members (tension-only, compression-only, cable, gap) are not supported yet by the small-displacement (P-Δ) analysis", mm.ID)
		}
	}
	if err := linearSupports(m, "small-displacement (P-Δ) analysis"); err != nil {
		return err
	}
	if d.IsCombination(name) {
		return fmt.Errorf("load case %s is a combination: the small-displacement (P-Δ) analysis runs primary load cases only", name)
	}
	return nil
}

// linearSupports refuses the supports the non-linear analyses do not
// resolve yet (variable, plastic, friction and one-way), naming the node;
// what names the analysis in the message.
func linearSupports(m *domain.Model, what string) error {
	for _, s := range m.Supports {
		for k := range 6 {
			switch s.Code[k] {
			case 'V', 'v', 'P', 'p', 'N', 'n':
				return fmt.Errorf("support at node %s: variable, plastic and friction supports (code %q) are not supported yet by the %s", s.Node, s.Code, what)
			}
			switch s.Active[k] {
			case 0, 'B', 'b':
			default:
				return fmt.Errorf("support at node %s: one-way supports are not supported yet by the %s", s.Node, what)
			}
		}
	}
	return nil
}
