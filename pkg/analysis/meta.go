package analysis

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

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
	Plates int        `json:"plates,omitempty"`
	Cases  []CaseMeta `json:"cases"` // ascending load case
}

// CaseMeta describes the stored results of one load case.
type CaseMeta struct {
	LoadCase    int64     `json:"loadCase"`
	RunID       string    `json:"runId"`
	Solver      string    `json:"solver"`
	IsNonLinear bool      `json:"isNonLinear"`
	AnalysedAt  time.Time `json:"analysedAt"`
	// SecondOrder is how station moments follow from the end state
	// (static.SecondOrder): "" first order, "chord" or "curve".
	SecondOrder string `json:"secondOrder,omitempty"`
	// StepOf, Step and LoadFactor describe a Step load case (a load step
	// a non-linear run kept): the case or combination it is a step of,
	// the step's number (1 …) and its load factor. StepOf is 0 for the
	// other cases.
	StepOf     int64   `json:"stepOf,omitempty"`
	Step       int     `json:"step,omitempty"`
	LoadFactor float64 `json:"loadFactor,omitempty"`
	// Cables is set when the case has the cable column (colCable).
	Cables bool `json:"cables,omitempty"`
}

// Kinematics of CaseMeta.SecondOrder.
const (
	secondOrderChord = "chord"
	secondOrderCurve = "curve"
)

// Case returns the record of load case lc; nil when the results do not
// hold it.
func (m *StaticMeta) Case(lc int64) *CaseMeta {
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

// decodeMeta decodes a stored meta record; nil for none.
func decodeMeta[M metaRecord](raw json.RawMessage) (*M, error) {
	if raw == nil {
		return nil, nil
	}
	var m M
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("decode results meta: %w", err)
	}
	return &m, nil
}

func decodeStaticMeta(raw json.RawMessage) (*StaticMeta, error) { return decodeMeta[StaticMeta](raw) }

// CheckResults checks the results a job file carries against the model it
// carries: a hostile or damaged file must be refused when it opens, not
// make a later query read past a column, report a node the model lacks or
// send a number JSON cannot carry. Each result set must state the model's
// size, list exactly its nodes, members (with their end nodes) and, for
// static results, plates (with their corners) in order, hold only its
// load cases, have whole rows in every column, name
// only its nodes, and hold only finite numbers.
//
// A set of a family g does not register is refused: this version cannot
// read it.
func (g *Registry) CheckResults(snap store.Snapshot) error {
	for name, set := range snap.Results {
		f := g.Family(name)
		if f == nil {
			return model.E(model.KindValidation, "the job file holds %s results, which this version cannot read", name)
		}
		if err := f.Check(set, snap.Collections); err != nil {
			return model.Wrap("check the job file's "+string(name)+" results", err)
		}
	}
	return nil
}

// metaRecord is a meta record of stored results.
type metaRecord interface {
	// size returns the model size the results state and their cases.
	size() (nodes, members int, cases []int64)
}

func (m StaticMeta) size() (int, int, []int64) {
	cs := make([]int64, len(m.Cases))
	for i, c := range m.Cases {
		cs[i] = c.LoadCase
	}
	return m.Nodes, m.Members, cs
}

func (m EigenMeta) size() (int, int, []int64) {
	cs := make([]int64, len(m.Cases))
	for i, c := range m.Cases {
		cs[i] = c.LoadCase
	}
	return m.Nodes, m.Members, cs
}

// openMeta decodes the meta record of a job file's result set and checks
// it against the file's model (readModelRefs).
func openMeta[M metaRecord](set store.ResultSet, colls map[string][]store.Row) (M, *modelRefs, map[string]int, error) {
	var m M
	if err := json.Unmarshal(set.Meta, &m); err != nil {
		return m, nil, nil, model.E(model.KindValidation, "the meta record is not valid: %v", err)
	}
	nodes, members, cases := m.size()
	ref, want, err := readModelRefs(colls, nodes, members, cases)
	return m, ref, want, err
}

