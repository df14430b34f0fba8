//go:build capacity

package main_test

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// jobfileKey is the api's JOBFILE_KEYS in the signature scenario.
const jobfileKey = "5e1f0c2b7a9d84e3c6b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9"

// Finding 10 of the capacity review: a saved job file whose displacement
// column was edited (1e203, finite, so the structure check passes it)
// and re-zipped opened with its results, served as an analysis. Now a
// file the service saves is signed (JOBFILE_KEYS); the edited file opens
// with its model only, says so in its state's warnings, and its result
// queries answer 409; the untouched file keeps its results.
func TestCapacityJobFileForgedResults(t *testing.T) {
	s := startCapStack(t, capOptions{APIEnv: []string{"JOBFILE_KEYS=" + jobfileKey}})
	jobfileCantilever(s, "a")
	var run struct {
		RunID string `json:"runId"`
	}
	json.Unmarshal(s.must(202, "a", "POST", "/job/analysis/static/run-linear", ""), &run)
	poll(t, 3*time.Minute, "the run ends", func() bool {
		var r struct {
			Status string `json:"status"`
		}
		json.Unmarshal(s.must(200, "a", "GET", "/job/analysis/runs/"+run.RunID, ""), &r)
		if r.Status == "Failed" || r.Status == "Cancelled" {
			t.Fatalf("run %s", r.Status)
		}
		return r.Status == "Completed"
	})
	s.must(201, "a", "POST", "/job/save", `{"filePath":"p"}`)
	s.must(200, "a", "POST", "/job/close", "")
	saved, err := os.ReadFile(filepath.Join(s.jobs, "a", "p.gsj"))
	if err != nil {
		t.Fatal(err)
	}
	forged := jobfileEdit(t, saved, "results/static/1:disp.bin", func(b []byte) {
		binary.LittleEndian.PutUint64(b[8:], math.Float64bits(1e203)) // node 1, ty (node 1 is fixed)
	})
	if err := os.WriteFile(filepath.Join(s.jobs, "a", "forged.gsj"), forged, 0o644); err != nil {
		t.Fatal(err)
	}

	const disp = "/job/query/analysis/static/node-displacements?loadCases=1"
	t.Run("edited", func(t *testing.T) {
		body := s.must(200, "a", "POST", "/job/open", `{"filePath":"forged"}`)
		if !strings.Contains(string(body), "results were not opened") {
			t.Errorf("open of the edited file does not warn that its results were not opened: %.400s", body)
		}
		if st, body := s.json("a", "GET", "/job/status", ""); st != 200 || !strings.Contains(string(body), "results were not opened") {
			t.Errorf("status of the edited file: %d, no warning: %.400s", st, body)
		}
		if st, body := s.json("a", "GET", disp, ""); st != 409 {
			t.Errorf("node-displacements of the edited file: %d %.300s, want 409 (no results)", st, body)
		}
		s.must(200, "a", "POST", "/job/close", "")
	})
	t.Run("untouched", func(t *testing.T) {
		body := s.must(200, "a", "POST", "/job/open", `{"filePath":"p"}`)
		if strings.Contains(string(body), "warnings") {
			t.Errorf("open of the saved file warns: %.400s", body)
		}
		var e struct {
			Results []map[string]any `json:"results"`
		}
		json.Unmarshal(s.must(200, "a", "GET", disp, ""), &e)
		if len(e.Results) != 2 {
			t.Errorf("node-displacements of the saved file: %d rows, want 2", len(e.Results))
		}
		s.must(200, "a", "POST", "/job/close", "")
	})
	s.alive()
}

// jobfileCantilever opens a propped cantilever with two load cases in
// workspace ws.
func jobfileCantilever(s *capStack, ws string) {
	s.t.Helper()
	s.must(200, ws, "POST", "/job/new", "")
	for _, r := range []struct{ path, body string }{
		{"/job/structure/materials", `{"id":1,"name":"steel","youngsModulus":200e9,"poissonsRatio":0.3}`},
		{"/job/structure/sections", `{"id":1,"name":"beam","a":0.01,"j":2e-4,"iy":1e-4,"iz":1e-4,"ay":1e12,"az":1e12}`},
		{"/job/structure/nodes", `{"id":1,"x":0,"y":0,"z":0}`},
		{"/job/structure/nodes", `{"id":2,"x":5,"y":0,"z":0}`},
		{"/job/structure/members", `{"id":1,"nodeA":1,"nodeB":2,"section":1,"material":1}`},
		{"/job/structure/node-restraints", `{"node":1,"restraintCode":"FFFFFF"}`},
		{"/job/structure/node-restraints", `{"node":2,"restraintCode":"FFFFRR"}`},
		{"/job/loads/load-cases", `{"id":1,"title":"w"}`},
		{"/job/loads/member-distributed-loads", `{"loadCase":1,"member":1,"axes":"GlobalInclined","fyStart":-1000,"fyFinish":-1000}`},
	} {
		s.must(201, ws, "POST", r.path, r.body)
	}
}

// jobfileEdit re-zips file with entry changed by edit, every other entry
// (the signature too) copied as it is: what a person with a zip tool does.
func jobfileEdit(t *testing.T, file []byte, entry string, edit func([]byte)) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	found := false
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if f.Name == entry {
			edit(b)
			found = true
		}
		w, err := zw.Create(f.Name)
		if err == nil {
			_, err = w.Write(b)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if !found {
		t.Fatalf("no entry %s in the saved file", entry)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
