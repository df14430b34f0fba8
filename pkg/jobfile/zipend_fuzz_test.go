package jobfile

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/model"
)

// FuzzZipEnd: the end-record reader and the directory walk of openZip,
// written by hand, never panic on any bytes; on a zip archive/zip reads
// they find its directory: the entries archive/zip makes, the count the
// end record declares; openZip refuses such a zip only when it is over a
// limit or its directory is declared past its end record, and otherwise
// opens the entries archive/zip does. Whatever archive/zip refuses,
// openZip refuses as a validation error.
func FuzzZipEnd(f *testing.F) {
	for _, b := range sampleFiles(f) {
		f.Add(b)
	}
	f.Add(buildZip(f, []zipEntry{{name: entryManifest, data: manifestJSON(1)}, {name: "model/nodes.jsonl", data: "x"}}))
	job := buildZip(f, []zipEntry{{name: entryManifest, data: manifestJSON(1)}})
	f.Add(append([]byte("prefix"), job...))
	for _, end := range []rawEnd{
		{},
		{zip64: true},
		{entries: u64(1 << 32), zip64: true},
		{entries: u64(math.MaxUint16)},
		{entries: u64(1)},
		{comment: "PK\x05\x06 a comment holding a signature"},
		// Declared past the end record, and declared short, so that
		// archive/zip finds a header at the offset itself.
		{dirOffset: u64(10)},
		{dirSize: u64(dirHeaderLen)},
		{dirOffset: u64(math.MaxUint32), zip64: true},
		{dirSize: u64(math.MaxUint64), zip64: true},
	} {
		f.Add(rawZip(f, 2, 3, end))
	}
	full := rawZip(f, 1, 0, rawEnd{comment: "comment"})
	f.Add(full[:len(full)-2]) // the comment cut short
	// A header whose compressed size and offset need a ZIP64 extra field
	// it does not have.
	noExtra := rawZip(f, 1, 0, rawEnd{})
	binary.LittleEndian.PutUint32(noExtra[20:], math.MaxUint32)
	binary.LittleEndian.PutUint32(noExtra[42:], math.MaxUint32)
	f.Add(noExtra)
	f.Add([]byte("PK\x05\x06" + string(make([]byte, 18))))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		size := int64(len(data))
		zr, zerr := zip.NewReader(bytes.NewReader(data), size)
		oz, oerr := openZip(bytes.NewReader(data), size)
		if oerr != nil && model.KindOf(oerr) != model.KindValidation {
			t.Fatalf("openZip: error of kind %d, want a validation error: %v", model.KindOf(oerr), oerr)
		}
		if zr == nil {
			if oz != nil {
				t.Fatalf("openZip opened a zip archive/zip refuses (%v)", zerr)
			}
			return
		}
		h := &heldReader{r: bytes.NewReader(data), size: size}
		e, err := readZipEnd(h)
		if err != nil {
			t.Fatalf("archive/zip reads %d entries; readZipEnd: %v", len(zr.File), err)
		}
		if uint16(e.entries) != uint16(len(zr.File)) {
			t.Fatalf("the end record declares %d entries; archive/zip read %d, which it accepts only when the low 16 bits agree",
				e.entries, len(zr.File))
		}
		if err := e.check(); err != nil {
			end := uint64(e.endOffset)
			if e.entries <= MaxEntries && e.dirSize <= MaxDirectoryBytes && e.dirOffset <= end && e.dirSize <= end-e.dirOffset {
				t.Fatalf("refused a zip within the limits whose directory lies before its end record: %v", err)
			}
			if oz != nil {
				t.Fatalf("openZip opened a zip whose end records are refused: %v", err)
			}
			return
		}
		n, err := countEntries(h, e, directoryStart(h, e))
		if err != nil {
			dirBytes := 0
			for _, f := range zr.File {
				dirBytes += dirHeaderLen + len(f.Name) + len(f.Extra) + len(f.Comment)
			}
			if len(zr.File) <= MaxEntries && dirBytes <= MaxDirectoryBytes {
				t.Fatalf("archive/zip reads %d entries in a directory of %d bytes, within the limits; countEntries: %v",
					len(zr.File), dirBytes, err)
			}
			if oz != nil {
				t.Fatalf("openZip opened a zip whose directory is refused: %v", err)
			}
			return
		}
		if n != len(zr.File) || uint64(n) != e.entries {
			t.Fatalf("countEntries found %d entries, the end record declares %d; archive/zip read %d", n, e.entries, len(zr.File))
		}
		if (oerr == nil) != (zerr == nil) || oz == nil {
			t.Fatalf("openZip: %v; archive/zip: %v", oerr, zerr)
		}
		if len(oz.File) != len(zr.File) {
			t.Fatalf("openZip opened %d entries, archive/zip %d", len(oz.File), len(zr.File))
		}
		for i, f := range oz.File {
			if g := zr.File[i]; f.Name != g.Name || f.CompressedSize64 != g.CompressedSize64 || f.UncompressedSize64 != g.UncompressedSize64 {
				t.Fatalf("entry %d: openZip read %q (%d/%d bytes), archive/zip %q (%d/%d)", i,
					f.Name, f.CompressedSize64, f.UncompressedSize64, g.Name, g.CompressedSize64, g.UncompressedSize64)
			}
		}
	})
}
