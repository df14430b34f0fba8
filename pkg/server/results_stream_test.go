package server

// Streamed result answers (httpapi/results_stream.go): an answer larger
// than what the api holds back goes out chunked, and its bytes are those
// of the same rows read in pages; MAX_RESPONSE_ROWS refuses an answer
// (or a model list) over it with a 400 that says to page.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/testutil/logtest"
)

// chain builds n members end to end along x from node 1, which is fixed,
// and load cases 1 … cases: case c pulls the tip down by c kN and puts a
// point load at a third of every other member (two more stations each),
// so that rows differ in length.
func chain(s *stack, n, cases int) {
	s.t.Helper()
	s.must(200, "POST", "/job/new", nil)
	s.must(201, "POST", "/job/structure/materials", map[string]any{"id": 1, "name": "steel", "youngsModulus": 200e3, "poissonsRatio": 0.3})
	s.must(201, "POST", "/job/structure/sections", map[string]any{"id": 1, "name": "beam", "a": 1e4, "j": 2e8, "iy": 1e8, "iz": 1e8, "ay": 5e3, "az": 5e3})
	nodes := make([]map[string]any, n+1)
	for i := range nodes {
		nodes[i] = map[string]any{"id": i + 1, "x": float64(i), "y": 0, "z": 0}
	}
	s.must(200, "POST", "/job/structure/nodes/bulk", nodes)
	members := make([]map[string]any, n)
	for i := range members {
		members[i] = map[string]any{"id": i + 1, "nodeA": i + 1, "nodeB": i + 2, "section": 1, "material": 1}
	}
	s.must(200, "POST", "/job/structure/members/bulk", members)
	s.must(201, "POST", "/job/structure/node-restraints", map[string]any{"node": 1, "restraintCode": "FFFFFF"})
	for c := 1; c <= cases; c++ {
		s.must(201, "POST", "/job/loads/load-cases", map[string]any{"id": c, "title": fmt.Sprintf("tip %d", c)})
		s.must(201, "POST", "/job/loads/node-loads", map[string]any{"loadCase": c, "node": n + 1, "fy": -float64(c)})
		var loads []map[string]any
		for m := 1; m <= n; m += 2 {
			loads = append(loads, map[string]any{"loadCase": c, "member": m, "axes": "GlobalInclined",
				"positionUnits": "Percent", "position": 100.0 / 3, "fy": -0.1})
		}
		s.must(200, "POST", "/job/loads/member-concentrated-loads/bulk", loads)
	}
}

// paged reads the query at path (under /job/query/analysis/static/)
// page by page and joins the pages into the body one answer of every
// row would be, from the rows' own bytes.
func (s *stack) paged(path string, limit int) []byte {
	s.t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	var rows []json.RawMessage
	var warnings json.RawMessage
	for offset := 0; ; offset += limit {
		var page struct {
			Results  []json.RawMessage `json:"results"`
			Warnings json.RawMessage   `json:"warnings"`
		}
		r := s.must(200, "GET", fmt.Sprintf("/job/query/analysis/static/%s%soffset=%d&limit=%d", path, sep, offset, limit), nil)
		if r.header.Get("Content-Length") == "" {
			s.t.Fatalf("a page of %d bytes came chunked", len(r.body))
		}
		r.decode(s.t, &page)
		rows, warnings = append(rows, page.Results...), page.Warnings
		if r.header.Get("Has-More") != "true" {
			break
		}
	}
	return []byte(`{"results":[` + string(bytes.Join(rowBytes(rows), []byte(","))) + `],"warnings":` + string(warnings) + "}")
}

func rowBytes(rows []json.RawMessage) [][]byte {
	out := make([][]byte, len(rows))
	for i, r := range rows {
		out[i] = r
	}
	return out
}

// TestStreamedAnswersEqualTheirPages: the station queries of 600 members
// over 12 cases answer about 5.6 MB each, past the 4 MiB segment the api
// reads and holds before it starts an answer, so they come chunked (no
// Content-Length); every byte equals the same rows read in pages of 499
// (each small enough to be sent whole, as before streaming), filtered or
// not, in the default units and in others.
// The smaller answers are sent whole and must equal their pages as well.
func TestStreamedAnswersEqualTheirPages(t *testing.T) {
	s := startStack(t, 1)
	chain(s, 600, 12)
	s.wait(s.run(nil).RunID)
	streamed := map[string]bool{"member-intermediate-forces": true, "member-stresses": true, "member-intermediate-displacements": true}
	check := func(units string) {
		for _, q := range []string{"member-intermediate-forces", "member-stresses", "member-intermediate-displacements",
			"member-end-forces", "node-displacements", "node-reactions", "reaction-summary", "member-intermediate-forces?loadCases=3,1&members=2-600"} {
			whole := s.must(200, "GET", "/job/query/analysis/static/"+q, nil)
			chunked := whole.header.Get("Content-Length") == ""
			if want := streamed[q]; chunked != want {
				t.Errorf("%s (%s): %d bytes, chunked %v, want %v", q, units, len(whole.body), chunked, want)
			}
			if want := s.paged(q, 499); !bytes.Equal(whole.body, want) {
				t.Errorf("%s (%s): the whole answer (%d bytes) differs from its pages (%d bytes)", q, units, len(whole.body), len(want))
			}
		}
	}
	check("default units")
	s.must(200, "PATCH", "/job/units", map[string]any{"force": "N", "moment": "Nmm", "length": "mm", "translation": "m"})
	check("N, mm")
	// A station answer builds its members once per 64 cases: over 150
	// cases the whole answer and its pages of 97 group the cases
	// differently, and must agree.
	s.must(200, "POST", "/job/close", nil)
	chain(s, 5, 150)
	s.wait(s.run(nil).RunID)
	for _, q := range []string{"member-intermediate-forces", "member-stresses?members=2-4&loadCases=30-140"} {
		whole := s.must(200, "GET", "/job/query/analysis/static/"+q, nil)
		if want := s.paged(q, 97); !bytes.Equal(whole.body, want) {
			t.Errorf("%s over 150 cases: the whole answer (%d bytes) differs from its pages (%d bytes)", q, len(whole.body), len(want))
		}
	}
}