// modelRefs are the ids a job file's results must agree with.
type modelRefs struct {
	nodes   []int64         // ascending
	members []memberRow     // by id
	plates  []plateNodesRow // by id; static results only
	cases   []int64         // ascending
}

// readPlates reads the file's plates for static results of plates plates,
// which must be the model's number, and adds the plates column to want.
func (ref *modelRefs) readPlates(colls map[string][]store.Row, plates int, want map[string]int) error {
	type corners struct {
		ID    int64 `json:"id"`
		NodeA int64 `json:"nodeA"`
		NodeB int64 `json:"nodeB"`
		NodeC int64 `json:"nodeC"`
		NodeD int64 `json:"nodeD"`
	}
	rows := colls[model.CollPlates]
	if plates != len(rows) {
		return model.E(model.KindValidation, "they are of a model with %d plates, not of the file's own (%d)", plates, len(rows))
	}
	cs := make([]corners, len(rows))
	for i, r := range rows {
		if err := json.Unmarshal(r.Value, &cs[i]); err != nil {
			return model.E(model.KindValidation, "plate row %s: %v", r.Key, err)
		}
		k, err := store.ParseKey(r.Key)
		if err != nil || len(k) != 1 {
			return model.E(model.KindValidation, "malformed key %q", r.Key)
		}
		cs[i].ID = k[0]
	}
	slices.SortFunc(cs, func(a, b corners) int { return cmp.Compare(a.ID, b.ID) })
	ref.plates = make([]plateNodesRow, len(cs))
	for i, c := range cs {
		ref.plates[i] = plateNodesRow{ID: c.ID, Nodes: [4]int64{c.NodeA, c.NodeB, c.NodeC, c.NodeD}}
	}
	if plates > 0 {
		want[colPlates] = platesCol.size(plates)
	}
	return nil
}

// readModelRefs reads the ids of the file's model and checks that results
// of nodes nodes and members members for load cases cases fit it. want
// holds the sizes of the nodes and members columns, for the caller to add
// its own to.
func readModelRefs(colls map[string][]store.Row, nodes, members int, cases []int64) (ref *modelRefs, want map[string]int, err error) {
	ref = &modelRefs{}
	if ref.nodes, err = rowIDs(colls[model.CollNodes]); err != nil {
		return nil, nil, err
	}
	if ref.members, err = fileMembers(colls[model.CollMembers]); err != nil {
		return nil, nil, err
	}
	if ref.cases, err = rowIDs(colls[model.CollLoadCases]); err != nil {
		return nil, nil, err
	}
	if nodes != len(ref.nodes) || members != len(ref.members) {
		return nil, nil, model.E(model.KindValidation, "they are of a model with %d nodes and %d members, not of the file's own (%d and %d)",
			nodes, members, len(ref.nodes), len(ref.members))
	}
	for i, lc := range cases {
		if i > 0 && lc <= cases[i-1] {
			return nil, nil, model.E(model.KindValidation, "they list load case %d after load case %d: the cases must be ascending, each once",
				lc, cases[i-1])
		}
		if _, ok := slices.BinarySearch(ref.cases, lc); !ok {
			return nil, nil, model.E(model.KindValidation, "they hold load case %d, which the model does not have", lc)
		}
	}
	return ref, map[string]int{colNodes: nodesCol.size(nodes), colMembers: membersCol.size(members)}, nil
}

// checkColumn checks the nodes and members columns against the model and
// every other column for numbers that are not finite.
func (ref *modelRefs) checkColumn(name string, col []byte) error {
	bad := func(format string, args ...any) error { return model.E(model.KindValidation, format, args...) }
	switch name {
	case colNodes:
		if got, _ := nodesCol.decode(col, name); !slices.Equal(got, ref.nodes) {
			return bad("the nodes column does not list the model's nodes")
		}
	case colMembers:
		if got, _ := membersCol.decode(col, name); !slices.Equal(got, ref.members) {
			return bad("the members column does not list the model's members and their end nodes")
		}
	case colPlates:
		if got, _ := platesCol.decode(col, name); !slices.Equal(got, ref.plates) {
			return bad("the plates column does not list the model's plates and their corner nodes")
		}
	default:
		vals, _ := values(col, name)
		for i, v := range vals {
			if !storable(v) {
				return bad("the column %q holds %v at value %d, which is not a finite number of at most %g in magnitude", name, v, i, maxStored)
			}
		}
	}
	return nil
}

