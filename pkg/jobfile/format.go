// Package jobfile reads and writes gusset job files and keeps them inside
// the jobs directory.
//
// A job file (extension .gsj) is a zip container, so any zip tool can look
// inside:
//
//	manifest.json          format name, format version, writer, save time
//	job/headings.json      headings
//	job/settings.json      job settings
//	job/units.json         job units
//	job/analysis.json      analysis settings {static, buckling, dynamicFrequency}
//	                       (SI); optional: a file without it, or a field it
//	                       lacks, reads as the defaults; checked like PATCH
//	                       input, a failure naming the entry and the field
//	model/{name}.jsonl     one model collection per entry, one row per line:
//	                       {"key": "...", "score": n, "value": {...}} (SI)
//
// Readers ignore entries they do not know, so a later version can add
// entries (results, design data) without breaking older files. The format
// version only goes up when an existing entry changes meaning; a file with a
// newer version than this build reads is refused with a message saying so.
//
// A job file is a client's file, so reading one is bounded (limits.go):
// its zip directory by MaxEntries entries and MaxDirectoryBytes bytes,
// checked from its end records before archive/zip reads it (zipend.go);
// what its entries expand to, in all, by MAX_JOB_BYTES (DefaultMaxJobBytes)
// as the zip directory declares it and again as counted while reading;
// each JSON record by maxRecordBytes; each row by maxRowBytes; and the
// time by the caller's context. Rows are decoded line by line as they are
// read, each entry is read at most once, and two entries of one name or a
// collection listed twice are refused.
package jobfile

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// FormatName identifies a gusset job file in its manifest.
const FormatName = "gusset-job"

// FormatVersion is the version this build writes and the newest it reads.
const FormatVersion = 1

// Extension is the extension of job files.
const Extension = ".gsj"

// Manifest is the manifest.json entry of a job file.
type Manifest struct {
	Format    string    `json:"format"`
	Version   int       `json:"version"`
	Generator string    `json:"generator"`
	SavedAt   time.Time `json:"savedAt"`
	// Collections lists the model entries, so that a reader can tell a
	// missing entry from an empty collection.
	Collections []string `json:"collections"`
}

const (
	entryManifest = "manifest.json"
	entryHeadings = "job/headings.json"
	entrySettings = "job/settings.json"
	entryUnits    = "job/units.json"
	entryAnalysis = "job/analysis.json"
	modelDir      = "model/"
	modelExt      = ".jsonl"
)

// Encode writes snap as a job file to w, unsigned: EncodeSigned with no
// key. A service's files are written through a Dir, which signs them.
func Encode(w io.Writer, snap store.Snapshot, generator string, savedAt time.Time) error {
	return EncodeSigned(w, snap, generator, savedAt, Keys{})
}

// EncodeSigned writes snap as a job file to w, signed with the first of
// keys (sign.go); with no key it writes no signature.
func EncodeSigned(w io.Writer, snap store.Snapshot, generator string, savedAt time.Time, keys Keys) error {
	zw := newArchive(w, keys)
	names := make([]string, 0, len(snap.Collections))
	for n := range snap.Collections {
		names = append(names, n)
	}
	sort.Strings(names)
	man := Manifest{Format: FormatName, Version: FormatVersion, Generator: generator,
		SavedAt: savedAt.UTC(), Collections: names}
	type entry struct {
		name string
		v    any
	}
	entries := []entry{{entryManifest, man}, {entryHeadings, snap.Job.Headings}, {entrySettings, snap.Job.Settings}, {entryUnits, snap.Job.Units}}
	// A zero record is a Job not made by model.NewJob: writing no entry
	// lets it read back as the defaults rather than as invalid settings.
	if len(snap.Job.Analysis) > 0 {
		entries = append(entries, entry{entryAnalysis, snap.Job.Analysis})
	}
	for _, e := range entries {
		if err := writeJSON(zw, e.name, e.v); err != nil {
			return fmt.Errorf("write %s: %w", e.name, err)
		}
	}
	for _, n := range names {
		f, err := zw.create(modelDir + n + modelExt)
		if err != nil {
			return fmt.Errorf("write collection %s: %w", n, err)
		}
		bw := bufio.NewWriter(f)
		enc := json.NewEncoder(bw)
		for _, r := range snap.Collections[n] {
			if err := enc.Encode(r); err != nil {
				return fmt.Errorf("write collection %s: %w", n, err)
			}
		}
		if err := bw.Flush(); err != nil {
			return fmt.Errorf("write collection %s: %w", n, err)
		}
	}
	if err := writeResults(zw, snap.Results); err != nil {
		return err
	}
	return zw.close()
}

