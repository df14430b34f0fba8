package sgtext

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/model/library"
	"github.com/gusset/gusset/pkg/store"
)

var (
	memberTypes = []code{{"N", "Normal"}, {"T", "TensionOnly"}, {"C", "CompressionOnly"}, {"A", "Cable"}, {"G", "Gap"},
		{"B", "BrittleFuse"}, {"P", "PlasticFuse"}, {"U", "Pulley"}, {"K", "Truss"}}
	dirAxes = []code{{"X", "XAxis"}, {"Y", "YAxis"}, {"Z", "ZAxis"}, {"-X", "NegativeXAxis"}, {"-Y", "NegativeYAxis"},
		{"-Z", "NegativeZAxis"}, {"+X", "XAxis"}, {"+Y", "YAxis"}, {"+Z", "ZAxis"}}
	plateTypes    = []code{{"K", "Kirchoff"}, {"M", "Mindlin"}}
	offsetAxes    = []code{{"G", "Global"}, {"L", "Local"}}
	constrainAxes = []code{{"G", "Global"}, {"I", "Inclined"}}
	normalAxes    = []code{{"X", "XAxis"}, {"Y", "YAxis"}, {"Z", "ZAxis"}}
	normalDirs    = []code{{"E", "Either"}, {"P", "PositiveOnly"}, {"N", "NegativeOnly"}}
	yesNo         = []code{{"Y", "Y"}, {"N", "N"}}
	angleTypes    = []code{{"NotApplicable", "NotApplicable"}, {"SingleType", "SingleType"}, {"ShortShort", "ShortShort"},
		{"LongLong", "LongLong"}, {"Starred", "Starred"}}
)

// fixity reads a 6-letter code of the letters allowed.
func (r *row) fixity(i int, name, letters, def string) string {
	s := strings.ToUpper(r.raw(i))
	if s == "" {
		return def
	}
	if len(s) != 6 || strings.Trim(s, letters) != "" {
		r.fail(i, name, "%q is not a code of 6 letters %s", r.raw(i), strings.Join(strings.Split(letters, ""), "/"))
		return def
	}
	return s
}

// readDirection reads DirAng,DirNode,DirAxis from item i on.
func readDirection(r *row, i int) model.Direction {
	ang, node, axis := r.num(i, "DirAng"), r.ref(i+1, "DirNode"), r.pick(i+2, "DirAxis", dirAxes, "")
	switch {
	case node != 0:
		return model.Direction{Source: "Node", DirNode: node, DirAxis: "NotApplicable"}
	case axis != "":
		return model.Direction{Source: "Axis", DirAxis: axis}
	}
	return model.Direction{Source: "Angle", DirAngle: ang, DirAxis: "NotApplicable"}
}

func writeDirection(w *writer, d model.Direction) {
	switch d.Source {
	case "Node":
		w.num(0)
		w.int(d.DirNode)
		w.code("")
	case "Axis":
		w.num(0)
		w.int(0)
		w.code(fileCode(dirAxes, d.DirAxis, ""))
	default:
		w.num(d.DirAngle)
		w.int(0)
		w.code("")
	}
}

func readHeading(b *builder, r *row) {
	b.headings++
	h := r.raw(0)
	if len(r.items) > 1 {
		h = strings.Join(r.items, ",")
	}
	h = strings.ReplaceAll(h, "||", "\n")
	var p model.HeadingsPatch
	switch b.headings {
	case 1:
		p.ProjectHeading = &h
	case 2:
		p.Heading = &h
	case 3:
		p.DesignerInitials = &h
	case 4:
		p.Notes = &h
	default:
		r.err = lineError(r.line, "HEADINGS has four lines at most: project heading, heading, designer initials, notes")
		return
	}
	if err := p.Apply(&b.job.Headings); err != nil {
		r.err = lineError(r.line, "HEADINGS: %s", err.(*model.Error).Msg)
	}
}

func writeHeadings(w *writer, h model.Headings) {
	w.line("HEADINGS")
	for _, s := range []string{h.ProjectHeading, h.Heading, h.DesignerInitials, h.Notes} {
		w.text(s)
		w.end()
	}
}

