package server

// The bodies of the result queries, byte for byte: streaming their
// encoding (httpapi/results_stream.go) must not change a byte of what the
// queries answered when they built each page whole. The golden file was
// written by this test run against the build before streaming
// (-update-result-bodies); it holds every query of every family, whole,
// paged, filtered and in other job units.

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"testing"
)

var updateResultBodies = flag.Bool("update-result-bodies", false, "rewrite testdata/result_bodies.json from this build")

// resultBodiesFile holds the recorded bodies.
const resultBodiesFile = "testdata/result_bodies.json"

// pageVariants are the query strings every query is asked with: whole,
// pages that start and end inside a case, an empty page, one past the
// end, and the one-row pages a client paging through would ask for.
var pageVariants = []string{"", "?offset=1&limit=3", "?offset=2&limit=5", "?limit=1", "?offset=4", "?offset=1000", "?offset=3&limit=1000"}

// errorTimestamp is the one part of an ErrorResponse that differs from
// run to run.
var errorTimestamp = regexp.MustCompile(`"timestamp":"[^"]*"`)

// bodyRecorder asks queries and keeps what they answer, by name.
type bodyRecorder struct {
	s   *stack
	got map[string]string
}

// ask records the answers of each query of dir (under
// /job/query/analysis/) with each variant and each extra query string.
func (b *bodyRecorder) ask(scenario, dir string, queries []string, extra ...string) {
	b.s.t.Helper()
	for _, q := range queries {
		for _, v := range append(append([]string{}, pageVariants...), extra...) {
			path := "/job/query/analysis/" + dir + "/" + q + v
			r := b.s.call("GET", path, nil)
			h := r.header
			b.got[scenario+" "+dir+"/"+q+v] = fmt.Sprintf("%d Total-Count=%s Has-More=%s Offset=%s Limit=%s Content-Type=%s\n%s",
				r.status, h.Get("Total-Count"), h.Get("Has-More"), h.Get("Offset"), h.Get("Limit"), h.Get("Content-Type"),
				errorTimestamp.ReplaceAll(r.body, []byte(`"timestamp":"-"`)))
		}
	}
}

var staticQueryNames = []string{"node-displacements", "node-reactions", "reaction-summary", "member-end-forces",
	"member-intermediate-forces", "member-intermediate-displacements", "member-stresses", "plate-element-forces",
	"plate-element-stresses", "plate-nodal-forces"}

// TestResultBodiesUnchanged asks every query of a frame (members with
// point loads, a hinge and a combination of a combination), a plate mesh
// (quads and triangles, non-contiguous ids), a non-linear run with Step
// cases and a portal's buckling and frequency runs, and compares each
// answer with the recorded one: status, paging headers and body bytes.
// Numbers may differ in their last bits on another CPU (a different
// order of floating-point sums), so a body that differs is compared token
// by token, every key, string and delimiter exactly and numbers within
// 1e-9 relative (far below any unit factor or sign a change could slip).
func TestResultBodiesUnchanged(t *testing.T) {
	s := startStack(t, 1)
	b := &bodyRecorder{s: s, got: map[string]string{}}

	frame(s)
	s.wait(s.run(nil).RunID)
	b.ask("frame", "static", staticQueryNames, "?loadCases=1,4&members=2", "?nodes=2-3&offset=1&limit=2", "?loadCases=9")
	s.must(200, "PATCH", "/job/units", map[string]any{"force": "N", "moment": "Nmm", "length": "mm", "translation": "m"})
	b.ask("frame-units", "static", staticQueryNames[:7])

	s.must(200, "POST", "/job/close", nil)
	smallPlates(s)
	s.wait(s.run(nil).RunID)
	b.ask("plates", "static", staticQueryNames, "?plates=7-20&loadCases=3,1", "?plates=6")

	s.must(200, "POST", "/job/close", nil)
	aiscColumn(s, 3, map[int]float64{1: 0.2})
	s.must(201, "POST", "/job/loads/member-distributed-loads", map[string]any{"loadCase": 1, "member": 2,
		"axes": "Local", "fyStart": 0.05, "fyFinish": 0.05})
	if r := s.wait(s.runNonLinear(copySettings(map[string]any{"loadSteps": 3})).RunID); r.Status != "Completed" {
		t.Fatalf("non-linear run %s: %s", r.Status, r.ErrorMessage)
	}
	b.ask("steps", "static", staticQueryNames[:7], "?loadCases=2-3&members=1,3")

	s.must(200, "POST", "/job/close", nil)
	swayPortal(s)
	s.runEigen("buckling", map[string]any{"modes": 3})
	s.runEigen("dynamic-frequency", map[string]any{"modes": 3})
	b.ask("portal", "buckling", []string{"load-factors", "member-effective-lengths", "mode-shapes"}, "?modes=2-5&members=2")
	b.ask("portal", "dynamic", []string{"natural-frequencies", "mode-shapes"}, "?modes=2&nodes=2-3",
		"?normalization=Unit", "?normalization=None&offset=1")

	if *updateResultBodies {
		out, err := json.MarshalIndent(b.got, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(resultBodiesFile), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(resultBodiesFile, out, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %d bodies to %s", len(b.got), resultBodiesFile)
		return
	}
	raw, err := os.ReadFile(resultBodiesFile)
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]string
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(b.got) {
		t.Errorf("%d answers recorded, %d asked", len(want), len(b.got))
	}
	names := make([]string, 0, len(want))
	for k := range want {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		got, ok := b.got[k]
		if !ok {
			t.Errorf("%s: recorded, not asked", k)
			continue
		}
		if got == want[k] {
			continue
		}
		if err := sameTokens(got, want[k]); err != nil {
			t.Errorf("%s: %v\ngot  %.600s\nwant %.600s", k, err, got, want[k])
		}
	}
}

// sameTokens compares two recorded answers: the first lines (status and
// headers) exactly, then the JSON bodies token by token, numbers within
// 1e-9 relative (and 1e-300 absolute, for zeros that are round-off).
func sameTokens(got, want string) error {
	gh, gb, _ := bytes.Cut([]byte(got), []byte("\n"))
	wh, wb, _ := bytes.Cut([]byte(want), []byte("\n"))
	if !bytes.Equal(gh, wh) {
		return fmt.Errorf("status or headers differ: %s, want %s", gh, wh)
	}
	gd, wd := json.NewDecoder(bytes.NewReader(gb)), json.NewDecoder(bytes.NewReader(wb))
	gd.UseNumber()
	wd.UseNumber()
	for i := 0; ; i++ {
		g, gerr := gd.Token()
		w, werr := wd.Token()
		if errors.Is(gerr, io.EOF) && errors.Is(werr, io.EOF) {
			return nil
		}
		if gerr != nil || werr != nil {
			return fmt.Errorf("token %d: %v, want %v", i, gerr, werr)
		}
		gn, gok := g.(json.Number)
		wn, wok := w.(json.Number)
		if gok && wok {
			x, _ := gn.Float64()
			y, _ := wn.Float64()
			if math.Abs(x-y) <= 1e-9*math.Abs(y)+1e-300 {
				continue
			}
		}
		if g != w {
			return fmt.Errorf("token %d: %v, want %v", i, g, w)
		}
	}
}
