package domain

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/gusset/gusset/pkg/fem/dof"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/internal/par"
)

// Domain is a Model checked, indexed and prepared for analysis: node
// positions, the elements with their matrices, the DOF map with supports
// and constraints, and indexes of members, load cases and combinations.
// Build makes it once; every analysis of the model reads it and none
// changes it, so analyses may share it.
type Domain struct {
	Model *Model
	// Pos are the node positions, m, in Model.Nodes order.
	Pos []geom.Vec3
	// Frames are the members, in Model.Members order (FrameElement.Index).
	Frames []*FrameElement
	// Plates are the plates, in Model.Plates order (ShellElement.Index).
	Plates []*ShellElement
	// Elements are every element of the model: frames in member order,
	// then plates in plate order, then any other family's; analyses
	// assemble and recover through them.
	Elements []Element
	// DOF is the DOF map: supports and constraint dependences.
	DOF *dof.Map
	// Warnings are what a person should read about the model (supports
	// that act differently in a linear analysis).
	Warnings []string

	nodeIdx  map[int64]int
	secIdx   map[int64]*Section
	matIdx   map[int64]*Material
	memIdx   map[int64]int
	plateIdx map[int64]int
	// patches builds the Kirchhoff plates' shear patches when a recovery
	// first needs them (linkPatches): eigen analyses never do.
	patches     sync.Once
	caseIdx     map[int64]int
	comboIdx    map[int64]int
	membersOnly bool
}

// BuildOptions controls Build.
type BuildOptions struct {
	// MembersOnly prepares what evaluating member stations from stored end
	// states needs: nodes, members (without matrices), load cases and
	// combinations. Supports and constraints are not read, Elements and
	// DOF stay empty, and ResolveCase resolves member loads only (node
	// loads and prescribed displacements act on stations only through the
	// end states). The frames get no matrices: their Element methods and
	// End must not be called, and no analysis runs on such a domain.
	MembersOnly bool
	// Progress, when not nil, is told the fraction of members prepared,
	// possibly from several goroutines at once.
	Progress func(fraction float64)
	// Elements, when not nil, builds the elements of families other than
	// frames once nodes are indexed and frames built; they follow the
	// frames in Domain.Elements. This is where a new family plugs in.
	Elements func(d *Domain) ([]Element, error)
}

// Build checks and prepares m. What the user must fix is a *ModelError
// (a missing section or material names the member, a bad support code
// the node); other errors are internal faults.
func Build(ctx context.Context, m *Model, opts BuildOptions) (*Domain, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d := &Domain{Model: m, membersOnly: opts.MembersOnly}
	if err := d.buildMembers(opts); err != nil {
		return nil, err
	}
	if err := d.indexCases(); err != nil {
		return nil, err
	}
	if opts.MembersOnly {
		return d, nil
	}
	if err := d.buildPlates(); err != nil {
		return nil, err
	}
	d.Elements = make([]Element, 0, len(d.Frames)+len(d.Plates))
	for _, f := range d.Frames {
		d.Elements = append(d.Elements, f)
	}
	for _, p := range d.Plates {
		d.Elements = append(d.Elements, p)
	}
	if opts.Elements != nil {
		more, err := opts.Elements(d)
		if err != nil {
			return nil, err
		}
		for _, el := range more {
			for _, n := range el.Nodes() {
				if n < 0 || n >= len(d.Pos) || el.DOFsPerNode() < 1 || el.DOFsPerNode() > 6 {
					return nil, fmt.Errorf("element %d: node index %d or %d DOFs per node out of range", el.ID(), n, el.DOFsPerNode())
				}
			}
		}
		d.Elements = append(d.Elements, more...)
	}
	sup, err := d.supports()
	if err != nil {
		return nil, err
	}
	cons, err := d.constraints()
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(m.Nodes))
	for i, n := range m.Nodes {
		ids[i] = n.ID
	}
	if d.DOF, err = dof.New(d.Pos, ids, sup, cons); err != nil {
		var ie *dof.InputError
		if errors.As(err, &ie) {
			at := ModelError{Node: ie.Node}
			if ie.DOF >= 0 {
				at.DOF = dof.Names[ie.DOF]
			}
			return nil, ModelErrorf(at, "%w", ie)
		}
		return nil, err
	}
	return d, nil
}

// Node returns the index of node id in Model.Nodes.
func (d *Domain) Node(id int64) (int, bool) {
	n, ok := d.nodeIdx[id]
	return n, ok
}

// Member returns the index of member id in Model.Members.
func (d *Domain) Member(id int64) (int, bool) {
	n, ok := d.memIdx[id]
	return n, ok
}

