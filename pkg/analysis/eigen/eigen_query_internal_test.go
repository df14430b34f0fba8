package eigen

import (
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/analysis/columns"
	"github.com/gusset/gusset/pkg/model"
)

// A page of mode shapes is bounded: at the limit it passes, one entry
// more is a 400 naming the limit and what to narrow.
func TestShapePageLimit(t *testing.T) {
	for _, tc := range []struct {
		rows, nodes int64
		ok          bool
	}{{1, MaxShapeEntries, true}, {10, MaxShapeEntries / 10, true}, {MaxShapeEntries + 1, 1, false}, {200, 29791, false}, {0, 1 << 40, true}} {
		err := checkShapePage(tc.rows, tc.nodes)
		if tc.ok != (err == nil) {
			t.Errorf("%d rows × %d nodes: %v", tc.rows, tc.nodes, err)
		}
		if err != nil && (model.KindOf(err) != model.KindValidation || !strings.Contains(err.Error(), "at most 250000") ||
			!strings.Contains(err.Error(), "limit")) {
			t.Errorf("%d × %d: error %v does not name the limit", tc.rows, tc.nodes, err)
		}
	}
}

// The modes a case shows: the filter's, cut to those found, and the rest
// (or, without a filter, the modes the run asked for but did not find)
// as a warning.
func TestCaseModes(t *testing.T) {
	c := EigenCaseMeta{CaseMeta: columns.CaseMeta{LoadCase: 4}, Modes: 3, Requested: 5}
	list := func(s string) *model.IDList {
		l, _, err := model.ParseIDList("modes", s)
		if err != nil {
			t.Fatal(err)
		}
		return &l
	}
	for _, tc := range []struct {
		filter *model.IDList
		want   []int
		miss   string
	}{
		{nil, []int{1, 2, 3}, "4-5"},
		{list("2"), []int{2}, ""},
		{list("1,3-9"), []int{1, 3}, "4-9"},
		{list("7-1000000"), nil, "7-1000000"},
	} {
		got, miss := c.modes(tc.filter)
		if len(got) != len(tc.want) || (miss == nil) != (tc.miss == "") || (miss != nil && (miss.Modes != tc.miss || miss.LoadCase != 4)) {
			t.Errorf("filter %v: modes %v, missing %+v; want %v, %q", tc.filter, got, miss, tc.want, tc.miss)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("filter %v: modes %v, want %v", tc.filter, got, tc.want)
			}
		}
	}
}
