package adapter

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/model"
)

// Source reads the stored model of a workspace.
type Source struct {
	Structure *editor.Structure
	Loads     *editor.Loads
}

// Input is the engine model of a job and what the conversion had to say.
type Input struct {
	Model *domain.Model
	// Warnings name what the conversion left out or read in a way the
	// user may not expect, so that a run can report them. Lumped masses
	// are carried to the load cases (domain.LoadCase.Masses): eigen
	// analyses use them, static ones do not need them.
	Warnings []string
	// StepCases are the Step load cases of the job (load steps an earlier
	// non-linear run kept), by id, with the case each is a step of. They
	// are results, not loads: the engine model leaves them out.
	StepCases map[int64]int64
	// LastCase is the largest id of the other load cases and combinations
	// (0 when there are none).
	LastCase int64
}

const degree = math.Pi / 180

var axisNames = map[string]geom.Axis{"XAxis": geom.XAxis, "YAxis": geom.YAxis, "ZAxis": geom.ZAxis,
	"NegativeXAxis": geom.NegativeXAxis, "NegativeYAxis": geom.NegativeYAxis, "NegativeZAxis": geom.NegativeZAxis}

var memberTypes = map[string]domain.MemberType{"Normal": domain.Frame, "Truss": domain.Truss, "TensionOnly": domain.TensionOnly,
	"CompressionOnly": domain.CompressionOnly, "Cable": domain.Cable, "Gap": domain.Gap,
	// Fuses and pulleys behave as ordinary members in a linear analysis.
	"BrittleFuse": domain.Frame, "PlasticFuse": domain.Frame, "Pulley": domain.Frame}

// loadAxesNames and positionKinds map the axes and positionUnits of member
// loads.
var loadAxesNames = map[string]domain.LoadAxes{"Local": domain.Local, "GlobalInclined": domain.GlobalInclined,
	"GlobalProjected": domain.GlobalProjected}

var positionKinds = map[string]domain.PositionKind{"Actual": domain.Actual, "Percent": domain.Percent}

// The stored values are checked on the way in (the HTTP edge and
// editor.CheckSnapshot), but a value these maps do not hold is never given
// a default meaning: the conversion fails naming the row and the value.
func unknownValue(what string, id any, field, value string) error {
	return model.E(model.KindValidation, "%s %v: %s %q is not a value the analysis knows", what, id, field, value)
}

// Build reads every collection of the open job and converts it. Values
// are SI on both sides; ids pass to the engine as they are.
func Build(ctx context.Context, src Source, ws string, settings model.Settings) (Input, error) {
	b := &builder{ctx: ctx, src: src, ws: ws, m: &domain.Model{VerticalAxis: editor.VerticalAxis(settings.VerticalAxis)}}
	steps := []func() error{b.nodes, b.materials, b.sections, b.members, b.plates, b.supports, b.constraints, b.cases}
	for _, step := range steps {
		if err := step(); err != nil {
			return Input{}, fmt.Errorf("read the model for analysis: %w", err)
		}
	}
	sort.Strings(b.warnings)
	return Input{Model: b.m, Warnings: b.warnings, StepCases: b.steps, LastCase: b.lastCase}, nil
}

// BuildMembers converts the part of the model that the results along
// some members need (static.Stations): those members with their nodes,
// offsets, sections and materials, and the load cases cases (and the
// components of those that are combinations) with the loads on those
// members only. Supports, constraints and node loads are left out: they
// do not act along a member.
func BuildMembers(ctx context.Context, src Source, ws string, settings model.Settings, members, cases []int64) (*domain.Model, error) {
	b := &builder{ctx: ctx, src: src, ws: ws, m: &domain.Model{VerticalAxis: editor.VerticalAxis(settings.VerticalAxis)},
		sub: &subset{ids: members, members: make(map[int64]bool, len(members)), cases: cases}}
	for _, id := range members {
		b.sub.members[id] = true
	}
	steps := []func() error{b.materials, b.sections, b.members, b.nodes, b.cases}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, fmt.Errorf("read the model for member results: %w", err)
		}
	}
	return b.m, nil
}

// subset is what BuildMembers reads.
type subset struct {
	ids     []int64 // members, ascending
	members map[int64]bool
	nodes   []int64 // the members' end and direction nodes
	cases   []int64
	// loadCases lists the primary cases whose loads are read.
	loadCases *model.IDList
}

