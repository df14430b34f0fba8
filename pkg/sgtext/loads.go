package sgtext

import (
	"fmt"
	"strings"

	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/model"
)

var (
	loadAxes = []code{{"L", "Local"}, {"G", "GlobalProjected"}, {"A", "GlobalInclined"}}
	posUnits = []code{{"A", "Actual"}, {"%", "Percent"}}
)

// Title: Case,Title[,Notes]; notes are this service's extension.
func readTitle(b *builder, r *row) {
	r.need(2, "Case,Title")
	r.most(3, "Case,Title,Notes")
	c := &model.LoadCase{ID: r.id(0, "Case"), Title: r.textItem(1, "Title", model.MaxCaseTitle), Notes: r.textItem(2, "Notes", model.MaxCaseNotes)}
	r.fits(c.Title, c.Notes)
	b.put(r, model.CollLoadCases, c, c.ID)
}

func writeTitle(w *writer, c model.LoadCase) {
	w.int(c.ID)
	w.text(c.Title)
	if c.Notes != "" {
		w.text(c.Notes)
	}
	w.end()
}

// fits refuses a title and notes that, quoted as Write writes them
// (a quote doubled, a line break as ||), would not fit the continued-line
// limit together: a file the service reads, it must write back readable.
func (r *row) fits(title, notes string) {
	if n := writtenLen(title) + writtenLen(notes) + 12; n > MaxContinuedChars && r.err == nil {
		r.fail(2, "Notes", "the title and notes take %d characters written in quotes, more than the %d of a continued line", n, MaxContinuedChars)
	}
}

// Category: Cat,Title,Notes (this service's group of load categories).
func readCategory(b *builder, r *row) {
	r.need(2, "Cat,Title")
	r.most(3, "Cat,Title,Notes")
	c := model.LoadCategory{ID: r.id(0, "Cat"), Title: r.textItem(1, "Title", model.MaxCaseTitle), Notes: r.textItem(2, "Notes", model.MaxCaseNotes)}
	r.fits(c.Title, c.Notes)
	b.put(r, model.CollLoadCategories, c, c.ID)
}

func writeCategory(w *writer, c model.LoadCategory) {
	w.int(c.ID)
	w.text(c.Title)
	w.text(c.Notes)
	w.end()
}

// Combination: Case,Lc,Factor, one line per component.
func readCombination(b *builder, r *row) {
	r.need(3, "Case,Lc,Factor")
	r.most(3, "Case,Lc,Factor")
	lc, of, f := r.id(0, "Case"), r.id(1, "Lc"), r.num(2, "Factor")
	if r.err != nil {
		return
	}
	if f == 0 && r.err == nil {
		r.fail(2, "Factor", "a factor of 0 adds nothing to the combination; leave the line out")
		return
	}
	if lc == of {
		r.fail(1, "Lc", "combination case %d cannot include itself", lc)
		return
	}
	items := b.combos[lc]
	for i := range items {
		if items[i].LoadCase == of {
			items[i].MultiplyingFactor = f
			return
		}
	}
	if len(items) == 0 {
		b.comboAt[lc] = r.line
	}
	b.combos[lc] = append(items, model.CombinationItem{LoadCase: of, MultiplyingFactor: f})
}

// Load case group: Group,Title,CaseList ("1,3-7" in quotes).
func readCaseGroup(b *builder, r *row) {
	r.need(2, "Group,Title")
	r.most(3, "Group,Title,CaseList")
	g := model.LoadCaseGroup{ID: r.id(0, "Group"), Title: r.textItem(1, "Title", model.MaxCaseTitle), LoadCaseList: r.raw(2)}
	if list, ok, err := model.ParseIDList("CaseList", g.LoadCaseList); err != nil {
		r.fail(2, "CaseList", "%s", err.(*model.Error).Msg)
	} else if ok {
		g.LoadCaseList = list.String()
	}
	b.put(r, model.CollLoadCaseGroups, g, g.ID)
}

func writeCaseGroup(w *writer, g model.LoadCaseGroup) {
	w.int(g.ID)
	w.text(g.Title)
	w.text(g.LoadCaseList)
	w.end()
}

// nodeValues reads six numbers of a node load line from item 2 on into
// the fields paths of rec.
func nodeValues(b *builder, r *row, rec any, names []string, paths []string, dst []*float64) {
	for i, p := range paths {
		*dst[i] = r.si(2+i, names[i], b.conv.factor(rec, p))
	}
}

