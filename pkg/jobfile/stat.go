package jobfile

import (
	"archive/zip"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/gusset/gusset/pkg/model"
)

// Stat tells what is on disk for a job file path.
type Stat struct {
	Exists          bool
	Size            int64
	ModTime         time.Time
	RecoveryExists  bool
	RecoveryModTime time.Time
}

// RecoveryIsNewer reports whether a recovery file holds changes made after
// the job file was last written (or there is no job file at all). A save
// removes the recovery file, so one that is not older than the file is from
// a later, unsaved session.
func (s Stat) RecoveryIsNewer() bool {
	return s.RecoveryExists && (!s.Exists || !s.RecoveryModTime.Before(s.ModTime))
}

// Stat looks at the job file and its recovery file.
func (d *Dir) Stat(p Path) (Stat, error) {
	var st Stat
	fi, err := os.Stat(p.Abs)
	switch {
	case err == nil:
		if fi.IsDir() {
			return st, badPath(p.Rel, "is a folder, not a job file")
		}
		st.Exists, st.Size, st.ModTime = true, fi.Size(), fi.ModTime()
	case !errors.Is(err, fs.ErrNotExist):
		return st, fmt.Errorf("stat %s: %w", p.Rel, err)
	}
	ri, err := os.Stat(p.Recovery())
	switch {
	case err == nil:
		st.RecoveryExists, st.RecoveryModTime = true, ri.ModTime()
	case !errors.Is(err, fs.ErrNotExist):
		return st, fmt.Errorf("stat recovery file of %s: %w", p.Rel, err)
	}
	return st, nil
}

// Preview is what a job file says about itself without being opened.
type Preview struct {
	FilePath      string         `json:"filePath"`
	Name          string         `json:"name"`
	Headings      model.Headings `json:"headings"`
	FileSize      int64          `json:"fileSize"`
	ModifiedAt    time.Time      `json:"modifiedAt"`
	SavedAt       time.Time      `json:"savedAt"`
	FormatVersion int            `json:"formatVersion"`
	Generator     string         `json:"generator"`
	HasRecovery   bool           `json:"hasRecovery"`
}

// Preview reads the manifest and headings of the job file at p; it does not
// decode the model.
func (d *Dir) Preview(p Path) (Preview, error) {
	st, err := d.Stat(p)
	if err != nil {
		return Preview{}, err
	}
	if !st.Exists {
		return Preview{}, model.E(model.KindNotFound, "job file %q not found in the jobs directory", p.Rel)
	}
	zr, err := zip.OpenReader(p.Abs)
	if err != nil {
		return Preview{}, invalid("%s: %v", p.Rel, err)
	}
	defer zr.Close()
	files := make(map[string]*zip.File, len(zr.File))
	for _, f := range zr.File {
		files[f.Name] = f
	}
	out := Preview{FilePath: p.Rel, Name: p.Name(), FileSize: st.Size, ModifiedAt: st.ModTime.UTC(), HasRecovery: st.RecoveryExists}
	var man Manifest
	if err := readJSON(files, entryManifest, &man, true); err != nil {
		return Preview{}, err
	}
	if man.Format != FormatName {
		return Preview{}, invalid("manifest format is %q, expected %q", man.Format, FormatName)
	}
	if err := readJSON(files, entryHeadings, &out.Headings, false); err != nil {
		return Preview{}, err
	}
	out.SavedAt, out.FormatVersion, out.Generator = man.SavedAt, man.Version, man.Generator
	return out, nil
}
