package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// A list with no limit, or a limit past one read of the store, is sent
// as it is read (collection_stream.go). Its bytes and paging headers are
// those of the same rows read in pages of 1000, which are read whole as
// before: unfiltered and filtered, with an id filter, expanded, from an
// offset, and over composite keys (node loads by load case and node,
// read from a cursor past the last key). The unfiltered list of 12,000
// nodes is over the MiB the api holds back, so it is sent chunked (no
// Content-Length).
func TestStreamedListsEqualTheirPages(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.must(200, "POST", "/job/new", nil)
	const n = 12000
	for lo := 0; lo < n; lo += 6000 {
		nodes := make([]map[string]any, 6000)
		for i := range nodes {
			id := lo + i + 1
			nodes[i] = map[string]any{"id": id, "x": id % 10, "y": float64(id) / 7, "z": 0}
		}
		e.must(200, "POST", sp+"/nodes/bulk", nodes)
	}
	var restraints []map[string]any
	for id := 7; id <= n; id += 7 {
		restraints = append(restraints, map[string]any{"node": id, "restraintCode": "FFFFFF"})
	}
	e.must(200, "POST", sp+"/node-restraints/bulk", restraints)
	for lc := 1; lc <= 3; lc++ {
		e.must(201, "POST", "/job/loads/load-cases", map[string]any{"id": lc, "title": fmt.Sprint(lc)})
		loads := make([]map[string]any, 1500)
		for i := range loads {
			loads[i] = map[string]any{"loadCase": lc, "node": 2*i + 1, "fx": lc, "fy": -i}
		}
		e.must(200, "POST", "/job/loads/node-loads/bulk", loads)
	}
	for _, c := range []struct {
		query   string
		chunked bool
		total   string
	}{
		{"", true, "12000"},
		{"minX=5", false, "6000"},
		{"expand=all&minX=3&maxX=3", false, "1200"},
		{"nodes=100-11000&minX=2", false, "8720"},
		{"offset=500&limit=5000", false, "12000"},
		{"minX=1&offset=2000&limit=4000", false, ""},
		{"offset=20000", false, "12000"},
		{"/job/loads/node-loads", false, "4500"},
		{"/job/loads/node-loads?loadCases=2-3", false, "3000"},
		{"/job/loads/node-loads?loadCases=1,3&offset=700&limit=2500", false, "3000"},
		{"/job/loads/node-loads?nodes=10-900", false, "1335"},
	} {
		t.Run(c.query, func(t *testing.T) {
			path := sp + "/nodes?" + c.query
			if strings.HasPrefix(c.query, "/") {
				path = c.query
			}
			whole := e.must(200, "GET", path, nil)
			if chunked := whole.header.Get("Content-Length") == ""; chunked != c.chunked {
				t.Errorf("%d bytes, chunked %v, want %v", len(whole.body), chunked, c.chunked)
			}
			if got := whole.header.Get("Total-Count"); got != c.total {
				t.Errorf("Total-Count %q, want %q", got, c.total)
			}
			if want := e.pagedList(t, path, 1000); !bytes.Equal(whole.body, want) {
				t.Errorf("the list (%d bytes) differs from its pages (%d bytes):\n%.300s\n%.300s", len(whole.body), len(want), whole.body, want)
			}
		})
	}
}

// pagedList reads the list at path (which may page it already) in pages
// of size rows and joins them into the body one answer would be, from
// the rows' own bytes.
func (e *env) pagedList(t *testing.T, path string, size int64) []byte {
	t.Helper()
	base, query, _ := strings.Cut(path, "?")
	var keep []string
	offset, limit := int64(0), int64(-1)
	for _, kv := range strings.Split(query, "&") {
		switch {
		case strings.HasPrefix(kv, "offset="):
			fmt.Sscan(strings.TrimPrefix(kv, "offset="), &offset)
		case strings.HasPrefix(kv, "limit="):
			fmt.Sscan(strings.TrimPrefix(kv, "limit="), &limit)
		case kv != "":
			keep = append(keep, kv)
		}
	}
	var rows [][]byte
	for at := offset; limit < 0 || at < offset+limit; at += size {
		n := size
		if limit >= 0 {
			n = min(size, offset+limit-at)
		}
		r := e.must(200, "GET", fmt.Sprintf("%s?%s", base, strings.Join(append(keep, fmt.Sprintf("offset=%d&limit=%d", at, n)), "&")), nil)
		if r.header.Get("Content-Length") == "" {
			t.Fatalf("a page of %d bytes came chunked", len(r.body))
		}
		var page []json.RawMessage
		r.decode(t, &page)
		for _, p := range page {
			rows = append(rows, p)
		}
		if r.header.Get("Has-More") != "true" {
			break
		}
	}
	return append(append([]byte("["), bytes.Join(rows, []byte(","))...), ']')
}
