package jobfile

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// RecoverySuffix is appended to a job file's name to name its recovery file.
const RecoverySuffix = ".recovery"

// Dir is a jobs directory: every job file path a client gives is relative
// to it and must stay inside it. Every file it reads, stats or writes (job
// files, recovery files, the temporary files of a save, the folders a save
// creates) goes through one os.Root opened on the directory, so the kernel
// keeps each operation inside even when a link is swapped in after a path
// was checked.
type Dir struct {
	root  string // absolute, symlinks resolved
	given string // absolute, as configured
	fsys  *os.Root
	// keys sign the files written and verify the files read (sign.go);
	// none: files are written unsigned and read without their results.
	keys Keys
}

// SetKeys makes d sign the job files and recovery files it writes with
// the first of keys, and open results only from files signed with one of
// them; the folders Sub returns afterwards share them. Call it before d
// is used.
func (d *Dir) SetKeys(keys Keys) { d.keys = keys }

// Keys are the keys d signs and verifies with.
func (d *Dir) Keys() Keys { return d.keys }

// OpenDir returns the jobs directory at root, creating it when missing.
// The directory is held open: moving it away does not move the service.
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
	fsys, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("jobs directory: %w", err)
	}
	return &Dir{root: real, given: abs, fsys: fsys}, nil
}

// Sub returns the directory name inside d as a jobs directory of its own,
// creating it when missing: a workspace's jobs directory under JOBS_DIR.
// name must be one path element. The directory is opened through d's
// root, so a name that is a symbolic link (even one pointing inside d)
// is refused rather than followed: nothing a workspace reaches can lie
// outside its own directory, and no workspace can be made to share
// another's.
func (d *Dir) Sub(name string) (*Dir, error) {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) || strings.ContainsRune(name, 0) {
		return nil, fmt.Errorf("jobs directory %s: not a single folder name", shown(name))
	}
	if err := d.fsys.Mkdir(name, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("create jobs directory %s: %w", shown(name), err)
	}
	fi, err := d.fsys.Lstat(name)
	if err != nil {
		return nil, fmt.Errorf("jobs directory %s: %w", shown(name), err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("jobs directory %s is not a directory (a link or a file is in its place)", shown(name))
	}
	fsys, err := d.fsys.OpenRoot(name)
	if err != nil {
		return nil, fmt.Errorf("jobs directory %s: %w", shown(name), err)
	}
	// A link swapped in between the Lstat and the open would have been
	// followed (within d): the opened directory must be the one checked.
	if got, err := fsys.Stat("."); err != nil || !os.SameFile(fi, got) {
		_ = fsys.Close()
		return nil, fmt.Errorf("jobs directory %s changed while it was opened; retry", shown(name))
	}
	return &Dir{root: filepath.Join(d.root, name), given: filepath.Join(d.given, name), fsys: fsys, keys: d.keys}, nil
}

// Root is the absolute path of the jobs directory.
func (d *Dir) Root() string { return d.root }

// Close releases the directory; the Dir is unusable afterwards.
func (d *Dir) Close() error { return d.fsys.Close() }

// Path is a job file path that has been checked to lie inside the jobs
// directory.
type Path struct {
	// Rel is the path relative to the jobs directory, with forward slashes;
	// it is what clients see.
	Rel string
	// Abs is the absolute path on disk of Rel, before any link is followed;
	// it is for display and logs: the Dir never opens it.
	Abs string
	// real is the path, relative to the jobs directory, that the links
	// inside the directory lead Rel to: where the job file is read and
	// written. Its recovery file lies next to it.
	real string
}

// Name is the display name of the job: the file name without extension.
func (p Path) Name() string { return baseName(p.Rel) }

// RecoveryRel is the path of the recovery file, relative to the jobs
// directory with forward slashes. It lies next to the file the job file
// path leads to, after links inside the directory.
func (p Path) RecoveryRel() string { return filepath.ToSlash(p.recovery()) }

