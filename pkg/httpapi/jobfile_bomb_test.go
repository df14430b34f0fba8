package httpapi_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"fmt"
	"hash/crc32"
	"io"
	"mime/multipart"
	"net/http"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/jobfile"
)

// Hostile template uploads through the real HTTP stack: zip bombs,
// directories that lie, names given twice, files too slow to read in the
// request's time. Each is a 4xx or 503 naming what to fix, in bounded
// memory, and opens nothing.

// rawEntry is one entry of a crafted zip, written raw so that its
// directory can declare anything.
type rawEntry struct {
	name     string
	data     []byte // what the entry expands to
	comp     []byte // its deflated form; nil stores data
	declared *uint64
}

func deflate(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func rawZip(t *testing.T, entries []rawEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Store, CRC32: crc32.ChecksumIEEE(e.data),
			CompressedSize64: uint64(len(e.data)), UncompressedSize64: uint64(len(e.data))}
		data := e.data
		if e.comp != nil {
			h.Method, h.CompressedSize64, data = zip.Deflate, uint64(len(e.comp)), e.comp
		}
		if e.declared != nil {
			h.UncompressedSize64 = *e.declared
		}
		w, err := zw.CreateRaw(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func manifestOf(collections ...string) rawEntry {
	q := make([]string, len(collections))
	for i, c := range collections {
		q[i] = fmt.Sprintf("%q", c)
	}
	return rawEntry{name: "manifest.json", data: []byte(`{"format":"gusset-job","version":1,"generator":"bomb","collections":[` + strings.Join(q, ",") + `]}`)}
}

// nodeRows is a nodes entry of n valid rows.
func nodeRows(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, `{"key":"%010d","score":0,"value":{"id":%d,"x":%d.5,"y":0,"z":0,"hasConstraint":false,"hasRestraint":false}}`+"\n", i+1, i+1, i)
	}
	return b.Bytes()
}

// bombFile lists n collections, each an entry of entrySize bytes of one
// row repeated; they share one deflated copy of a few KiB.
func bombFile(t *testing.T, n, entrySize int) (file []byte, expands int64) {
	t.Helper()
	const row = `{"key":"0000000001","score":0,"value":{"id":1,"x":0,"y":0,"z":0}}` + "\n"
	data := bytes.Repeat([]byte(row), entrySize/len(row)+1)
	comp := deflate(t, data)
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("c%d", i)
	}
	entries := []rawEntry{manifestOf(names...)}
	for _, nm := range names {
		entries = append(entries, rawEntry{name: "model/" + nm + ".jsonl", data: data, comp: comp})
	}
	return rawZip(t, entries), int64(n) * int64(len(data))
}

// upload posts file as the template part and reports what the request
// allocated in this process (the server runs here) and how long it took.
func (e *env) upload(file []byte) (r resp, alloc uint64, took time.Duration) {
	e.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("template", "bomb.gsj")
	if err != nil {
		e.t.Fatal(err)
	}
	_, _ = fw.Write(file)
	_ = mw.Close()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "POST", e.base+"/job/new-from-template", &body)
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	start := time.Now()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatalf("upload of %d bytes: %v after %v", len(file), err, time.Since(start))
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	took = time.Since(start)
	runtime.ReadMemStats(&m1)
	return resp{status: res.StatusCode, header: res.Header, body: b}, m1.TotalAlloc - m0.TotalAlloc, took
}