func writeValues(w *writer, c converter, rec any, paths []string, vals []float64) {
	for i, p := range paths {
		w.si(vals[i], c.factor(rec, p))
	}
}

var sixForces = []string{"fx", "fy", "fz", "mx", "my", "mz"}

// Node load: Case,Node,Fx,Fy,Fz,Mx,My,Mz,Cat.
func readNodeLoad(b *builder, r *row) {
	const layout = "Case,Node,Fx,Fy,Fz,Mx,My,Mz,Cat"
	r.need(3, "Case,Node,Fx")
	r.most(9, layout)
	x := model.NodeLoad{LoadCase: r.id(0, "Case"), Node: r.id(1, "Node"), LoadCategory: r.ref(8, "Cat")}
	nodeValues(b, r, &x, strings.Split(layout, ",")[2:8], sixForces, []*float64{&x.Fx, &x.Fy, &x.Fz, &x.Mx, &x.My, &x.Mz})
	b.elementLoad(r, model.CollNodeLoads, x, x.LoadCase, x.Node, x.LoadCategory, model.CollNodes, "node", "Node")
}

func writeNodeLoad(w *writer, c converter, x model.NodeLoad) {
	w.int(x.LoadCase)
	w.int(x.Node)
	writeValues(w, c, &x, sixForces, []float64{x.Fx, x.Fy, x.Fz, x.Mx, x.My, x.Mz})
	w.int(x.LoadCategory)
	w.end()
}

// elementLoad keeps a load keyed by its case and element.
func (b *builder) elementLoad(r *row, coll string, rec any, lc, id, cat int64, elemColl, noun, field string) {
	b.put(r, coll, rec, lc, id)
	b.ref(r, elemColl, noun, field, id)
	b.useCase(r, lc, cat)
}

var sixDisplacements = []string{"tx", "ty", "tz", "rx", "ry", "rz"}

// Prescribed displacement: Case,Node,Tx,Ty,Tz,Rx,Ry,Rz,Cat; rotations in
// radians.
func readPrescribed(b *builder, r *row) {
	const layout = "Case,Node,Tx,Ty,Tz,Rx,Ry,Rz,Cat"
	r.need(3, "Case,Node,Tx")
	r.most(9, layout)
	x := model.PrescribedDisplacement{LoadCase: r.id(0, "Case"), Node: r.id(1, "Node"), LoadCategory: r.ref(8, "Cat")}
	nodeValues(b, r, &x, strings.Split(layout, ",")[2:8], sixDisplacements, []*float64{&x.Tx, &x.Ty, &x.Tz, &x.Rx, &x.Ry, &x.Rz})
	b.elementLoad(r, model.CollPrescribedDisplacements, x, x.LoadCase, x.Node, x.LoadCategory, model.CollNodes, "node", "Node")
}

func writePrescribed(w *writer, c converter, x model.PrescribedDisplacement) {
	w.int(x.LoadCase)
	w.int(x.Node)
	writeValues(w, c, &x, sixDisplacements, []float64{x.Tx, x.Ty, x.Tz, x.Rx, x.Ry, x.Rz})
	w.int(x.LoadCategory)
	w.end()
}

var sixMasses = []string{"tmx", "tmy", "tmz", "rmx", "rmy", "rmz"}

// Lumped mass: Case,Node,TMx,TMy,TMz,RMx,RMy,RMz,Cat.
func readLumped(b *builder, r *row) {
	const layout = "Case,Node,TMx,TMy,TMz,RMx,RMy,RMz,Cat"
	r.need(3, "Case,Node,TMx")
	r.most(9, layout)
	x := model.LumpedMassLoad{LoadCase: r.id(0, "Case"), Node: r.id(1, "Node"), LoadCategory: r.ref(8, "Cat")}
	nodeValues(b, r, &x, strings.Split(layout, ",")[2:8], sixMasses, []*float64{&x.Tmx, &x.Tmy, &x.Tmz, &x.Rmx, &x.Rmy, &x.Rmz})
	b.elementLoad(r, model.CollLumpedMassLoads, x, x.LoadCase, x.Node, x.LoadCategory, model.CollNodes, "node", "Node")
}

