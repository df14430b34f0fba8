package editor

import (
	"context"
	"math"
	"strings"

	"github.com/gusset/gusset/pkg/model"
)

// Structure holds the collections of the structure model and their rules.
type Structure struct {
	e           *Editor
	Nodes       *Collection[model.Node]
	Members     *Collection[model.Member]
	Plates      *Collection[model.Plate]
	Sections    *Collection[model.Section]
	Materials   *Collection[model.Material]
	Restraints  *Collection[model.NodeRestraint]
	Constraints *Collection[model.NodeConstraint]
	Offsets     *Collection[model.MemberOffset]
	dependents  []Dependent
}

// AddDependent registers the cascade of another collection (loads).
func (s *Structure) AddDependent(d Dependent) { s.dependents = append(s.dependents, d) }

// StructureCollections names the store collections of the structure model.
var StructureCollections = []string{model.CollNodes, model.CollMembers, model.CollPlates, model.CollSections,
	model.CollMaterials, model.CollNodeRestraints, model.CollNodeConstraints, model.CollMemberOffsets,
	model.CollPlateCuts, model.CollPlateStrips}

// NewStructure binds the structure collections to the editor.
func NewStructure(e *Editor) *Structure {
	s := &Structure{e: e}
	s.Nodes = NewCollection(e, idKind(Kind[model.Node]{Coll: model.CollNodes, Noun: "node", AutoKey: true,
		Strip: func(n *model.Node) {
			n.HasConstraint, n.HasRestraint, n.Constraint, n.Restraint = false, false, nil, nil
		}}, "id", func(n *model.Node) *int64 { return &n.ID }))
	s.Members = NewCollection(e, idKind(Kind[model.Member]{Coll: model.CollMembers, Noun: "member", AutoKey: true,
		Defaults: func(m *model.Member) {
			m.Releases.FixityCodeAtA, m.Releases.FixityCodeAtB = "FFFFFF", "FFFFFF"
		},
		Validate: validateMember, Refs: memberRefs,
		Strip: func(m *model.Member) { m.HasOffsets, m.Offsets = false, nil }}, "id", func(m *model.Member) *int64 { return &m.ID }))
	s.Plates = NewCollection(e, idKind(Kind[model.Plate]{Coll: model.CollPlates, Noun: "plate", AutoKey: true,
		Validate: validatePlate, Refs: plateRefs}, "id", func(p *model.Plate) *int64 { return &p.ID }))
	s.Sections = NewCollection(e, idKind(Kind[model.Section]{Coll: model.CollSections, Noun: "section", AutoKey: true,
		Defaults: func(x *model.Section) {
			x.AreaFactor, x.TorsionFactor, x.IyFactor, x.IzFactor, x.Source = 1, 1, 1, 1, "User"
		},
		Validate: validateSection, Users: s.sectionUsers}, "id", func(x *model.Section) *int64 { return &x.ID }))
	s.Materials = NewCollection(e, idKind(Kind[model.Material]{Coll: model.CollMaterials, Noun: "material", AutoKey: true,
		Defaults: func(x *model.Material) { x.Source = "User" },
		Validate: validateMaterial, Users: s.materialUsers}, "id", func(x *model.Material) *int64 { return &x.ID }))
	s.Restraints = NewCollection(e, idKind(Kind[model.NodeRestraint]{Coll: model.CollNodeRestraints, Noun: "restraint",
		Parent: model.CollNodes, ParentNoun: "node",
		Defaults: func(r *model.NodeRestraint) { r.RestraintCode, r.ActiveDirection = "FFFFFF", "BBBBBB" },
		Validate: validateRestraint}, "node", func(r *model.NodeRestraint) *int64 { return &r.Node }))
	s.Constraints = NewCollection(e, idKind(Kind[model.NodeConstraint]{Coll: model.CollNodeConstraints, Noun: "constraint",
		Parent: model.CollNodes, ParentNoun: "node",
		Defaults: func(c *model.NodeConstraint) { c.ConstraintCode = "FFFFFF" },
		Validate: validateConstraint,
		Check:    s.checkConstraintChains,
		Refs: func(c *model.NodeConstraint) []Ref {
			return []Ref{{Coll: model.CollNodes, Noun: "node", Field: "masterNode", ID: c.MasterNode}}
		}}, "slaveNode", func(c *model.NodeConstraint) *int64 { return &c.SlaveNode }))
	s.Offsets = NewCollection(e, idKind(Kind[model.MemberOffset]{Coll: model.CollMemberOffsets, Noun: "offset",
		Parent: model.CollMembers, ParentNoun: "member"}, "member", func(o *model.MemberOffset) *int64 { return &o.Member }))
	return s
}