func readVertical(b *builder, r *row) {
	b.job.Settings.VerticalAxis = model.VerticalAxis(r.pick(0, "Axis", []code{{"Y", "YAxis"}, {"Z", "ZAxis"}}, "YAxis"))
}

// Node: Node,X,Y,Z[,Gen1,Ndi1,Rot,Ai,Xi1,Yi1,Zi1,Gen2,Ndi2,Xi2,Yi2,Zi2].
func readNode(b *builder, r *row) {
	const layout = "Node,X,Y,Z"
	r.need(4, layout)
	r.most(16, layout+",Gen1,Ndi1,Rot,Ai,Xi1,Yi1,Zi1,Gen2,Ndi2,Xi2,Yi2,Zi2")
	n := model.Node{ID: r.id(0, "Node")}
	n.X = r.si(1, "X", b.conv.factor(&n, "x"))
	n.Y = r.si(2, "Y", b.conv.factor(&n, "y"))
	n.Z = r.si(3, "Z", b.conv.factor(&n, "z"))
	r.zero(4, "Gen1")
	r.zero(11, "Gen2")
	b.put(r, model.CollNodes, n, n.ID)
}

func writeNode(w *writer, c converter, n model.Node) {
	w.int(n.ID)
	w.si(n.X, c.factor(&n, "x"))
	w.si(n.Y, c.factor(&n, "y"))
	w.si(n.Z, c.factor(&n, "z"))
	w.end()
}

const memberLayout = "Mem,DirAng,DirNode,DirAxis,Type,Na,Nb,Sp,Mp,Fa,Fb,CLen,TensLimit,CompLimit,SAxA,SRyA,SRzA,SAxB,SRyB,SRzB"

// Member: the full layout of memberLayout, with six more stiffnesses as
// this service's extension (SAyA,SAzA,SRxA,SAyB,SAzB,SRxB), or the short
// layout Mem,...,Mp,Fa,Fb,SRyA,SRzA,SRyB,SRzB,CLen of at most 16 items.
func readMember(b *builder, r *row) {
	r.need(9, "Mem,DirAng,DirNode,DirAxis,Type,Na,Nb,Sp,Mp")
	r.most(26, memberLayout+",SAyA,SAzA,SRxA,SAyB,SAzB,SRxB")
	m := model.Member{ID: r.id(0, "Mem"), Direction: readDirection(r, 1), Type: r.pick(4, "Type", memberTypes, "Normal"),
		NodeA: r.id(5, "Na"), NodeB: r.id(6, "Nb"), Section: r.id(7, "Sp"), Material: r.id(8, "Mp")}
	rel := &m.Releases
	rel.FixityCodeAtA, rel.FixityCodeAtB = r.fixity(9, "Fa", "FRS", "FFFFFF"), r.fixity(10, "Fb", "FRS", "FFFFFF")
	f := func(path string) float64 { return b.conv.factor(&m, path) }
	if len(r.items) <= 16 {
		rel.RyStiffnessAtA = r.si(11, "SRyA", f("releases.ryStiffnessAtA"))
		rel.RzStiffnessAtA = r.si(12, "SRzA", f("releases.rzStiffnessAtA"))
		rel.RyStiffnessAtB = r.si(13, "SRyB", f("releases.ryStiffnessAtB"))
		rel.RzStiffnessAtB = r.si(14, "SRzB", f("releases.rzStiffnessAtB"))
		m.CableLength = r.si(15, "CLen", f("cableLength"))
	} else {
		m.CableLength = r.si(11, "CLen", f("cableLength"))
		switch m.Type {
		case "Gap":
			m.GapTensionLimit = r.si(12, "TensLimit", f("gapTensionLimit"))
			m.GapCompressionLimit = r.si(13, "CompLimit", f("gapCompressionLimit"))
		case "BrittleFuse", "PlasticFuse":
			m.FuseTensionLimit = r.si(12, "TensLimit", f("fuseTensionLimit"))
			m.FuseCompressionLimit = r.si(13, "CompLimit", f("fuseCompressionLimit"))
		default:
			if r.num(12, "TensLimit") != 0 || r.num(13, "CompLimit") != 0 {
				r.fail(12, "TensLimit", "tension and compression limits belong to gap and fuse members (type G, B or P) only")
			}
		}
		for i, p := range releasePaths {
			*releasePtr(rel, p) = r.si(14+i, releaseNames[i], f("releases."+p))
		}
	}
	b.put(r, model.CollMembers, m, m.ID)
	b.ref(r, model.CollNodes, "node", "Na", m.NodeA)
	b.ref(r, model.CollNodes, "node", "Nb", m.NodeB)
	b.ref(r, model.CollSections, "section", "Sp", m.Section)
	b.ref(r, model.CollMaterials, "material", "Mp", m.Material)
	if m.Direction.Source == "Node" {
		b.ref(r, model.CollNodes, "node", "DirNode", m.Direction.DirNode)
	}
}

