package nonlinear

import (
	"fmt"

	"github.com/gusset/gusset/pkg/fem/dof"
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
	if len(d.Elements) != len(d.Frames)+len(d.Plates) {
		el := d.Elements[len(d.Frames)+len(d.Plates)]
		return fmt.Errorf("element %s: only frame members and plates are supported yet by the large-displacement analysis", el.Name())
	}
	for i := range m.Members {
		mm := &m.Members[i]
		if err := checkMemberLaw(mm); err != nil {
			return err
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
	cases, err := primaries(d, name)
	if err != nil {
		return err
	}
	for _, lc := range cases {
		name := lc.Name
		if len(lc.Prescribed) > 0 {
			return fmt.Errorf("load case %s: prescribed displacements (node %s) are not supported yet by the large-displacement analysis", name, lc.Prescribed[0].Node)
		}
		if len(lc.Thermal) > 0 {
			return fmt.Errorf("load case %s: thermal loads (member %s) are not supported yet by the large-displacement analysis", name, lc.Thermal[0].Member)
		}
		if len(lc.Prestress) > 0 {
			return fmt.Errorf("load case %s: prestress loads (member %s) are not supported yet by the large-displacement analysis", name, lc.Prestress[0].Member)
		}
		if len(lc.PlateThermal) > 0 {
			return fmt.Errorf("load case %s: thermal loads on plates (plate %s) are not supported yet by the large-displacement analysis", name, lc.PlateThermal[0].Plate)
		}
	}
	return nil
}

// checkSmall refuses what the Small theory does not support: pulleys,
// the support laws checkSupports refuses, prescribed displacements on
// plastic or friction DOFs. Everything an element gives
// through domain.Element takes part: releases, offsets, plates,
// constraints, prescribed displacements, thermal and prestress loads.
func checkSmall(d *domain.Domain, name string) error {
	m := d.Model
	for i := range m.Members {
		if err := checkMemberLaw(&m.Members[i]); err != nil {
			return err
		}
	}
	if err := checkSupports(m); err != nil {
		return err
	}
	cases, err := primaries(d, name)
	if err != nil {
		return err
	}
	for _, lc := range cases {
		name := lc.Name
		for _, pd := range lc.Prescribed {
			for _, s := range m.Supports {
				if s.Node != pd.Node || len(s.Code) != 6 {
					continue
				}
				for k := range 6 {
					switch s.Code[k] {
					case 'P', 'p', 'N', 'n':
						if pd.Set[k] {
							return fmt.Errorf("load case %s: prescribed displacement at node %s %s: the support there is plastic or friction, which the non-linear analysis cannot prescribe", name, pd.Node, dof.Names[k])
						}
					}
				}
			}
		}
	}
	return nil
}

// checkMemberLaw refuses the members no theory supports: pulleys, and
// fuses whose axial force a release or spring at an end takes away.
func checkMemberLaw(mm *domain.Member) error {
	if mm.Pulley {
		return fmt.Errorf("member %s: pulley members are not supported by the non-linear analysis", mm.ID)
	}
	if mm.Fuse != domain.NoFuse && mm.Type == domain.Frame {
		for _, r := range []string{mm.ReleaseA, mm.ReleaseB} {
			if r != "" && r[0] != 'F' && r[0] != 'f' {
				return fmt.Errorf("member %s: a fuse needs its axial DOF fixed at both ends (release code %q)", mm.ID, r)
			}
		}
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

// primaries returns the primary load cases whose loads case name applies,
// model order: name itself, or the components of a combination (nested
// too) with a non-zero factor (domain.Domain.Factors), so that what is
// checked of a primary case is checked of every case a combination brings
// in.
func primaries(d *domain.Domain, name string) ([]*domain.LoadCase, error) {
	f, err := d.Factors(name)
	if err != nil {
		return nil, err
	}
	var out []*domain.LoadCase
	for i := range d.Model.LoadCases {
		if lc := &d.Model.LoadCases[i]; f[lc.Name] != 0 {
			out = append(out, lc)
		}
	}
	return out, nil
}

// caseLoads resolves the loads of case name: a primary case's own, or the
// factored sum of a combination's components (domain.Domain.Combined):
// a non-linear analysis takes a combination as one load, since its
// answers do not superpose.
func caseLoads(d *domain.Domain, name string) (*domain.Loads, error) {
	if !d.IsCombination(name) {
		return d.ResolveCase(name)
	}
	l, _, err := d.Combined(name, d.ResolveCase)
	return l, err
}