func writeLumped(w *writer, c converter, x model.LumpedMassLoad) {
	w.int(x.LoadCase)
	w.int(x.Node)
	writeValues(w, c, &x, sixMasses, []float64{x.Tmx, x.Tmy, x.Tmz, x.Rmx, x.Rmy, x.Rmz})
	w.int(x.LoadCategory)
	w.end()
}

// subLoad is the sub-load number of a member load: the file's, or the
// next after the greatest of its case and member so far.
func (b *builder) subLoad(r *row, coll string, lc, mem, sl int64) int64 {
	k := fmt.Sprintf("%s:%d:%d", coll, lc, mem)
	if sl == 0 {
		sl = b.subLoads[k] + 1
	}
	if sl > b.subLoads[k] {
		b.subLoads[k] = sl
	}
	return sl
}

// position reads a position along a member: a length, or a percentage
// when the line says %.
func (r *row) position(i int, name string, percent bool, factor float64) float64 {
	if percent {
		factor = 1
	}
	return r.si(i, name, factor)
}

// Member concentrated load: Case,Mem,Sl,Ax,Un,Ps,Fx,Fy,Fz,Mx,My,Mz,Cat,Gen1,MInc,Gen2,SInc,PInc.
func readMemberConc(b *builder, r *row) {
	const layout = "Case,Mem,Sl,Ax,Un,Ps,Fx,Fy,Fz,Mx,My,Mz,Cat,Gen1,MInc,Gen2,SInc,PInc"
	r.need(6, "Case,Mem,Sl,Ax,Un,Ps")
	r.most(18, layout)
	x := model.MemberConcentratedLoad{LoadCase: r.id(0, "Case"), Member: r.id(1, "Mem"), Axes: r.pick(3, "Ax", loadAxes, "Local"),
		PositionUnits: r.pick(4, "Un", posUnits, "Actual"), LoadCategory: r.ref(12, "Cat")}
	x.SubLoad = b.subLoad(r, model.CollMemberConcentratedLoads, x.LoadCase, x.Member, r.ref(2, "Sl"))
	x.Position = r.position(5, "Ps", x.PercentPositions(), b.conv.factor(&x, "position"))
	names := strings.Split(layout, ",")
	for i, p := range sixForces {
		*[]*float64{&x.Fx, &x.Fy, &x.Fz, &x.Mx, &x.My, &x.Mz}[i] = r.si(6+i, names[6+i], b.conv.factor(&x, p))
	}
	r.zero(13, "Gen1")
	r.zero(15, "Gen2")
	b.memberLoad(r, model.CollMemberConcentratedLoads, x, x.LoadCase, x.Member, x.SubLoad, x.LoadCategory)
}

func (b *builder) memberLoad(r *row, coll string, rec any, lc, mem, sl, cat int64) {
	b.put(r, coll, rec, lc, mem, sl)
	b.ref(r, model.CollMembers, "member", "Mem", mem)
	b.useCase(r, lc, cat)
}

// positionFactor is a position's factor to the file's units (1 for a
// percentage).
func positionFactor(c converter, rec any, path string, percent bool) float64 {
	if percent {
		return 1
	}
	return c.factor(rec, path)
}

func writeMemberConc(w *writer, c converter, x model.MemberConcentratedLoad) {
	w.int(x.LoadCase)
	w.int(x.Member)
	w.int(x.SubLoad)
	w.code(fileCode(loadAxes, x.Axes, "L"))
	w.code(fileCode(posUnits, x.PositionUnits, "A"))
	w.si(x.Position, positionFactor(c, &x, "position", x.PercentPositions()))
	writeValues(w, c, &x, sixForces, []float64{x.Fx, x.Fy, x.Fz, x.Mx, x.My, x.Mz})
	w.int(x.LoadCategory)
	w.end()
}

// distributed is what member distributed forces and moments share.
type distributed struct {
	lc, mem, sl, cat *int64
	axes, units      *string
	start, finish    *float64
	vals             [6]*float64
	paths            [6]string
}

// Member distributed forces (MEMBFORCES) and moments (MEMBMOMENTS):
// Case,Mem,Sl,Ax,Un,St,Fi,Xs,Xf,Ys,Yf,Zs,Zf,Cat,Gen,MInc.
const distributedLayout = "Case,Mem,Sl,Ax,Un,St,Fi,Xs,Xf,Ys,Yf,Zs,Zf,Cat,Gen,MInc"