// releasePaths are the stiffnesses of a member line from SAxA on.
var (
	releasePaths = []string{"txStiffnessAtA", "ryStiffnessAtA", "rzStiffnessAtA", "txStiffnessAtB", "ryStiffnessAtB", "rzStiffnessAtB",
		"tyStiffnessAtA", "tzStiffnessAtA", "rxStiffnessAtA", "tyStiffnessAtB", "tzStiffnessAtB", "rxStiffnessAtB"}
	releaseNames = []string{"SAxA", "SRyA", "SRzA", "SAxB", "SRyB", "SRzB", "SAyA", "SAzA", "SRxA", "SAyB", "SAzB", "SRxB"}
)

type releasesT = model.Releases

func releasePtr(r *releasesT, path string) *float64 {
	switch path {
	case "txStiffnessAtA":
		return &r.TxStiffnessAtA
	case "tyStiffnessAtA":
		return &r.TyStiffnessAtA
	case "tzStiffnessAtA":
		return &r.TzStiffnessAtA
	case "rxStiffnessAtA":
		return &r.RxStiffnessAtA
	case "ryStiffnessAtA":
		return &r.RyStiffnessAtA
	case "rzStiffnessAtA":
		return &r.RzStiffnessAtA
	case "txStiffnessAtB":
		return &r.TxStiffnessAtB
	case "tyStiffnessAtB":
		return &r.TyStiffnessAtB
	case "tzStiffnessAtB":
		return &r.TzStiffnessAtB
	case "rxStiffnessAtB":
		return &r.RxStiffnessAtB
	case "ryStiffnessAtB":
		return &r.RyStiffnessAtB
	}
	return &r.RzStiffnessAtB
}

func writeMember(w *writer, c converter, m model.Member) {
	f := func(path string) float64 { return c.factor(&m, path) }
	w.int(m.ID)
	writeDirection(w, m.Direction)
	w.code(fileCode(memberTypes, m.Type, "N"))
	w.int(m.NodeA)
	w.int(m.NodeB)
	w.int(m.Section)
	w.int(m.Material)
	w.code(m.Releases.FixityCodeAtA)
	w.code(m.Releases.FixityCodeAtB)
	w.si(m.CableLength, f("cableLength"))
	switch m.Type {
	case "Gap":
		w.si(m.GapTensionLimit, f("gapTensionLimit"))
		w.si(m.GapCompressionLimit, f("gapCompressionLimit"))
	case "BrittleFuse", "PlasticFuse":
		w.si(m.FuseTensionLimit, f("fuseTensionLimit"))
		w.si(m.FuseCompressionLimit, f("fuseCompressionLimit"))
	default:
		w.num(0)
		w.num(0)
	}
	n := 6
	for _, p := range releasePaths[6:] {
		if *releasePtr(&m.Releases, p) != 0 {
			n = 12
		}
	}
	for _, p := range releasePaths[:n] {
		w.si(*releasePtr(&m.Releases, p), f("releases."+p))
	}
	w.end()
}

