package analysis

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// StaticMeta is the meta record of the stored static results: the model
// size they were computed on and the load cases they hold.
type StaticMeta struct {
	// Rev is the model revision the results were computed from; any
	// model change deletes them, so it is also the revision they describe.
	Rev     int64      `json:"rev"`
	Nodes   int        `json:"nodes"`
	Members int        `json:"members"`
	Cases   []CaseMeta `json:"cases"` // ascending load case
}

// CaseMeta describes the stored results of one load case.
type CaseMeta struct {
	LoadCase    int64     `json:"loadCase"`
	RunID       string    `json:"runId"`
	Solver      string    `json:"solver"`
	IsNonLinear bool      `json:"isNonLinear"`
	AnalysedAt  time.Time `json:"analysedAt"`
}

// Has reports whether the results hold load case lc.
func (m *StaticMeta) Has(lc int64) bool {
	if m == nil {
		return false
	}
	for _, c := range m.Cases {
		if c.LoadCase == lc {
			return true
		}
	}
	return false
}

// ReadStaticMeta reads the meta record of the static results; nil when the
// job has none.
func ReadStaticMeta(ctx context.Context, res store.Results, ws string) (*StaticMeta, error) {
	raw, err := res.Meta(ctx, ws, model.KindStatic)
	if err != nil || raw == nil {
		return nil, err
	}
	var m StaticMeta
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("decode static results meta: %w", err)
	}
	return &m, nil
}

// CheckResultSet checks a result set read from a job file whose model has
// the given numbers of nodes and members: its meta must decode, state
// that model size, and every column must have whole rows of it, so that
// a hostile or damaged file cannot make a query read past a column.
func CheckResultSet(kind model.AnalysisKind, set store.ResultSet, nodes, members int) error {
	if kind != model.KindStatic {
		return model.E(model.KindValidation, "the job file holds %s results, which this version cannot read", kind)
	}
	var m StaticMeta
	if err := json.Unmarshal(set.Meta, &m); err != nil {
		return model.E(model.KindValidation, "the job file's static results meta is not valid: %v", err)
	}
	if m.Nodes != nodes || m.Members != members {
		return model.E(model.KindValidation, "the job file's static results are of a model with %d nodes and %d members, not of its own (%d and %d)",
			m.Nodes, m.Members, nodes, members)
	}
	want := map[string]int{colNodes: 8 * m.Nodes, colMembers: 8 * widthMember * m.Members}
	for _, c := range m.Cases {
		want[caseColumn(c.LoadCase, colDisp)] = 8 * widthDisp * m.Nodes
		want[caseColumn(c.LoadCase, colEnd)] = 8 * widthEnd * m.Members
		want[caseColumn(c.LoadCase, colSummary)] = 8 * widthSummary
		want[caseColumn(c.LoadCase, colReact)] = -1 // rows of 7, any number
	}
	for name, col := range set.Columns {
		n, ok := want[name]
		switch {
		case !ok:
			return model.E(model.KindValidation, "the job file's static results hold an unknown column %q", name)
		case n == -1 && len(col)%(8*widthReact) != 0, n >= 0 && len(col) != n:
			return model.E(model.KindValidation, "the job file's static results column %q has %d bytes, which does not fit the model", name, len(col))
		}
		delete(want, name)
	}
	for name := range want {
		return model.E(model.KindValidation, "the job file's static results lack the column %q", name)
	}
	return nil
}