// IsCase reports whether id is a primary load case.
func (d *Domain) IsCase(id int64) bool {
	_, ok := d.caseIdx[id]
	return ok
}

// IsCombination reports whether id is a combination.
func (d *Domain) IsCombination(id int64) bool {
	_, ok := d.comboIdx[id]
	return ok
}

func (d *Domain) warn(format string, args ...any) {
	d.Warnings = append(d.Warnings, fmt.Sprintf(format, args...))
}

// buildMembers indexes nodes, sections, materials and members and builds
// the frames in parallel; errors are reported in member order, a
// duplicate id before a later member's error.
func (d *Domain) buildMembers(opts BuildOptions) error {
	m := d.Model
	if m.VerticalAxis != 0 && m.VerticalAxis != geom.YAxis && m.VerticalAxis != geom.ZAxis {
		return ModelErrorf(ModelError{}, "vertical axis must be YAxis or ZAxis, got %v", m.VerticalAxis)
	}
	d.nodeIdx = make(map[int64]int, len(m.Nodes))
	d.Pos = make([]geom.Vec3, len(m.Nodes))
	for i, n := range m.Nodes {
		if n.ID <= 0 {
			return ModelErrorf(ModelError{Node: n.ID}, "node %d: ids must be positive", n.ID)
		}
		if _, dup := d.nodeIdx[n.ID]; dup {
			return ModelErrorf(ModelError{Node: n.ID}, "node %d is defined twice", n.ID)
		}
		d.nodeIdx[n.ID] = i
		d.Pos[i] = geom.Vec3{n.X, n.Y, n.Z}
	}
	d.secIdx = map[int64]*Section{}
	for i := range m.Sections {
		if id := m.Sections[i].ID; id <= 0 {
			return ModelErrorf(ModelError{}, "section %d: ids must be positive", id)
		}
		d.secIdx[m.Sections[i].ID] = &m.Sections[i]
	}
	d.matIdx = map[int64]*Material{}
	for i := range m.Materials {
		if id := m.Materials[i].ID; id <= 0 {
			return ModelErrorf(ModelError{}, "material %d: ids must be positive", id)
		}
		d.matIdx[m.Materials[i].ID] = &m.Materials[i]
	}
	d.Frames = make([]*FrameElement, len(m.Members))
	errs := make([]error, len(m.Members))
	var done atomic.Int64
	total := float64(len(m.Members))
	par.Chunks(len(m.Members), 256, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			d.Frames[i], errs[i] = d.buildFrame(i, !opts.MembersOnly)
		}
		if opts.Progress != nil {
			opts.Progress(float64(done.Add(int64(hi-lo))) / total)
		}
	})
	d.memIdx = make(map[int64]int, len(m.Members))
	for i := range m.Members {
		if id := m.Members[i].ID; id <= 0 {
			return ModelErrorf(ModelError{Member: id}, "member %d: ids must be positive", id)
		}
		if _, dup := d.memIdx[m.Members[i].ID]; dup {
			return ModelErrorf(ModelError{Member: m.Members[i].ID}, "member %d is defined twice", m.Members[i].ID)
		}
		d.memIdx[m.Members[i].ID] = i
		if errs[i] != nil {
			return errs[i]
		}
	}
	return nil
}

// indexCases indexes the load cases and combinations.
func (d *Domain) indexCases() error {
	m := d.Model
	d.caseIdx = map[int64]int{}
	for i, c := range m.LoadCases {
		if c.ID <= 0 {
			return ModelErrorf(ModelError{Case: c.ID}, "load case %d: ids must be positive", c.ID)
		}
		if _, dup := d.caseIdx[c.ID]; dup {
			return ModelErrorf(ModelError{Case: c.ID}, "load case %d is defined twice", c.ID)
		}
		d.caseIdx[c.ID] = i
	}
	d.comboIdx = map[int64]int{}
	for i, c := range m.Combinations {
		if c.ID <= 0 {
			return ModelErrorf(ModelError{Case: c.ID}, "combination %d: ids must be positive", c.ID)
		}
		if _, dup := d.caseIdx[c.ID]; dup {
			return ModelErrorf(ModelError{Case: c.ID}, "combination %d has the name of a load case", c.ID)
		}
		if _, dup := d.comboIdx[c.ID]; dup {
			return ModelErrorf(ModelError{Case: c.ID}, "combination %d is defined twice", c.ID)
		}
		d.comboIdx[c.ID] = i
	}
	return nil
}