func readDistributed(b *builder, r *row, coll string, rec any, d distributed) {
	r.need(7, "Case,Mem,Sl,Ax,Un,St,Fi")
	r.most(16, distributedLayout)
	*d.lc, *d.mem, *d.cat = r.id(0, "Case"), r.id(1, "Mem"), r.ref(13, "Cat")
	*d.axes, *d.units = r.pick(3, "Ax", loadAxes, "Local"), r.pick(4, "Un", posUnits, "Actual")
	*d.sl = b.subLoad(r, coll, *d.lc, *d.mem, r.ref(2, "Sl"))
	pct := *d.units == "Percent"
	*d.start = r.position(5, "St", pct, b.conv.factor(rec, "startPosition"))
	*d.finish = r.position(6, "Fi", pct, b.conv.factor(rec, "finishPosition"))
	names := strings.Split(distributedLayout, ",")
	for i := range d.vals {
		*d.vals[i] = r.si(7+i, names[7+i], b.conv.factor(rec, d.paths[i]))
	}
	r.zero(14, "Gen")
	b.memberLoad(r, coll, deref(rec), *d.lc, *d.mem, *d.sl, *d.cat)
}

func writeDistributed(w *writer, c converter, rec any, d distributed) {
	w.int(*d.lc)
	w.int(*d.mem)
	w.int(*d.sl)
	w.code(fileCode(loadAxes, *d.axes, "L"))
	w.code(fileCode(posUnits, *d.units, "A"))
	pct := *d.units == "Percent"
	w.si(*d.start, positionFactor(c, rec, "startPosition", pct))
	w.si(*d.finish, positionFactor(c, rec, "finishPosition", pct))
	for i := range d.vals {
		w.si(*d.vals[i], c.factor(rec, d.paths[i]))
	}
	w.int(*d.cat)
	w.end()
}

func forcesOf(x *model.MemberDistributedLoad) distributed {
	return distributed{lc: &x.LoadCase, mem: &x.Member, sl: &x.SubLoad, cat: &x.LoadCategory, axes: &x.Axes, units: &x.PositionUnits,
		start: &x.StartPosition, finish: &x.FinishPosition,
		vals:  [6]*float64{&x.FxStart, &x.FxFinish, &x.FyStart, &x.FyFinish, &x.FzStart, &x.FzFinish},
		paths: [6]string{"fxStart", "fxFinish", "fyStart", "fyFinish", "fzStart", "fzFinish"}}
}

func momentsOf(x *model.MemberDistributedMoment) distributed {
	return distributed{lc: &x.LoadCase, mem: &x.Member, sl: &x.SubLoad, cat: &x.LoadCategory, axes: &x.Axes, units: &x.PositionUnits,
		start: &x.StartPosition, finish: &x.FinishPosition,
		vals:  [6]*float64{&x.MxStart, &x.MxFinish, &x.MyStart, &x.MyFinish, &x.MzStart, &x.MzFinish},
		paths: [6]string{"mxStart", "mxFinish", "myStart", "myFinish", "mzStart", "mzFinish"}}
}

func readMemberForces(b *builder, r *row) {
	var x model.MemberDistributedLoad
	readDistributed(b, r, model.CollMemberDistributedLoads, &x, forcesOf(&x))
}

func readMemberMoments(b *builder, r *row) {
	var x model.MemberDistributedMoment
	readDistributed(b, r, model.CollMemberTorsionLoads, &x, momentsOf(&x))
}

// Member prestress: Case,Mem,Prestress,Cat.
func readPrestress(b *builder, r *row) {
	r.need(3, "Case,Mem,Prestress")
	r.most(4, "Case,Mem,Prestress,Cat")
	x := model.MemberPrestressLoad{LoadCase: r.id(0, "Case"), Member: r.id(1, "Mem"), LoadCategory: r.ref(3, "Cat")}
	x.Prestress = r.si(2, "Prestress", b.conv.factor(&x, "prestress"))
	b.elementLoad(r, model.CollMemberPrestressLoads, x, x.LoadCase, x.Member, x.LoadCategory, model.CollMembers, "member", "Mem")
}

func writePrestress(w *writer, c converter, x model.MemberPrestressLoad) {
	w.int(x.LoadCase)
	w.int(x.Member)
	w.si(x.Prestress, c.factor(&x, "prestress"))
	w.int(x.LoadCategory)
	w.end()
}