func (p Path) recovery() string { return p.real + RecoverySuffix }

// SameFile reports whether p and q lead to the same job file.
func (p Path) SameFile(q Path) bool { return p.real != "" && p.real == q.real }

// Resolve checks a client's filePath and returns where it lives. The path
// is relative to the jobs directory (an absolute path is accepted only when
// it lies inside it); .gsj is added when it has no extension. A path that
// leaves the directory, by "..", by being absolute elsewhere, or through a
// symbolic link (or through one whose target is missing), is a validation
// error; so is one beyond the limits (MaxFolders, MaxNameBytes for folder
// names, MaxJobNameBytes for the file name, MaxJobPathBytes). Links that
// stay inside the directory are followed.
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
		return Path{}, badPath(filePath, fmt.Sprintf("has extension %s; job files use %s", shown(ext), Extension))
	}
	if why := checkLimits(rel); why != "" {
		return Path{}, badPath(filePath, why)
	}
	real, err := d.follow(rel)
	var r refusal
	switch {
	case errors.As(err, &r):
		return Path{}, badPath(filePath, r.Error())
	case err != nil:
		return Path{}, fmt.Errorf("check filePath %s: %w", shown(filePath), err)
	}
	if real != rel {
		// A link led elsewhere: the file there must fit the limits too.
		if why := checkLimits(real); why != "" {
			return Path{}, badPath(filePath, "leads through a symbolic link to "+shown(filepath.ToSlash(real))+", which "+why)
		}
	}
	return Path{Rel: filepath.ToSlash(rel), Abs: abs, real: real}, nil
}

// Read decodes the job file at p.
func (d *Dir) Read(p Path) (Decoded, error) {
	return d.readFile(p, p.real, p.Rel)
}

// ReadRecovery decodes the recovery file of p. A recovery file that is a
// symbolic link is refused, as Stat refuses it.
func (d *Dir) ReadRecovery(p Path) (Decoded, error) {
	if p.real == "" {
		return Decoded{}, fmt.Errorf("job file path %q was not resolved", p.Rel)
	}
	if _, err := d.recoveryInfo(p); err != nil {
		return Decoded{}, err
	}
	return d.readFile(p, p.recovery(), p.RecoveryRel())
}

func (d *Dir) readFile(p Path, name, display string) (Decoded, error) {
	f, size, err := d.openRegular(p, name, display)
	if err != nil {
		return Decoded{}, err
	}
	defer f.Close()
	dec, err := DecodeContext(context.Background(), f, size, 0, d.keys)
	if err != nil {
		return dec, fmt.Errorf("read %s: %w", display, err)
	}
	return dec, nil
}

// openRegular opens name (relative to the jobs directory) for reading and
// makes sure it is a regular file; a FIFO or device would block or never
// end. O_NONBLOCK keeps the open itself from waiting on a FIFO.
func (d *Dir) openRegular(p Path, name, display string) (*os.File, int64, error) {
	if p.real == "" {
		return nil, 0, fmt.Errorf("job file path %q was not resolved", p.Rel)
	}
	f, err := d.fsys.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, model.E(model.KindNotFound, "job file %s not found in the jobs directory", shown(display))
	}
	if err != nil {
		return nil, 0, d.failed(p, "open", err)
	}
	fi, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, 0, fmt.Errorf("stat %s: %w", display, err)
	}
	if !fi.Mode().IsRegular() {
		_ = f.Close()
		return nil, 0, badPath(p.Rel, fmt.Sprintf("leads to %s, which is not a regular file", shown(display)))
	}
	return f, fi.Size(), nil
}

// ErrExists is wrapped by the error of Create when a file is already at
// the path.
var ErrExists = fs.ErrExist

