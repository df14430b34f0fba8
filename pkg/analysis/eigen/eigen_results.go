package eigen

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/gusset/gusset/pkg/analysis/columns"
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// EigenMeta is the meta record of stored buckling or dynamic-frequency
// results.
type EigenMeta struct {
	// Rev is the model revision the results were computed from.
	Rev     int64           `json:"rev"`
	Nodes   int             `json:"nodes"`
	Members int             `json:"members"`
	Cases   []EigenCaseMeta `json:"cases"` // ascending load case
}

// EigenCaseMeta describes the stored modes of one load case.
type EigenCaseMeta struct {
	columns.CaseMeta
	// Modes is the number of modes stored; Requested the number the run
	// asked for; Tolerance the relative residual it asked for.
	Modes     int     `json:"modes"`
	Requested int     `json:"requested"`
	Tolerance float64 `json:"tolerance"`
	// Reasons are the exclusion reasons the lengths column refers to.
	Reasons []string `json:"reasons,omitempty"`
}

// ModelSize implements columns.MetaRecord.
func (m EigenMeta) ModelSize() (int, int, []int64) {
	cs := make([]int64, len(m.Cases))
	for i, c := range m.Cases {
		cs[i] = c.LoadCase
	}
	return m.Nodes, m.Members, cs
}

// has returns the meta record of load case lc.
func (m *EigenMeta) has(lc int64) (EigenCaseMeta, bool) {
	if m == nil {
		return EigenCaseMeta{}, false
	}
	for _, c := range m.Cases {
		if c.LoadCase == lc {
			return c, true
		}
	}
	return EigenCaseMeta{}, false
}

func decodeEigenMeta(raw json.RawMessage) (*EigenMeta, error) {
	return columns.DecodeMeta[EigenMeta](raw)
}

// eigenMode is one mode of an engine result, whatever the analysis.
type eigenMode struct {
	value, period, residual float64
	iterations              int
	part                    [3]float64
	shape                   [][6]float64
	lengths                 []lengthRow // buckling only
}

// lengthRow is one member's effective lengths in one mode.
type lengthRow struct {
	pcr, length, ly, lz float64
	reason              string
}

// eigenCase is the modes of one load case.
type eigenCase struct {
	id        int64
	requested int
	modes     []eigenMode
}

// eigenSet is what an eigen run stores.
type eigenSet struct {
	cases   []EigenCaseMeta
	columns map[string][]byte
	nodes   int
	members int
}

// packEigen packs the modes of cs into columns.
func packEigen(m *domain.Model, cs []eigenCase, tol float64, runID, solver string, at time.Time) *eigenSet {
	set := &eigenSet{columns: map[string][]byte{}, nodes: len(m.Nodes), members: len(m.Members)}
	nodes := make([]int64, len(m.Nodes))
	for i, n := range m.Nodes {
		nodes[i] = n.ID
	}
	set.columns[columns.Nodes.Name()] = columns.Nodes.Encode(nodes)
	set.columns[columns.Members.Name()] = columns.Members.Encode(columns.MembersOf(m))
	for _, c := range cs {
		cm := EigenCaseMeta{CaseMeta: columns.CaseMeta{LoadCase: c.id, RunID: runID, Solver: solver, AnalysedAt: at},
			Modes: len(c.modes), Requested: c.requested, Tolerance: tol}
		modes := make([]columns.ModeRow, 0, len(c.modes))
		var shapes []columns.DispRow
		var lengths []columns.EffLengthRow
		for _, md := range c.modes {
			nt, at, nr, ar := largest(md.shape)
			nodeID := func(i int) float64 { // 0: none
				if i < 0 {
					return 0
				}
				return float64(nodes[i])
			}
			modes = append(modes, columns.ModeRow{Value: md.value, Period: md.period, Residual: md.residual, Iterations: float64(md.iterations),
				Part: md.part, NodeT: nodeID(nt), AxisT: float64(at), NodeR: nodeID(nr), AxisR: float64(ar)})
			for _, s := range md.shape {
				shapes = append(shapes, columns.DispRow{U: s})
			}
			for _, l := range md.lengths {
				code := 0
				if l.reason != "" {
					if code = slices.Index(cm.Reasons, l.reason) + 1; code == 0 {
						cm.Reasons = append(cm.Reasons, l.reason)
						code = len(cm.Reasons)
					}
				}
				lengths = append(lengths, columns.EffLengthRow{Pcr: l.pcr, Length: l.length, Ly: l.ly, Lz: l.lz, Reason: float64(code)})
			}
		}
		set.columns[columns.Modes.Of(c.id)] = columns.Modes.Encode(modes)
		set.columns[columns.Shapes.Of(c.id)] = columns.Shapes.Encode(shapes)
		if lengths != nil {
			set.columns[columns.Lengths.Of(c.id)] = columns.Lengths.Encode(lengths)
		}
		set.cases = append(set.cases, cm)
	}
	return set
}

// roundOff is the fraction of a shape's largest component below which a
// motion is round-off: a member bending between nodes that stay put
// leaves its nodes only rotations, and translations of 1e-17.
const roundOff = 1e-9

