package columns

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// DecodeMeta decodes a stored meta record; nil for none.
func DecodeMeta[M MetaRecord](raw json.RawMessage) (*M, error) {
	if raw == nil {
		return nil, nil
	}
	var m M
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("decode results meta: %w", err)
	}
	return &m, nil
}

// MetaRecord is a meta record of stored results.
type MetaRecord interface {
	// ModelSize returns the model size the results state and their cases.
	ModelSize() (nodes, members int, cases []int64)
}

// OpenMeta decodes the meta record of a job file's result set and checks
// it against the file's model (readModelRefs).
func OpenMeta[M MetaRecord](set store.ResultSet, colls map[string][]store.Row) (M, *ModelRefs, map[string]int, error) {
	var m M
	if err := json.Unmarshal(set.Meta, &m); err != nil {
		return m, nil, nil, model.E(model.KindValidation, "the meta record is not valid: %v", err)
	}
	nodes, members, cases := m.ModelSize()
	ref, want, err := ReadModelRefs(colls, nodes, members, cases)
	return m, ref, want, err
}

// ModelRefs are the ids a job file's results must agree with.
type ModelRefs struct {
	Nodes   []int64         // ascending
	Members []MemberRow     // by id
	Plates  []PlateNodesRow // by id; static results only
	Cases   []int64         // ascending
}

// ReadPlates reads the file's plates for static results of plates plates,
// which must be the model's number, and adds the plates column to want.
func (ref *ModelRefs) ReadPlates(colls map[string][]store.Row, plates int, want map[string]int) error {
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
	ref.Plates = make([]PlateNodesRow, len(cs))
	for i, c := range cs {
		ref.Plates[i] = PlateNodesRow{ID: c.ID, Nodes: [4]int64{c.NodeA, c.NodeB, c.NodeC, c.NodeD}}
	}
	if plates > 0 {
		want[colPlates] = PlateNodes.Size(plates)
	}
	return nil
}

// ReadModelRefs reads the ids of the file's model and checks that results
// of nodes nodes and members members for load cases cases fit it. want
// holds the sizes of the nodes and members columns, for the caller to add
// its own to.
func ReadModelRefs(colls map[string][]store.Row, nodes, members int, cases []int64) (ref *ModelRefs, want map[string]int, err error) {
	ref = &ModelRefs{}
	if ref.Nodes, err = RowIDs(colls[model.CollNodes]); err != nil {
		return nil, nil, err
	}
	if ref.Members, err = FileMembers(colls[model.CollMembers]); err != nil {
		return nil, nil, err
	}
	if ref.Cases, err = RowIDs(colls[model.CollLoadCases]); err != nil {
		return nil, nil, err
	}
	if nodes != len(ref.Nodes) || members != len(ref.Members) {
		return nil, nil, model.E(model.KindValidation, "they are of a model with %d nodes and %d members, not of the file's own (%d and %d)",
			nodes, members, len(ref.Nodes), len(ref.Members))
	}
	for i, lc := range cases {
		if i > 0 && lc <= cases[i-1] {
			return nil, nil, model.E(model.KindValidation, "they list load case %d after load case %d: the cases must be ascending, each once",
				lc, cases[i-1])
		}
		if _, ok := slices.BinarySearch(ref.Cases, lc); !ok {
			return nil, nil, model.E(model.KindValidation, "they hold load case %d, which the model does not have", lc)
		}
	}
	return ref, map[string]int{colNodes: Nodes.Size(nodes), colMembers: Members.Size(members)}, nil
}

// CheckColumn checks the nodes and members columns against the model and
// every other column for numbers that are not finite.
func (ref *ModelRefs) CheckColumn(name string, col []byte) error {
	bad := func(format string, args ...any) error { return model.E(model.KindValidation, format, args...) }
	switch name {
	case colNodes:
		if got, _ := Nodes.Decode(col, name); !slices.Equal(got, ref.Nodes) {
			return bad("the nodes column does not list the model's nodes")
		}
	case colMembers:
		if got, _ := Members.Decode(col, name); !slices.Equal(got, ref.Members) {
			return bad("the members column does not list the model's members and their end nodes")
		}
	case colPlates:
		if got, _ := PlateNodes.Decode(col, name); !slices.Equal(got, ref.Plates) {
			return bad("the plates column does not list the model's plates and their corner nodes")
		}
	default:
		vals, _ := Values(col, name)
		for i, v := range vals {
			if !Storable(v) {
				return bad("the column %q holds %v at value %d, which is not a finite number of at most %g in magnitude", name, v, i, MaxStored)
			}
		}
	}
	return nil
}

// RowIDs returns the ids of single-id rows, ascending.
func RowIDs(rows []store.Row) ([]int64, error) {
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

// FileMembers returns the end nodes of every member row, by id.
func FileMembers(rows []store.Row) ([]MemberRow, error) {
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
	out := make([]MemberRow, len(es))
	for i, e := range es {
		out[i] = MemberRow{ID: e.ID, NodeA: e.NodeA, NodeB: e.NodeB}
	}
	return out, nil
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
	// Cables is set when the case has the cable column (Cable).
	Cables bool `json:"cables,omitempty"`
}
