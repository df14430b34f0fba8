package jobfile

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"io"
	"math/bits"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// Fuzz tests of the job-file reader: a job file is a client's file (a
// template upload, or any file in the jobs directory), so Decode must
// refuse anything wrong with a validation error, never panic, never read
// or allocate without bound, and what it accepts must save and read back
// unchanged. `go test` runs the seeds; `make fuzz` fuzzes.

// countingReaderAt counts the bytes Decode reads from the file, and the
// reads that start at each offset.
type countingReaderAt struct {
	r     *bytes.Reader
	n     int64
	reads []readAt
}

type readAt struct{ off, n int64 }

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n += int64(n)
	c.reads = append(c.reads, readAt{off, int64(len(p))})
	return n, err
}

// entryReads counts how often each entry of data was read from the start
// of its data: a read at its data offset no longer than its compressed
// size (the search for the end of the directory reads 1 KiB or 65 KiB
// before the end, never within an entry that long). Empty entries are
// left out.
func entryReads(data []byte, reads []readAt) map[string]int {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && zr == nil {
		return nil
	}
	byOff := map[int64]*zip.File{}
	for _, f := range zr.File {
		if off, err := f.DataOffset(); err == nil && f.CompressedSize64 > 0 {
			byOff[off] = f
		}
	}
	out := map[string]int{}
	for _, r := range reads {
		if f, ok := byOff[r.off]; ok && uint64(r.n) <= f.CompressedSize64 {
			out[f.Name+"@"+strconv.FormatInt(r.off, 10)]++
		}
	}
	return out
}

// expandedSize is how many bytes the entries of data really expand to,
// each read once (at most limit each); 0 for no zip.
func expandedSize(data []byte, limit int64) int64 {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && zr == nil {
		return 0
	}
	var total int64
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			continue
		}
		n, _ := io.Copy(io.Discard, io.LimitReader(rc, limit))
		rc.Close()
		total += n
	}
	return total
}

// checkDecode runs Decode on data and checks what any answer must
// satisfy; it returns the answer.
func checkDecode(t *testing.T, data []byte) (Decoded, error) {
	t.Helper()
	src := &countingReaderAt{r: bytes.NewReader(data)}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	dec, err := Decode(src, int64(len(data)))
	runtime.ReadMemStats(&m1)
	alloc := m1.TotalAlloc - m0.TotalAlloc

	// Reading: each entry once (a file is read whole by the directory
	// scan, its entries once more), plus the end-of-directory search.
	if max := 3*int64(len(data)) + 256<<10; src.n > max {
		t.Fatalf("Decode read %d bytes of a %d-byte file (more than %d): an entry is read again and again", src.n, len(data), max)
	}
	for entry, n := range entryReads(data, src.reads) {
		if n > 1 {
			t.Fatalf("Decode read the entry %s %d times: its work is not bounded by the file's size", entry, n)
		}
	}
	// Allocation follows what the entries expand to, not what the
	// directory claims and not how often the manifest names an entry.
	expanded := expandedSize(data, 64<<20)
	if max := 32<<20 + 64*uint64(len(data)) + 64*uint64(expanded); alloc > max {
		t.Fatalf("Decode allocated %d bytes for a %d-byte file whose entries expand to %d bytes (more than %d)", alloc, len(data), expanded, max)
	}
	if err != nil {
		var me *model.Error
		// A file over the size limit is refused as too large (413); every
		// other refusal is a validation error (400).
		if k := model.KindOf(err); !errors.As(err, &me) || k != model.KindValidation && k != model.KindTooLarge {
			t.Fatalf("Decode: error %T of kind %d, want a validation or too-large *model.Error: %v", err, model.KindOf(err), err)
		}
		return dec, err
	}
	checkDecoded(t, dec)
	return dec, nil
}

