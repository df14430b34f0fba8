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
func checkScope(d *domain.Domain, caseID int64, th Theory) error {
	if d.DOF == nil {
		return fmt.Errorf("the domain was built without supports (MembersOnly); no analysis runs on it")
	}
	if th == Small {
		return checkSmall(d, caseID)
	}
	m := d.Model
	if len(d.Elements) != len(d.Frames)+len(d.Plates) {
		el := d.Elements[len(d.Frames)+len(d.Plates)]
		return domain.ModelErrorf(domain.ModelError{}, "element %d: only frame members and plates are supported yet by the large-displacement analysis", el.ID())
	}
	for i := range m.Members {
		mm := &m.Members[i]
		if err := checkMemberLaw(mm); err != nil {
			return err
		}
		if mm.OffsetA != (geom.Vec3{}) || mm.OffsetB != (geom.Vec3{}) {
			return domain.ModelErrorf(domain.ModelError{Member: mm.ID}, "member %d: rigid end offsets are not supported yet by the large-displacement analysis", mm.ID)
		}
		if mm.Type == domain.Frame {
			r, err := element.ParseReleases(mm.ReleaseA, mm.ReleaseB, mm.SpringsA, mm.SpringsB)
			if err != nil {
				return domain.ModelErrorf(domain.ModelError{Member: mm.ID}, "member %d: %w", mm.ID, err)
			}
			if r.Any() {
				return domain.ModelErrorf(domain.ModelError{Member: mm.ID}, "member %d: end releases are not supported yet by the large-displacement analysis", mm.ID)
			}
		}
	}
	if err := linearSupports(m, "large-displacement analysis"); err != nil {
		return err
	}
	if len(m.Constraints) > 0 {
		return domain.ModelErrorf(domain.ModelError{Node: m.Constraints[0].Master}, "constraint with master node %d: constraints are not supported yet by the large-displacement analysis", m.Constraints[0].Master)
	}
	cases, err := primaries(d, caseID)
	if err != nil {
		return err
	}
	for _, lc := range cases {
		id := lc.ID
		if len(lc.Prescribed) > 0 {
			return domain.ModelErrorf(domain.ModelError{Case: id, Node: lc.Prescribed[0].Node}, "load case %d: prescribed displacements (node %d) are not supported yet by the large-displacement analysis", id, lc.Prescribed[0].Node)
		}
		if len(lc.Thermal) > 0 {
			return domain.ModelErrorf(domain.ModelError{Case: id, Member: lc.Thermal[0].Member}, "load case %d: thermal loads (member %d) are not supported yet by the large-displacement analysis", id, lc.Thermal[0].Member)
		}
		if len(lc.Prestress) > 0 {
			return domain.ModelErrorf(domain.ModelError{Case: id, Member: lc.Prestress[0].Member}, "load case %d: prestress loads (member %d) are not supported yet by the large-displacement analysis", id, lc.Prestress[0].Member)
		}
		if len(lc.PlateThermal) > 0 {
			return domain.ModelErrorf(domain.ModelError{Case: id, Plate: lc.PlateThermal[0].Plate}, "load case %d: thermal loads on plates (plate %d) are not supported yet by the large-displacement analysis", id, lc.PlateThermal[0].Plate)
		}
	}
	return nil
}

// checkSmall refuses what the Small theory does not support: pulleys,
// the support laws checkSupports refuses, prescribed displacements on
// plastic or friction DOFs. Everything an element gives
// through domain.Element takes part: releases, offsets, plates,
// constraints, prescribed displacements, thermal and prestress loads.
func checkSmall(d *domain.Domain, caseID int64) error {
	m := d.Model
	for i := range m.Members {
		if err := checkMemberLaw(&m.Members[i]); err != nil {
			return err
		}
	}
	if err := checkSupports(m); err != nil {
		return err
	}
	cases, err := primaries(d, caseID)
	if err != nil {
		return err
	}
	for _, lc := range cases {
		id := lc.ID
		for _, pd := range lc.Prescribed {
			for _, s := range m.Supports {
				if s.Node != pd.Node || len(s.Code) != 6 {
					continue
				}
				for k := range 6 {
					switch s.Code[k] {
					case 'P', 'p', 'N', 'n':
						if pd.Set[k] {
							return domain.ModelErrorf(domain.ModelError{Case: id, Node: pd.Node, DOF: dof.Names[k]}, "load case %d: prescribed displacement at node %d %s: the support there is plastic or friction, which the non-linear analysis cannot prescribe", id, pd.Node, dof.Names[k])
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
		return domain.ModelErrorf(domain.ModelError{Member: mm.ID}, "member %d: pulley members are not supported by the non-linear analysis", mm.ID)
	}
	if mm.Fuse != domain.NoFuse && mm.Type == domain.Frame {
		for _, r := range []string{mm.ReleaseA, mm.ReleaseB} {
			if r != "" && r[0] != 'F' && r[0] != 'f' {
				return domain.ModelErrorf(domain.ModelError{Member: mm.ID}, "member %d: a fuse needs its axial DOF fixed at both ends (release code %q)", mm.ID, r)
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
				return domain.ModelErrorf(domain.ModelError{Node: s.Node}, "support at node %d: variable, plastic and friction supports (code %q) are not supported yet by the %s", s.Node, s.Code, what)
			}
			switch s.Active[k] {
			case 0, 'B', 'b':
			default:
				return domain.ModelErrorf(domain.ModelError{Node: s.Node, DOF: dof.Names[k]}, "support at node %d: one-way supports are not supported yet by the %s", s.Node, what)
			}
		}
	}
	return nil
}

// primaries returns the primary load cases whose loads case caseID applies,
// model order: caseID itself, or the components of a combination (nested
// too) with a non-zero factor (domain.Domain.Factors), so that what is
// checked of a primary case is checked of every case a combination brings
// in.
func primaries(d *domain.Domain, caseID int64) ([]*domain.LoadCase, error) {
	f, err := d.Factors(caseID)
	if err != nil {
		return nil, err
	}
	var out []*domain.LoadCase
	for i := range d.Model.LoadCases {
		if lc := &d.Model.LoadCases[i]; f[lc.ID] != 0 {
			out = append(out, lc)
		}
	}
	return out, nil
}

// caseLoads resolves the loads of case caseID: a primary case's own, or the
// factored sum of a combination's components (domain.Domain.Combined):
// a non-linear analysis takes a combination as one load, since its
// answers do not superpose.
func caseLoads(d *domain.Domain, caseID int64) (*domain.Loads, error) {
	if !d.IsCombination(caseID) {
		return d.ResolveCase(caseID)
	}
	l, _, err := d.Combined(caseID, d.ResolveCase)
	return l, err
}
