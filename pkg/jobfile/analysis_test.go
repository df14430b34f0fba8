package jobfile

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// The analysis settings entry holds one object per family. A null record
// reads as no record (the family's defaults, as a reader of the whole
// settings struct took it before records were kept per family); a record
// that is not an object, or a key that cannot name a family, is refused
// naming the entry. Records come back compact, as the service stores
// them.
func TestAnalysisEntryRecords(t *testing.T) {
	for _, tc := range []struct {
		name    string
		records model.AnalysisSettings
		want    model.AnalysisSettings // nil: refused
		says    string
	}{
		{"null reads as none", model.AnalysisSettings{"static": json.RawMessage(`null`), "buckling": json.RawMessage(`{"modes": 3}`)},
			model.AnalysisSettings{"buckling": json.RawMessage(`{"modes":3}`)}, ""},
		{"a number is refused", model.AnalysisSettings{"static": json.RawMessage(`7`)}, nil, "not an object"},
		{"a key with a dot is refused", model.AnalysisSettings{"static.modes": json.RawMessage(`{}`)}, nil, "not the name of an analysis family"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			snap := store.Snapshot{Job: model.NewJob()}
			snap.Job.Analysis = tc.records
			var b bytes.Buffer
			if err := Encode(&b, snap, "test", time.Unix(0, 0)); err != nil {
				t.Fatal(err)
			}
			dec, err := Decode(bytes.NewReader(b.Bytes()), int64(b.Len()))
			if tc.want == nil {
				if err == nil || !strings.Contains(err.Error(), entryAnalysis) || !strings.Contains(err.Error(), tc.says) {
					t.Fatalf("Decode = %v, want a refusal naming %s and saying %q", err, entryAnalysis, tc.says)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := dec.Snapshot.Job.Analysis
			if len(got) != len(tc.want) {
				t.Fatalf("records %s, want %s", got, tc.want)
			}
			for k, v := range tc.want {
				if string(got[k]) != string(v) {
					t.Errorf("record %s = %s, want %s", k, got[k], v)
				}
			}
		})
	}
}
