package statics

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"strings"

	"github.com/gusset/gusset/pkg/analysis/columns"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// StaticMeta is the meta record of the stored static results: the model
// size they were computed on and the load cases they hold.
type StaticMeta struct {
	// Rev is the model revision the results were computed from; any
	// model change deletes them, so it is also the revision they describe.
	Rev     int64 `json:"rev"`
	Nodes   int   `json:"nodes"`
	Members int   `json:"members"`
	// Plates is the number of plates; results stored before plates were
	// analysed have none, and no plate columns.
	Plates int                `json:"plates,omitempty"`
	Cases  []columns.CaseMeta `json:"cases"` // ascending load case
}

// Kinematics of columns.CaseMeta.SecondOrder.
const (
	secondOrderChord = "chord"
	secondOrderCurve = "curve"
)

// Case returns the record of load case lc; nil when the results do not
// hold it.
func (m *StaticMeta) Case(lc int64) *columns.CaseMeta {
	if m == nil {
		return nil
	}
	for i := range m.Cases {
		if m.Cases[i].LoadCase == lc {
			return &m.Cases[i]
		}
	}
	return nil
}

// Has reports whether the results hold load case lc.
func (m *StaticMeta) Has(lc int64) bool { return m.Case(lc) != nil }

// ReadStaticMeta reads the meta record of the static results; nil when the
// job has none.
func ReadStaticMeta(ctx context.Context, res store.Results, ws string) (*StaticMeta, error) {
	raw, err := res.Meta(ctx, ws, staticName)
	if err != nil {
		return nil, err
	}
	return decodeStaticMeta(raw)
}

func decodeStaticMeta(raw json.RawMessage) (*StaticMeta, error) {
	return columns.DecodeMeta[StaticMeta](raw)
}

// ModelSize implements columns.MetaRecord.
func (m StaticMeta) ModelSize() (int, int, []int64) {
	cs := make([]int64, len(m.Cases))
	for i, c := range m.Cases {
		cs[i] = c.LoadCase
	}
	return m.Nodes, m.Members, cs
}

func checkStatic(set store.ResultSet, colls map[string][]store.Row) error {
	bad := func(format string, args ...any) error { return model.E(model.KindValidation, format, args...) }
	m, ref, want, err := columns.OpenMeta[StaticMeta](set, colls)
	if err != nil {
		return err
	}
	if err := ref.ReadPlates(colls, m.Plates, want); err != nil {
		return err
	}
	if err := checkSteps(m.Cases, colls[model.CollLoadCases]); err != nil {
		return err
	}
	for _, c := range m.Cases {
		lc := c.LoadCase
		if m.Plates > 0 {
			want[columns.PlateForces.Of(lc)] = columns.PlateForces.Size(m.Plates)
		}
		want[columns.Disp.Of(lc)] = columns.Disp.Size(m.Nodes)
		want[columns.End.Of(lc)] = columns.End.Size(m.Members)
		want[columns.Summary.Of(lc)] = columns.Summary.Size(1)
		want[columns.React.Of(lc)] = -1 // whole rows, any number
		if c.Cables {
			want[columns.Cable.Of(lc)] = columns.Cable.Size(m.Members)
		}
	}
	for name, col := range set.Columns {
		n, ok := want[name]
		switch {
		case !ok:
			return bad("they hold an unknown column %q", name)
		case n == -1 && len(col)%columns.React.RowBytes() != 0, n >= 0 && len(col) != n:
			return bad("the column %q has %d bytes, which does not fit the model", name, len(col))
		}
		delete(want, name)
		if err := ref.CheckColumn(name, col); err != nil {
			return err
		}
		if strings.HasSuffix(name, ":"+columns.React.Name()) {
			rows, _ := columns.React.Decode(col, name)
			for _, r := range rows {
				if _, ok := slices.BinarySearch(ref.Nodes, int64(r.Node)); !ok || r.Node != math.Trunc(r.Node) {
					return bad("the column %q has a reaction at %v, which is not a node of the model", name, r.Node)
				}
			}
		}
	}
	for name := range want {
		return bad("they lack the column %q", name)
	}
	return nil
}

// checkSteps checks the Step load cases of static results against the
// file's load-case rows: a case is a step in the results exactly when its
// row says so, of the same case, which must be a case that is not itself
// a step, with a step number and a load factor a run can give.
func checkSteps(cases []columns.CaseMeta, rows []store.Row) error {
	bad := func(format string, args ...any) error { return model.E(model.KindValidation, format, args...) }
	stepOf := make(map[int64]int64, len(rows))
	for _, r := range rows {
		var c struct {
			StepOf int64 `json:"stepOf"`
		}
		k, err := store.ParseKey(r.Key)
		if err != nil || len(k) != 1 || json.Unmarshal(r.Value, &c) != nil {
			return bad("malformed load case row %q", r.Key)
		}
		stepOf[k[0]] = c.StepOf
	}
	for _, c := range cases {
		of, ok := stepOf[c.LoadCase]
		switch {
		case !ok:
			continue // readModelRefs refuses cases the model lacks
		case of != c.StepOf:
			return bad("load case %d is a load step of case %d in the model but of case %d in its results", c.LoadCase, of, c.StepOf)
		case c.StepOf == 0:
			continue
		}
		if parent, ok := stepOf[c.StepOf]; !ok || parent != 0 {
			return bad("load case %d is a load step of case %d, which is not a load case of the model that is not itself a step", c.LoadCase, c.StepOf)
		}
		if c.Step < 1 || !(c.LoadFactor > 0 && c.LoadFactor <= 1) {
			return bad("load case %d has step %d at load factor %v: a step is numbered from 1, at a load factor in (0, 1]", c.LoadCase, c.Step, c.LoadFactor)
		}
	}
	return nil
}
