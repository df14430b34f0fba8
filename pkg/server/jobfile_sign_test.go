package server

// Job-file signatures through the API: a file this service saved opens
// with its results wherever it is moved or uploaded; a file changed
// since, signed with a key the service does not hold, or not signed at
// all opens with its model only and says so; keys rotate.

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/model"
)

// testKeyA and testKeyB are fixed keys, so that stacks of one test
// share them.
const (
	testKeyA = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"
	testKeyB = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0"
)

// testJobfileKeys are the keys the test stacks sign with unless a test
// gives others: JOBFILE_KEYS=testKeyA.
func testJobfileKeys(t testing.TB) jobfile.Keys {
	t.Helper()
	return mustKeys(t, testKeyA)
}

func mustKeys(t testing.TB, value string) jobfile.Keys {
	t.Helper()
	k, err := jobfile.ParseKeys(value)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// signed is file signed again with keys.
func signed(t testing.TB, file []byte, keys jobfile.Keys) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := jobfile.Sign(bytes.NewReader(file), int64(len(file)), &out, keys); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// openedState is the state of an open or upload reply.
func openedState(t *testing.T, r reply) model.State {
	t.Helper()
	var o struct {
		State model.State `json:"state"`
	}
	r.decode(t, &o)
	return o.State
}

// wantModelOnly checks that the open job has its model but no results,
// and that both the open reply and the job status warn that the results
// were dropped, the warning holding each of parts.
func wantModelOnly(t *testing.T, s *stack, r reply, parts ...string) {
	t.Helper()
	if r.status != 200 {
		t.Fatalf("open: %d %s, want 200 (the model without its results)", r.status, r.body)
	}
	var status struct {
		State     model.State `json:"state"`
		Structure struct {
			Members int `json:"members"`
		} `json:"structure"`
	}
	s.must(200, "GET", "/job/status", nil).decode(t, &status)
	for name, st := range map[string]model.State{"open reply": openedState(t, r), "status": status.State} {
		w := strings.Join(st.Warnings, " | ")
		if !strings.Contains(w, "results were not opened") {
			t.Errorf("%s warnings %q, want one saying the results were not opened", name, st.Warnings)
		}
		for _, p := range parts {
			if !strings.Contains(w, p) {
				t.Errorf("%s warnings %q, want %q in them", name, st.Warnings, p)
			}
		}
	}
	if status.Structure.Members != 1 {
		t.Errorf("members after open = %d, want the file's 1", status.Structure.Members)
	}
	if q := s.call("GET", "/job/query/analysis/static/node-displacements?loadCases=1", nil); q.status != 409 {
		t.Errorf("node-displacements of a file opened without results = %d %.200s, want 409", q.status, q.body)
	}
}

// wantResults checks that the open job has the propped cantilever's
// results and no warning.
func wantResults(t *testing.T, s *stack, r reply) {
	t.Helper()
	if r.status != 200 {
		t.Fatalf("open: %d %s", r.status, r.body)
	}
	if w := openedState(t, r).Warnings; len(w) != 0 {
		t.Errorf("warnings %q opening a file this service signed", w)
	}
	if e := query[model.NodeReactionRow](s, "node-reactions?loadCases=1"); len(e.Results) != 2 {
		t.Errorf("reactions after open %+v", e)
	}
}

// A displacement edited to 1e203 (finite, so the results' structure check
// passes it) in a saved file: the file opens with its model only, says
// why, and its result queries answer 409; the untouched file keeps its
// results, after a rename or an upload too.
func TestJobFileEditedAfterSaveOpensWithoutResults(t *testing.T) {
	s, dir, file := savedProppedIn(t)
	forged := rezipUnsigned(t, file, map[string]func([]byte) []byte{"results/static/1:disp.bin": func(b []byte) []byte {
		binary.LittleEndian.PutUint64(b[8:], math.Float64bits(1e203)) // node 1's ty
		return b
	}})
	t.Run("edited, uploaded", func(t *testing.T) {
		wantModelOnly(t, s, s.uploadReply(forged), "1:disp.bin", "changed after this service saved it")
		s.must(200, "POST", "/job/close", nil)
	})
	t.Run("edited, opened from the jobs directory", func(t *testing.T) {
		if err := os.WriteFile(filepath.Join(dir, "forged.gsj"), forged, 0o644); err != nil {
			t.Fatal(err)
		}
		wantModelOnly(t, s, s.call("POST", "/job/open", map[string]any{"filePath": "forged"}), "changed after this service saved it")
		// Saving signs the model it has; the results are gone for good.
		s.must(200, "POST", "/job/save", nil)
		s.must(200, "POST", "/job/close", nil)
		r := s.call("POST", "/job/open", map[string]any{"filePath": "forged"})
		if w := openedState(t, r).Warnings; r.status != 200 || len(w) != 0 {
			t.Errorf("the edited file saved again: %d, warnings %q, want 200 and none", r.status, w)
		}
		s.must(200, "POST", "/job/close", nil)
	})
	t.Run("untouched, renamed", func(t *testing.T) {
		if err := os.Rename(filepath.Join(dir, "p.gsj"), filepath.Join(dir, "elsewhere.gsj")); err != nil {
			t.Fatal(err)
		}
		wantResults(t, s, s.call("POST", "/job/open", map[string]any{"filePath": "elsewhere"}))
		s.must(200, "POST", "/job/close", nil)
	})
	t.Run("untouched, uploaded", func(t *testing.T) {
		wantResults(t, s, s.uploadReply(file))
		s.must(200, "POST", "/job/close", nil)
	})
	t.Run("untouched, re-packed by a zip tool", func(t *testing.T) {
		// Folder entries added, every entry compressed anew: the content
		// is the same, so the signature holds.
		none := func([]byte) []byte { return nil }
		repacked := rezipUnsigned(t, file, map[string]func([]byte) []byte{"job/": none, "results/": none, "results/static/": none})
		wantResults(t, s, s.uploadReply(repacked))
		s.must(200, "POST", "/job/close", nil)
	})
	t.Run("untouched, signature removed", func(t *testing.T) {
		wantModelOnly(t, s, s.uploadReply(dropEntry(t, file, "signature.json")), "not signed")
		s.must(200, "POST", "/job/close", nil)
	})
}

// dropEntry is file without its entry name.
func dropEntry(t *testing.T, file []byte, name string) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, f := range zr.File {
		if f.Name == name {
			continue
		}
		if err := zw.Copy(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// Keys rotate: a file signed with the old key opens with its results on
// a service that signs with a new one and still lists the old one, and
// without them (saying so) on one that no longer lists it; a service
// with no key opens every file without its results.
func TestJobFileKeyRotation(t *testing.T) {
	s, file := savedPropped(t) // signed with key A
	for _, c := range []struct {
		name    string
		keys    string
		results bool
		why     string
	}{
		{name: "new key first, old key kept", keys: testKeyB + "," + testKeyA, results: true},
		{name: "old key retired", keys: testKeyB, why: "does not verify with this service's keys"},
		{name: "no key", keys: "", why: jobfile.KeysSetting},
	} {
		t.Run(c.name, func(t *testing.T) {
			s2 := startStackKeys(t, 1, Config{JobfileKeys: mustKeys(t, c.keys)}, io.Discard)
			if c.results {
				wantResults(t, s2, s2.uploadReply(file))
			} else {
				wantModelOnly(t, s2, s2.uploadReply(file), c.why)
			}
		})
	}
	_ = s
}

// The standalone makes its key on first start, mode 0600, in the jobs
// directory, and keeps it: a file it saved opens with its results after
// a restart.
func TestStandaloneKeepsItsJobfileKey(t *testing.T) {
	jobs := t.TempDir()
	start := func() (*stack, func()) {
		ctx, cancel := context.WithCancel(context.Background())
		cfg := Config{Port: "0", Host: "127.0.0.1", JobsDir: jobs}
		base, done := make(chan string, 1), make(chan error, 1)
		go func() {
			done <- RunStandalone(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), func(b string) { base <- b })
		}()
		select {
		case b := <-base:
			return &stack{t: t, base: b}, func() { cancel(); <-done }
		case err := <-done:
			cancel()
			t.Fatalf("standalone: %v", err)
		}
		return nil, nil
	}
	s, stop := start()
	fi, err := os.Stat(filepath.Join(jobs, jobfile.KeyFileName))
	if err != nil {
		t.Fatalf("no key file after the first start: %v", err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %04o, want 0600", fi.Mode().Perm())
	}
	key, _ := os.ReadFile(filepath.Join(jobs, jobfile.KeyFileName))
	if k, err := hex.DecodeString(strings.TrimSpace(string(key))); err != nil || len(k) != jobfile.MinKeyBytes {
		t.Errorf("key file holds %q, want %d bytes in hex", key, jobfile.MinKeyBytes)
	}
	proppedCantilever(s)
	if r := s.wait(s.run(nil).RunID); r.Status != model.RunCompleted {
		t.Fatalf("run %s %s", r.Status, r.ErrorMessage)
	}
	s.must(201, "POST", "/job/save", map[string]any{"filePath": "kept"})
	stop()

	s, stop = start()
	defer stop()
	if again, _ := os.ReadFile(filepath.Join(jobs, jobfile.KeyFileName)); !bytes.Equal(again, key) {
		t.Errorf("the key changed on restart")
	}
	s.must(200, "POST", "/job/close", nil)
	wantResults(t, s, s.call("POST", "/job/open", map[string]any{"filePath": "kept"}))
}