// Plate pressure: Case,Plate,Ax,Px,Py,Pz,Cat.
func readPlatePressure(b *builder, r *row) {
	const layout = "Case,Plate,Ax,Px,Py,Pz,Cat"
	r.need(4, "Case,Plate,Ax,Px")
	r.most(7, layout)
	x := model.PlatePressureLoad{LoadCase: r.id(0, "Case"), Plate: r.id(1, "Plate"), Axes: r.pick(2, "Ax", loadAxes, "Local"), LoadCategory: r.ref(6, "Cat")}
	x.Px = r.si(3, "Px", b.conv.factor(&x, "px"))
	x.Py = r.si(4, "Py", b.conv.factor(&x, "py"))
	x.Pz = r.si(5, "Pz", b.conv.factor(&x, "pz"))
	b.elementLoad(r, model.CollPlateLoads, x, x.LoadCase, x.Plate, x.LoadCategory, model.CollPlates, "plate", "Plate")
}

func writePlatePressure(w *writer, c converter, x model.PlatePressureLoad) {
	w.int(x.LoadCase)
	w.int(x.Plate)
	w.code(fileCode(loadAxes, x.Axes, "L"))
	writeValues(w, c, &x, []string{"px", "py", "pz"}, []float64{x.Px, x.Py, x.Pz})
	w.int(x.LoadCategory)
	w.end()
}

// Self weight: Case,Xacc,Yacc,Zacc,Cat in the file's acceleration unit.
func readSelfWeight(b *builder, r *row) {
	r.need(4, "Case,Xacc,Yacc,Zacc")
	r.most(5, "Case,Xacc,Yacc,Zacc,Cat")
	x := model.SelfWeightLoad{LoadCase: r.id(0, "Case"), LoadCategory: r.ref(4, "Cat")}
	x.AccelerationX = r.si(1, "Xacc", b.conv.factor(&x, "accelerationX"))
	x.AccelerationY = r.si(2, "Yacc", b.conv.factor(&x, "accelerationY"))
	x.AccelerationZ = r.si(3, "Zacc", b.conv.factor(&x, "accelerationZ"))
	b.put(r, model.CollSelfWeightLoads, x, x.LoadCase)
	b.useCase(r, x.LoadCase, x.LoadCategory)
}

func writeSelfWeight(w *writer, c converter, x model.SelfWeightLoad) {
	w.int(x.LoadCase)
	writeValues(w, c, &x, []string{"accelerationX", "accelerationY", "accelerationZ"}, []float64{x.AccelerationX, x.AccelerationY, x.AccelerationZ})
	w.int(x.LoadCategory)
	w.end()
}

// Thermal loads of members (MEMBTHERMAL) and plates (PLATETHERMAL):
// Case,Elem,Temp,YGrad,ZGrad,Cat.
func readThermal(b *builder, r *row, elemType, elemColl, noun string) {
	r.need(3, "Case,Elem,Temp")
	r.most(6, "Case,Elem,Temp,YGrad,ZGrad,Cat")
	x := model.ThermalLoad{LoadCase: r.id(0, "Case"), ElementType: elemType, ElementID: r.id(1, "Elem"), LoadCategory: r.ref(5, "Cat")}
	x.ThermalLoad = r.si(2, "Temp", b.conv.factor(&x, "thermalLoad"))
	x.YThermalGradient = r.si(3, "YGrad", b.conv.factor(&x, "yThermalGradient"))
	x.ZThermalGradient = r.si(4, "ZGrad", b.conv.factor(&x, "zThermalGradient"))
	b.put(r, model.CollThermalLoads, x, x.LoadCase, editor.ThermalTypeCode(elemType), x.ElementID)
	b.ref(r, elemColl, noun, "Elem", x.ElementID)
	b.useCase(r, x.LoadCase, x.LoadCategory)
}

func readMemberThermal(b *builder, r *row) { readThermal(b, r, "Member", model.CollMembers, "member") }
func readPlateThermal(b *builder, r *row)  { readThermal(b, r, "Plate", model.CollPlates, "plate") }

func writeThermal(w *writer, c converter, x model.ThermalLoad) {
	w.int(x.LoadCase)
	w.int(x.ElementID)
	writeValues(w, c, &x, []string{"thermalLoad", "yThermalGradient", "zThermalGradient"}, []float64{x.ThermalLoad, x.YThermalGradient, x.ZThermalGradient})
	w.int(x.LoadCategory)
	w.end()
}
