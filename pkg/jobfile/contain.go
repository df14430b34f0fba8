package jobfile

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/gusset/gusset/pkg/model"
)

// Limits of a job file path. The file system allows 255 bytes per name and
// 4096 per path on Linux; both are counted on the recovery file
// (<file>.gsj.recovery), the longest name the service writes, so a job file
// whose recovery file could not be written is refused up front. The folder
// cap keeps one save from creating an unbounded tree.
const (
	// MaxNameBytes is the most bytes a folder or file name may have.
	MaxNameBytes = 255
	// MaxPathBytes is the most bytes a path relative to the jobs directory
	// may have.
	MaxPathBytes = 4096
	// MaxFolders is the most folders a job file path may go through.
	MaxFolders = 16
	// MaxJobNameBytes is the most bytes a job file name may have with its
	// .gsj extension: its recovery file adds RecoverySuffix.
	MaxJobNameBytes = MaxNameBytes - len(RecoverySuffix)
	// MaxJobPathBytes is the most bytes a job file path may have with its
	// .gsj extension.
	MaxJobPathBytes = MaxPathBytes - len(RecoverySuffix)
)

// maxLinks caps how many symbolic links one path may go through, as the
// kernel does (ELOOP).
const maxLinks = 40

// Why a path is refused; the texts follow `filePath "x"` in the message.
var (
	errLinkOut   = errors.New("leads outside the jobs directory through a symbolic link")
	errDangling  = errors.New("goes through a symbolic link whose target does not exist")
	errLinkLoop  = fmt.Errorf("goes through more than %d symbolic links", maxLinks)
	errNameLong  = fmt.Errorf("is too long for the file system (at most %d bytes per name and %d per path)", MaxNameBytes, MaxPathBytes)
	errNotFolder = errors.New("goes through a file where a folder should be")
)

// refusal is a path the jobs directory will not use; why says so.
type refusal struct{ why error }

func (r refusal) Error() string { return r.why.Error() }

// badPath is the validation error of a refused filePath.
func badPath(filePath, why string) error {
	return &model.Error{Kind: model.KindValidation, Msg: fmt.Sprintf("filePath %s %s", shown(filePath), why),
		Fields: []model.FieldError{{Field: "filePath", Message: why}}}
}

// shown quotes a path for a message, shortening a very long one and then
// giving its length.
func shown(p string) string {
	q, clipped := clip(p)
	if clipped {
		return fmt.Sprintf("%s (%d bytes)", q, len(p))
	}
	return q
}

// clip quotes p, keeping only its start and end when it is long.
func clip(p string) (string, bool) {
	const head, tail = 48, 24
	if len(p) <= head+tail+8 {
		return fmt.Sprintf("%q", p), false
	}
	h, t := p[:head], p[len(p)-tail:]
	for !utf8.ValidString(h) {
		h = h[:len(h)-1]
	}
	for !utf8.ValidString(t) {
		t = t[1:]
	}
	return fmt.Sprintf("%q", h+"…"+t), true
}

// quoted is clip without the flag.
func quoted(p string) string { q, _ := clip(p); return q }

// checkLimits tells why rel (relative to the jobs directory, with .gsj)
// breaks a limit, or "" when it does not.
func checkLimits(rel string) string {
	parts := strings.Split(filepath.ToSlash(rel), "/")
	if n := len(parts) - 1; n > MaxFolders {
		return fmt.Sprintf("goes through %d folders; a job file path may go through at most %d", n, MaxFolders)
	}
	for i, part := range parts {
		if i == len(parts)-1 {
			if len(part) > MaxJobNameBytes {
				return fmt.Sprintf("has a file name of %d bytes (%s); a job file name may have at most %d bytes with %s, "+
					"so that its recovery file (%s added) stays within the file system's limit of %d bytes per name",
					len(part), quoted(part), MaxJobNameBytes, Extension, RecoverySuffix, MaxNameBytes)
			}
		} else if len(part) > MaxNameBytes {
			return fmt.Sprintf("has a folder name of %d bytes (%s); the file system allows at most %d bytes per name",
				len(part), quoted(part), MaxNameBytes)
		}
	}
	if len(rel) > MaxJobPathBytes {
		return fmt.Sprintf("is %d bytes long; a job file path may have at most %d bytes with %s, "+
			"so that its recovery file's path (%s added) stays within the file system's limit of %d bytes per path",
			len(rel), MaxJobPathBytes, Extension, RecoverySuffix, MaxPathBytes)
	}
	return ""
}