func validCode(field, code, letters string) error {
	if len(code) != 6 || strings.Trim(code, letters) != "" {
		return model.Invalid(field, "%s must be 6 characters, each one of %s (positions TX, TY, TZ, RX, RY, RZ), got %q",
			field, strings.Join(strings.Split(letters, ""), ", "), code)
	}
	return nil
}

// named is a value with the field name errors use.
type named struct {
	name string
	v    float64
}

// nonNegative fails on the first negative value, in the order given.
func nonNegative(fields ...named) error {
	for _, f := range fields {
		if f.v < 0 {
			return model.Invalid(f.name, "%s must be zero or more, got %g", f.name, f.v)
		}
	}
	return nil
}

// normaliseDirection makes the source agree with the fields: the source
// decides, and the other two fields are zeroed.
func normaliseDirection(d *model.Direction) error {
	switch d.Source {
	case "Angle":
		d.DirNode, d.DirAxis = 0, "NotApplicable"
	case "Node":
		if d.DirNode < 1 {
			return model.Invalid("direction.dirNode", "direction.dirNode must name a node when the source is Node")
		}
		d.DirAngle, d.DirAxis = 0, "NotApplicable"
	case "Axis":
		if d.DirAxis == "" || d.DirAxis == "NotApplicable" {
			return model.Invalid("direction.dirAxis", "direction.dirAxis must be an axis when the source is Axis")
		}
		d.DirAngle, d.DirNode = 0, 0
	}
	if math.IsNaN(d.DirAngle) || math.Abs(d.DirAngle) > 360 {
		return model.Invalid("direction.dirAngle", "direction.dirAngle is in degrees, -360 to 360, got %g", d.DirAngle)
	}
	return nil
}

func validateMember(m *model.Member) error {
	if m.NodeA == m.NodeB {
		return model.Invalid("nodeB", "nodeA and nodeB must be different nodes, both are %d", m.NodeA)
	}
	if err := normaliseDirection(&m.Direction); err != nil {
		return err
	}
	if m.Direction.Source == "Node" && (m.Direction.DirNode == m.NodeA || m.Direction.DirNode == m.NodeB) {
		return model.Invalid("direction.dirNode", "the direction node %d is an end of the member; pick a node off the member line", m.Direction.DirNode)
	}
	r := &m.Releases
	if err := validCode("releases.fixityCodeAtA", r.FixityCodeAtA, "FRS"); err != nil {
		return err
	}
	if err := validCode("releases.fixityCodeAtB", r.FixityCodeAtB, "FRS"); err != nil {
		return err
	}
	return nonNegative(
		named{"cableLength", m.CableLength}, named{"gapTensionLimit", m.GapTensionLimit}, named{"gapCompressionLimit", m.GapCompressionLimit},
		named{"fuseTensionLimit", m.FuseTensionLimit}, named{"fuseCompressionLimit", m.FuseCompressionLimit}, named{"releases.txStiffnessAtA", r.TxStiffnessAtA},
		named{"releases.tyStiffnessAtA", r.TyStiffnessAtA}, named{"releases.tzStiffnessAtA", r.TzStiffnessAtA}, named{"releases.rxStiffnessAtA", r.RxStiffnessAtA},
		named{"releases.ryStiffnessAtA", r.RyStiffnessAtA}, named{"releases.rzStiffnessAtA", r.RzStiffnessAtA}, named{"releases.txStiffnessAtB", r.TxStiffnessAtB},
		named{"releases.tyStiffnessAtB", r.TyStiffnessAtB}, named{"releases.tzStiffnessAtB", r.TzStiffnessAtB}, named{"releases.rxStiffnessAtB", r.RxStiffnessAtB},
		named{"releases.ryStiffnessAtB", r.RyStiffnessAtB}, named{"releases.rzStiffnessAtB", r.RzStiffnessAtB},
	)
}

func memberRefs(m *model.Member) []Ref {
	refs := []Ref{{model.CollNodes, "node", "nodeA", m.NodeA}, {model.CollNodes, "node", "nodeB", m.NodeB},
		{model.CollSections, "section", "section", m.Section}, {model.CollMaterials, "material", "material", m.Material}}
	if m.Direction.Source == "Node" {
		refs = append(refs, Ref{model.CollNodes, "node", "direction.dirNode", m.Direction.DirNode})
	}
	return refs
}