// archive is a zip being written that, when it has a key, keeps the size
// and SHA-256 of each entry for the signature written last.
type archive struct {
	zw     *zip.Writer
	keys   Keys
	list   []signedEntry
	name   string
	hashed *entryHash
}

func newArchive(w io.Writer, keys Keys) *archive {
	return &archive{zw: zip.NewWriter(w), keys: keys}
}

// create starts the entry name; what is written to it is hashed when the
// archive is signed.
func (a *archive) create(name string) (io.Writer, error) {
	a.endEntry()
	f, err := a.zw.Create(name)
	if err != nil || a.keys.Empty() {
		return f, err
	}
	a.name, a.hashed = name, newEntryHash()
	return io.MultiWriter(f, a.hashed), nil
}

func (a *archive) endEntry() {
	if a.hashed != nil {
		a.list = append(a.list, a.hashed.entry(a.name))
		a.hashed = nil
	}
}

// close writes the signature, when the archive has a key, and the zip
// directory.
func (a *archive) close() error {
	a.endEntry()
	if !a.keys.Empty() {
		f, err := a.zw.Create(entrySignature)
		if err != nil {
			return fmt.Errorf("write %s: %w", entrySignature, err)
		}
		if err := writeSignature(f, a.keys.sign(a.list)); err != nil {
			return fmt.Errorf("write %s: %w", entrySignature, err)
		}
	}
	return a.zw.Close()
}

