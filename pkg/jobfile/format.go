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
package jobfile

import (
	"archive/zip"
	"bufio"
	"bytes"
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

// maxEntryBytes caps how much one entry may expand to, and maxTotalBytes
// the whole file, so that a crafted file (a zip bomb) cannot exhaust
// memory. A model of a million members stays well below both.
const (
	maxEntryBytes = 1 << 30
	maxTotalBytes = 2 << 30
)

// Encode writes snap as a job file to w.
func Encode(w io.Writer, snap store.Snapshot, generator string, savedAt time.Time) error {
	zw := zip.NewWriter(w)
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
	if snap.Job.Analysis != (model.AnalysisSettings{}) {
		entries = append(entries, entry{entryAnalysis, snap.Job.Analysis})
	}
	for _, e := range entries {
		if err := writeJSON(zw, e.name, e.v); err != nil {
			return fmt.Errorf("write %s: %w", e.name, err)
		}
	}
	for _, n := range names {
		f, err := zw.Create(modelDir + n + modelExt)
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
	return zw.Close()
}

func writeJSON(zw *zip.Writer, name string, v any) error {
	f, err := zw.Create(name)
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
}

// invalid reports a file that is not a readable job file; it is the
// client's file, so it is a validation error, not an internal one.
func invalid(format string, args ...any) error {
	return model.E(model.KindValidation, "not a valid gusset job file: "+format, args...)
}

// Decode reads a job file. Errors about the content are validation errors
// that say what is wrong with the file.
func Decode(r io.ReaderAt, size int64) (Decoded, error) {
	var out Decoded
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return out, invalid("%v", err)
	}
	files := make(map[string]*zip.File, len(zr.File))
	var total uint64
	for _, f := range zr.File {
		files[f.Name] = f
		total += f.UncompressedSize64
	}
	// The sizes in the directory can lie; the readers also stop at the
	// per-entry cap, so this is the cheap first line of defence.
	if total > maxTotalBytes {
		return out, invalid("it expands to %d bytes, more than the %d this service accepts", total, uint64(maxTotalBytes))
	}
	if err := readJSON(files, entryManifest, &out.Manifest, true); err != nil {
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
	job := model.NewJob()
	for _, e := range []struct {
		name string
		v    any
	}{{entryHeadings, &job.Headings}, {entrySettings, &job.Settings}, {entryUnits, &job.Units}, {entryAnalysis, &job.Analysis}} {
		if err := readJSON(files, e.name, e.v, false); err != nil {
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
	if out.Snapshot.Results, err = readResults(files); err != nil {
		return out, err
	}
	out.Snapshot.Collections = map[string][]store.Row{}
	for _, n := range m.Collections {
		f, ok := files[modelDir+n+modelExt]
		if !ok {
			return out, invalid("the manifest lists collection %q but the file has no entry for it", n)
		}
		rows, err := readRows(f)
		if err != nil {
			return out, invalid("collection %s: %v", n, err)
		}
		out.Snapshot.Collections[n] = rows
	}
	return out, nil
}

// checkAnalysis holds the analysis settings of a file to the rules PATCH
// meets, naming the entry and each failing field ("buckling.modes"), and
// normalises the load case lists. Fields a file leaves out keep their
// defaults (Decode starts from model.NewJob).
func checkAnalysis(a *model.AnalysisSettings) error {
	if err := a.Validate(); err != nil {
		var me *model.Error
		if errors.As(err, &me) {
			return &model.Error{Kind: model.KindValidation, Fields: me.Fields,
				Msg: "not a valid gusset job file: entry " + entryAnalysis + ": " + describeFields(me.Fields)}
		}
		return invalid("entry %s: %v", entryAnalysis, err)
	}
	a.Normalize()
	return nil
}

// describeFields lists failing fields as "field: message" parts.
func describeFields(fields []model.FieldError) string {
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = f.Field + ": " + f.Message
	}
	return strings.Join(parts, "; ")
}

func readJSON(files map[string]*zip.File, name string, v any, required bool) error {
	f, ok := files[name]
	if !ok {
		if required {
			return invalid("entry %s is missing", name)
		}
		return nil
	}
	rc, err := f.Open()
	if err != nil {
		return invalid("entry %s: %v", name, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, maxEntryBytes))
	if err != nil {
		return invalid("entry %s: %v", name, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return invalid("entry %s: %v", name, err)
	}
	return nil
}

func readRows(f *zip.File) ([]store.Row, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	var rows []store.Row
	sc := bufio.NewScanner(io.LimitReader(rc, maxEntryBytes))
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var r store.Row
		if err := json.Unmarshal(b, &r); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if r.Key == "" || !json.Valid(r.Value) {
			return nil, fmt.Errorf("line %d: a row needs a key and a JSON value", line)
		}
		rows = append(rows, r)
	}
	return rows, sc.Err()
}

// baseName is the display name of a job file path.
func baseName(p string) string {
	return strings.TrimSuffix(path.Base(p), Extension)
}
