package jobfile

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// Zips whose directories are too big to build: archive/zip would make a
// File for every entry before any check ran, so each must be refused from
// its end records, or from a walk of its directory that keeps nothing,
// at a small fraction of what archive/zip's reading would cost.

// rawEnd is what the end records of a zip written by rawZip declare;
// nil or zero fields declare the truth.
type rawEnd struct {
	entries   *uint64
	dirSize   *uint64
	dirOffset *uint64
	// zip64 writes a ZIP64 end record and locator, and an end record that
	// sends readers to them.
	zip64   bool
	comment string
}

// rawZip writes a zip by hand: headers directory headers of empty stored
// entries named e/<i>, each with a comment of commentLen bytes, then the
// end records as end declares them. No entry has a local header: opening
// a zip reads only its directory.
func rawZip(tb testing.TB, headers, commentLen int, end rawEnd) []byte {
	tb.Helper()
	le := binary.LittleEndian
	comment := strings.Repeat("c", commentLen)
	var b []byte
	for i := range headers {
		name := fmt.Sprintf("e/%d", i)
		b = le.AppendUint32(b, sigDirHeader)
		b = le.AppendUint16(b, 20) // made by
		b = le.AppendUint16(b, 20) // needed
		b = append(b, make([]byte, 2+2+4+4+4+4)...)
		b = le.AppendUint16(b, uint16(len(name)))
		b = le.AppendUint16(b, 0)
		b = le.AppendUint16(b, uint16(len(comment)))
		b = append(b, make([]byte, 2+2+4+4)...)
		b = append(b, name...)
		b = append(b, comment...)
	}
	size, offset, entries := uint64(len(b)), uint64(0), uint64(headers)
	if end.dirSize != nil {
		size = *end.dirSize
	}
	if end.dirOffset != nil {
		offset = *end.dirOffset
	}
	if end.entries != nil {
		entries = *end.entries
	}
	if end.zip64 {
		at := uint64(len(b))
		b = le.AppendUint32(b, sigEnd64)
		b = le.AppendUint64(b, end64Len-12)
		b = le.AppendUint16(b, 45)
		b = le.AppendUint16(b, 45)
		b = le.AppendUint32(b, 0)
		b = le.AppendUint32(b, 0)
		b = le.AppendUint64(b, entries)
		b = le.AppendUint64(b, entries)
		b = le.AppendUint64(b, size)
		b = le.AppendUint64(b, offset)
		b = le.AppendUint32(b, sigEnd64Locator)
		b = le.AppendUint32(b, 0)
		b = le.AppendUint64(b, at)
		b = le.AppendUint32(b, 1)
		entries, size, offset = math.MaxUint16, math.MaxUint32, math.MaxUint32
	}
	b = le.AppendUint32(b, sigEnd)
	b = le.AppendUint16(b, 0)
	b = le.AppendUint16(b, 0)
	b = le.AppendUint16(b, uint16(entries))
	b = le.AppendUint16(b, uint16(entries))
	b = le.AppendUint32(b, uint32(size))
	b = le.AppendUint32(b, uint32(offset))
	b = le.AppendUint16(b, uint16(len(end.comment)))
	return append(b, end.comment...)
}