// Plate: Plate,DirAng,DirNode,DirAxis,Type,Na,Nb,Nc,Nd,TA,TM,TB,TS,Mat,Offset,Gen,PInc,NInc.
func readPlate(b *builder, r *row) {
	const layout = "Plate,DirAng,DirNode,DirAxis,Type,Na,Nb,Nc,Nd,TA,TM,TB,TS,Mat,Offset,Gen,PInc,NInc"
	r.need(14, "Plate,DirAng,DirNode,DirAxis,Type,Na,Nb,Nc,Nd,TA,TM,TB,TS,Mat")
	r.most(18, layout)
	p := model.Plate{ID: r.id(0, "Plate"), Direction: readDirection(r, 1), Theory: r.pick(4, "Type", plateTypes, "Kirchoff"),
		NodeA: r.id(5, "Na"), NodeB: r.id(6, "Nb"), NodeC: r.id(7, "Nc"), NodeD: r.ref(8, "Nd"), Material: r.id(13, "Mat")}
	f := func(path string) float64 { return b.conv.factor(&p, path) }
	p.ActualThickness = r.si(9, "TA", f("actualThickness"))
	p.MembraneThickness = r.si(10, "TM", f("membraneThickness"))
	p.BendingThickness = r.si(11, "TB", f("bendingThickness"))
	p.ShearThickness = r.si(12, "TS", f("shearThickness"))
	p.Offset = r.si(14, "Offset", f("offset"))
	r.zero(15, "Gen")
	b.put(r, model.CollPlates, p, p.ID)
	for i, n := range []int64{p.NodeA, p.NodeB, p.NodeC, p.NodeD} {
		b.ref(r, model.CollNodes, "node", []string{"Na", "Nb", "Nc", "Nd"}[i], n)
	}
	b.ref(r, model.CollMaterials, "material", "Mat", p.Material)
	if p.Direction.Source == "Node" {
		b.ref(r, model.CollNodes, "node", "DirNode", p.Direction.DirNode)
	}
}

func writePlate(w *writer, c converter, p model.Plate) {
	f := func(path string) float64 { return c.factor(&p, path) }
	w.int(p.ID)
	writeDirection(w, p.Direction)
	w.code(fileCode(plateTypes, p.Theory, "K"))
	for _, n := range []int64{p.NodeA, p.NodeB, p.NodeC, p.NodeD} {
		w.int(n)
	}
	w.si(p.ActualThickness, f("actualThickness"))
	w.si(p.MembraneThickness, f("membraneThickness"))
	w.si(p.BendingThickness, f("bendingThickness"))
	w.si(p.ShearThickness, f("shearThickness"))
	w.int(p.Material)
	w.si(p.Offset, f("offset"))
	w.end()
}

const restraintLayout = "Node,Rest,Gr,Gen,Ni,STx,STy,STz,SRx,SRy,SRz,Dirn,Nx,Ny,Nz,Dx,Dy,Dz,Fx,Fy,Fz"

var restraintDOFs = []string{"tx", "ty", "tz", "rx", "ry", "rz"}

// restraintValue is the field of DOF i that code letter c gives a value
// (a spring's stiffness, a plastic limit), "" for none.
func restraintValue(c byte, i int) string {
	switch c {
	case 'S':
		return restraintDOFs[i] + "Stiffness"
	case 'P':
		return restraintDOFs[i] + "PlasticLimit"
	}
	return ""
}

// tableState is the variable stiffness table being read after a
// restraint whose code has V.
type tableState struct {
	node int64
	rows map[int64][][]float64 // axis → [step, x, y]
}