// checkDecoded checks an accepted file: a supported manifest, valid job
// records, the listed collections and only those, well-formed rows; and
// that saving it and reading it back gives the same content.
func checkDecoded(t *testing.T, dec Decoded) {
	t.Helper()
	m := dec.Manifest
	if m.Format != FormatName || m.Version < 1 || m.Version > FormatVersion {
		t.Fatalf("accepted a manifest of format %q version %d", m.Format, m.Version)
	}
	job := dec.Snapshot.Job
	if err := job.Units.Validate(); err != nil {
		t.Fatalf("accepted invalid units %+v: %v", job.Units, err)
	}
	// What each settings record holds is checked by the analyses when
	// the file opens; the file holds an object per family.
	for key, raw := range job.Analysis {
		var rec map[string]json.RawMessage
		if err := json.Unmarshal(raw, &rec); err != nil {
			t.Fatalf("accepted analysis settings %s that are not an object: %s", key, raw)
		}
	}
	listed := map[string]bool{}
	for _, n := range m.Collections {
		listed[n] = true
		if _, ok := dec.Snapshot.Collections[n]; !ok {
			t.Fatalf("collection %q is listed but not decoded", n)
		}
	}
	for n, rows := range dec.Snapshot.Collections {
		if !listed[n] {
			t.Fatalf("collection %q decoded but not listed in %v", n, m.Collections)
		}
		for i, r := range rows {
			if r.Key == "" || !json.Valid(r.Value) {
				t.Fatalf("collection %q row %d: key %q value %q", n, i, r.Key, r.Value)
			}
		}
	}
	for kind, set := range dec.Snapshot.Results {
		if set.Meta == nil {
			t.Fatalf("%s results without meta", kind)
		}
	}

	// Save and read back: nothing an accepted file holds may be lost or
	// changed by saving it (row values are compared as compact JSON, the
	// form Encode writes them in).
	var buf bytes.Buffer
	if err := Encode(&buf, dec.Snapshot, "fuzz", time.Unix(0, 0)); err != nil {
		t.Fatalf("an accepted file does not save: %v", err)
	}
	again, err := Decode(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatalf("an accepted file, saved, does not read back: %v", err)
	}
	a, b := normalized(dec.Snapshot), normalized(again.Snapshot)
	if !reflect.DeepEqual(a.Job, b.Job) {
		t.Fatalf("job records change on save:\n%+v\n%+v", a.Job, b.Job)
	}
	if !reflect.DeepEqual(a.Collections, b.Collections) {
		t.Fatalf("collections change on save:\n%+v\n%+v", a.Collections, b.Collections)
	}
	if !reflect.DeepEqual(a.Results, b.Results) {
		t.Fatalf("results change on save:\n%+v\n%+v", a.Results, b.Results)
	}
}

func normalized(s store.Snapshot) store.Snapshot {
	out := s
	out.Collections = map[string][]store.Row{}
	for n, rows := range s.Collections {
		cp := make([]store.Row, len(rows))
		for i, r := range rows {
			var c bytes.Buffer
			if err := json.Compact(&c, r.Value); err == nil {
				r.Value = c.Bytes()
			}
			cp[i] = r
		}
		if len(cp) == 0 {
			cp = nil
		}
		out.Collections[n] = cp
	}
	if len(s.Results) == 0 {
		out.Results = nil
	}
	return out
}

// zipEntry is one entry of a crafted file: stored as written, or, with a
// declared size, as a raw entry whose directory claims that size.
type zipEntry struct {
	name     string
	data     string
	declared *uint64
}

