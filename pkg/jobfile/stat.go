package jobfile

import (
	"archive/zip"
	"errors"
	"fmt"
	"io/fs"
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

// Stat looks at the job file and its recovery file. A folder or anything
// but a regular file at the job file's path is a validation error. So is a
// recovery file that is a symbolic link, wherever it leads (see
// recoveryInfo), so the answer never depends on what lies outside.
func (d *Dir) Stat(p Path) (Stat, error) {
	var st Stat
	if p.real == "" {
		return st, fmt.Errorf("job file path %q was not resolved", p.Rel)
	}
	fi, err := d.fsys.Stat(p.real)
	switch {
	case err == nil:
		if fi.IsDir() {
			return st, badPath(p.Rel, "is a folder, not a job file")
		}
		if !fi.Mode().IsRegular() {
			return st, badPath(p.Rel, "is not a regular file")
		}
		st.Exists, st.Size, st.ModTime = true, fi.Size(), fi.ModTime()
	case !errors.Is(err, fs.ErrNotExist):
		return st, d.failed(p, "stat", err)
	}
	ri, err := d.recoveryInfo(p)
	if err != nil {
		return st, err
	}
	if ri != nil {
		st.RecoveryExists, st.RecoveryModTime = true, ri.ModTime()
	}
	return st, nil
}

// recoveryInfo describes the recovery file of p, nil when there is none.
// The entry itself is looked at, never what a link there names: the
// service only ever writes regular files there, so a link is planted, and
// following it would open, or reveal the existence of, a file the jobs
// directory need not hold. Such a link, or a folder, is a validation error
// naming the recovery file.
func (d *Dir) recoveryInfo(p Path) (fs.FileInfo, error) {
	ri, err := d.fsys.Lstat(p.recovery())
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, d.failed(p, "stat the recovery file of", err)
	case ri.Mode()&fs.ModeSymlink != 0:
		return nil, recoveryLink(p)
	case !ri.Mode().IsRegular():
		return nil, badPath(p.Rel, fmt.Sprintf("has a recovery file %s that is not a regular file: remove it to use this job file",
			shown(p.RecoveryRel())))
	}
	return ri, nil
}

// recoveryLink is the error of a recovery file that is a symbolic link.
func recoveryLink(p Path) error {
	return badPath(p.Rel, fmt.Sprintf("has a recovery file %s that is a symbolic link; recovery files are written only "+
		"by this service, so the link is not followed: remove it to use this job file", shown(p.RecoveryRel())))
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
	f, size, err := d.openRegular(p, p.real, p.Rel)
	if err != nil {
		return Preview{}, err
	}
	defer f.Close()
	zr, err := openZip(f, size)
	if err != nil {
		return Preview{}, fmt.Errorf("%s: %w", p.Rel, err)
	}
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
