package jobfile

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"strings"
	"syscall"
)

// KeyFileName is the file in the jobs directory in which the standalone
// service keeps its job-file keys when JOBFILE_KEYS is not set. It holds
// a JOBFILE_KEYS value (hex keys separated by commas, the first signing),
// so that an operator can rotate the standalone's key the same way. Its
// name has no .gsj extension, so no client path reaches it.
const KeyFileName = ".gusset-jobfile-keys"

// maxKeyFileBytes caps the key file: a few dozen keys.
const maxKeyFileBytes = 64 << 10

// KeptKeys returns the keys kept in d's KeyFileName, creating the file
// with a new random key (mode 0600) when it is missing; created reports
// that it did. Everything goes through d's root: a key file that is a
// link, or that other users may read, is refused rather than used.
func (d *Dir) KeptKeys() (keys Keys, created bool, err error) {
	keys, err = d.readKeyFile()
	if !errors.Is(err, fs.ErrNotExist) {
		return keys, false, err
	}
	key, err := GenerateKey()
	if err != nil {
		return Keys{}, false, err
	}
	switch err := d.createKeyFile(hex.EncodeToString(key) + "\n"); {
	case errors.Is(err, fs.ErrExist):
		// Another process made it first: use its key.
		keys, err := d.readKeyFile()
		return keys, false, err
	case err != nil:
		return Keys{}, false, err
	}
	keys, err = NewKeys(key)
	return keys, true, err
}

// keyFilePath names the key file in messages.
func (d *Dir) keyFilePath() string { return shown(d.root + string(os.PathSeparator) + KeyFileName) }

// readKeyFile reads the key file; its error wraps fs.ErrNotExist when
// there is none.
func (d *Dir) readKeyFile() (Keys, error) {
	fi, err := d.fsys.Lstat(KeyFileName)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Keys{}, err
		}
		return Keys{}, fmt.Errorf("job-file key file %s: %w", d.keyFilePath(), err)
	}
	if !fi.Mode().IsRegular() {
		return Keys{}, fmt.Errorf("job-file key file %s is not a regular file (a link or a folder is in its place); remove it", d.keyFilePath())
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return Keys{}, fmt.Errorf("job-file key file %s may be read by other users (mode %04o): make it readable by its owner only (chmod 600)",
			d.keyFilePath(), fi.Mode().Perm())
	}
	f, err := d.fsys.OpenFile(KeyFileName, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return Keys{}, fmt.Errorf("job-file key file %s: %w", d.keyFilePath(), err)
	}
	defer f.Close()
	// The file opened must be the one checked, not one swapped in since.
	if got, err := f.Stat(); err != nil || !os.SameFile(fi, got) {
		return Keys{}, fmt.Errorf("job-file key file %s changed while it was read; start again", d.keyFilePath())
	}
	b, err := io.ReadAll(io.LimitReader(f, maxKeyFileBytes+1))
	if err != nil {
		return Keys{}, fmt.Errorf("read job-file key file %s: %w", d.keyFilePath(), err)
	}
	if len(b) > maxKeyFileBytes {
		return Keys{}, fmt.Errorf("job-file key file %s is larger than %d bytes: it should hold hex keys separated by commas", d.keyFilePath(), maxKeyFileBytes)
	}
	keys, err := ParseKeys(strings.TrimSpace(string(b)))
	if err != nil {
		return Keys{}, fmt.Errorf("job-file key file %s: %w", d.keyFilePath(), err)
	}
	if keys.Empty() {
		return Keys{}, fmt.Errorf("job-file key file %s holds no key: remove it to have a new one made", d.keyFilePath())
	}
	return keys, nil
}

// createKeyFile writes text as the key file, which must not exist: to a
// temporary file of mode 0600 first, then linked into place, so that
// another process never reads a half-written key. Its error wraps
// fs.ErrExist when a key file is already there.
func (d *Dir) createKeyFile(text string) (err error) {
	var tmp string
	var f *os.File
	for try := 0; ; try++ {
		tmp = fmt.Sprintf("%s%016x", tempPrefix, rand.Uint64())
		f, err = d.fsys.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil || !errors.Is(err, fs.ErrExist) || try == 9 {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("create job-file key file %s: %w", d.keyFilePath(), err)
	}
	defer func() {
		_ = f.Close()
		_ = d.fsys.Remove(tmp)
	}()
	// The umask can only narrow 0600, but a file system may widen it.
	if err := f.Chmod(0o600); err != nil {
		return fmt.Errorf("create job-file key file %s: %w", d.keyFilePath(), err)
	}
	if _, err := io.WriteString(f, text); err != nil {
		return fmt.Errorf("write job-file key file %s: %w", d.keyFilePath(), err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("write job-file key file %s: %w", d.keyFilePath(), err)
	}
	if err := d.linkNew(tmp, KeyFileName); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return err
		}
		return fmt.Errorf("create job-file key file %s: %w", d.keyFilePath(), err)
	}
	return nil
}
