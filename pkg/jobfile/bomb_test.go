package jobfile

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
)

// Hostile job files: zip bombs, directories that lie, names given twice,
// files that take too long. Each must be refused quickly, with little
// memory and an error a client can act on.

// bombEntry is one entry of a crafted zip, written raw so that its
// directory can declare anything.
type bombEntry struct {
	name     string
	method   uint16 // zip.Store or zip.Deflate (data is compressed here)
	data     []byte // what the entry expands to
	comp     []byte // its compressed form, when already known
	declared *uint64
	// compDeclared, when set, is the compressed size the directory
	// declares instead of the length of comp.
	compDeclared *uint64
}

// deflated compresses b as a zip entry's data.
func deflated(tb testing.TB, b []byte) []byte {
	tb.Helper()
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := w.Write(b); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// bombZip writes entries raw: the same compressed data may serve many
// entries, so a file that expands to gigabytes costs little to build.
func bombZip(tb testing.TB, entries []bombEntry) []byte {
	tb.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		comp := e.comp
		if comp == nil {
			comp = e.data
			if e.method == zip.Deflate {
				comp = deflated(tb, e.data)
			}
		}
		size := uint64(len(e.data))
		if e.declared != nil {
			size = *e.declared
		}
		csize := uint64(len(comp))
		if e.compDeclared != nil {
			csize = *e.compDeclared
		}
		w, err := zw.CreateRaw(&zip.FileHeader{Name: e.name, Method: e.method, CRC32: crc32.ChecksumIEEE(e.data),
			CompressedSize64: csize, UncompressedSize64: size})
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := w.Write(comp); err != nil {
			tb.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// manifestEntry is a manifest listing collections.
func manifestEntry(collections ...string) bombEntry {
	return bombEntry{name: entryManifest, method: zip.Deflate, data: []byte(manifestText(collections...))}
}

func manifestText(collections ...string) string {
	q := make([]string, len(collections))
	for i, c := range collections {
		q[i] = fmt.Sprintf("%q", c)
	}
	return `{"format":"gusset-job","version":1,"generator":"bomb","collections":[` + strings.Join(q, ",") + `]}`
}

// rowsOf is a jsonl entry of about size bytes: one row repeated, which
// deflate shrinks about a thousandfold.
func rowsOf(size int) []byte {
	const row = `{"key":"0000000001","score":0,"value":{"id":1,"x":0,"y":0,"z":0}}` + "\n"
	return bytes.Repeat([]byte(row), size/len(row)+1)
}

// rowsBomb is a job file whose manifest lists n collections, each an
// entry expanding to entrySize bytes of rows; the compressed data is
// shared, so the file is n times a few KiB.
func rowsBomb(tb testing.TB, n, entrySize int) (file []byte, expands int64) {
	tb.Helper()
	data := rowsOf(entrySize)
	comp := deflated(tb, data)
	names := make([]string, n)
	entries := make([]bombEntry, 0, n+1)
	for i := range names {
		names[i] = fmt.Sprintf("c%d", i)
	}
	entries = append(entries, manifestEntry(names...))
	for _, nm := range names {
		entries = append(entries, bombEntry{name: modelDir + nm + modelExt, method: zip.Deflate, data: data, comp: comp})
	}
	return bombZip(tb, entries), int64(n) * int64(len(data))
}

// decodeHung is how long cost waits for f before it fails the test as
// hung: a safety net against a decoder that never ends, not a speed
// target (the tests bound memory, and a deadline's effect by the checks
// it takes), so generous for a loaded machine.
const decodeHung = 2 * time.Minute

// cost runs f, failing the test when it has not returned within
// decodeHung, and reports the bytes it allocated, the largest live heap
// seen and the time it took (for the log).
func cost(tb testing.TB, f func()) (alloc, peak uint64, took time.Duration) {
	tb.Helper()
	runtime.GC()
	var m0 runtime.MemStats
	runtime.ReadMemStats(&m0)
	var maxHeap atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > maxHeap.Load() {
				maxHeap.Store(m.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	done := make(chan struct{})
	start := time.Now()
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(decodeHung):
		close(stop)
		<-sampled
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		tb.Fatalf("still decoding after %v (allocated %d MiB so far, live heap up to %d MiB)", decodeHung,
			(m.TotalAlloc-m0.TotalAlloc)>>20, (maxHeap.Load()-min(maxHeap.Load(), m0.HeapAlloc))>>20)
	}
	took = time.Since(start)
	close(stop)
	<-sampled
	var m1 runtime.MemStats
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc, maxHeap.Load() - min(maxHeap.Load(), m0.HeapAlloc), took
}

// wantKind fails unless err is a *model.Error of kind k whose message
// holds every part.
func wantKind(tb testing.TB, err error, k model.Kind, parts ...string) {
	tb.Helper()
	var me *model.Error
	if !errors.As(err, &me) || me.Kind != k {
		tb.Fatalf("error of kind %d, want %d: %v", model.KindOf(err), k, err)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			tb.Fatalf("error does not name %q: %v", p, err)
		}
	}
}

// A file whose entries expand past the limit (a few MiB of rows that
// compress to a few KiB, repeated) is refused before it is read: a 413
// naming the limit and its setting, in little time and memory.
func TestDecodeBombOverDefaultLimit(t *testing.T) {
	file, expands := rowsBomb(t, 300, 4<<20)
	if expands <= DefaultMaxJobBytes {
		t.Fatalf("the bomb expands to %d bytes, not more than the %d limit", expands, DefaultMaxJobBytes)
	}
	var err error
	alloc, peak, took := cost(t, func() { _, err = Decode(bytes.NewReader(file), int64(len(file))) })
	t.Logf("a %d-byte file expanding to %d bytes: %v, allocated %d KiB, live heap up to %d KiB", len(file), expands, took, alloc>>10, peak>>10)
	wantKind(t, err, model.KindTooLarge, "MAX_JOB_BYTES", fmt.Sprint(DefaultMaxJobBytes))
	if alloc > 16<<20 || peak > 16<<20 {
		t.Errorf("refusing a %d-byte bomb allocated %d bytes (live heap up to %d); want well under what it expands to (%d)", len(file), alloc, peak, expands)
	}
}

// The same bomb under a lower limit (MAX_JOB_BYTES set low) is refused
// by that limit, also when the file is read through a context.
func TestDecodeBombOverLowLimit(t *testing.T) {
	file, expands := rowsBomb(t, 64, 4<<20)
	const limit = 8 << 20
	var err error
	alloc, peak, _ := cost(t, func() {
		_, err = DecodeContext(context.Background(), bytes.NewReader(file), int64(len(file)), limit, Keys{})
	})
	wantKind(t, err, model.KindTooLarge, "MAX_JOB_BYTES", fmt.Sprint(limit))
	if alloc > 16<<20 || peak > 16<<20 {
		t.Errorf("refusing a bomb of %d bytes allocated %d (live heap up to %d)", expands, alloc, peak)
	}
	// Under the limit it reads; the same file a byte over it does not.
	small, size := rowsBomb(t, 2, 1<<20)
	if _, err := DecodeContext(context.Background(), bytes.NewReader(small), int64(len(small)), size+4096, Keys{}); err != nil {
		t.Fatalf("a file under the limit: %v", err)
	}
	_, err = DecodeContext(context.Background(), bytes.NewReader(small), int64(len(small)), size-1, Keys{})
	wantKind(t, err, model.KindTooLarge, fmt.Sprint(size-1))
}

// A record entry (the manifest, job/*.json) is read whole before it is
// decoded: one that expands to hundreds of MiB (spaces compress well) is
// refused by its own small cap, never held.
func TestDecodeRecordBomb(t *testing.T) {
	for _, name := range []string{entryManifest, entryHeadings} {
		t.Run(name, func(t *testing.T) {
			huge := append(bytes.Repeat([]byte(" "), 256<<20), `{}`...)
			entries := []bombEntry{manifestEntry(), {name: name, method: zip.Deflate, data: huge}}
			if name == entryManifest {
				entries = entries[1:]
			}
			file := bombZip(t, entries)
			var err error
			alloc, peak, took := cost(t, func() { _, err = Decode(bytes.NewReader(file), int64(len(file))) })
			t.Logf("a %d-byte file with a %d-byte %s: %v, allocated %d KiB, live heap up to %d KiB", len(file), len(huge), name, took, alloc>>10, peak>>10)
			wantKind(t, err, model.KindValidation, name)
			if alloc > 16<<20 || peak > 16<<20 {
				t.Errorf("refusing a %d-byte %s allocated %d bytes (live heap up to %d)", len(huge), name, alloc, peak)
			}
		})
	}
}

// Directories that lie: the sizes they declare are not trusted, and a
// lie is a 400 naming the entry.
func TestDecodeLyingDirectory(t *testing.T) {
	rows := rowsOf(4 << 20)
	small, huge := uint64(1024), uint64(3<<30)
	t.Run("declares less than it holds", func(t *testing.T) {
		file := bombZip(t, []bombEntry{manifestEntry("nodes"), {name: "model/nodes.jsonl", method: zip.Deflate, data: rows, declared: &small}})
		var err error
		alloc, _, _ := cost(t, func() { _, err = Decode(bytes.NewReader(file), int64(len(file))) })
		wantKind(t, err, model.KindValidation, "model/nodes.jsonl", "1024")
		if alloc > 16<<20 {
			t.Errorf("allocated %d bytes", alloc)
		}
	})
	t.Run("declares more than its data can hold", func(t *testing.T) {
		file := bombZip(t, []bombEntry{manifestEntry(), {name: "extra.bin", method: zip.Store, data: []byte("x"), declared: &huge}})
		_, err := Decode(bytes.NewReader(file), int64(len(file)))
		wantKind(t, err, model.KindValidation, "extra.bin", fmt.Sprint(huge))
	})
	t.Run("declares more compressed data than the file holds", func(t *testing.T) {
		// A fuzzer found it: 391 bytes declaring 808 MB of data in
		// entries of an unknown method.
		big := uint64(1 << 40)
		file := bombZip(t, []bombEntry{manifestEntry(), {name: "extra.bin", method: zip.Store, data: []byte("x"), declared: &big, compDeclared: &big}})
		_, err := Decode(bytes.NewReader(file), int64(len(file)))
		wantKind(t, err, model.KindValidation, "extra.bin", fmt.Sprint(big))
	})
	t.Run("unknown methods cost nothing", func(t *testing.T) {
		// Method 99 cannot be read, so an entry in it is never expanded,
		// whatever it declares; a known entry in it is refused on opening.
		half := uint64(math.MaxUint64/2 + 1)
		file := bombZip(t, []bombEntry{manifestEntry(), {name: "x/1", method: 99, data: []byte("x"), declared: &half},
			{name: "x/2", method: 99, data: []byte("x"), declared: &half}, {name: "x/3", method: 99, data: []byte("x"), declared: &small}})
		if _, err := Decode(bytes.NewReader(file), int64(len(file))); err != nil {
			t.Fatalf("entries of an unknown method, never read: %v", err)
		}
		file = bombZip(t, []bombEntry{manifestEntry(), {name: entryHeadings, method: 99, data: []byte("{}"), declared: &half}})
		_, err := Decode(bytes.NewReader(file), int64(len(file)))
		wantKind(t, err, model.KindValidation, entryHeadings)
	})
}

// A manifest that lists a collection twice is refused before any row is
// read, however often it lists it: in next to no memory.
func TestDecodeDuplicateCollection(t *testing.T) {
	file, _ := rowsBomb(t, 1, 1<<20)
	names := make([]string, 30)
	for i := range names {
		names[i] = "c0"
	}
	entries := []bombEntry{manifestEntry(names...), {name: "model/c0.jsonl", method: zip.Deflate, data: rowsOf(8 << 20)}}
	file = bombZip(t, entries)
	var err error
	alloc, _, took := cost(t, func() { _, err = Decode(bytes.NewReader(file), int64(len(file))) })
	t.Logf("refused in %v, allocating %d KiB", took, alloc>>10)
	wantKind(t, err, model.KindValidation, `"c0"`, "twice")
	// Reading the entry once allocates about 77 MB (measured); refusing
	// from the manifest about 65 KiB. 1 MiB tells the two apart with room
	// for the runtime's own allocations.
	if alloc > 1<<20 {
		t.Errorf("refusing allocated %d KiB: rows were read", alloc>>10)
	}
}

// Two entries of one name: which one a reader takes is up to the reader,
// so the file is refused, naming the entry.
func TestDecodeDuplicateEntries(t *testing.T) {
	row := []byte(`{"key":"1","value":{}}` + "\n")
	for _, tc := range []struct {
		name    string
		entries []bombEntry
	}{
		{"model/nodes.jsonl", []bombEntry{manifestEntry("nodes"), {name: "model/nodes.jsonl", data: row}, {name: "model/nodes.jsonl", data: row}}},
		{"manifest.json", []bombEntry{manifestEntry(), manifestEntry("nodes")}},
		{"unknown/entry", []bombEntry{manifestEntry(), {name: "unknown/entry", data: row}, {name: "unknown/entry"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := bombZip(t, tc.entries)
			_, err := Decode(bytes.NewReader(file), int64(len(file)))
			wantKind(t, err, model.KindValidation, `"`+tc.name+`"`)
		})
	}
}

// validRows is a valid job file of n distinct rows in one collection.
func validRows(tb testing.TB, n int) []byte {
	tb.Helper()
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, `{"key":"%010d","score":0,"value":{"id":%d,"x":%d.5,"y":0,"z":0,"hasConstraint":false,"hasRestraint":false}}`+"\n", i+1, i+1, i)
	}
	return bombZip(tb, []bombEntry{manifestEntry("nodes"), {name: "model/nodes.jsonl", method: zip.Deflate, data: b.Bytes()}})
}

// expireAt is a context whose deadline passes at its at-th check (a call
// of Err), counting the checks: decoding checks its context before each
// read of an entry, so the deadline passes at an exact point of the work,
// however fast or loaded the machine.
type expireAt struct {
	context.Context
	at     int64
	checks atomic.Int64
	done   chan struct{}
	once   sync.Once
}

func newExpireAt(at int64) *expireAt {
	return &expireAt{Context: context.Background(), at: at, done: make(chan struct{})}
}

func (c *expireAt) Done() <-chan struct{} { return c.done }

// Err counts the check and reports the deadline passed from the at-th on
// (at 0: never).
func (c *expireAt) Err() error {
	if n := c.checks.Add(1); c.at == 0 || n < c.at {
		return nil
	}
	c.once.Do(func() { close(c.done) })
	return context.DeadlineExceeded
}

// Decoding stops when the request's context ends, with an error that
// wraps the context's and is a 503 (model.KindUnavailable), not a 500.
// The deadline passes at the middle check of a whole decode: decoding
// must stop at that check, having read part of the file only.
func TestDecodeContextDeadline(t *testing.T) {
	file := validRows(t, 400_000)
	whole := newExpireAt(0)
	if _, err := DecodeContext(whole, bytes.NewReader(file), int64(len(file)), 0, Keys{}); err != nil {
		t.Fatal(err)
	}
	total := whole.checks.Load()
	ctx := newExpireAt(total / 2)
	var err error
	_, _, took := cost(t, func() { _, err = DecodeContext(ctx, bytes.NewReader(file), int64(len(file)), 0, Keys{}) })
	t.Logf("a whole decode checks its context %d times; with the deadline at check %d it stopped after %v: %v", total, total/2, took, err)
	wantKind(t, err, model.KindUnavailable, "stopped after")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error does not wrap the context's: %v", err)
	}
	if n := ctx.checks.Load(); n != total/2 {
		t.Errorf("decoding checked its context %d times, want it to stop at the check that saw the deadline (%d)", n, total/2)
	}
	done, cancel2 := context.WithCancel(context.Background())
	cancel2()
	_, err = DecodeContext(done, bytes.NewReader(file), int64(len(file)), 0, Keys{})
	wantKind(t, err, model.KindUnavailable)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error does not wrap the context's: %v", err)
	}
}

