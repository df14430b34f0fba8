package jobfile

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Job files carry analysis results, and results are served as the
// service's own: a file whose displacements were edited would be served
// as an analysis. So a file saved by this service is signed, and only a
// file whose signature verifies opens with its results; any other opens
// with its model only (Decoded.ResultsDropped says why).
//
// The signature is the entry signature.json: every other entry of the
// file (folder entries, which carry nothing, aside), by name, with its
// size and SHA-256 as it expands, and an HMAC-SHA256 of that list under
// the service's key. It covers the content, not the file's name or
// path, nor how the zip is packed: a file renamed, moved, uploaded or
// re-packed by a zip tool with the same content keeps its signature,
// and a file whose content changed does not.
//
// The reader verifies the list's HMAC before it reads any results, and
// reads results only from a file whose list verifies and matches its zip
// directory; each entry is hashed as it is read, and an entry that
// differs from the list drops the results however far reading got.

// KeysSetting is the environment variable that holds the keys job files
// are signed and verified with (pkg/server reads it).
const KeysSetting = "JOBFILE_KEYS"

// MinKeyBytes is the shortest key accepted: an HMAC-SHA256 key shorter
// than the hash is weaker than the hash.
const MinKeyBytes = 32

// entrySignature is the name of the signature entry.
const entrySignature = "signature.json"

// signatureAlgorithm names the MAC in the signature entry.
const signatureAlgorithm = "HMAC-SHA256"

// maxSignatureBytes caps the signature entry: it lists an entry in about
// 170 bytes, so the most entries a file may hold (MaxEntries) list in
// about 11 MiB; a real file (38 entries plus 4 per analysed load case)
// in a few KiB.
const maxSignatureBytes = 16 << 20

// Keys are the keys of job-file signatures: the first signs, any
// verifies, so that a key can be rotated (put the new one first, keep
// the old one until its files are saved again). The zero value holds no
// key: files are written unsigned and opened without their results.
type Keys struct {
	keys [][]byte
}

// ParseKeys reads a JOBFILE_KEYS value: keys separated by commas, each
// written in hex (64 hex digits or more: at least MinKeyBytes bytes);
// `openssl rand -hex 32` makes one. An empty value is no key.
func ParseKeys(s string) (Keys, error) {
	var out Keys
	for i, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, err := hex.DecodeString(part)
		if err != nil {
			return Keys{}, fmt.Errorf("%s: key %d is not hex (write each key as hex digits, e.g. the output of `openssl rand -hex 32`)",
				KeysSetting, i+1)
		}
		if len(k) < MinKeyBytes {
			return Keys{}, fmt.Errorf("%s: key %d is %d bytes, fewer than the %d bytes (%d hex digits) a key needs",
				KeysSetting, i+1, len(k), MinKeyBytes, 2*MinKeyBytes)
		}
		out.keys = append(out.keys, k)
	}
	return out, nil
}

// NewKeys returns the keys given, the first to sign with; each must hold
// at least MinKeyBytes bytes.
func NewKeys(keys ...[]byte) (Keys, error) {
	var out Keys
	for i, k := range keys {
		if len(k) < MinKeyBytes {
			return Keys{}, fmt.Errorf("job-file key %d is %d bytes, fewer than the %d a key needs", i+1, len(k), MinKeyBytes)
		}
		out.keys = append(out.keys, slices.Clone(k))
	}
	return out, nil
}

// GenerateKey returns a new random key of MinKeyBytes bytes.
func GenerateKey() ([]byte, error) {
	k := make([]byte, MinKeyBytes)
	if _, err := rand.Read(k); err != nil {
		return nil, fmt.Errorf("generate a job-file key: %w", err)
	}
	return k, nil
}

// Empty reports whether k holds no key.
func (k Keys) Empty() bool { return len(k.keys) == 0 }

// Len is the number of keys.
func (k Keys) Len() int { return len(k.keys) }

// signedEntry is one entry of the signature's list.
type signedEntry struct {
	Name   string `json:"name"`
	Size   uint64 `json:"size"`
	SHA256 string `json:"sha256"`
}

// signature is the signature entry.
type signature struct {
	Algorithm string        `json:"algorithm"`
	Entries   []signedEntry `json:"entries"`
	MAC       string        `json:"mac"`
}

