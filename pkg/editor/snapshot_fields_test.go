package editor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// CheckSnapshot holds job-file rows to the field rules of the struct tags
// (model.CheckFields) and refuses unknown properties, naming the row.
func TestCheckSnapshotFieldRules(t *testing.T) {
	ed := editor.New(nil, nil)
	st := editor.NewStructure(ed)
	editor.NewLoads(ed, st)
	const member = `{"id":1,"nodeA":1,"nodeB":2,"section":1,"material":1,"type":"Normal","direction":{"source":"Angle","dirAxis":"NotApplicable"},"releases":{"fixityCodeAtA":"FFFFFF","fixityCodeAtB":"FFFFFF"}}`
	snap := func(memberRow string) store.Snapshot {
		return store.Snapshot{Job: model.NewJob(), Collections: map[string][]store.Row{
			model.CollNodes:     {{Key: store.Key(1), Value: json.RawMessage(`{"id":1}`)}, {Key: store.Key(2), Value: json.RawMessage(`{"id":2,"x":3}`)}},
			model.CollSections:  {{Key: store.Key(1), Value: json.RawMessage(`{"id":1,"name":"s","a":1,"j":1,"iy":1,"iz":1,"ay":1,"az":1,"source":"User","areaFactor":1,"torsionFactor":1,"iyFactor":1,"izFactor":1,"angleType":"NotApplicable"}`)}},
			model.CollMaterials: {{Key: store.Key(1), Value: json.RawMessage(`{"id":1,"name":"m","youngsModulus":2e11,"poissonsRatio":0.3,"source":"User"}`)}},
			model.CollMembers:   {{Key: store.Key(1), Value: json.RawMessage(memberRow)}},
		}}
	}
	tests := []struct {
		name, row string
		want      []string // in the message; none: the rows pass
	}{
		{"valid", member, nil},
		{"unknown type", strings.Replace(member, `"Normal"`, `"Bogus"`, 1), []string{"members row 1", "type must be one of", `"Bogus"`}},
		{"lower-case type", strings.Replace(member, `"Normal"`, `"normal"`, 1), []string{"members row 1", `"normal"`}},
		{"unknown property", strings.Replace(member, `"id":1,`, `"id":1,"colour":"red",`, 1), []string{"members row 1", "unknown property", "colour"}},
		{"unknown nested property", strings.Replace(member, `"source":"Angle"`, `"source":"Angle","tilt":1`, 1), []string{"members row 1", "tilt"}},
		{"negative cable length", strings.Replace(member, `"id":1,`, `"id":1,"cableLength":-1,`, 1), []string{"members row 1", "cableLength must be zero or more"}},
		{"trailing data", member + `{}`, []string{"members row 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ed.CheckSnapshot(context.Background(), snap(tt.row))
			if tt.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || model.KindOf(err) != model.KindValidation {
				t.Fatalf("err %v, want a validation error", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q lacks %q", err.Error(), w)
				}
			}
		})
	}
}

// The row checks of a job file stop when the request's time runs out, as
// its decoding does, instead of running on for every row of a large file
// after the client has been answered.
func TestCheckSnapshotStopsWhenContextEnds(t *testing.T) {
	ed := editor.New(nil, nil)
	st := editor.NewStructure(ed)
	editor.NewLoads(ed, st)
	const n = 200_000
	rows := make([]store.Row, n)
	for i := range rows {
		rows[i] = store.Row{Key: store.Key(int64(i + 1)), Value: json.RawMessage(fmt.Sprintf(`{"id":%d,"x":%d}`, i+1, i))}
	}
	snap := store.Snapshot{Job: model.NewJob(), Collections: map[string][]store.Row{model.CollNodes: rows}}
	if err := ed.CheckSnapshot(context.Background(), snap); err != nil {
		t.Fatalf("valid rows: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	err := ed.CheckSnapshot(ctx, snap)
	if model.KindOf(err) != model.KindUnavailable || !strings.Contains(err.Error(), "time ran out") {
		t.Fatalf("checks under an ended context: %v (kind %v), want KindUnavailable", err, model.KindOf(err))
	}
	t.Logf("stopped after %v", time.Since(start))
}