// wants reports whether a load on member m belongs to the model built.
func (b *builder) wants(m int64) bool { return b.sub == nil || b.sub.members[m] }

type builder struct {
	ctx      context.Context
	src      Source
	ws       string
	m        *domain.Model
	warnings []string
	// steps and lastCase are Input.StepCases and Input.LastCase.
	steps    map[int64]int64
	lastCase int64
	// yGrad counts the plate thermal loads with a yThermalGradient, which
	// is left out; yGradAt names the first.
	yGrad   int
	yGradAt string
	sub     *subset // nil: the whole model
	// primary maps a stored case id to its index in Model.LoadCases.
	primary map[int64]int
}

func (b *builder) warn(format string, args ...any) {
	b.warnings = append(b.warnings, fmt.Sprintf(format, args...))
}

func (b *builder) nodes() error {
	var nodes []model.Node
	var err error
	if b.sub != nil {
		nodes, err = getMany(b.ctx, b.src.Structure.Nodes, b.ws, b.sub.nodes)
	} else {
		nodes, err = b.src.Structure.Nodes.All(b.ctx, b.ws)
	}
	for _, n := range nodes {
		b.m.Nodes = append(b.m.Nodes, domain.Node{ID: n.ID, X: n.X, Y: n.Y, Z: n.Z})
	}
	return err
}

func (b *builder) materials() error {
	mats, err := b.src.Structure.Materials.All(b.ctx, b.ws)
	for _, x := range mats {
		b.m.Materials = append(b.m.Materials, domain.Material{ID: x.ID, E: x.YoungsModulus,
			G: x.YoungsModulus / (2 * (1 + x.PoissonsRatio)), Density: x.MassDensity, Alpha: x.ThermalCoeff})
	}
	return err
}

func (b *builder) sections() error {
	secs, err := b.src.Structure.Sections.All(b.ctx, b.ws)
	for _, x := range secs {
		s := domain.Section{ID: x.ID, A: x.A, Ay: x.Ay, Az: x.Az, J: x.J, Iy: x.Iy, Iz: x.Iz,
			PrincipalAngle: x.PrincipalAngle * degree}
		if len(x.Shapes) > 0 {
			sh := x.Shapes[0]
			s.YTop, s.YBottom, s.ZTop, s.ZBottom = sh.YTop, sh.YBtm, sh.ZTop, sh.ZBtm
		}
		b.m.Sections = append(b.m.Sections, s)
	}
	return err
}