func validatePlate(p *model.Plate) error {
	corners := plateNodes(p)
	for i := range corners {
		for j := i + 1; j < len(corners); j++ {
			if corners[i] == corners[j] {
				return model.Invalid("nodeD", "the corner nodes must be distinct; node %d appears twice", corners[i])
			}
		}
	}
	if p.NodeD < 0 {
		return model.Invalid("nodeD", "nodeD is a node id, or 0 for a triangular plate")
	}
	// Thicknesses left at zero follow the actual thickness; an actual
	// thickness of 0 is one not given yet (the interface requires only the
	// corners), which an analysis refuses (IncompletePlates).
	for _, t := range []*float64{&p.MembraneThickness, &p.BendingThickness, &p.ShearThickness} {
		if *t == 0 {
			*t = p.ActualThickness
		}
	}
	for name, t := range map[string]float64{"actualThickness": p.ActualThickness, "membraneThickness": p.MembraneThickness,
		"bendingThickness": p.BendingThickness, "shearThickness": p.ShearThickness} {
		if t < 0 {
			return model.Invalid(name, "%s must be zero or more, got %g", name, t)
		}
	}
	if err := normaliseDirection(&p.Direction); err != nil {
		return err
	}
	return nil
}

func plateRefs(p *model.Plate) []Ref {
	var refs []Ref
	if p.Material != 0 { // 0: no material yet
		refs = append(refs, Ref{model.CollMaterials, "material", "material", p.Material})
	}
	for i, n := range plateNodes(p) {
		refs = append(refs, Ref{model.CollNodes, "node", "node" + string(rune('A'+i)), n})
	}
	if p.Direction.Source == "Node" {
		refs = append(refs, Ref{model.CollNodes, "node", "direction.dirNode", p.Direction.DirNode})
	}
	return refs
}

func validateSection(x *model.Section) error {
	if strings.TrimSpace(x.Name) == "" {
		return model.Invalid("name", "name must not be empty")
	}
	for name, v := range map[string]float64{"a": x.A, "j": x.J, "iy": x.Iy, "iz": x.Iz, "ay": x.Ay, "az": x.Az,
		"areaFactor": x.AreaFactor, "torsionFactor": x.TorsionFactor, "iyFactor": x.IyFactor, "izFactor": x.IzFactor} {
		if !(v > 0) {
			return model.Invalid(name, "%s must be greater than zero, got %g", name, v)
		}
	}
	if math.Abs(x.PrincipalAngle) > 360 {
		return model.Invalid("principalAngle", "principalAngle is in degrees, -360 to 360, got %g", x.PrincipalAngle)
	}
	return nil
}

func validateMaterial(m *model.Material) error {
	if strings.TrimSpace(m.Name) == "" {
		return model.Invalid("name", "name must not be empty")
	}
	if !(m.YoungsModulus > 0) {
		return model.Invalid("youngsModulus", "youngsModulus must be greater than zero, got %g", m.YoungsModulus)
	}
	if !(m.PoissonsRatio > -1 && m.PoissonsRatio < 0.5) {
		return model.Invalid("poissonsRatio", "poissonsRatio must lie between -1 and 0.5 (exclusive), got %g", m.PoissonsRatio)
	}
	return nonNegative(named{"massDensity", m.MassDensity}, named{"concreteStrength", m.ConcreteStrength})
}

// restraintTables pairs each direction with its table and code position.
func restraintTables(r *model.NodeRestraint) []struct {
	dir   string
	table **model.Table
} {
	return []struct {
		dir   string
		table **model.Table
	}{{"Tx", &r.TxVariableTable}, {"Ty", &r.TyVariableTable}, {"Tz", &r.TzVariableTable},
		{"Rx", &r.RxVariableTable}, {"Ry", &r.RyVariableTable}, {"Rz", &r.RzVariableTable}}
}

// MaxTableRows is the most points a restraint table may have.
const MaxTableRows = 15

// ValidateTable checks a restraint table: 1 to 15 rows of [x, y], the
// first x zero, x increasing, x and y not negative.
func ValidateTable(field string, t *model.Table) error {
	if t == nil || len(t.Rows) == 0 || len(t.Rows) > MaxTableRows {
		n := 0
		if t != nil {
			n = len(t.Rows)
		}
		return model.Invalid(field, "%s needs 1 to %d rows, got %d", field, MaxTableRows, n)
	}
	seen := map[float64]bool{}
	for i, row := range t.Rows {
		if len(row) != 2 {
			return model.Invalid(field, "%s row %d must be [x, y], got %d values", field, i, len(row))
		}
		if row[0] < 0 || row[1] < 0 {
			return model.Invalid(field, "%s row %d: x and y must be zero or more, got [%g, %g]", field, i, row[0], row[1])
		}
		if seen[row[0]] {
			return model.Invalid(field, "%s row %d: x = %g appears twice", field, i, row[0])
		}
		seen[row[0]] = true
		// The spring law reads the rows as segments in order of x.
		if i > 0 && row[0] < t.Rows[i-1][0] {
			return model.Invalid(field, "%s row %d: x = %g comes before the previous row's %g; list rows by increasing x", field, i, row[0], t.Rows[i-1][0])
		}
	}
	if t.Rows[0][0] != 0 {
		return model.Invalid(field, "%s: the first row must have x = 0, got %g", field, t.Rows[0][0])
	}
	return nil
}