// Restraint: restraintLayout; a V in the code is followed by lines
// Axis,Step,Disp,Stiff of its stiffness table.
func readRestraint(b *builder, r *row) {
	if b.tables != nil && len(r.items) == 4 && isNumber(r.raw(1)) {
		readTableRow(b, r)
		return
	}
	b.tables = nil
	r.need(2, "Node,Rest")
	r.most(21, restraintLayout)
	x := model.NodeRestraint{Node: r.id(0, "Node"), RestraintCode: r.fixity(1, "Rest", "FRSVPN", "FFFFFF"),
		GeneralRestraint: r.pick(2, "Gr", yesNo, "N") == "Y", ActiveDirection: r.fixity(11, "Dirn", "PNB", "BBBBBB"),
		XFrictionNormalAxis: r.pick(12, "Nx", normalAxes, "None"), YFrictionNormalAxis: r.pick(13, "Ny", normalAxes, "None"),
		ZFrictionNormalAxis: r.pick(14, "Nz", normalAxes, "None"), XFrictionNormalDirection: r.pick(15, "Dx", normalDirs, "Either"),
		YFrictionNormalDirection: r.pick(16, "Dy", normalDirs, "Either"), ZFrictionNormalDirection: r.pick(17, "Dz", normalDirs, "Either"),
		XFrictionFactor: r.num(18, "Fx"), YFrictionFactor: r.num(19, "Fy"), ZFrictionFactor: r.num(20, "Fz")}
	for i := range restraintDOFs {
		name := []string{"STx", "STy", "STz", "SRx", "SRy", "SRz"}[i]
		field := restraintValue(x.RestraintCode[i], i)
		if field == "" {
			if r.num(5+i, name) != 0 {
				r.fail(5+i, name, "a value belongs to a spring (S) or plastic (P) restraint only; the code has %c here", x.RestraintCode[i])
			}
			continue
		}
		*restraintPtr(&x, field) = r.si(5+i, name, b.conv.factor(&x, field))
	}
	if strings.Contains(x.RestraintCode, "V") && r.err == nil {
		b.tables = &tableState{node: x.Node, rows: map[int64][][]float64{}}
	}
	b.put(r, model.CollNodeRestraints, x, x.Node)
	b.ref(r, model.CollNodes, "node", "Node", x.Node)
}