func (b *builder) members() error {
	st := b.src.Structure
	var members []model.Member
	var offs []model.MemberOffset
	var err error
	if b.sub != nil {
		if members, err = getMany(b.ctx, st.Members, b.ws, b.sub.ids); err != nil {
			return err
		}
		if offs, err = getMany(b.ctx, st.Offsets, b.ws, b.sub.ids); err != nil {
			return err
		}
		nodes := make([]int64, 0, 2*len(members))
		for _, m := range members {
			nodes = append(nodes, m.NodeA, m.NodeB)
			if m.Direction.Source == "Node" {
				nodes = append(nodes, m.Direction.DirNode)
			}
		}
		slices.Sort(nodes)
		b.sub.nodes = slices.Compact(nodes)
	} else {
		if members, err = st.Members.All(b.ctx, b.ws); err != nil {
			return err
		}
		if offs, err = st.Offsets.All(b.ctx, b.ws); err != nil {
			return err
		}
	}
	offByMember := map[int64]model.MemberOffset{}
	for _, o := range offs {
		offByMember[o.Member] = o
	}
	secs, err := st.Sections.All(b.ctx, b.ws)
	if err != nil {
		return err
	}
	secByID := map[int64]model.Section{}
	for _, s := range secs {
		secByID[s.ID] = s
	}
	for _, m := range members {
		r := m.Releases
		mt, ok := memberTypes[m.Type]
		if !ok {
			return unknownValue("member", m.ID, "type", m.Type)
		}
		em := domain.Member{ID: m.ID, Type: mt, NodeA: m.NodeA, NodeB: m.NodeB,
			Section: m.Section, Material: m.Material,
			ReleaseA: r.FixityCodeAtA, ReleaseB: r.FixityCodeAtB,
			SpringsA:  [6]float64{r.TxStiffnessAtA, r.TyStiffnessAtA, r.TzStiffnessAtA, r.RxStiffnessAtA, r.RyStiffnessAtA, r.RzStiffnessAtA},
			SpringsB:  [6]float64{r.TxStiffnessAtB, r.TyStiffnessAtB, r.TzStiffnessAtB, r.RxStiffnessAtB, r.RyStiffnessAtB, r.RzStiffnessAtB},
			Direction: geom.Direction{Angle: m.Direction.DirAngle * degree}}
		switch m.Direction.Source {
		case "Angle":
		case "Node":
			em.Direction.Kind, em.DirectionNode = geom.DirectionNode, m.Direction.DirNode
		case "Axis":
			ax, ok := axisNames[m.Direction.DirAxis]
			if !ok {
				return unknownValue("member", m.ID, "direction.dirAxis", m.Direction.DirAxis)
			}
			em.Direction.Kind, em.Direction.Axis = geom.DirectionAxis, ax
		default:
			return unknownValue("member", m.ID, "direction.source", m.Direction.Source)
		}
		if m.Type == "BrittleFuse" || m.Type == "PlasticFuse" || m.Type == "Pulley" {
			b.warn("member %d (%s) acts as a normal member in a linear analysis", m.ID, m.Type)
		}
		// The non-linear analysis reads these; the linear ones ignore them.
		em.CableLength, em.GapTension, em.GapCompression = m.CableLength, m.GapTensionLimit, m.GapCompressionLimit
		switch m.Type {
		case "BrittleFuse":
			em.Fuse = domain.BrittleFuse
		case "PlasticFuse":
			em.Fuse = domain.PlasticFuse
		case "Pulley":
			em.Pulley = true
		}
		if em.Fuse != domain.NoFuse {
			em.FuseTension, em.FuseCompression = m.FuseTensionLimit, m.FuseCompressionLimit
		}
		if s, ok := secByID[m.Section]; ok {
			em.AreaFactor, em.TorsionFactor, em.IyFactor, em.IzFactor = s.AreaFactor, s.TorsionFactor, s.IyFactor, s.IzFactor
		}
		if o, ok := offByMember[m.ID]; ok {
			if o.Axes != "Global" && o.Axes != "Local" {
				return unknownValue("offset of member", m.ID, "axes", o.Axes)
			}
			em.OffsetA = geom.Vec3{o.XOffsetAtA, o.YOffsetAtA, o.ZOffsetAtA}
			em.OffsetB = geom.Vec3{o.XOffsetAtB, o.YOffsetAtB, o.ZOffsetAtB}
			em.OffsetsLocal = o.Axes == "Local"
		}
		b.m.Members = append(b.m.Members, em)
	}
	return nil
}

func (b *builder) supports() error {
	rs, err := b.src.Structure.Restraints.All(b.ctx, b.ws)
	for _, r := range rs {
		s := domain.Support{Node: r.Node, Code: r.RestraintCode,
			Springs: [6]float64{r.TxStiffness, r.TyStiffness, r.TzStiffness, r.RxStiffness, r.RyStiffness, r.RzStiffness},
			PlasticLimit: [6]float64{r.TxPlasticLimit, r.TyPlasticLimit, r.TzPlasticLimit,
				r.RxPlasticLimit, r.RyPlasticLimit, r.RzPlasticLimit}}
		for i, f := range [3]struct {
			axis, dir string
			mu        float64
		}{{r.XFrictionNormalAxis, r.XFrictionNormalDirection, r.XFrictionFactor},
			{r.YFrictionNormalAxis, r.YFrictionNormalDirection, r.YFrictionFactor},
			{r.ZFrictionNormalAxis, r.ZFrictionNormalDirection, r.ZFrictionFactor}} {
			ax, ok := frictionAxes[f.axis]
			if !ok {
				return unknownValue("restraint of node", r.Node, strings.ToLower("XYZ"[i:i+1])+"FrictionNormalAxis", f.axis)
			}
			sign, ok := frictionSigns[f.dir]
			if !ok {
				return unknownValue("restraint of node", r.Node, strings.ToLower("XYZ"[i:i+1])+"FrictionNormalDirection", f.dir)
			}
			s.Friction[i] = domain.Friction{Normal: ax, Sign: sign, Factor: f.mu}
		}
		for i := 0; i < 6; i++ {
			if t := *editor.Table(&r, i); t != nil {
				s.Tables[i] = segments(t)
			}
			if c := r.ActiveDirection[i]; c == 'P' || c == 'N' {
				s.Active[i] = c
			}
		}
		b.m.Supports = append(b.m.Supports, s)
	}
	return err
}