// largest returns the node index and axis of the largest translation and
// of the largest rotation of shape (the first of equals); -1 for a kind of
// motion the shape has only as round-off.
func largest(shape [][6]float64) (nodeT, axisT, nodeR, axisR int) {
	bigT, bigR := 0.0, 0.0
	nodeT, nodeR = -1, -1
	for i, s := range shape {
		for d := range 3 {
			if a := math.Abs(s[d]); a > bigT {
				bigT, nodeT, axisT = a, i, d
			}
			if a := math.Abs(s[3+d]); a > bigR {
				bigR, nodeR, axisR = a, i, d
			}
		}
	}
	if big := math.Max(bigT, bigR); bigT <= roundOff*big {
		nodeT, axisT = -1, 0
	} else if bigR <= roundOff*big {
		nodeR, axisR = -1, 0
	}
	return nodeT, axisT, nodeR, axisR
}

// eigenCaseColumns lists the columns stored per load case of kind.
func eigenCaseColumns(kind model.AnalysisFamily) []string {
	if kind == bucklingName {
		return []string{columns.Modes.Name(), columns.Shapes.Name(), columns.Lengths.Name()}
	}
	return []string{columns.Modes.Name(), columns.Shapes.Name()}
}

// checkEigen checks the buckling or dynamic-frequency results a job file
// carries against its model (see CheckResults).
func checkEigen(kind model.AnalysisFamily, set store.ResultSet, colls map[string][]store.Row) error {
	bad := func(format string, args ...any) error { return model.E(model.KindValidation, format, args...) }
	m, ref, want, err := columns.OpenMeta[EigenMeta](set, colls)
	if err != nil {
		return err
	}
	reasons := map[string]int{}
	for _, c := range m.Cases {
		if c.Modes < 0 || c.Modes > MaxEigenModes || c.Requested < 0 || c.Requested > MaxEigenModes {
			return bad("load case %d holds %d modes of %d asked for; a run computes 0 to %d", c.LoadCase, c.Modes, c.Requested, MaxEigenModes)
		}
		if !(c.Tolerance > 0 && c.Tolerance < 1) {
			return bad("load case %d has the tolerance %v, not between 0 and 1", c.LoadCase, c.Tolerance)
		}
		want[columns.Modes.Of(c.LoadCase)] = columns.Modes.Size(c.Modes)
		want[columns.Shapes.Of(c.LoadCase)] = columns.Shapes.Size(m.Nodes * c.Modes)
		if kind == bucklingName {
			want[columns.Lengths.Of(c.LoadCase)] = columns.Lengths.Size(m.Members * c.Modes)
			reasons[columns.Lengths.Of(c.LoadCase)] = len(c.Reasons)
		}
	}
	for name, col := range set.Columns {
		n, ok := want[name]
		switch {
		case !ok:
			return bad("they hold an unknown column %q", name)
		case len(col) != n:
			return bad("the column %q has %d bytes, which does not fit the model", name, len(col))
		}
		delete(want, name)
		if err := ref.CheckColumn(name, col); err != nil {
			return err
		}
		switch {
		case strings.HasSuffix(name, ":"+columns.Modes.Name()):
			rows, _ := columns.Modes.Decode(col, name)
			for i := range rows {
				if err := checkMode(name, &rows[i], ref.Nodes); err != nil {
					return err
				}
			}
		case strings.HasSuffix(name, ":"+columns.Lengths.Name()):
			rows, _ := columns.Lengths.Decode(col, name)
			for _, r := range rows {
				if code := r.Reason; code < 0 || code > float64(reasons[name]) || code != math.Trunc(code) {
					return bad("the column %q holds the exclusion code %v", name, code)
				}
				for _, x := range [...]float64{r.Pcr, r.Length, r.Ly, r.Lz} {
					if !(x >= 0) {
						return bad("the column %q holds the negative critical force or length %v", name, x)
					}
				}
			}
		}
	}
	for name := range want {
		return bad("they lack the column %q", name)
	}
	return nil
}

// checkMode checks a mode of the modes column name against the model's
// nodes (ascending).
func checkMode(name string, v *columns.ModeRow, nodes []int64) error {
	bad := func(format string, args ...any) error { return model.E(model.KindValidation, format, args...) }
	if it := v.Iterations; !(it >= 0 && it <= 1e9 && it == math.Trunc(it)) || !(v.Residual >= 0) || !(v.Period >= 0) {
		return bad("the column %q holds a mode with %v iterations, residual %v and period %v", name, it, v.Residual, v.Period)
	}
	for _, p := range v.Part {
		if !(p >= 0 && p <= 1+1e-9) {
			return bad("the column %q holds the participation fraction %v, not between 0 and 1", name, p)
		}
	}
	for _, n := range [...]float64{v.NodeT, v.NodeR} {
		if n == 0 {
			continue // no node: the shape has no such motion
		}
		if _, ok := slices.BinarySearch(nodes, int64(n)); !ok || n != math.Trunc(n) {
			return bad("the column %q names node %v, which is not a node of the model", name, n)
		}
	}
	for _, a := range [...]float64{v.AxisT, v.AxisR} {
		if a != 0 && a != 1 && a != 2 {
			return bad("the column %q holds the axis %v", name, a)
		}
	}
	return nil
}
