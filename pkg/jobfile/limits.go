package jobfile

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"

	"github.com/gusset/gusset/pkg/model"
)

// MaxJobBytesSetting is the environment variable that sets how many bytes
// a job file may expand to (pkg/server reads it); the errors of an
// oversized file name it.
const MaxJobBytesSetting = "MAX_JOB_BYTES"

// DefaultMaxJobBytes is how many bytes the entries of a job file may
// expand to in all, unless MAX_JOB_BYTES says otherwise: 1 GiB. A real
// job file of 1,000,000 members (the bundled multi-storey frame's rows in
// its proportions: 470,000 nodes, 588,000 distributed loads, node loads
// and restraints; 2.3 million rows) expands to 877.5 MiB and is 25.3 MiB
// compressed (TestMeasureMillionMembers), so the default holds it with
// about 15% to spare.
const DefaultMaxJobBytes int64 = maxTotalBytes

// maxTotalBytes is DefaultMaxJobBytes as an untyped constant.
const maxTotalBytes = 1 << 30

// maxRecordBytes caps each JSON record entry (the manifest and job/*.json):
// they are read whole before they are decoded, and a real one is a few
// KiB.
const maxRecordBytes = 1 << 20

// MaxRowBytes caps one line (one row) of a model/*.jsonl entry: 16 MiB.
// The longest rows a real model has are a scenario of 1,000 moving loads
// and 1,000 combinations (about 0.5 MiB) or a combination of thousands of
// load cases (55 bytes an item: 16 MiB holds about 300,000). A line is
// refused as soon as it passes the cap, before the rest of it is read.
const MaxRowBytes = 16 << 20

// deflateMaxRatio is the most deflate can expand data by: a match of 258
// bytes coded in 2 bits.
const deflateMaxRatio = 1032

// budget is what decoding one job file may still do: the bytes its entries
// may expand to in all, counted as they are read (the sizes the zip
// directory declares can lie), and the request's context. The first limit
// it meets is kept in err and stops every later read.
type budget struct {
	ctx   context.Context
	limit int64
	used  int64
	err   error
}

func newBudget(ctx context.Context, limit int64) *budget {
	if limit <= 0 {
		limit = DefaultMaxJobBytes
	}
	return &budget{ctx: ctx, limit: limit}
}

// check returns the error that stops decoding, if any: the limit already
// met, or the end of the context.
func (b *budget) check() error {
	if b.err == nil {
		if err := b.ctx.Err(); err != nil {
			b.err = stopped(err, b.used)
		}
	}
	return b.err
}

// open opens an entry for reading through the budget.
func (b *budget) open(f *zip.File) (*entryReader, error) {
	if err := b.check(); err != nil {
		return nil, err
	}
	rc, err := f.Open()
	if err != nil {
		return nil, entryError(f, err)
	}
	return &entryReader{b: b, rc: rc}, nil
}

// entryReader counts the bytes an entry expands to against its budget
// and stops when the budget is spent or its context ends. err keeps the
// first failure (not io.EOF): a line scanner hands out the partial line
// before it, which must not be mistaken for the entry's last row.
type entryReader struct {
	b   *budget
	rc  io.ReadCloser
	err error
	// hash, when set, hashes what the entry expands to for the
	// signature (verify.go).
	hash *entryHash
}

func (e *entryReader) Read(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	if err := e.b.check(); err != nil {
		e.err = err
		return 0, err
	}
	n, err := e.rc.Read(p)
	e.b.used += int64(n)
	if e.hash != nil {
		e.hash.Write(p[:n])
	}
	if e.b.used > e.b.limit {
		e.b.err = tooLarge(fmt.Sprintf("more than %d bytes", e.b.limit), e.b.limit)
		e.err = e.b.err
		return 0, e.err
	}
	if err != nil && err != io.EOF {
		e.err = err
	}
	return n, err
}

func (e *entryReader) Close() error { return e.rc.Close() }

// failure is the error to report for err, met while reading an entry: the
// budget's own error when it stopped the read, else what the entry's
// reader said, as a validation error naming the entry.
func (b *budget) failure(f *zip.File, err error) error {
	if b.err != nil {
		return b.err
	}
	return entryError(f, err)
}

// entryError explains a failure to read an entry.
func entryError(f *zip.File, err error) error {
	if errors.Is(err, zip.ErrFormat) {
		return invalid("entry %s holds more than the %d bytes its zip directory declares, or is damaged", f.Name, f.UncompressedSize64)
	}
	return invalid("entry %s: %v", f.Name, err)
}

// tooLarge is the error of a file that expands to more than the limit.
func tooLarge(size string, limit int64) error {
	return model.E(model.KindTooLarge,
		"the job file expands to %s uncompressed, more than the limit of %d bytes (%s) this service accepts; "+
			"the operator sets the limit with %s", size, limit, humanBytes(limit), MaxJobBytesSetting)
}

// stopped is the error of decoding that ran out of time (or whose request
// was cancelled): a 503, since the same file may read in time when the
// service is less busy.
func stopped(err error, used int64) error {
	return &model.Error{Kind: model.KindUnavailable, Err: err, Msg: fmt.Sprintf(
		"reading the job file took longer than a request may (stopped after %d bytes uncompressed: %v); "+
			"retry when the service is less busy", used, err)}
}

// checkDirectory refuses, before any entry is read, a zip whose directory
// holds two entries of one name, declares an entry larger than its
// compressed data can expand to (or more compressed data than the whole
// file holds), or declares more than limit bytes in all. An entry in a
// compression method this reader does not know cannot be read, so it
// costs nothing and is not summed; were such a method registered, the
// budget would still count its bytes as they are read.
func checkDirectory(zr *zip.Reader, size, limit int64) (map[string]*zip.File, error) {
	files := make(map[string]*zip.File, len(zr.File))
	var total uint64
	for _, f := range zr.File {
		if _, dup := files[f.Name]; dup {
			return nil, invalid("it has two entries named %q", f.Name)
		}
		files[f.Name] = f
		if f.CompressedSize64 > uint64(size) {
			return nil, invalid("entry %s declares %d bytes of compressed data, more than the whole file's %d bytes",
				f.Name, f.CompressedSize64, size)
		}
		most, known := maxExpansion(f)
		if !known {
			continue
		}
		if f.UncompressedSize64 > most {
			return nil, invalid("entry %s declares %d bytes uncompressed, more than its %d bytes of data can expand to",
				f.Name, f.UncompressedSize64, f.CompressedSize64)
		}
		var carry uint64
		if total, carry = bits.Add64(total, f.UncompressedSize64, 0); carry != 0 {
			total = math.MaxUint64
		}
	}
	if total > uint64(limit) {
		return nil, tooLarge(fmt.Sprintf("%d bytes (as its zip directory declares)", total), limit)
	}
	return files, nil
}

// maxExpansion is the most bytes the data of f can expand to, when its
// compression method tells.
func maxExpansion(f *zip.File) (uint64, bool) {
	c := f.CompressedSize64
	switch f.Method {
	case zip.Store:
		return c, true
	case zip.Deflate:
		if c > (math.MaxUint64-258)/deflateMaxRatio {
			return math.MaxUint64, true
		}
		return c*deflateMaxRatio + 258, true
	}
	return 0, false
}

// humanBytes writes n in the largest binary unit that keeps one decimal.
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 5; m /= unit {
		div *= unit
		exp++
	}
	s := fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
	return s
}