func isNumber(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// readTableRow adds one step to the table of the last restraint read.
func readTableRow(b *builder, r *row) {
	e := b.rows[model.CollNodeRestraints][store.Key(b.tables.node)]
	x := e.rec.(model.NodeRestraint)
	axis, step := r.int(0, "Axis"), r.int(1, "Step")
	if axis < 1 || axis > 6 {
		r.fail(0, "Axis", "%d is not 1 to 6 (X, Y, Z translation, X, Y, Z rotation)", axis)
		return
	}
	if x.RestraintCode[axis-1] != 'V' {
		r.fail(0, "Axis", "the restraint of node %d is not variable (V) along axis %d", x.Node, axis)
		return
	}
	t := restraintTable(&x, int(axis-1))
	if *t == nil {
		*t = &model.Table{}
	}
	path := restraintDOFs[axis-1] + "VariableTable"
	cols := strings.Split(unitTag(reflect.TypeOf(x), path), ",")
	row := []float64{r.si(2, "Disp", model.ParseUnitExpr(cols[0]).Scale(b.conv.cats)), r.si(3, "Stiff", model.ParseUnitExpr(cols[1]).Scale(b.conv.cats))}
	if r.err != nil {
		return
	}
	if int(step) != len((*t).Rows)+1 {
		r.fail(1, "Step", "step %d follows step %d; number a table's steps 1, 2, 3 in order", step, len((*t).Rows))
		return
	}
	(*t).Rows = append((*t).Rows, row)
	b.rows[model.CollNodeRestraints][store.Key(x.Node)] = entry{rec: x, line: e.line}
}

func restraintTable(x *model.NodeRestraint, i int) **model.Table {
	return []**model.Table{&x.TxVariableTable, &x.TyVariableTable, &x.TzVariableTable, &x.RxVariableTable, &x.RyVariableTable, &x.RzVariableTable}[i]
}

func restraintPtr(x *model.NodeRestraint, field string) *float64 {
	m := map[string]*float64{
		"txStiffness": &x.TxStiffness, "tyStiffness": &x.TyStiffness, "tzStiffness": &x.TzStiffness,
		"rxStiffness": &x.RxStiffness, "ryStiffness": &x.RyStiffness, "rzStiffness": &x.RzStiffness,
		"txPlasticLimit": &x.TxPlasticLimit, "tyPlasticLimit": &x.TyPlasticLimit, "tzPlasticLimit": &x.TzPlasticLimit,
		"rxPlasticLimit": &x.RxPlasticLimit, "ryPlasticLimit": &x.RyPlasticLimit, "rzPlasticLimit": &x.RzPlasticLimit,
	}
	return m[field]
}

func writeRestraint(w *writer, c converter, x model.NodeRestraint) {
	w.int(x.Node)
	w.code(x.RestraintCode)
	if x.GeneralRestraint {
		w.code("Y")
	} else {
		w.code("N")
	}
	w.int(0)
	w.int(0)
	for i := range restraintDOFs {
		if i >= len(x.RestraintCode) {
			w.num(0)
			continue
		}
		if field := restraintValue(x.RestraintCode[i], i); field != "" {
			w.si(*restraintPtr(&x, field), c.factor(&x, field))
		} else {
			w.num(0)
		}
	}
	w.code(x.ActiveDirection)
	for _, a := range []string{x.XFrictionNormalAxis, x.YFrictionNormalAxis, x.ZFrictionNormalAxis} {
		w.code(fileCode(normalAxes, a, ""))
	}
	for _, d := range []string{x.XFrictionNormalDirection, x.YFrictionNormalDirection, x.ZFrictionNormalDirection} {
		w.code(fileCode(normalDirs, d, "E"))
	}
	w.num(x.XFrictionFactor)
	w.num(x.YFrictionFactor)
	w.num(x.ZFrictionFactor)
	w.end()
	for i := range restraintDOFs {
		t := *restraintTable(&x, i)
		if t == nil {
			continue
		}
		cols := strings.Split(unitTag(reflect.TypeOf(x), restraintDOFs[i]+"VariableTable"), ",")
		for s, rw := range t.Rows {
			w.int(int64(i + 1))
			w.int(int64(s + 1))
			for k := 0; k < 2 && k < len(rw); k++ {
				w.si(rw[k], model.ParseUnitExpr(cols[k]).Scale(c.cats))
			}
			w.end()
		}
	}
}

// Constraint: Slave,Master,Code,Axes,Xv,Yv,Zv.
func readConstraint(b *builder, r *row) {
	const layout = "Slave,Master,Code,Axes,Xv,Yv,Zv"
	r.need(3, "Slave,Master,Code")
	r.most(7, layout)
	x := model.NodeConstraint{SlaveNode: r.id(0, "Slave"), MasterNode: r.id(1, "Master"), ConstraintCode: r.fixity(2, "Code", "FR", ""),
		Axes: r.pick(3, "Axes", constrainAxes, "Global"), XVector: r.num(4, "Xv"), YVector: r.num(5, "Yv"), ZVector: r.num(6, "Zv")}
	b.put(r, model.CollNodeConstraints, x, x.SlaveNode)
	b.ref(r, model.CollNodes, "node", "Slave", x.SlaveNode)
	b.ref(r, model.CollNodes, "node", "Master", x.MasterNode)
}

func writeConstraint(w *writer, x model.NodeConstraint) {
	w.int(x.SlaveNode)
	w.int(x.MasterNode)
	w.code(x.ConstraintCode)
	w.code(fileCode(constrainAxes, x.Axes, "G"))
	w.num(x.XVector)
	w.num(x.YVector)
	w.num(x.ZVector)
	w.end()
}

var offsetPaths = []string{"xOffsetAtA", "yOffsetAtA", "zOffsetAtA", "xOffsetAtB", "yOffsetAtB", "zOffsetAtB"}

// Offset: Mem,Axes,XA,YA,ZA,XB,YB,ZB.
func readOffset(b *builder, r *row) {
	const layout = "Mem,Axes,XA,YA,ZA,XB,YB,ZB"
	r.need(2, "Mem,Axes")
	r.most(8, layout)
	x := model.MemberOffset{Member: r.id(0, "Mem"), Axes: r.pick(1, "Axes", offsetAxes, "Global")}
	vals := []*float64{&x.XOffsetAtA, &x.YOffsetAtA, &x.ZOffsetAtA, &x.XOffsetAtB, &x.YOffsetAtB, &x.ZOffsetAtB}
	for i, p := range offsetPaths {
		*vals[i] = r.si(2+i, strings.Split(layout, ",")[2+i], b.conv.factor(&x, p))
	}
	b.put(r, model.CollMemberOffsets, x, x.Member)
	b.ref(r, model.CollMembers, "member", "Mem", x.Member)
}

func writeOffset(w *writer, c converter, x model.MemberOffset) {
	w.int(x.Member)
	w.code(fileCode(offsetAxes, x.Axes, "G"))
	for i, v := range []float64{x.XOffsetAtA, x.YOffsetAtA, x.ZOffsetAtA, x.XOffsetAtB, x.YOffsetAtB, x.ZOffsetAtB} {
		w.si(v, c.factor(&x, offsetPaths[i]))
	}
	w.end()
}

const sectionLayout = "Sec,Secn,Lib,Mark,Ar,Ix,Iy,Iz,Ay,Az,Pa,Af,Ixf,Iyf,Izf,Shapes"

// Section: Sec,Secn,Lib[,Mark] names a library section; with its
// properties (sectionLayout, then AngleType and Transposed Y/N as this
// service's extension) the file's numbers count, and a known library
// gives the section its shape.
func readSection(b *builder, r *row) {
	r.need(2, "Sec,Secn")
	r.most(18, sectionLayout+",AngleType,Transposed")
	id, name, lib, mark := r.id(0, "Sec"), r.text(1), r.text(2), r.text(3)
	if r.err != nil {
		return
	}
	var s model.Section
	known := false
	if lib != "" {
		if ls, err := library.LookupSection(lib, name); err == nil {
			s, known = ls.Record(mark), true
		}
	}
	if len(r.items) <= 4 {
		if !known {
			r.fail(1, "Secn", "section %q is not in a library this service holds (%s); give its properties on the line instead",
				name, strings.Join(library.SectionLibraries(), ", "))
			return
		}
		s.ID = id
		b.put(r, model.CollSections, s, id)
		return
	}
	if !known {
		s = model.Section{Name: name, Source: "User", Shapes: []model.Shape{}}
		if lib != "" {
			b.warn("library "+lib, fmt.Sprintf("section library %q is not one this service holds; its sections (first at line %d) keep the properties the file gives as user sections", lib, r.line))
		}
	}
	s.ID, s.Mark = id, mark
	f := func(path string) float64 { return b.conv.factor(&s, path) }
	// A property the line leaves 0 (files often give no shear areas)
	// keeps the library's value; a user section must give each.
	props := []struct {
		name, path string
		dst        *float64
	}{{"Ar", "a", &s.A}, {"Ix", "j", &s.J}, {"Iy", "iy", &s.Iy}, {"Iz", "iz", &s.Iz}, {"Ay", "ay", &s.Ay}, {"Az", "az", &s.Az}}
	for i, p := range props {
		if x := r.si(4+i, p.name, f(p.path)); x != 0 || !known {
			*p.dst = x
		}
	}
	s.PrincipalAngle = r.num(10, "Pa")
	factor := func(i int, name string) float64 {
		if x := r.num(i, name); x != 0 {
			return x
		}
		return 1
	}
	s.AreaFactor, s.TorsionFactor, s.IyFactor, s.IzFactor = factor(11, "Af"), factor(12, "Ixf"), factor(13, "Iyf"), factor(14, "Izf")
	if shapes := r.int(15, "Shapes"); shapes > 1000 {
		r.fail(15, "Shapes", "%d shapes is more than the 1000 a section may have", shapes)
	} else if shapes > 0 && r.err == nil {
		b.shape = shapeSkip{of: id, shapes: int(shapes)}
		b.warn("shapes", fmt.Sprintf("the shape lines of sections (first after line %d) are skipped: a library section takes its shape from the library, a user section has none", r.line))
	} else if shapes < 0 {
		r.fail(15, "Shapes", "the number of shapes cannot be negative")
	}
	s.AngleType = r.pick(16, "AngleType", angleTypes, "NotApplicable")
	s.Transposed = r.pick(17, "Transposed", yesNo, "N") == "Y"
	b.put(r, model.CollSections, s, id)
}

// shapeSkip counts the lines of section shapes still to pass over:
// three lines a shape, the first naming how many point lines follow the
// third.
type shapeSkip struct {
	of                   int64 // the section
	shapes, line, points int
	pending              int
}

func (k *shapeSkip) active() bool { return k.shapes > 0 || k.points > 0 }

// skipShapeLine passes over one line of a section's shapes.
func (b *builder) skipShapeLine(s string, line int) error {
	k := &b.shape
	if k.points > 0 {
		k.points--
		return nil
	}
	if k.line == 0 {
		items, err := splitItems(s, line)
		if err != nil {
			return err
		}
		r := &row{group: "SECTIONS", line: line, items: items}
		n := r.int(1, "Points")
		if n < 0 || n > 100000 {
			r.fail(1, "Points", "%d is not a number of points from 0 to 100000", n)
		}
		if r.err != nil {
			return r.err
		}
		k.pending = int(n)
	}
	if k.line++; k.line == 3 {
		k.line, k.points, k.pending = 0, k.pending, 0
		k.shapes--
	}
	return nil
}

func writeSection(w *writer, c converter, s model.Section) {
	f := func(path string) float64 { return c.factor(&s, path) }
	w.int(s.ID)
	w.text(s.Name)
	w.text(s.Library)
	w.text(s.Mark)
	w.si(s.A, f("a"))
	w.si(s.J, f("j"))
	w.si(s.Iy, f("iy"))
	w.si(s.Iz, f("iz"))
	w.si(s.Ay, f("ay"))
	w.si(s.Az, f("az"))
	w.num(s.PrincipalAngle)
	w.num(s.AreaFactor)
	w.num(s.TorsionFactor)
	w.num(s.IyFactor)
	w.num(s.IzFactor)
	w.int(0)
	w.code(s.AngleType)
	if s.Transposed {
		w.code("Y")
	} else {
		w.code("N")
	}
	w.end()
}

// Material: Mat,Name,Lib names a library material; with its properties
// Mat,Name,Lib,E,Pr,Den,Exp,Fc the file's numbers count.
func readMaterial(b *builder, r *row) {
	const layout = "Mat,Name,Lib,E,Pr,Den,Exp,Fc"
	r.need(2, "Mat,Name")
	r.most(8, layout)
	id, name, lib := r.id(0, "Mat"), r.text(1), r.text(2)
	if r.err != nil {
		return
	}
	var m model.Material
	known := false
	if lib != "" {
		if lm, err := library.LookupMaterial(lib, name); err == nil {
			m, known = lm.Record(), true
		}
	}
	if len(r.items) <= 3 {
		if !known {
			r.fail(1, "Name", "material %q is not in a library this service holds (%s); give its properties on the line instead",
				name, strings.Join(library.MaterialLibraries(), ", "))
			return
		}
		m.ID = id
		b.put(r, model.CollMaterials, m, id)
		return
	}
	if !known {
		m = model.Material{Name: name, Source: "User"}
	}
	m.ID, m.Name = id, name
	f := func(path string) float64 { return b.conv.factor(&m, path) }
	m.YoungsModulus = r.si(3, "E", f("youngsModulus"))
	m.PoissonsRatio = r.num(4, "Pr")
	m.MassDensity = r.si(5, "Den", f("massDensity"))
	m.ThermalCoeff = r.si(6, "Exp", f("thermalCoeff"))
	m.ConcreteStrength = r.si(7, "Fc", f("concreteStrength"))
	b.put(r, model.CollMaterials, m, id)
}

func writeMaterial(w *writer, c converter, m model.Material) {
	f := func(path string) float64 { return c.factor(&m, path) }
	w.int(m.ID)
	w.text(m.Name)
	w.text(m.Library)
	w.si(m.YoungsModulus, f("youngsModulus"))
	w.num(m.PoissonsRatio)
	w.si(m.MassDensity, f("massDensity"))
	w.si(m.ThermalCoeff, f("thermalCoeff"))
	w.si(m.ConcreteStrength, f("concreteStrength"))
	w.end()
}

// textItem reads a text item, || standing for a line break, and refuses
// one longer than max characters.
func (r *row) textItem(i int, name string, max int) string {
	s := strings.ReplaceAll(r.raw(i), "||", "\n")
	if n := utf8.RuneCountInString(s); n > max {
		r.fail(i, name, "at most %d characters, got %d", max, n)
	}
	return s
}

// sortedKeys is the keys of a map in order.
func sortedKeys[V any](m map[int64]V) []int64 {
	ks := make([]int64, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i] < ks[j] })
	return ks
}