// endless is an entry that never ends.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

// The bytes are counted as they are read, whatever the directory said:
// archive/zip holds each entry to its declared size and checkDirectory
// holds their sum to the limit, and the count is the last line.
func TestEntryReaderCounts(t *testing.T) {
	const limit = 1 << 20
	b := newBudget(context.Background(), limit)
	r := &entryReader{b: b, rc: io.NopCloser(endless{})}
	n, err := io.Copy(io.Discard, r)
	wantKind(t, err, model.KindTooLarge, "MAX_JOB_BYTES", fmt.Sprint(limit))
	if n > limit {
		t.Errorf("passed on %d bytes, more than the %d limit", n, limit)
	}
	// Every later read of the file stops at once.
	r2 := &entryReader{b: b, rc: io.NopCloser(endless{})}
	if _, err := r2.Read(make([]byte, 10)); !errors.Is(err, b.err) {
		t.Errorf("a later read: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	b = newBudget(ctx, limit)
	r = &entryReader{b: b, rc: io.NopCloser(endless{})}
	if _, err := r.Read(make([]byte, 10)); err != nil {
		t.Fatal(err)
	}
	cancel()
	_, err = r.Read(make([]byte, 10))
	wantKind(t, err, model.KindUnavailable, "stopped after 10 bytes")
}
