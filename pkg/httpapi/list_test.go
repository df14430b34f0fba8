package httpapi_test

import (
	"reflect"
	"testing"

	"github.com/gusset/gusset/pkg/model"
)

// A filtered list stops reading once it has its page and one more match:
// it always says in Has-More whether rows follow, and sends Total-Count
// only when its read reached the end, where the count is exact. An
// unfiltered list always counts.
func TestListPagingHeaders(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.must(200, "POST", "/job/new", nil)
	// Nodes 1 … 2500 at x = id mod 10: three pages of the store's reads.
	const n = 2500
	nodes := make([]map[string]any, n)
	for i := range nodes {
		nodes[i] = map[string]any{"id": i + 1, "x": (i + 1) % 10, "y": 0, "z": 0}
	}
	e.must(200, "POST", sp+"/nodes/bulk", nodes)
	cases := []struct {
		query          string
		ids            []int64
		hasMore, total string // total "" means no Total-Count header
	}{
		{"minX=5&limit=10", []int64{5, 6, 7, 8, 9, 15, 16, 17, 18, 19}, "true", ""},
		{"minX=5&offset=600&limit=3", []int64{1205, 1206, 1207}, "true", ""},
		{"minX=5&offset=1240&limit=10", []int64{2485, 2486, 2487, 2488, 2489, 2495, 2496, 2497, 2498, 2499}, "false", "1250"},
		{"minX=5&offset=1247&limit=10", []int64{2497, 2498, 2499}, "false", "1250"},
		{"minX=5&offset=5000&limit=10", []int64{}, "false", "1250"},
		{"minX=100&limit=10", []int64{}, "false", "0"},
		// Few ids: one read covers them all, so the count is known.
		{"minX=9&maxX=9&nodes=1-100&limit=3", []int64{9, 19, 29}, "true", "10"},
		{"offset=10&limit=3", []int64{11, 12, 13}, "true", "2500"},
		{"offset=2497&limit=10", []int64{2498, 2499, 2500}, "false", "2500"},
		{"nodes=2490-3000", []int64{2490, 2491, 2492, 2493, 2494, 2495, 2496, 2497, 2498, 2499, 2500}, "false", "11"},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			got, r := list[model.Node](t, e, sp+"/nodes?"+c.query)
			if ids := nodeIDs(got); !reflect.DeepEqual(ids, c.ids) {
				t.Errorf("ids %v, want %v", ids, c.ids)
			}
			if h := r.header.Get("Has-More"); h != c.hasMore {
				t.Errorf("Has-More %q, want %q", h, c.hasMore)
			}
			total, sent := r.header["Total-Count"]
			switch {
			case c.total == "" && sent:
				t.Errorf("Total-Count %v sent; the list stopped before the end", total)
			case c.total != "" && r.header.Get("Total-Count") != c.total:
				t.Errorf("Total-Count %q, want %q", r.header.Get("Total-Count"), c.total)
			}
		})
	}
}

// Loads are keyed by case and node: a filtered list reads one case's
// rows from a cursor inside the case, page after page.
func TestListPagingCompositeKeys(t *testing.T) {
	e := loadsEnv(t)
	// Nodes 1 … 2504, each loaded in cases 1 and 2.
	const n = 2504
	var nodes, loads []map[string]any
	for id := 5; id <= n; id++ {
		nodes = append(nodes, map[string]any{"id": id, "x": id, "y": 0, "z": 0})
	}
	e.must(200, "POST", sp+"/nodes/bulk", nodes)
	for c := 1; c <= 2; c++ {
		for id := 1; id <= n; id++ {
			loads = append(loads, map[string]any{"loadCase": c, "node": id, "fx": 1})
		}
	}
	e.must(200, "POST", lp+"/node-loads/bulk", loads)
	type key struct{ c, n int64 }
	cases := []struct {
		query          string
		want           []key
		hasMore, total string
	}{
		{"loadCases=2&nodes=1000-3000&limit=3", []key{{2, 1000}, {2, 1001}, {2, 1002}}, "true", ""},
		{"loadCases=2&nodes=2502-3000&limit=10", []key{{2, 2502}, {2, 2503}, {2, 2504}}, "false", "3"},
		{"loadCases=1,2&nodes=2504", []key{{1, 2504}, {2, 2504}}, "false", "2"},
		// The match past the page is the last row: the count is exact.
		{"loadCases=1-2&nodes=1,2504&offset=1&limit=2", []key{{1, 2504}, {2, 1}}, "true", "4"},
		{"loadCases=1-2&nodes=1,2,2504&offset=1&limit=2", []key{{1, 2}, {1, 2504}}, "true", ""},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			rows, r := list[model.NodeLoad](t, e, lp+"/node-loads?"+c.query)
			got := []key{}
			for _, l := range rows {
				got = append(got, key{l.LoadCase, l.Node})
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("keys %v, want %v", got, c.want)
			}
			if h := r.header.Get("Has-More"); h != c.hasMore {
				t.Errorf("Has-More %q, want %q", h, c.hasMore)
			}
			if h := r.header.Get("Total-Count"); h != c.total {
				t.Errorf("Total-Count %q, want %q", h, c.total)
			}
		})
	}
}