func buildZip(tb testing.TB, entries []zipEntry) []byte {
	tb.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		var w io.Writer
		var err error
		if e.declared != nil {
			w, err = zw.CreateRaw(&zip.FileHeader{Name: e.name, Method: zip.Store, CRC32: crc32.ChecksumIEEE([]byte(e.data)),
				CompressedSize64: uint64(len(e.data)), UncompressedSize64: *e.declared})
		} else {
			w, err = zw.Create(e.name)
		}
		if err != nil {
			tb.Fatal(err)
		}
		if e.data == "" {
			continue
		}
		if _, err := io.WriteString(w, e.data); err != nil {
			tb.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

func manifestJSON(version int, collections ...string) string {
	b, _ := json.Marshal(Manifest{Format: FormatName, Version: version, Generator: "fuzz", Collections: collections})
	return string(b)
}

// sampleFiles are the bundled samples, real files the service writes.
func sampleFiles(tb testing.TB) [][]byte {
	tb.Helper()
	names, err := filepath.Glob("../samples/files/*.gsj")
	if err != nil || len(names) == 0 {
		tb.Fatalf("no sample files: %v", err)
	}
	var out [][]byte
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// FuzzDecode: Decode of any bytes (seeded with the samples and crafted
// zips) never panics; every error is a validation error; it reads each
// entry about once and allocates in proportion to what the entries
// expand to; and an accepted file saves and reads back unchanged.
func FuzzDecode(f *testing.F) {
	for _, b := range sampleFiles(f) {
		f.Add(b)
	}
	big := uint64(3 << 30)
	row := `{"key":"1","score":1,"value":{"id":1,"x":0}}` + "\n"
	for _, entries := range [][]zipEntry{
		{},
		{{name: entryManifest, data: manifestJSON(1)}},
		{{name: entryManifest, data: manifestJSON(2)}},
		{{name: entryManifest, data: manifestJSON(0)}},
		{{name: entryManifest, data: `{"format":"other","version":1}`}},
		{{name: entryManifest, data: `{`}},
		{{name: entryManifest, data: manifestJSON(1, "nodes")}},
		{{name: entryManifest, data: manifestJSON(1, "nodes")}, {name: "model/nodes.jsonl", data: row + "\n  \n" + row}},
		{{name: entryManifest, data: manifestJSON(1, "nodes")}, {name: "model/nodes.jsonl", data: `{"key":"","value":1}`}},
		{{name: entryManifest, data: manifestJSON(1, "nodes")}, {name: "model/nodes.jsonl", data: `{"key":"1"}`}},
		{{name: entryManifest, data: manifestJSON(1, "nodes")}, {name: "model/nodes.jsonl", data: `{"key":"1","value":[1,}`}},
		{{name: entryManifest, data: manifestJSON(1)}, {name: entryUnits, data: `{"length":"furlong"}`}},
		{{name: entryManifest, data: manifestJSON(1)}, {name: entryUnits, data: `{"length":"ft","force":"K"}`}},
		{{name: entryManifest, data: manifestJSON(1)}, {name: entrySettings, data: `{"verticalAxis":"XAxis"}`}},
		{{name: entryManifest, data: manifestJSON(1)}, {name: entryAnalysis, data: `{"static":{"loadCases":"3,1-2"}}`}},
		{{name: entryManifest, data: manifestJSON(1)}, {name: entryAnalysis, data: `{"buckling":{"modes":0}}`}},
		{{name: entryManifest, data: manifestJSON(1)}, {name: entryHeadings, data: `{"heading":"x"}`}},
		{{name: entryManifest, data: manifestJSON(1)}, {name: "results/static/meta.json", data: `{}`}, {name: "results/static/dx.bin", data: "\x00\x00\x00\x00\x00\x00\xf0\x3f"}},
		{{name: entryManifest, data: manifestJSON(1)}, {name: "results/static/dx.bin", data: "x"}},
		{{name: entryManifest, data: manifestJSON(1)}, {name: "results/other/meta.json", data: `{}`}},
		{{name: entryManifest, data: manifestJSON(1)}, {name: "results/static/a/b.bin", data: `{}`}},
		{{name: entryManifest, data: manifestJSON(1)}, {name: "unknown/entry", data: "ignored"}},
		{{name: entryManifest, data: manifestJSON(1)}, {name: entryManifest, data: manifestJSON(2)}},
		// Directory sizes that lie, one way and the other.
		{{name: entryManifest, data: manifestJSON(1)}, {name: "extra", data: "x", declared: &big}},
		{{name: entryManifest, data: manifestJSON(1), declared: new(uint64)}},
		{{name: entryManifest, data: manifestJSON(1), declared: &big}},
	} {
		f.Add(buildZip(f, entries))
	}
	// Rows at the cap and past it (rows_test.go).
	f.Add(longRowFile(f, MaxRowBytes))
	f.Add(longRowFile(f, MaxRowBytes+1))
	f.Add([]byte("PK\x05\x06" + strings.Repeat("\x00", 18)))
	f.Add([]byte("not a zip"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecode(t, data)
	})
}

// collectionNames are the names FuzzDecodeEntries lists in manifests.
var collectionNames = []string{"nodes", "members", "loadCases", "", "a/b", "../x", "é", "nodes "}

// FuzzDecodeEntries builds well-formed zips from fuzzed parts, so that
// the fuzzer explores manifests, entries and directory sizes rather than
// zip framing: version, the collections the manifest lists (each byte
// picks a name; bit 7: no entry for it; bit 6: a second, empty entry of
// the same name), the rows of every collection entry, the units and
// analysis entries, one entry of any name, and entries whose directory
// declares the sizes in lies (8 bytes each, little-endian). Besides the
// properties of FuzzDecode: a file whose entries declare more than the
// 2 GiB cap in total is refused (README: a file of more than 2 GiB
// uncompressed is a 400).
func FuzzDecodeEntries(f *testing.F) {
	le := func(vs ...uint64) []byte {
		var b []byte
		for _, v := range vs {
			b = binary.LittleEndian.AppendUint64(b, v)
		}
		return b
	}
	row := `{"key":"1","score":1,"value":{"id":1,"x":0}}`
	f.Add(1, []byte{0, 1, 2}, row+"\n"+strings.Replace(row, `"1"`, `"2"`, 1), ``, ``, ``, []byte(nil), []byte(nil))
	f.Add(1, []byte{0, 0x81}, row, `{"length":"ft"}`, `{"static":{"loadCases":"2,1"}}`, "results/static/meta.json", []byte(`{}`), le(10))
	f.Add(1, []byte{0x40, 3, 4, 5, 6, 7}, "\n\n", `{"force":"lb"}`, `{"dynamicFrequency":{"modes":5}}`, "results/buckling/x:1.bin", []byte("12345678"), le(1<<40))
	f.Add(2, []byte{0}, row, ``, ``, "", []byte(nil), le(0))
	f.Add(1, []byte{}, ``, `{"length":"m"}`, `{}`, "results/static/dx.bin", []byte("z"), le(1<<62, 1<<63))
	f.Add(1, []byte{1}, row, ``, ``, "", []byte(nil), le(maxTotalBytes, 1))
	f.Add(1, []byte{0}, row, ``, ``, "", []byte(nil), le(1<<62, 1<<63))
	f.Add(1, []byte{2}, `{"key":"k","value":"\u00e9"}`, ``, `{"static":{"loadCases":""}}`, "model/loadCases.jsonl", []byte(row), le(maxTotalBytes-1024))
	f.Fuzz(func(t *testing.T, version int, names []byte, rows, units, analysis, extraName string, extraData, lies []byte) {
		if len(names) > 64 || len(lies) > 8*16 {
			return
		}
		var listed []string
		var entries []zipEntry
		written := map[string]bool{}
		for _, c := range names {
			n := collectionNames[int(c)%len(collectionNames)]
			listed = append(listed, n)
			if c&0x80 != 0 || written[n] {
				continue
			}
			written[n] = true
			entries = append(entries, zipEntry{name: modelDir + n + modelExt, data: rows})
			if c&0x40 != 0 {
				entries = append(entries, zipEntry{name: modelDir + n + modelExt})
			}
		}
		entries = append([]zipEntry{{name: entryManifest, data: manifestJSON(version, listed...)}}, entries...)
		if units != "" {
			entries = append(entries, zipEntry{name: entryUnits, data: units})
		}
		if analysis != "" {
			entries = append(entries, zipEntry{name: entryAnalysis, data: analysis})
		}
		if extraName != "" {
			if strings.HasSuffix(extraName, "/") {
				extraData = nil // a directory: zip writes no data to it
			}
			entries = append(entries, zipEntry{name: extraName, data: string(extraData)})
		}
		for i := 0; i+8 <= len(lies); i += 8 {
			v := binary.LittleEndian.Uint64(lies[i:])
			entries = append(entries, zipEntry{name: "extra/" + strconv.Itoa(i/8), data: "x", declared: &v})
		}
		data := buildZip(t, entries)
		_, err := checkDecode(t, data)

		zr, zerr := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if zerr != nil {
			return
		}
		var total uint64
		over := false
		for _, e := range zr.File {
			var carry uint64
			total, carry = bits.Add64(total, e.UncompressedSize64, 0)
			over = over || carry != 0
		}
		switch {
		case err != nil:
		case over:
			t.Fatalf("accepted a file whose entries declare more than 2^64 bytes in all (a uint64 sum wraps to %d), more than the %d cap", total, uint64(maxTotalBytes))
		case total > maxTotalBytes:
			t.Fatalf("accepted a file whose entries declare %d bytes in all, more than the %d cap", total, uint64(maxTotalBytes))
		}
	})
}