// Write saves snap as the job file at p, replacing any file there and
// creating folders as needed. It writes a temporary file next to the
// target and renames it over, so a crash leaves either the old file or the
// new one, never a torn one.
func (d *Dir) Write(p Path, snap store.Snapshot, generator string, now time.Time) error {
	return d.writeAtomic(p, p.real, true, snap, generator, now)
}

// Create is Write that never replaces a file: when one is already at p
// (or appears there while the new one is written) it writes nothing and
// its error wraps ErrExists.
func (d *Dir) Create(p Path, snap store.Snapshot, generator string, now time.Time) error {
	return d.writeAtomic(p, p.real, false, snap, generator, now)
}

// WriteRecovery saves snap as the recovery file of p.
func (d *Dir) WriteRecovery(p Path, snap store.Snapshot, generator string, now time.Time) error {
	return d.writeAtomic(p, p.recovery(), true, snap, generator, now)
}

// RemoveRecovery deletes the recovery file of p; a missing one is fine. A
// link there is removed itself, never what it names.
func (d *Dir) RemoveRecovery(p Path) error {
	if p.real == "" {
		return fmt.Errorf("job file path %q was not resolved", p.Rel)
	}
	err := d.fsys.Remove(p.recovery())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return d.failed(p, "remove the recovery file of", err)
	}
	return nil
}

// tempPrefix starts the names of the temporary files of a save. It does
// not depend on the target's name, so that it fits any folder the target
// fits in.
const tempPrefix = ".gsj-tmp-"

func (d *Dir) writeAtomic(p Path, target string, replace bool, snap store.Snapshot, generator string, now time.Time) (err error) {
	if p.real == "" {
		return fmt.Errorf("job file path %q was not resolved", p.Rel)
	}
	dir := filepath.Dir(target)
	if dir != "." {
		if err := d.fsys.MkdirAll(dir, 0o755); err != nil {
			return d.failed(p, "create the folder of", err)
		}
	}
	tmp, f, err := d.createTemp(dir)
	if err != nil {
		return d.failed(p, "create a temporary file for", err)
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = d.fsys.Remove(tmp)
		}
	}()
	if err := EncodeSigned(f, snap, generator, now, d.keys); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("flush job file: %w", err)
	}
	// Job files are shared documents, whatever the umask says.
	if err := f.Chmod(0o644); err != nil {
		return fmt.Errorf("set job file mode: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close job file: %w", err)
	}
	if replace {
		err = d.fsys.Rename(tmp, target)
	} else {
		err = d.linkNew(tmp, target)
	}
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("write %s: %w", filepath.ToSlash(target), err)
	}
	if err != nil {
		return d.failed(p, "move into place the job file", err)
	}
	// The rename is durable only once the directory entry is on disk.
	if df, derr := d.fsys.Open(dir); derr == nil {
		_ = df.Sync()
		_ = df.Close()
	}
	return nil
}

// createTemp creates a new, empty file in dir with a random name.
func (d *Dir) createTemp(dir string) (string, *os.File, error) {
	for try := 0; ; try++ {
		name := filepath.Join(dir, fmt.Sprintf("%s%016x", tempPrefix, rand.Uint64()))
		f, err := d.fsys.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil || !errors.Is(err, fs.ErrExist) || try == 9 {
			return name, f, err
		}
	}
}

// linkNew puts the written temporary file at target only when nothing is
// there, atomically: a hard link fails when the name exists. On a file
// system without hard links it checks and renames, which leaves a short
// window in which a file created by someone else could be replaced.
func (d *Dir) linkNew(tmp, target string) error {
	err := d.fsys.Link(tmp, target)
	if err == nil || errors.Is(err, fs.ErrExist) {
		if err == nil {
			_ = d.fsys.Remove(tmp)
		}
		return err
	}
	if _, lerr := d.fsys.Lstat(target); lerr == nil {
		return fs.ErrExist
	} else if !errors.Is(lerr, fs.ErrNotExist) {
		return lerr
	}
	return d.fsys.Rename(tmp, target)
}