// emptyEntries is a zip archive/zip writes of n empty entries.
func emptyEntries(tb testing.TB, n int) []byte {
	tb.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := range n {
		if _, err := zw.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("e/%d", i), Method: zip.Store}); err != nil {
			tb.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// allocated runs f and reports how many allocations it made and the
// bytes they took.
func allocated(tb testing.TB, f func()) (mallocs, bytes uint64) {
	tb.Helper()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	f()
	runtime.ReadMemStats(&m1)
	return m1.Mallocs - m0.Mallocs, m1.TotalAlloc - m0.TotalAlloc
}

func u64(v uint64) *uint64 { return &v }

// A directory over the limits, declared or real, is refused naming the
// limit, before archive/zip makes its entries: with a few allocations,
// where archive/zip's reading of the same file (when it reads it at all)
// makes hundreds of thousands.
func TestOpenZipLimits(t *testing.T) {
	limit, dirLimit := fmt.Sprint(MaxEntries), fmt.Sprint(MaxDirectoryBytes)
	for _, tc := range []struct {
		name string
		file func(t *testing.T) []byte
		want []string
	}{
		{"archive/zip wrote one entry more than the limit", func(t *testing.T) []byte { return emptyEntries(t, MaxEntries+1) },
			[]string{"declares 65536 entries", limit}},
		{"declares ZIP64 billions", func(t *testing.T) []byte { return rawZip(t, 1, 0, rawEnd{entries: u64(1 << 32), zip64: true}) },
			[]string{"declares 4294967296 entries", limit}},
		{"declares the most a ZIP64 count holds", func(t *testing.T) []byte {
			return rawZip(t, 1, 0, rawEnd{entries: u64(math.MaxUint64), zip64: true})
		}, []string{fmt.Sprint(uint64(math.MaxUint64)), limit}},
		// Not over the limit, and archive/zip refuses it: its count and
		// the directory's differ.
		{"declares 65,535 entries and holds one", func(t *testing.T) []byte { return rawZip(t, 1, 0, rawEnd{entries: u64(math.MaxUint16)}) },
			[]string{"not a valid gusset job file"}},
		// archive/zip compares only the low 16 bits of the count.
		{"declares 3 entries and holds 65,539", func(t *testing.T) []byte { return rawZip(t, MaxEntries+4, 0, rawEnd{entries: u64(3)}) },
			[]string{"holds more than the " + limit + " entries"}},
		{"declares a directory over the limit", func(t *testing.T) []byte {
			return rawZip(t, 1, 0, rawEnd{dirSize: u64(MaxDirectoryBytes + 1), zip64: true})
		}, []string{fmt.Sprint(MaxDirectoryBytes + 1), dirLimit}},
		// A directory archive/zip reads past its declared size: 300
		// headers with the longest comments, declared as one of 46 bytes.
		{"holds more directory than it declares", func(t *testing.T) []byte {
			return rawZip(t, 300, math.MaxUint16, rawEnd{dirSize: u64(dirHeaderLen)})
		}, []string{"takes more than the " + dirLimit + " bytes"}},
		{"directory declared past its end record", func(t *testing.T) []byte {
			return rawZip(t, 2, 0, rawEnd{dirOffset: u64(10)})
		}, []string{"offset 10", "outside the file"}},
		{"directory declared larger than the file", func(t *testing.T) []byte {
			return rawZip(t, 2, 0, rawEnd{dirSize: u64(1 << 20)})
		}, []string{"1048576 bytes long", "outside the file"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := tc.file(t)
			var err error
			start := time.Now()
			ours, ourBytes := allocated(t, func() { _, err = Decode(bytes.NewReader(file), int64(len(file))) })
			took := time.Since(start)
			wantKind(t, err, model.KindValidation, tc.want...)
			var zr *zip.Reader
			theirs, theirBytes := allocated(t, func() { zr, _ = zip.NewReader(bytes.NewReader(file), int64(len(file))) })
			t.Logf("a %d-byte file: refused in %v with %d allocations (%d KiB); archive/zip: %d allocations (%d KiB)",
				len(file), took, ours, ourBytes>>10, theirs, theirBytes>>10)
			if ours > 100 {
				t.Errorf("refusing made %d allocations (%d bytes): it does not stop before the entries are made", ours, ourBytes)
			}
			if zr != nil && len(zr.File) > 1000 && (ours*1000 > theirs || ourBytes*2 > theirBytes) {
				t.Errorf("refusing made %d allocations of %d bytes, against archive/zip's %d of %d for its %d entries",
					ours, ourBytes, theirs, theirBytes, len(zr.File))
			}
		})
	}
}

// Files within the limits open as before: one of exactly MaxEntries
// entries (ZIP64, as archive/zip writes that many), a job file with a
// comment, and one after other bytes (a self-extracting program, say).
func TestOpenZipWithinLimits(t *testing.T) {
	t.Run("MaxEntries entries", func(t *testing.T) {
		file := emptyEntries(t, MaxEntries)
		zr, err := openZip(bytes.NewReader(file), int64(len(file)))
		if err != nil {
			t.Fatal(err)
		}
		if len(zr.File) != MaxEntries {
			t.Fatalf("opened %d entries, want %d", len(zr.File), MaxEntries)
		}
	})
	snap := store.Snapshot{Job: model.NewJob(), Collections: map[string][]store.Row{
		"nodes": {{Key: "0000000001", Value: []byte(`{"id":1,"x":0,"y":0,"z":0}`)}}}}
	var job bytes.Buffer
	if err := Encode(&job, snap, "test", time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	withComment := func() []byte {
		zr, err := zip.NewReader(bytes.NewReader(job.Bytes()), int64(job.Len()))
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		if err := zw.SetComment(strings.Repeat("x", math.MaxUint16)); err != nil {
			t.Fatal(err)
		}
		for _, f := range zr.File {
			if err := zw.Copy(f); err != nil {
				t.Fatal(err)
			}
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	for _, tc := range []struct {
		name string
		file []byte
	}{
		{"job file", job.Bytes()},
		{"with the longest comment", withComment()},
		{"after other bytes", append(bytes.Repeat([]byte{0x7f}, 70_000), job.Bytes()...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dec, err := Decode(bytes.NewReader(tc.file), int64(len(tc.file)))
			if err != nil {
				t.Fatal(err)
			}
			if rows := dec.Snapshot.Collections["nodes"]; len(rows) != 1 || rows[0].Key != "0000000001" {
				t.Fatalf("read back %+v", dec.Snapshot.Collections)
			}
		})
	}
}

// archive/zip reads the end records and the directory from what the
// checks held, so a job file's directory is read from the file once.
func TestOpenZipReadsDirectoryOnce(t *testing.T) {
	file := emptyEntries(t, 2000)
	src := &countingReaderAt{r: bytes.NewReader(file)}
	if _, err := openZip(src, int64(len(file))); err != nil {
		t.Fatal(err)
	}
	if src.n > int64(len(file)) {
		t.Errorf("read %d bytes of a %d-byte file whose entries are empty", src.n, len(file))
	}
}