func writeJSON(zw *archive, name string, v any) error {
	f, err := zw.create(name)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// Decoded is the content of a job file.
type Decoded struct {
	Manifest Manifest
	Snapshot store.Snapshot
	// Signed is true when the file's signature verified with one of the
	// keys and every entry read matched it: its results, if any, are in
	// Snapshot.Results.
	Signed bool
	// ResultsDropped, when not empty, is the warning of a file that holds
	// results that were not opened, because it is not Signed: it says
	// why, for the client to read.
	ResultsDropped string
}

// invalid reports a file that is not a readable job file; it is the
// client's file, so it is a validation error, not an internal one.
func invalid(format string, args ...any) error {
	return model.E(model.KindValidation, "not a valid gusset job file: "+format, args...)
}

// Decode reads a job file with the default limit (DefaultMaxJobBytes),
// no deadline and no key: DecodeContext with context.Background(), so it
// opens no results.
func Decode(r io.ReaderAt, size int64) (Decoded, error) {
	return DecodeContext(context.Background(), r, size, 0, Keys{})
}

// DecodeContext reads a job file. Errors about the content are validation
// errors that say what is wrong with the file: two entries of one name, a
// collection the manifest lists twice, an entry its zip directory
// misdescribes, a directory of more than MaxEntries entries or
// MaxDirectoryBytes bytes (refused before archive/zip reads it), a row
// longer than MaxRowBytes. maxBytes
// (zero or less: DefaultMaxJobBytes) caps what the entries may expand to
// in all, both as the zip directory declares it and as counted while
// reading; a file over it is a model.KindTooLarge error naming the limit
// and MAX_JOB_BYTES. Rows are decoded line by line as
// they are read, and no entry is read twice. When ctx ends, decoding stops
// with a model.KindUnavailable error that wraps ctx's error.
//
// The results are read only when the file's signature verifies with one
// of keys (sign.go), after its model; a file that is not signed so opens
// without them, its results never read, and ResultsDropped says why.
func DecodeContext(ctx context.Context, r io.ReaderAt, size, maxBytes int64, keys Keys) (Decoded, error) {
	var out Decoded
	b := newBudget(ctx, maxBytes)
	if err := b.check(); err != nil {
		return out, err
	}
	zr, err := openZip(r, size)
	if err != nil {
		return out, err
	}
	files, err := checkDirectory(zr, size, b.limit)
	if err != nil {
		return out, err
	}
	d := &decoder{b: b, files: files}
	// The signature comes first, so that the model's entries are hashed
	// as they are read.
	if err := d.verifySignature(keys); err != nil {
		return out, err
	}
	if err := d.readJSON(entryManifest, &out.Manifest, true); err != nil {
		return out, err
	}
	m := out.Manifest
	if m.Format != FormatName {
		return out, invalid("manifest format is %q, expected %q", m.Format, FormatName)
	}
	if m.Version < 1 || m.Version > FormatVersion {
		return out, model.E(model.KindValidation,
			"job file format version %d is not supported: this service reads versions 1 to %d; upgrade gusset to open it",
			m.Version, FormatVersion)
	}
	listed := make(map[string]bool, len(m.Collections))
	for _, n := range m.Collections {
		if listed[n] {
			return out, invalid("the manifest lists collection %q twice", n)
		}
		listed[n] = true
		if _, ok := files[modelDir+n+modelExt]; !ok {
			return out, invalid("the manifest lists collection %q but the file has no entry for it", n)
		}
	}
	job := model.NewJob()
	for _, e := range []struct {
		name string
		v    any
	}{{entryHeadings, &job.Headings}, {entrySettings, &job.Settings}, {entryUnits, &job.Units}, {entryAnalysis, &job.Analysis}} {
		if err := d.readJSON(e.name, e.v, false); err != nil {
			return out, err
		}
	}
	if err := job.Units.Validate(); err != nil {
		return out, invalid("units: %v", err)
	}
	if err := (model.SettingsPatch{VerticalAxis: &job.Settings.VerticalAxis}).Apply(&job.Settings); err != nil {
		return out, invalid("settings: %v", err)
	}
	if err := checkAnalysis(&job.Analysis); err != nil {
		return out, err
	}
	out.Snapshot.Job = job
	out.Snapshot.Collections = make(map[string][]store.Row, len(m.Collections))
	for _, n := range m.Collections {
		rows, err := d.readRows(files[modelDir+n+modelExt])
		if err != nil {
			return out, err
		}
		out.Snapshot.Collections[n] = rows
	}
	// Last, so that a model that differs from its signature leaves the
	// results unread.
	if out.Snapshot.Results, out.ResultsDropped, err = d.readResults(); err != nil {
		return out, err
	}
	out.Signed = d.listed != nil
	return out, nil
}

// checkAnalysis checks the shape of a file's analysis settings: an object
// holding one settings object per family. What each record must hold is
// the analyses' to say (the opener checks it, and reports a failure
// through AnalysisError).
//
// Each record is kept compact, as the service stores it: the file holds
// it indented, and a record read back must equal the one saved.
func checkAnalysis(a *model.AnalysisSettings) error {
	for key, raw := range *a {
		if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			delete(*a, key) // no record: the family's defaults
			continue
		}
		if !validFamily(strings.ToLower(key)) {
			return invalid("entry %s: %q is not the name of an analysis family", entryAnalysis, key)
		}
		if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
			return invalid("entry %s: %s is not an object of settings", entryAnalysis, key)
		}
		var b bytes.Buffer
		if err := json.Compact(&b, raw); err != nil {
			return invalid("entry %s: %s: %v", entryAnalysis, key, err)
		}
		(*a)[key] = b.Bytes()
	}
	return nil
}

// AnalysisError is err, a failure of a job file's analysis settings, as
// the opener reports it: naming the entry and each failing field
// ("buckling.modes").
func AnalysisError(err error) error {
	var me *model.Error
	if errors.As(err, &me) && len(me.Fields) > 0 {
		return &model.Error{Kind: model.KindValidation, Fields: me.Fields,
			Msg: "not a valid gusset job file: entry " + entryAnalysis + ": " + describeFields(me.Fields)}
	}
	return invalid("entry %s: %v", entryAnalysis, err)
}

// describeFields lists failing fields as "field: message" parts.
func describeFields(fields []model.FieldError) string {
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = f.Field + ": " + f.Message
	}
	return strings.Join(parts, "; ")
}

// readJSON reads a JSON record entry (the manifest, job/*.json) into v
// with the default limit and no deadline (Preview uses it).
func readJSON(files map[string]*zip.File, name string, v any, required bool) error {
	d := &decoder{b: newBudget(context.Background(), 0), files: files}
	return d.readJSON(name, v, required)
}