// mac is the HMAC of list under key: over a canonical text of the list
// (each name prefixed by its length, so that no name can pose as two),
// not over the entry's JSON, whose spacing a tool may change.
func mac(key []byte, list []signedEntry) []byte {
	h := hmac.New(sha256.New, key)
	io.WriteString(h, "gusset-job-signature 1\n")
	for _, e := range list {
		io.WriteString(h, strconv.Itoa(len(e.Name))+":"+e.Name+" "+strconv.FormatUint(e.Size, 10)+" "+e.SHA256+"\n")
	}
	return h.Sum(nil)
}

// sign returns the signature of the entries listed, sorted by name.
func (k Keys) sign(list []signedEntry) signature {
	list = slices.Clone(list)
	slices.SortFunc(list, func(a, b signedEntry) int { return strings.Compare(a.Name, b.Name) })
	return signature{Algorithm: signatureAlgorithm, Entries: list, MAC: hex.EncodeToString(mac(k.keys[0], list))}
}

// verify checks the MAC of sig against every key and returns the list
// by name; the reason is empty when it verifies.
func (k Keys) verify(sig signature) (map[string]signedEntry, string) {
	if sig.Algorithm != signatureAlgorithm {
		return nil, fmt.Sprintf("its signature uses %q, not %s", sig.Algorithm, signatureAlgorithm)
	}
	got, err := hex.DecodeString(sig.MAC)
	if err != nil || len(got) != sha256.Size {
		return nil, "its signature entry holds no valid MAC"
	}
	ok := false
	for _, key := range k.keys {
		// Every key is tried, so that the time taken does not tell which.
		ok = hmac.Equal(got, mac(key, sig.Entries)) || ok
	}
	if !ok {
		return nil, "its signature does not verify with this service's keys (it was signed with a key this service does not hold, " +
			"such as another installation's or a retired one, or it was changed)"
	}
	byName := make(map[string]signedEntry, len(sig.Entries))
	for i, e := range sig.Entries {
		if i > 0 && e.Name <= sig.Entries[i-1].Name {
			// The writer lists each name once, in order: a MAC over
			// another list was made by no gusset.
			return nil, "its signature lists entries out of order"
		}
		byName[e.Name] = e
	}
	return byName, ""
}

// entryHash hashes an entry's bytes as they pass, for the signature.
type entryHash struct {
	h hash.Hash
	n uint64
}

func newEntryHash() *entryHash { return &entryHash{h: sha256.New()} }

func (e *entryHash) Write(p []byte) (int, error) {
	e.n += uint64(len(p))
	return e.h.Write(p)
}

func (e *entryHash) entry(name string) signedEntry {
	return signedEntry{Name: name, Size: e.n, SHA256: hex.EncodeToString(e.h.Sum(nil))}
}

// writeSignature adds the signature of the entries written to zw.
func writeSignature(w io.Writer, sig signature) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sig)
}

// Sign copies the job file r holds (size bytes) to w, signed with the
// first of keys: each entry as it expands, in its order, and a new
// signature in place of any old one. It is how an operator vouches for a
// file this service did not sign (one saved before job files were
// signed) and how tests make files that are signed but wrong. The file
// is held to the limits DecodeContext holds it to (DefaultMaxJobBytes);
// its content is not checked.
func Sign(r io.ReaderAt, size int64, w io.Writer, keys Keys) error {
	if keys.Empty() {
		return fmt.Errorf("sign a job file: no key")
	}
	zr, err := openZip(r, size)
	if err != nil {
		return err
	}
	if _, err := checkDirectory(zr, size, DefaultMaxJobBytes); err != nil {
		return err
	}
	b := newBudget(context.Background(), 0)
	a := newArchive(w, keys)
	for _, f := range zr.File {
		switch {
		case f.Name == entrySignature:
			continue
		case strings.HasSuffix(f.Name, "/"):
			// A folder entry carries nothing: kept, not listed.
			a.endEntry()
			if _, err := a.zw.Create(f.Name); err != nil {
				return fmt.Errorf("sign a job file: %w", err)
			}
			continue
		}
		rc, err := b.open(f)
		if err != nil {
			return err
		}
		dst, err := a.create(f.Name)
		if err == nil {
			_, err = io.Copy(dst, rc)
		}
		rc.Close()
		if err != nil {
			return fmt.Errorf("sign a job file: entry %s: %w", f.Name, b.failure(f, err))
		}
	}
	return a.close()
}