// TestMaxResponseRows: with MAX_RESPONSE_ROWS=20, an answer of more rows
// (no limit, or a limit past it) is a 400 that names the variable and its
// value and says to page, before any byte of a 200; pages of at most 20
// rows, and answers that hold at most 20 rows whatever their limit, are
// served. Model lists follow the same rule.
func TestMaxResponseRows(t *testing.T) {
	s := startStackWith(t, 1, Config{MaxResponseRows: 20}, io.Discard)
	chain(s, 30, 2) // 31 nodes, 30 members
	s.wait(s.run(nil).RunID)
	for _, c := range []struct {
		path string
		rows int // -1: refused
	}{
		{"/job/query/analysis/static/node-displacements", -1},
		{"/job/query/analysis/static/node-displacements?limit=21", -1},
		{"/job/query/analysis/static/member-intermediate-forces?limit=1000&offset=35", -1},
		{"/job/query/analysis/static/node-displacements?limit=20", 20},
		{"/job/query/analysis/static/node-displacements?limit=20&offset=60", 2},
		{"/job/query/analysis/static/node-displacements?limit=1000&offset=45", 17},
		{"/job/query/analysis/static/member-stresses?loadCases=2&members=11-30", 20},
		{"/job/query/analysis/static/node-reactions", 2},
		{"/job/query/analysis/static/reaction-summary?limit=1000000", 6},
		{"/job/structure/nodes", -1},
		{"/job/structure/nodes?limit=21&offset=10", -1},
		{"/job/structure/members?members=3-30", -1},
		{"/job/structure/nodes?limit=20&offset=20", 11},
		{"/job/structure/nodes?offset=11", 20},
		{"/job/structure/members?members=11-30", 20},
	} {
		t.Run(c.path, func(t *testing.T) {
			r := s.call("GET", c.path, nil)
			if c.rows < 0 {
				if r.status != 400 || !isErrorResponse(r) || !strings.Contains(string(r.body), "MAX_RESPONSE_ROWS=20") ||
					!strings.Contains(string(r.body), "offset and limit") {
					t.Errorf("= %d %s, want a 400 naming MAX_RESPONSE_ROWS=20 that says to page", r.status, r.body)
				}
				return
			}
			var rows []json.RawMessage
			if strings.Contains(c.path, "/query/") {
				var e envelope[json.RawMessage]
				r.decode(t, &e)
				rows = e.Results
			} else {
				r.decode(t, &rows)
			}
			if r.status != 200 || len(rows) != c.rows {
				t.Errorf("= %d with %d rows, want 200 with %d: %.300s", r.status, len(rows), c.rows, r.body)
			}
		})
	}
}

// TestStreamCutWhenResultsChange: an answer whose status is sent cannot
// take back its rows when a run replaces the results under it (its next
// segment finds another set of results). The client reads the first kilobyte
// of a 19 MB station answer, more than the connection buffers, so the
// api is held mid-answer; a run publishes meanwhile; the rest of the
// answer then breaks off without its last chunk, so the client sees an
// error rather than a complete body mixing two result sets, and the api
// logs why.
func TestStreamCutWhenResultsChange(t *testing.T) {
	logs := &logtest.Buffer{}
	s := startStackWith(t, 1, Config{}, logs)
	chain(s, 600, 40)
	s.wait(s.run(nil).RunID)
	req, err := http.NewRequest("GET", s.base+"/job/query/analysis/static/member-intermediate-forces", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	head := make([]byte, 1024)
	if _, err := io.ReadFull(res.Body, head); err != nil || res.StatusCode != 200 {
		t.Fatalf("%d, the first kilobyte: %v", res.StatusCode, err)
	}
	s.wait(s.run(nil).RunID)
	rest, err := io.ReadAll(res.Body)
	if err == nil {
		t.Fatalf("the answer ended normally after %d bytes, ending %q", len(head)+len(rest), rest[max(0, len(rest)-40):])
	}
	waitFor(t, "the api to log the answer cut short", func() bool {
		return strings.Contains(logs.String(), "answer cut short") && strings.Contains(logs.String(), "results changed")
	})
}