// readJSON reads a JSON record entry into v, counting it against the
// budget. A record is small: it is read whole, at most maxRecordBytes of
// it.
func (d *decoder) readJSON(name string, v any, required bool) error {
	f, ok := d.files[name]
	if !ok {
		if required {
			return invalid("entry %s is missing", name)
		}
		return nil
	}
	data, err := d.readEntry(f, maxRecordBytes, "a JSON record")
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return invalid("entry %s: %v", name, err)
	}
	return nil
}

// readEntry reads all of entry f, refusing more than most bytes (what
// names the kind of entry in the message). The buffer grows as bytes
// arrive: the size the zip directory declares is the client's word, and
// sizing a buffer by it would let a small file claim a large allocation.
func (d *decoder) readEntry(f *zip.File, most int64, what string) ([]byte, error) {
	rc, err := d.open(f)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	var buf bytes.Buffer
	n, err := buf.ReadFrom(io.LimitReader(rc, most+1))
	if err != nil {
		return nil, d.b.failure(f, err)
	}
	if n > most {
		return nil, invalid("entry %s expands to more than %d bytes, more than %s may", f.Name, most, what)
	}
	d.done(f, rc)
	return buf.Bytes(), nil
}

// readRows decodes a model entry row by row as it is read: only the rows
// are kept, never the entry's text. Each byte is looked at once (a
// bufio.Scanner looks again at the whole of a long line each time it
// reads more of it), and a line longer than MaxRowBytes is refused as
// soon as it is.
func (d *decoder) readRows(f *zip.File) ([]store.Row, error) {
	rc, err := d.open(f)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	coll := strings.TrimSuffix(strings.TrimPrefix(f.Name, modelDir), modelExt)
	var rows []store.Row
	br := bufio.NewReaderSize(rc, 64<<10)
	var line []byte
	for n := 1; ; n++ {
		var err error
		line, err = readLine(br, line[:0], MaxRowBytes)
		if errors.Is(err, errLongLine) {
			return nil, invalid("collection %s: line %d is longer than %d bytes (%s), the most a row may hold",
				coll, n, MaxRowBytes, humanBytes(MaxRowBytes))
		}
		if err != nil && err != io.EOF {
			// The line may be cut short by the failure.
			return nil, d.b.failure(f, err)
		}
		if text := bytes.TrimSpace(line); len(text) > 0 {
			var r store.Row
			// Unmarshal checks that the whole line is valid JSON, so a
			// value it sets is valid JSON too; it copies what it keeps,
			// so the line's buffer is used again.
			if err := json.Unmarshal(text, &r); err != nil {
				return nil, invalid("collection %s: line %d: %v", coll, n, err)
			}
			if r.Key == "" || len(r.Value) == 0 {
				return nil, invalid("collection %s: line %d: a row needs a key and a JSON value", coll, n)
			}
			rows = append(rows, r)
		}
		if err == io.EOF {
			d.done(f, rc)
			return rows, nil
		}
	}
}

// errLongLine is readLine's refusal of a line over its cap.
var errLongLine = errors.New("line too long")

// readLine appends the next line of br to line, without its newline,
// and returns it: io.EOF with the last line when br ends, errLongLine
// as soon as the line holds more than most bytes. ReadSlice looks at
// each byte once, so a line costs time in proportion to its length.
func readLine(br *bufio.Reader, line []byte, most int) ([]byte, error) {
	for {
		frag, err := br.ReadSlice('\n')
		if len(frag) > 0 && frag[len(frag)-1] == '\n' {
			frag = frag[:len(frag)-1]
		}
		need := len(line) + len(frag)
		if need > most {
			return line, errLongLine
		}
		if need > cap(line) {
			// Doubled, not append's quarter steps for large slices: a
			// long line then costs twice its length in all, not five
			// times.
			grown := make([]byte, len(line), min(max(2*cap(line), need, 4<<10), most))
			copy(grown, line)
			line = grown
		}
		line = append(line, frag...)
		if err != bufio.ErrBufferFull {
			return line, err
		}
	}
}

// baseName is the display name of a job file path.
func baseName(p string) string {
	return strings.TrimSuffix(path.Base(p), Extension)
}
