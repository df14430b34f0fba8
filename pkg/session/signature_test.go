package session_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/session"
	"github.com/gusset/gusset/pkg/store"
)

// A file that holds results but is not signed opens with its model only,
// from the jobs directory or uploaded: the state's warnings say so, and
// keep saying so until the job closes.
func TestUnsignedFileOpensWithAWarning(t *testing.T) {
	e := newEnv(t, server(t), 0)
	snap := store.Snapshot{Job: model.NewJob(),
		Results: map[model.AnalysisFamily]store.ResultSet{"static": {Meta: []byte(`{}`), Columns: map[string][]byte{"nodes": make([]byte, 8)}}}}
	e.writeSnapshot(t, "r.gsj", snap)
	file, err := os.ReadFile(e.path("r.gsj"))
	if err != nil {
		t.Fatal(err)
	}
	for name, open := range map[string]func() (session.Opened, error){
		"open":     func() (session.Opened, error) { return e.svc.Open(e.ctx, e.ws, "r.gsj", "") },
		"template": func() (session.Opened, error) { return e.svc.NewFromTemplate(e.ctx, e.ws, file, "r.gsj") },
	} {
		t.Run(name, func(t *testing.T) {
			o, err := open()
			if err != nil {
				t.Fatal(err)
			}
			if st := o.State; len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], "results were not opened") {
				t.Errorf("warnings %q", st.Warnings)
			}
			if w := e.slot(t).State.Warnings; len(w) != 1 {
				t.Errorf("the slot's warnings %q, want the open's", w)
			}
			e.close(t)
			if w := e.slot(t).State.Warnings; len(w) != 0 {
				t.Errorf("warnings %q after close", w)
			}
		})
	}
}

// A service's own saves are signed with its key (which the file does not
// hold) and reopen with no warning.
func TestSavedFileIsSigned(t *testing.T) {
	e := newEnv(t, server(t), 0)
	key, err := jobfile.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	keys, err := jobfile.NewKeys(key)
	if err != nil {
		t.Fatal(err)
	}
	e.dir.SetKeys(keys)
	e.newJob(t)
	e.save(t, "s.gsj", false)
	b, err := os.ReadFile(e.path("s.gsj"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, key) || bytes.Contains(b, []byte(hex.EncodeToString(key))) {
		t.Fatal("the saved file holds the key")
	}
	dec, err := jobfile.DecodeContext(context.Background(), bytes.NewReader(b), int64(len(b)), 0, keys)
	if err != nil || !dec.Signed {
		t.Fatalf("the saved file: %v, signed %v (%s)", err, dec.Signed, dec.ResultsDropped)
	}
	e.close(t)
	o, err := e.svc.Open(e.ctx, e.ws, "s.gsj", "")
	if err != nil || len(o.State.Warnings) != 0 {
		t.Fatalf("open of a signed file: %v, warnings %q", err, o.State.Warnings)
	}
}