// supports resolves the supports into one dof.Support per global DOF and
// records warnings.
func (d *Domain) supports() ([]dof.Support, error) {
	sup := make([]dof.Support, dof.PerNode*len(d.Pos))
	var vNodes, pNodes, nNodes []int64
	seen := make(map[int]bool)
	for _, s := range d.Model.Supports {
		n, ok := d.nodeIdx[s.Node]
		if !ok {
			return nil, ModelErrorf(ModelError{Node: s.Node}, "support: node \"%d\" does not exist", s.Node)
		}
		if seen[n] {
			return nil, ModelErrorf(ModelError{Node: s.Node}, "support: node %d has more than one support", s.Node)
		}
		seen[n] = true
		if len(s.Code) != 6 {
			return nil, ModelErrorf(ModelError{Node: s.Node}, "support at node %d: code %q must have 6 characters", s.Node, s.Code)
		}
		for k := range 6 {
			sd := &sup[6*n+k]
			switch s.Code[k] {
			case 'F', 'f':
				sd.Fixed = true
			case 'R', 'r':
			case 'S', 's':
				if !(s.Springs[k] >= 0) || math.IsInf(s.Springs[k], 0) {
					return nil, ModelErrorf(ModelError{Node: s.Node, DOF: dof.Names[k]}, "support at node %d: spring %d is %g", s.Node, k, s.Springs[k])
				}
				sd.Spring = s.Springs[k]
			case 'V', 'v':
				if len(s.Tables[k]) == 0 || !(s.Tables[k][0].Stiffness >= 0) {
					return nil, ModelErrorf(ModelError{Node: s.Node, DOF: dof.Names[k]}, "support at node %d: variable spring %d needs a table with a non-negative first stiffness", s.Node, k)
				}
				sd.Spring = s.Tables[k][0].Stiffness
				vNodes = appendOnce(vNodes, s.Node)
			case 'P', 'p':
				sd.Fixed = true
				pNodes = appendOnce(pNodes, s.Node)
			case 'N', 'n':
				sd.Fixed = true
				nNodes = appendOnce(nNodes, s.Node)
			default:
				return nil, ModelErrorf(ModelError{Node: s.Node}, "support at node %d: code %q: unknown character %q", s.Node, s.Code, s.Code[k])
			}
			switch s.Active[k] {
			case 0, 'B', 'b':
			case 'P', 'p':
				sd.OneWay = 1
			case 'N', 'n':
				sd.OneWay = -1
			default:
				return nil, ModelErrorf(ModelError{Node: s.Node, DOF: dof.Names[k]}, "support at node %d: active direction %q", s.Node, s.Active[k])
			}
		}
	}
	if len(vNodes) > 0 {
		d.warn("variable supports use the stiffness of their first segment in linear analysis at nodes %s", JoinIDs(vNodes))
	}
	if len(pNodes) > 0 {
		d.warn("plastic supports act as fixed in linear analysis at nodes %s", JoinIDs(pNodes))
	}
	if len(nNodes) > 0 {
		d.warn("friction supports act as fixed in linear analysis at nodes %s", JoinIDs(nNodes))
	}
	return sup, nil
}

func appendOnce(s []int64, v int64) []int64 {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}

// constraints resolves node ids and codes of the constraints; the DOF map
// checks the rest.
func (d *Domain) constraints() ([]dof.Constraint, error) {
	out := make([]dof.Constraint, len(d.Model.Constraints))
	for ci, c := range d.Model.Constraints {
		mn, ok := d.nodeIdx[c.Master]
		if !ok {
			return nil, ModelErrorf(ModelError{Node: c.Master}, "constraint %d: master node \"%d\" does not exist", ci, c.Master)
		}
		if len(c.Code) != 6 {
			return nil, ModelErrorf(ModelError{Node: c.Master}, "constraint %d (master %d): code %q must have 6 characters", ci, c.Master, c.Code)
		}
		dc := dof.Constraint{Master: mn, Axes: c.Axes, Slaves: make([]int, len(c.Slaves))}
		for k := range 6 {
			switch c.Code[k] {
			case 'F', 'f':
				dc.Tied[k] = true
			case 'R', 'r':
			default:
				return nil, ModelErrorf(ModelError{Node: c.Master}, "constraint %d (master %d): code %q: unknown character %q", ci, c.Master, c.Code, c.Code[k])
			}
		}
		for i, sid := range c.Slaves {
			sn, ok := d.nodeIdx[sid]
			if !ok {
				return nil, ModelErrorf(ModelError{Node: sid}, "constraint %d (master %d): slave node \"%d\" does not exist", ci, c.Master, sid)
			}
			dc.Slaves[i] = sn
		}
		out[ci] = dc
	}
	return out, nil
}
