package jobfile

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/model"
)

// Rows are read in time linear in their length, and a row longer than
// MaxRowBytes is refused as soon as the reader has passed the cap.

// longRowFile is a job file whose nodes entry is one row of n bytes (a
// valid row when n is large enough), deflated to little.
func longRowFile(tb testing.TB, n int) []byte {
	tb.Helper()
	head, tail := `{"key":"1","score":1,"value":{"id":1,"note":"`, `"}}`
	row := head + strings.Repeat("x", n-len(head)-len(tail)) + tail + "\n"
	return bombZip(tb, []bombEntry{manifestEntry("nodes"),
		{name: modelDir + "nodes" + modelExt, method: zip.Deflate, data: []byte(row)}})
}

func TestLongRowRefusedAtTheCap(t *testing.T) {
	t.Run("one byte over the cap", func(t *testing.T) {
		file := longRowFile(t, MaxRowBytes+1)
		var err error
		alloc, _, _ := cost(t, func() { _, err = Decode(bytes.NewReader(file), int64(len(file))) })
		wantKind(t, err, model.KindValidation, "collection nodes: line 1", "16777216 bytes (16.0 MiB)", "the most a row may hold")
		// The line's buffer, grown to the cap, and what its growth
		// left behind: not the 63 MiB a longer row would take.
		if alloc > 3*MaxRowBytes {
			t.Errorf("allocated %d MiB to refuse a row of %d MiB", alloc>>20, (MaxRowBytes+1)>>20)
		}
	})
	t.Run("a row at the cap is read", func(t *testing.T) {
		file := longRowFile(t, MaxRowBytes)
		dec, err := Decode(bytes.NewReader(file), int64(len(file)))
		if err != nil {
			t.Fatal(err)
		}
		if rows := dec.Snapshot.Collections["nodes"]; len(rows) != 1 || rows[0].Key != "1" {
			t.Fatalf("rows %d", len(rows))
		}
	})
}

// A 63 MiB row is refused once the reader has read a little past the
// cap, not after the whole row.
func TestLongRowReadNoFurtherThanTheCap(t *testing.T) {
	file := longRowFile(t, 63<<20)
	zr, err := zip.NewReader(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	files, err := checkDirectory(zr, int64(len(file)), DefaultMaxJobBytes)
	if err != nil {
		t.Fatal(err)
	}
	d := &decoder{b: newBudget(context.Background(), 0), files: files}
	_, err = d.readRows(files[modelDir+"nodes"+modelExt])
	wantKind(t, err, model.KindValidation, "longer than 16777216 bytes")
	// bufio reads 64 KiB at a time: the refusal comes within one read
	// of the cap.
	if most := int64(MaxRowBytes + 2*64<<10); d.b.used > most {
		t.Errorf("read %d bytes of the row before refusing it, want at most %d", d.b.used, most)
	}
}

// readLine looks at each byte once: a reader that counts how often its
// bytes are handed out sees each one once, however long the line (a
// bufio.Scanner hands its buffer to the split function again after every
// read, which is what made a long row quadratic).
func TestReadLineIsLinear(t *testing.T) {
	for _, tc := range []struct {
		name  string
		text  string
		lines []string
		err   error
	}{
		{"lines", "a\nbb\n\nccc", []string{"a", "bb", "", "ccc"}, io.EOF},
		{"trailing newline", "a\n", []string{"a", ""}, io.EOF},
		{"a long line", strings.Repeat("y", 200<<10) + "\nz", []string{strings.Repeat("y", 200<<10), "z"}, io.EOF},
		{"over the cap", strings.Repeat("y", 300<<10), nil, errLongLine},
	} {
		t.Run(tc.name, func(t *testing.T) {
			br := bufio.NewReaderSize(strings.NewReader(tc.text), 16)
			var got []string
			var err error
			for {
				var line []byte
				line, err = readLine(br, nil, 256<<10)
				if err != nil && err != io.EOF {
					break
				}
				got = append(got, string(line))
				if err == io.EOF {
					break
				}
			}
			if !errors.Is(err, tc.err) {
				t.Fatalf("error %v, want %v", err, tc.err)
			}
			if tc.lines != nil && strings.Join(got, "|") != strings.Join(tc.lines, "|") {
				t.Errorf("lines %q, want %q", got, tc.lines)
			}
		})
	}
}

// A JSON record whose zip directory declares the most a record may hold
// (1 MiB) but that expands to a few bytes costs a few bytes: no buffer is
// sized from what the directory declares.
func TestRecordBufferNotSizedFromTheDirectory(t *testing.T) {
	declared := uint64(maxRecordBytes)
	text := []byte(`{"heading":"x"}`)
	file := bombZip(t, []bombEntry{manifestEntry(), {name: entryHeadings, method: zip.Deflate, data: text,
		comp: deflated(t, text), declared: &declared}})
	var err error
	alloc, _, _ := cost(t, func() { _, err = Decode(bytes.NewReader(file), int64(len(file))) })
	// archive/zip refuses the entry once it ends short of its size.
	wantKind(t, err, model.KindValidation, entryHeadings)
	if alloc > maxRecordBytes/2 {
		t.Errorf("allocated %d KiB for a %d-byte record whose directory declares %d KiB", alloc>>10, len(text), declared>>10)
	}
}

// The results of a file that is not signed are never read: a results
// entry that expands to 1000 MiB costs nothing.
func TestUnsignedResultsNotRead(t *testing.T) {
	zeros := make([]byte, 1<<20)
	comp := deflated(t, zeros)
	// The compressed MiB of zeros a thousand times, declared as about
	// a thousand MiB, within what that much data may expand to: the
	// results entry of finding 1 of the capacity review.
	var big bytes.Buffer
	for range 1000 {
		big.Write(comp)
	}
	declared := min(uint64(1000<<20), uint64(big.Len())*deflateMaxRatio)
	file := bombZip(t, []bombEntry{manifestEntry(),
		{name: "results/static/meta.json", method: zip.Deflate, data: []byte(`{}`)},
		{name: "results/static/1:disp.bin", method: zip.Deflate, data: zeros, comp: big.Bytes(), declared: &declared}})
	for _, keys := range []Keys{{}, keysOf(t, hexKeyA)} {
		var dec Decoded
		var err error
		alloc, _, _ := cost(t, func() {
			dec, err = DecodeContext(context.Background(), bytes.NewReader(file), int64(len(file)), 0, keys)
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(dec.Snapshot.Results) != 0 || dec.ResultsDropped == "" {
			t.Errorf("results %d, warning %q", len(dec.Snapshot.Results), dec.ResultsDropped)
		}
		if alloc > 8<<20 {
			t.Errorf("allocated %d MiB for a file whose results are not read", alloc>>20)
		}
	}
}
