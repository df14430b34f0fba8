package sgtext

import (
	"strings"

	"github.com/gusset/gusset/pkg/model"
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

func releasePtr(r *model.Releases, path string) *float64 {
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
	// Only the corners are required, as through the API: a plate without
	// material or thickness reads, and an analysis refuses it until it
	// has them.
	r.need(8, "Plate,DirAng,DirNode,DirAxis,Type,Na,Nb,Nc")
	r.most(18, layout)
	p := model.Plate{ID: r.id(0, "Plate"), Direction: readDirection(r, 1), Theory: r.pick(4, "Type", plateTypes, "Kirchoff"),
		NodeA: r.id(5, "Na"), NodeB: r.id(6, "Nb"), NodeC: r.id(7, "Nc"), NodeD: r.ref(8, "Nd"), Material: r.ref(13, "Mat")}
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