func checkStatic(set store.ResultSet, colls map[string][]store.Row) error {
	bad := func(format string, args ...any) error { return model.E(model.KindValidation, format, args...) }
	m, ref, want, err := openMeta[StaticMeta](set, colls)
	if err != nil {
		return err
	}
	if err := ref.readPlates(colls, m.Plates, want); err != nil {
		return err
	}
	if err := checkSteps(m.Cases, colls[model.CollLoadCases]); err != nil {
		return err
	}
	for _, c := range m.Cases {
		lc := c.LoadCase
		if m.Plates > 0 {
			want[plateCol.of(lc)] = plateCol.size(m.Plates)
		}
		want[dispCol.of(lc)] = dispCol.size(m.Nodes)
		want[endCol.of(lc)] = endCol.size(m.Members)
		want[summaryCol.of(lc)] = summaryCol.size(1)
		want[reactCol.of(lc)] = -1 // whole rows, any number
		if c.Cables {
			want[cableCol.of(lc)] = cableCol.size(m.Members)
		}
	}
	for name, col := range set.Columns {
		n, ok := want[name]
		switch {
		case !ok:
			return bad("they hold an unknown column %q", name)
		case n == -1 && len(col)%reactCol.rowBytes() != 0, n >= 0 && len(col) != n:
			return bad("the column %q has %d bytes, which does not fit the model", name, len(col))
		}
		delete(want, name)
		if err := ref.checkColumn(name, col); err != nil {
			return err
		}
		if strings.HasSuffix(name, ":"+colReact) {
			rows, _ := reactCol.decode(col, name)
			for _, r := range rows {
				if _, ok := slices.BinarySearch(ref.nodes, int64(r.Node)); !ok || r.Node != math.Trunc(r.Node) {
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

// rowIDs returns the ids of single-id rows, ascending.
func rowIDs(rows []store.Row) ([]int64, error) {
	out := make([]int64, len(rows))
	for i, r := range rows {
		k, err := store.ParseKey(r.Key)
		if err != nil || len(k) != 1 {
			return nil, model.E(model.KindValidation, "malformed key %q", r.Key)
		}
		out[i] = k[0]
	}
	slices.Sort(out)
	return out, nil
}

// fileMembers returns the end nodes of every member row, by id.
func fileMembers(rows []store.Row) ([]memberRow, error) {
	type ends struct {
		ID    int64 `json:"id"`
		NodeA int64 `json:"nodeA"`
		NodeB int64 `json:"nodeB"`
	}
	es := make([]ends, len(rows))
	for i, r := range rows {
		if err := json.Unmarshal(r.Value, &es[i]); err != nil {
			return nil, model.E(model.KindValidation, "member row %s: %v", r.Key, err)
		}
		k, err := store.ParseKey(r.Key)
		if err != nil || len(k) != 1 {
			return nil, model.E(model.KindValidation, "malformed key %q", r.Key)
		}
		es[i].ID = k[0]
	}
	slices.SortFunc(es, func(a, b ends) int { return cmp.Compare(a.ID, b.ID) })
	out := make([]memberRow, len(es))
	for i, e := range es {
		out[i] = memberRow{ID: e.ID, NodeA: e.NodeA, NodeB: e.NodeB}
	}
	return out, nil
}

// checkSteps checks the Step load cases of static results against the
// file's load-case rows: a case is a step in the results exactly when its
// row says so, of the same case, which must be a case that is not itself
// a step, with a step number and a load factor a run can give.
func checkSteps(cases []CaseMeta, rows []store.Row) error {
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