// refused checks an error answer: status, code, the parts its detail
// names; and that no job opened.
func (e *env) refused(r resp, status int, code string, parts ...string) {
	e.t.Helper()
	if r.status != status {
		e.t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	er := r.errBody(e.t)
	if er.ErrorCode != code {
		e.t.Fatalf("errorCode %s, want %s: %s", er.ErrorCode, code, r.body)
	}
	for _, p := range parts {
		if !strings.Contains(er.Detail, p) {
			e.t.Fatalf("detail does not name %q: %s", p, er.Detail)
		}
	}
	if s := e.raw("GET", "/job", "", nil); s.status != 409 {
		e.t.Fatalf("a refused upload opened a job: %d %s", s.status, s.body)
	}
}

// A template of 1.2 MiB that expands to 1.2 GiB (past the default limit)
// is a 413 naming the limit and MAX_JOB_BYTES, in little memory: it is
// refused from the zip directory, before any entry is expanded.
func TestTemplateBombOverDefaultLimit(t *testing.T) {
	e := newEnv(t, envOptions{})
	file, expands := bombFile(t, 300, 4<<20)
	r, alloc, took := e.upload(file)
	t.Logf("%d-byte upload expanding to %d bytes: %d %v, allocated %d MiB", len(file), expands, r.status, took, alloc>>20)
	e.refused(r, 413, "PAYLOAD_TOO_LARGE", "MAX_JOB_BYTES", fmt.Sprint(jobfile.DefaultMaxJobBytes))
	if alloc > 64<<20 {
		t.Errorf("the request allocated %d MiB for a %d-byte upload (it expands to %d MiB)", alloc>>20, len(file), expands>>20)
	}
}

// With MAX_JOB_BYTES set low, the bomb is refused by that limit; so is
// an upload larger than it (whatever it expands to) and one past the body
// limit.
func TestTemplateOverLowLimit(t *testing.T) {
	const limit = 8 << 20
	e := newEnv(t, envOptions{maxJobBytes: limit})
	file, _ := bombFile(t, 64, 4<<20)
	r, alloc, _ := e.upload(file)
	e.refused(r, 413, "PAYLOAD_TOO_LARGE", "MAX_JOB_BYTES", fmt.Sprint(limit))
	if alloc > 64<<20 {
		t.Errorf("the request allocated %d MiB", alloc>>20)
	}
	big := make([]byte, limit+1)
	for i := range big {
		big[i] = byte(i * 7919 >> 3)
	}
	r, _, _ = e.upload(rawZip(t, []rawEntry{manifestOf(), {name: "extra.bin", data: big}}))
	e.refused(r, 413, "PAYLOAD_TOO_LARGE", "MAX_JOB_BYTES", fmt.Sprint(limit))
	// The body limit comes first, before anything is parsed. (A small
	// one: the server answers before the client has sent a larger body,
	// and then closes the connection under it.)
	e = newEnv(t, envOptions{maxJobBytes: limit, bodyLimit: 64 << 10})
	r, _, _ = e.upload(make([]byte, 80<<10))
	e.refused(r, 413, "PAYLOAD_TOO_LARGE", fmt.Sprint(64<<10))
}

// A manifest that lists a collection twice (30 times) is a 400 naming it,
// before any row is read: in next to no memory.
func TestTemplateDuplicateCollection(t *testing.T) {
	e := newEnv(t, envOptions{})
	names := make([]string, 30)
	for i := range names {
		names[i] = "nodes"
	}
	rows := nodeRows(20_000)
	r, alloc, took := e.upload(rawZip(t, []rawEntry{manifestOf(names...), {name: "model/nodes.jsonl", data: rows, comp: deflate(t, rows)}}))
	t.Logf("refused in %v, the request allocating %d KiB", took, alloc>>10)
	e.refused(r, 400, "VALIDATION_FAILED", `"nodes"`, "twice")
	// The request allocates about 1.1 MB to refuse (measured: mostly the
	// upload) and about 42 MB to open the same file listing the
	// collection once; 8 MiB tells the two apart.
	if alloc > 8<<20 {
		t.Errorf("refusing allocated %d MiB: rows were read", alloc>>20)
	}
}

// Two entries of one name are a 400 naming the entry.
func TestTemplateDuplicateEntries(t *testing.T) {
	e := newEnv(t, envOptions{})
	rows := nodeRows(2)
	r, _, _ := e.upload(rawZip(t, []rawEntry{manifestOf("nodes"), {name: "model/nodes.jsonl", data: rows}, {name: "model/nodes.jsonl", data: rows[:len(rows)/2]}}))
	e.refused(r, 400, "VALIDATION_FAILED", `"model/nodes.jsonl"`)
}

// A directory that declares less than an entry holds, or more than its
// data can hold, is a 400 naming the entry.
func TestTemplateLyingDirectory(t *testing.T) {
	e := newEnv(t, envOptions{})
	rows := nodeRows(50_000)
	small, huge := uint64(1024), uint64(3<<30)
	r, alloc, _ := e.upload(rawZip(t, []rawEntry{manifestOf("nodes"), {name: "model/nodes.jsonl", data: rows, comp: deflate(t, rows), declared: &small}}))
	e.refused(r, 400, "VALIDATION_FAILED", "model/nodes.jsonl", "1024")
	if alloc > 64<<20 {
		t.Errorf("the request allocated %d MiB", alloc>>20)
	}
	r, _, _ = e.upload(rawZip(t, []rawEntry{manifestOf(), {name: "extra.bin", data: []byte("x"), declared: &huge}}))
	e.refused(r, 400, "VALIDATION_FAILED", "extra.bin", fmt.Sprint(huge))
}

// A template that takes longer to read than the request may is a 503
// naming the cause, not a 500 after the work: the decoding stopped when
// the deadline passed, short of the end of the rows (the detail says
// after how many bytes). A load that slows the machine only makes the
// deadline come earlier in the rows.
func TestTemplateDeadline(t *testing.T) {
	const timeout = 300 * time.Millisecond
	e := newEnv(t, envOptions{requestTimeout: timeout})
	rows := nodeRows(400_000)
	r, _, took := e.upload(rawZip(t, []rawEntry{manifestOf("nodes"), {name: "model/nodes.jsonl", data: rows, comp: deflate(t, rows)}}))
	t.Logf("a template of %d rows against a %v deadline: %d after %v", 400_000, timeout, r.status, took)
	e.refused(r, 503, "SERVICE_UNAVAILABLE", "longer than a request may")
	er := r.errBody(t)
	m := regexp.MustCompile(`stopped after (\d+) bytes`).FindStringSubmatch(er.Detail)
	if m == nil {
		t.Fatalf("detail %q does not say where the decoding stopped", er.Detail)
	}
	if n, _ := strconv.Atoi(m[1]); n >= len(rows) {
		t.Errorf("decoding stopped after %d bytes, the whole of the %d-byte rows: the deadline was not heeded", n, len(rows))
	}
}
