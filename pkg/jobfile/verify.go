package jobfile

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// decoder is the reading of one job file: its budget, its entries by
// name, and what its signature vouches for.
type decoder struct {
	b     *budget
	files map[string]*zip.File
	// listed is the signature's list once its MAC verified and it
	// matched the zip directory; nil when the file is not trusted, and
	// set to nil as soon as an entry read differs from it.
	listed map[string]signedEntry
	// why says why the file is not trusted; empty while it is.
	why string
}

// open opens entry f for reading through the budget, hashing what it
// expands to while the file is trusted.
func (d *decoder) open(f *zip.File) (*entryReader, error) {
	rc, err := d.b.open(f)
	if err != nil {
		return nil, err
	}
	if d.listed != nil {
		rc.hash = newEntryHash()
	}
	return rc, nil
}

// done compares an entry read whole with what the signature lists for
// it; one that differs ends the file's trust.
func (d *decoder) done(f *zip.File, rc *entryReader) {
	if d.listed == nil || rc.hash == nil {
		return
	}
	if rc.hash.entry(f.Name) != d.listed[f.Name] {
		d.distrust("entry %s differs from what its signature lists (the file was changed after this service saved it)", f.Name)
	}
}

// distrust ends the file's trust, keeping the first reason.
func (d *decoder) distrust(format string, args ...any) {
	d.listed = nil
	if d.why == "" {
		d.why = fmt.Sprintf(format, args...)
	}
}

// The reasons a file is not trusted.
const (
	whyNoKey = "this service has no job-file key (" + KeysSetting + ") to check signatures with, so it opens no results from files"
	whyNoSig = "the file is not signed by this service (files saved before job files were signed, and files written by other programs, " +
		"carry no signature)"
)

// verifySignature reads the signature entry, checks its MAC with keys and
// that it lists exactly the entries the zip directory holds, at the sizes
// the directory declares; d is trusted when all holds. A signature that
// is damaged, too large or made with another key is no reason to refuse
// the file: it opens without its results.
func (d *decoder) verifySignature(keys Keys) error {
	f, signed := d.files[entrySignature]
	switch {
	case keys.Empty():
		d.why = whyNoKey
		return nil
	case !signed:
		d.why = whyNoSig
		return nil
	}
	rc, err := d.b.open(f)
	if err != nil {
		return err
	}
	defer rc.Close()
	var buf bytes.Buffer
	n, err := buf.ReadFrom(io.LimitReader(rc, maxSignatureBytes+1))
	switch {
	case err != nil && d.b.err != nil:
		return d.b.err
	case err != nil:
		d.why = fmt.Sprintf("its signature entry cannot be read (%v)", err)
		return nil
	case n > maxSignatureBytes:
		d.why = fmt.Sprintf("its signature entry is larger than %d bytes (%s), the most a signature may take", maxSignatureBytes, humanBytes(maxSignatureBytes))
		return nil
	}
	var sig signature
	if err := json.Unmarshal(buf.Bytes(), &sig); err != nil {
		d.why = fmt.Sprintf("its signature entry is not valid JSON (%v)", err)
		return nil
	}
	listed, why := keys.verify(sig)
	if why != "" {
		d.why = why
		return nil
	}
	for name, f := range d.files {
		if name == entrySignature || strings.HasSuffix(name, "/") {
			// Folder entries, as zip tools write them, carry nothing.
			continue
		}
		e, ok := listed[name]
		switch {
		case !ok:
			d.why = fmt.Sprintf("entry %s is not in its signature (the file was changed after this service saved it)", name)
			return nil
		case e.Size != f.UncompressedSize64:
			d.why = fmt.Sprintf("entry %s is %d bytes, not the %d its signature lists (the file was changed after this service saved it)",
				name, f.UncompressedSize64, e.Size)
			return nil
		}
	}
	for name := range listed {
		if _, ok := d.files[name]; !ok {
			d.why = fmt.Sprintf("entry %s of its signature is missing (the file was changed after this service saved it)", name)
			return nil
		}
	}
	d.listed = listed
	return nil
}

// droppedResults is the warning of a file whose results were not opened.
func droppedResults(why string) string {
	return "the job file's analysis results were not opened, only its model: " + why +
		"; run the analyses again to get results"
}