// component is one name still to be walked; fromLink marks names that a
// symbolic link's target supplied, which must exist.
type component struct {
	name     string
	fromLink bool
}

// follow resolves the symbolic links of rel, a clean path relative to the
// jobs directory, and returns the path they lead to, relative to the jobs
// directory and free of links. Links are followed only while they stay
// inside: one whose target (absolute or relative) lies outside is refused
// from its text alone, so the answer is the same whether the outside path
// exists or not. A link whose target is missing is refused too. The names
// after the first missing one are kept as they are: a save creates them.
//
// Every look-up goes through the os.Root of the directory, and so do the
// reads and writes that use the result: a link swapped in after this walk
// still cannot lead out (the Root refuses it), it only makes that
// operation fail.
func (d *Dir) follow(rel string) (string, error) {
	var pending []component
	for _, n := range strings.Split(rel, string(filepath.Separator)) {
		pending = append(pending, component{name: n})
	}
	var done []string // resolved folders (and finally the file), no links
	links := 0
	for len(pending) > 0 {
		c := pending[0]
		pending = pending[1:]
		switch c.name {
		case "", ".":
			continue
		case "..":
			if len(done) == 0 {
				return "", refusal{errLinkOut}
			}
			done = done[:len(done)-1]
			continue
		}
		cur := filepath.Join(append(done, c.name)...)
		fi, err := d.fsys.Lstat(cur)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if c.fromLink {
				return "", refusal{errDangling}
			}
			rest := []string{cur}
			for _, p := range pending {
				rest = append(rest, p.name)
			}
			return filepath.Join(rest...), nil
		case errors.Is(err, syscall.ENOTDIR):
			return "", refusal{errNotFolder}
		case errors.Is(err, syscall.ENAMETOOLONG):
			return "", refusal{errNameLong}
		case err != nil:
			return "", fmt.Errorf("look up %s: %w", filepath.ToSlash(cur), err)
		case fi.Mode()&fs.ModeSymlink == 0:
			if len(pending) > 0 && !fi.IsDir() {
				return "", refusal{errNotFolder}
			}
			done = append(done, c.name)
			continue
		}
		if links++; links > maxLinks {
			return "", refusal{errLinkLoop}
		}
		target, err := d.fsys.Readlink(cur)
		if err != nil {
			return "", fmt.Errorf("read link %s: %w", filepath.ToSlash(cur), err)
		}
		if filepath.IsAbs(target) {
			inside, ok := d.inside(target)
			if !ok {
				return "", refusal{errLinkOut}
			}
			done, target = nil, inside
		}
		var expanded []component
		for _, n := range strings.Split(target, string(filepath.Separator)) {
			expanded = append(expanded, component{name: n, fromLink: true})
		}
		pending = append(expanded, pending...)
	}
	if len(done) == 0 {
		return "", refusal{errors.New("is the jobs directory itself, not a job file")}
	}
	return filepath.Join(done...), nil
}

// inside turns an absolute link target into a path relative to the jobs
// directory, reporting false when it lies outside. The directory is known
// by its real path and by the path it was opened with.
func (d *Dir) inside(target string) (string, bool) {
	t := filepath.Clean(target)
	for _, base := range []string{d.root, d.given} {
		if t == base {
			return ".", true
		}
		if strings.HasPrefix(t, base+string(filepath.Separator)) {
			return t[len(base)+1:], true
		}
	}
	return "", false
}

// failed turns an error of a file operation on p into what a caller should
// see. An operation fails in a way the walk of Resolve did not predict
// when the path changed meanwhile (a link swapped in, which the os.Root
// refused to follow out): walking the path again tells why, as a
// validation error. Other errors are the service's own.
func (d *Dir) failed(p Path, what string, err error) error {
	if errors.Is(err, syscall.ENAMETOOLONG) {
		return badPath(p.Rel, errNameLong.Error())
	}
	if _, ferr := d.follow(filepath.FromSlash(p.Rel)); ferr != nil {
		var r refusal
		if errors.As(ferr, &r) {
			return badPath(p.Rel, r.Error())
		}
	}
	if fi, lerr := d.fsys.Lstat(p.recovery()); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
		// A link swapped in for the recovery file after it was looked at.
		return recoveryLink(p)
	}
	if errors.Is(err, syscall.ENOTDIR) {
		return badPath(p.Rel, errNotFolder.Error())
	}
	return fmt.Errorf("%s %s: %w", what, p.Rel, err)
}