// frictionAxes and frictionSigns map a restraint's friction normal axis
// and direction ("None" and "Either", the defaults, and unset map to the
// zero values: no normal, either sign).
var (
	frictionAxes  = map[string]geom.Axis{"": 0, "None": 0, "XAxis": geom.XAxis, "YAxis": geom.YAxis, "ZAxis": geom.ZAxis}
	frictionSigns = map[string]int{"": 0, "Either": 0, "PositiveOnly": 1, "NegativeOnly": -1}
)

// segments turns a table of [x, stiffness] rows into spring segments: each
// row's stiffness holds up to the next row's x.
func segments(t *model.Table) []domain.SpringSegment {
	out := make([]domain.SpringSegment, len(t.Rows))
	for i, row := range t.Rows {
		limit := math.Inf(1)
		if i+1 < len(t.Rows) {
			limit = t.Rows[i+1][0]
		}
		out[i] = domain.SpringSegment{Stiffness: row[1], Limit: limit}
	}
	return out
}

func (b *builder) constraints() error {
	cs, err := b.src.Structure.Constraints.All(b.ctx, b.ws)
	for _, c := range cs {
		ec := domain.Constraint{Master: c.MasterNode, Slaves: []int64{c.SlaveNode}, Code: c.ConstraintCode}
		if c.Axes != "Global" && c.Axes != "Inclined" {
			return unknownValue("constraint of node", c.SlaveNode, "axes", c.Axes)
		}
		if c.Axes == "Inclined" {
			// The vector is the constraint's x axis; y and z complete it
			// the way member axes are completed.
			r, err := geom.LocalAxes(geom.Vec3{}, geom.Vec3{c.XVector, c.YVector, c.ZVector},
				geom.Direction{}, b.m.VerticalAxis)
			if err != nil {
				return fmt.Errorf("constraint of node %d: %w", c.SlaveNode, err)
			}
			ec.Axes = &r
		}
		b.m.Constraints = append(b.m.Constraints, ec)
	}
	return err
}

// loadCase returns the engine case of a stored case id, creating it.
func (b *builder) loadCase(lc int64) *domain.LoadCase {
	i, ok := b.primary[lc]
	if !ok {
		b.m.LoadCases = append(b.m.LoadCases, domain.LoadCase{ID: lc})
		i = len(b.m.LoadCases) - 1
		b.primary[lc] = i
	}
	return &b.m.LoadCases[i]
}

func (b *builder) cases() error {
	cases, err := b.src.Loads.Cases.All(b.ctx, b.ws)
	if err != nil {
		return err
	}
	// Step load cases hold results of load steps and carry no loads (the
	// editor refuses them any): the engine does not see them.
	b.steps = map[int64]int64{}
	cases = slices.DeleteFunc(cases, func(c model.LoadCase) bool {
		if c.StepOf != 0 {
			b.steps[c.ID] = c.StepOf
			return true
		}
		b.lastCase = max(b.lastCase, c.ID)
		return false
	})
	need := b.neededCases(cases)
	// Every non-combination case exists in the engine, loaded or not, so
	// that combinations and results can name it.
	b.primary = map[int64]int{}
	for _, c := range cases {
		if len(c.CombinationItems) == 0 && need(c.ID) {
			b.loadCase(c.ID)
		}
	}
	for _, c := range cases {
		if len(c.CombinationItems) == 0 || !need(c.ID) {
			continue
		}
		comb := domain.Combination{ID: c.ID}
		for _, it := range c.CombinationItems {
			comb.Terms = append(comb.Terms, domain.Term{Case: it.LoadCase, Factor: it.MultiplyingFactor})
		}
		b.m.Combinations = append(b.m.Combinations, comb)
	}
	return b.loads()
}
