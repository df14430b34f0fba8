package jobfile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// RecoverySuffix is appended to a job file's name to name its recovery file.
const RecoverySuffix = ".recovery"

// Dir is a jobs directory: every job file path a client gives is relative
// to it and must stay inside it.
type Dir struct {
	root string // absolute, symlinks resolved
}

// OpenDir returns the jobs directory at root, creating it when missing.
func OpenDir(root string) (*Dir, error) {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("create jobs directory: %w", err)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("jobs directory: %w", err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("jobs directory: %w", err)
	}
	return &Dir{root: real}, nil
}

// Root is the absolute path of the jobs directory.
func (d *Dir) Root() string { return d.root }

// Path is a job file path that has been checked to lie inside the jobs
// directory.
type Path struct {
	// Rel is the path relative to the jobs directory, with forward slashes;
	// it is what clients see.
	Rel string
	// Abs is the absolute path on disk.
	Abs string
}

// Name is the display name of the job: the file name without extension.
func (p Path) Name() string { return baseName(p.Rel) }

// Recovery is the absolute path of the recovery file next to the job file.
func (p Path) Recovery() string { return p.Abs + RecoverySuffix }

func badPath(filePath, why string) error {
	return &model.Error{Kind: model.KindValidation, Msg: fmt.Sprintf("filePath %q %s", filePath, why),
		Fields: []model.FieldError{{Field: "filePath", Message: why}}}
}

// Resolve checks a client's filePath and returns where it lives. The path
// is relative to the jobs directory (an absolute path is accepted only when
// it lies inside it); .gsj is added when it has no extension. A path that
// leaves the directory, by "..", by being absolute elsewhere, or through a
// symlink, is a validation error.
func (d *Dir) Resolve(filePath string) (Path, error) {
	fp := strings.TrimSpace(filePath)
	if fp == "" {
		return Path{}, badPath(filePath, "is empty: give a path relative to the jobs directory, e.g. \"bridges/span1.gsj\"")
	}
	if strings.ContainsRune(fp, 0) {
		return Path{}, badPath(filePath, "contains a NUL character")
	}
	fp = filepath.FromSlash(strings.ReplaceAll(fp, `\`, "/"))
	var abs string
	if filepath.IsAbs(fp) {
		abs = filepath.Clean(fp)
	} else {
		abs = filepath.Join(d.root, fp)
	}
	rel, err := filepath.Rel(d.root, abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return Path{}, badPath(filePath, "is outside the jobs directory")
	}
	switch ext := filepath.Ext(abs); {
	case ext == "":
		abs += Extension
		rel += Extension
	case !strings.EqualFold(ext, Extension):
		return Path{}, badPath(filePath, fmt.Sprintf("has extension %q; job files use %s", ext, Extension))
	}
	if err := d.checkSymlinks(abs); err != nil {
		return Path{}, badPath(filePath, err.Error())
	}
	return Path{Rel: filepath.ToSlash(rel), Abs: abs}, nil
}

// checkSymlinks resolves the deepest existing ancestor of abs (abs itself
// when it exists) and makes sure the result is still inside the root, so
// that a link planted inside the directory cannot lead a save or an open
// out of it.
func (d *Dir) checkSymlinks(abs string) error {
	p := abs
	for {
		real, err := filepath.EvalSymlinks(p)
		if err == nil {
			if real != d.root && !strings.HasPrefix(real, d.root+string(filepath.Separator)) {
				return errors.New("leads outside the jobs directory through a symbolic link")
			}
			return nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("cannot be checked: %v", err)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return nil
		}
		// A dangling link counts as existing: Lstat sees it, and following it
		// later could create a file outside the root.
		if fi, lerr := os.Lstat(p); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return errors.New("is a symbolic link whose target does not exist")
		}
		p = parent
	}
}

// Read decodes the job file at p.
func (d *Dir) Read(p Path) (Decoded, error) {
	return readFile(p.Abs, p.Rel)
}

// ReadRecovery decodes the recovery file of p.
func (d *Dir) ReadRecovery(p Path) (Decoded, error) {
	return readFile(p.Recovery(), p.Rel+RecoverySuffix)
}

func readFile(abs, shown string) (Decoded, error) {
	b, err := os.ReadFile(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return Decoded{}, model.E(model.KindNotFound, "job file %q not found in the jobs directory", shown)
	}
	if err != nil {
		return Decoded{}, fmt.Errorf("read %s: %w", shown, err)
	}
	dec, err := Decode(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return dec, fmt.Errorf("read %s: %w", shown, err)
	}
	return dec, nil
}

// Write saves snap as the job file at p, creating folders as needed. It
// writes a temporary file next to the target and renames it over, so a
// crash leaves either the old file or the new one, never a torn one.
func (d *Dir) Write(p Path, snap store.Snapshot, generator string, now time.Time) error {
	return writeAtomic(p.Abs, snap, generator, now)
}

// WriteRecovery saves snap as the recovery file of p.
func (d *Dir) WriteRecovery(p Path, snap store.Snapshot, generator string, now time.Time) error {
	return writeAtomic(p.Recovery(), snap, generator, now)
}

// RemoveRecovery deletes the recovery file of p; a missing one is fine.
func (d *Dir) RemoveRecovery(p Path) error {
	err := os.Remove(p.Recovery())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove recovery file: %w", err)
	}
	return nil
}

func writeAtomic(target string, snap store.Snapshot, generator string, now time.Time) (err error) {
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create folder: %w", err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return fmt.Errorf("create temporary file: %w", err)
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if err := Encode(tmp, snap, generator, now); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("flush job file: %w", err)
	}
	// CreateTemp makes the file private; job files are shared documents.
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("set job file mode: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("close job file: %w", err)
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return fmt.Errorf("move job file into place: %w", err)
	}
	// The rename is durable only once the directory entry is on disk.
	if df, derr := os.Open(dir); derr == nil {
		_ = df.Sync()
		_ = df.Close()
	}
	return nil
}
