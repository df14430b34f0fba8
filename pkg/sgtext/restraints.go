package sgtext

import (
	"reflect"
	"strings"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

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
