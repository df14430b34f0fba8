package jobfile

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// Analysis results travel in the job file as they are stored: per kind a
// meta record and binary columns (packed little-endian 8-byte values),
//
//	results/{kind}/meta.json
//	results/{kind}/{column}.bin
//
// so that saving and opening copy them without decoding a number.
const (
	resultsDir = "results/"
	metaEntry  = "meta.json"
	columnExt  = ".bin"
)

// writeResults adds the result sets to the archive.
func writeResults(zw *archive, sets map[model.AnalysisFamily]store.ResultSet) error {
	// Sorted, so that saving the same results writes the same file.
	for _, kind := range slices.Sorted(maps.Keys(sets)) {
		set := sets[kind]
		dir := resultsDir + string(kind) + "/"
		if err := writeRaw(zw, dir+metaEntry, set.Meta); err != nil {
			return err
		}
		for _, name := range slices.Sorted(maps.Keys(set.Columns)) {
			if err := writeRaw(zw, dir+name+columnExt, set.Columns[name]); err != nil {
				return err
			}
		}
	}
	return nil
}

func writeRaw(zw *archive, name string, b []byte) error {
	f, err := zw.create(name)
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	if _, err := f.Write(b); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}

// readResults reads the result sets of a trusted file's entries (the
// signature verified and the model matched it), counting them against
// the budget; it returns none from a file that is not trusted, and then,
// when the file holds results, the warning that says why. What the
// columns must hold, and whether this version knows the family, is
// checked by the caller (it knows the model and the analyses); here a
// name that cannot be a family or a column is refused. Columns are kept
// as the bytes they are, so each is read whole, into a buffer of the
// size the signature lists (a length the MAC vouches for, not the zip
// directory's word) and no more. An entry that differs from the
// signature drops every result.
func (d *decoder) readResults() (map[model.AnalysisFamily]store.ResultSet, string, error) {
	var names []string
	for name := range d.files {
		if strings.HasPrefix(name, resultsDir) && !strings.HasSuffix(name, "/") {
			// Folder entries, as zip tools write them, carry nothing.
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return nil, "", nil
	}
	if d.listed == nil {
		return nil, droppedResults(d.why), nil
	}
	slices.Sort(names)
	out := map[model.AnalysisFamily]store.ResultSet{}
	for _, name := range names {
		rest := strings.TrimPrefix(name, resultsDir)
		kindName, entry, ok := strings.Cut(rest, "/")
		kind := model.AnalysisFamily(kindName)
		if !ok || !validFamily(kindName) || strings.Contains(entry, "/") {
			return nil, "", invalid("unexpected results entry %q", name)
		}
		data, err := d.readSigned(d.files[name])
		if err != nil {
			return nil, "", err
		}
		if d.listed == nil {
			return nil, droppedResults(d.why), nil
		}
		set := out[kind]
		if set.Columns == nil {
			set.Columns = map[string][]byte{}
		}
		switch col, isCol := strings.CutSuffix(entry, columnExt); {
		case entry == metaEntry:
			set.Meta = data
		case isCol && validColumn(col):
			set.Columns[col] = data
		default:
			return nil, "", invalid("unexpected results entry %q", name)
		}
		out[kind] = set
	}
	for kind, set := range out {
		if set.Meta == nil {
			return nil, "", invalid("the %s results have no %s", kind, metaEntry)
		}
	}
	return out, "", nil
}

// readSigned reads entry f of a trusted file whole: exactly the bytes its
// signature lists (verifySignature checked that the zip directory
// declares as many), hashed as they arrive. An entry that holds fewer
// bytes, or other ones, ends the file's trust (archive/zip refuses one
// that holds more than its directory declares).
func (d *decoder) readSigned(f *zip.File) ([]byte, error) {
	rc, err := d.open(f)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	data := make([]byte, d.listed[f.Name].Size)
	if _, err := io.ReadFull(rc, data); err != nil {
		if d.b.err != nil || !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
			return nil, d.b.failure(f, err)
		}
		d.distrust("entry %s is shorter than its signature lists (the file was changed after this service saved it)", f.Name)
		return nil, nil
	}
	if n, err := rc.Read(make([]byte, 1)); n > 0 || err != nil && err != io.EOF {
		if d.b.err != nil || n == 0 {
			return nil, d.b.failure(f, err)
		}
		d.distrust("entry %s is longer than its signature lists (the file was changed after this service saved it)", f.Name)
		return nil, nil
	}
	d.done(f, rc)
	return data, nil
}

// validFamily reports whether s may name a family of results: lower-case
// letters and hyphens, as the families' route segments are.
func validFamily(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r == '-') {
			return false
		}
	}
	return true
}

// validColumn accepts the column names the service writes: letters,
// digits and ':'.
func validColumn(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == ':') {
			return false
		}
	}
	return true
}