func validateRestraint(r *model.NodeRestraint) error {
	if err := validCode("restraintCode", r.RestraintCode, "FRSVPN"); err != nil {
		return err
	}
	if err := validCode("activeDirection", r.ActiveDirection, "BPN"); err != nil {
		return err
	}
	for i, t := range restraintTables(r) {
		field := strings.ToLower(t.dir[:1]) + t.dir[1:] + "VariableTable"
		if *t.table == nil || len((*t.table).Rows) == 0 {
			*t.table = nil
			continue
		}
		if r.RestraintCode[i] != 'V' {
			return model.Invalid(field, "%s is set but restraintCode position %d (%s) is %q; it must be V for a variable table",
				field, i+1, strings.ToUpper(t.dir), string(r.RestraintCode[i]))
		}
		if err := ValidateTable(field, *t.table); err != nil {
			return err
		}
	}
	return nonNegative(
		named{"txStiffness", r.TxStiffness}, named{"tyStiffness", r.TyStiffness}, named{"tzStiffness", r.TzStiffness},
		named{"rxStiffness", r.RxStiffness}, named{"ryStiffness", r.RyStiffness}, named{"rzStiffness", r.RzStiffness},
		named{"xFrictionFactor", r.XFrictionFactor}, named{"yFrictionFactor", r.YFrictionFactor}, named{"zFrictionFactor", r.ZFrictionFactor},
		named{"txPlasticLimit", r.TxPlasticLimit}, named{"tyPlasticLimit", r.TyPlasticLimit}, named{"tzPlasticLimit", r.TzPlasticLimit},
		named{"rxPlasticLimit", r.RxPlasticLimit}, named{"ryPlasticLimit", r.RyPlasticLimit}, named{"rzPlasticLimit", r.RzPlasticLimit},
	)
}

func validateConstraint(c *model.NodeConstraint) error {
	if c.MasterNode == c.SlaveNode {
		return model.Invalid("masterNode", "masterNode must differ from the slave node %d", c.SlaveNode)
	}
	if err := validCode("constraintCode", c.ConstraintCode, "FR"); err != nil {
		return err
	}
	if c.Axes == "Inclined" && c.XVector == 0 && c.YVector == 0 && c.ZVector == 0 {
		return model.Invalid("xVector", "inclined constraint axes need a non-zero vector (xVector, yVector, zVector)")
	}
	return nil
}

// TableIndex returns the code position (0..5) of a table direction name.
func TableIndex(dir string) (int, error) {
	for i, d := range []string{"Tx", "Ty", "Tz", "Rx", "Ry", "Rz"} {
		if strings.EqualFold(d, dir) {
			return i, nil
		}
	}
	return 0, model.Invalid("direction", "direction must be one of Tx, Ty, Tz, Rx, Ry, Rz, got %q", dir)
}

// Table returns the table slot of direction index i of r.
func Table(r *model.NodeRestraint, i int) **model.Table { return restraintTables(r)[i].table }

// checkConstraintChains refuses chains: the engine eliminates each slave
// in terms of its master, so a slave cannot itself be a master, nor a
// master a slave of another constraint.
func (s *Structure) checkConstraintChains(ctx context.Context, ws string, recs []*model.NodeConstraint) (map[int]error, error) {
	out := map[int]error{}
	all, err := s.Constraints.All(ctx, ws)
	if err != nil {
		return nil, err
	}
	masters, slaves := map[int64]int64{}, map[int64]bool{}
	for _, c := range all {
		masters[c.MasterNode] = c.SlaveNode
		slaves[c.SlaveNode] = true
	}
	for _, r := range recs {
		if r != nil {
			masters[r.MasterNode] = r.SlaveNode
			slaves[r.SlaveNode] = true
		}
	}
	for i, r := range recs {
		if r == nil {
			continue
		}
		switch {
		case slaves[r.MasterNode]:
			out[i] = model.Invalid("masterNode", "master node %d is itself the slave of a constraint; tie node %d to that constraint's master instead", r.MasterNode, r.SlaveNode)
		case masters[r.SlaveNode] != 0:
			out[i] = model.Invalid("slaveNode", "node %d is the master of node %d's constraint and cannot also be a slave", r.SlaveNode, masters[r.SlaveNode])
		}
	}
	return out, nil
}
