package jobfile

import (
	"archive/zip"
	"fmt"
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
func writeResults(zw *zip.Writer, sets map[model.AnalysisFamily]store.ResultSet) error {
	// Sorted, so that saving the same results writes the same file.
	for _, kind := range slices.Sorted(maps.Keys(sets)) {
		set := sets[kind]
		dir := resultsDir + string(kind) + "/"
		if err := writeRaw(zw, dir+metaEntry, set.Meta); err != nil {
			return err
		}
		for name, col := range set.Columns {
			if err := writeRaw(zw, dir+name+columnExt, col); err != nil {
				return err
			}
		}
	}
	return nil
}

func writeRaw(zw *zip.Writer, name string, b []byte) error {
	f, err := zw.Create(name)
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	if _, err := f.Write(b); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}

// readResults reads the result sets of the archive's entries, counting
// them against b. What the columns must hold, and whether this version
// knows the family, is checked by the caller (it knows the model and the
// analyses); here a name that cannot be a family or a column is refused.
// Columns are kept as the bytes they are, so each is read whole.
func readResults(b *budget, files map[string]*zip.File) (map[model.AnalysisFamily]store.ResultSet, error) {
	out := map[model.AnalysisFamily]store.ResultSet{}
	for name, f := range files {
		rest, ok := strings.CutPrefix(name, resultsDir)
		if !ok || strings.HasSuffix(name, "/") {
			// Folder entries, as zip tools write them, carry nothing.
			continue
		}
		kindName, entry, ok := strings.Cut(rest, "/")
		kind := model.AnalysisFamily(kindName)
		if !ok || !validFamily(kindName) || strings.Contains(entry, "/") {
			return nil, invalid("unexpected results entry %q", name)
		}
		data, err := readEntry(b, f, b.limit, "a results entry")
		if err != nil {
			return nil, err
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
			return nil, invalid("unexpected results entry %q", name)
		}
		out[kind] = set
	}
	for kind, set := range out {
		if set.Meta == nil {
			return nil, invalid("the %s results have no %s", kind, metaEntry)
		}
	}
	return out, nil
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
