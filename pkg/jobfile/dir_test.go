package jobfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

func TestResolve(t *testing.T) {
	d, err := OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ok := []struct{ in, rel string }{
		{"a", "a.gsj"}, {"a.gsj", "a.gsj"}, {"A.GSJ", "A.GSJ"}, {"sub/dir/b", "sub/dir/b.gsj"},
		{"./c", "c.gsj"}, {"x/../d", "d.gsj"}, {`win\style`, "win/style.gsj"},
		{filepath.Join(d.Root(), "abs"), "abs.gsj"}, {" spaced ", "spaced.gsj"},
	}
	for _, c := range ok {
		t.Run(c.in, func(t *testing.T) {
			p, err := d.Resolve(c.in)
			if err != nil || p.Rel != c.rel || p.Abs != filepath.Join(d.Root(), filepath.FromSlash(c.rel)) {
				t.Errorf("Resolve(%q) = %+v, %v; want rel %q", c.in, p, err, c.rel)
			}
		})
	}
	for _, in := range []string{"", "..", "../a", "a/../../b", "/", d.Root(), "/tmp/x.gsj", "a.zip", "a\x00b"} {
		t.Run("reject "+in, func(t *testing.T) {
			if _, err := d.Resolve(in); model.KindOf(err) != model.KindValidation {
				t.Errorf("Resolve(%q) = %v, want a validation error", in, err)
			}
		})
	}
}

// A failed save leaves the previous file as it was and no temporary file.
func TestWriteIsAtomic(t *testing.T) {
	d, _ := OpenDir(t.TempDir())
	p, _ := d.Resolve("job")
	job := model.NewJob()
	job.Headings.Heading = "first"
	if err := d.Write(p, store.Snapshot{Job: job}, "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(p.Abs)
	// A collection whose row is not valid JSON makes the encoder fail
	// halfway through the zip.
	bad := store.Snapshot{Job: job, Collections: map[string][]store.Row{"nodes": {{Key: "1", Value: []byte("{broken")}}}}
	if err := d.Write(p, bad, "test", time.Now()); err == nil {
		t.Fatal("writing a broken row succeeded")
	}
	after, _ := os.ReadFile(p.Abs)
	if !bytes.Equal(before, after) {
		t.Error("a failed save changed the file")
	}
	entries, _ := os.ReadDir(d.Root())
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries after a failed save, want 1", len(entries))
	}
}

func TestEncodeDecodeCollections(t *testing.T) {
	snap := store.Snapshot{Job: model.NewJob(), Collections: map[string][]store.Row{
		"nodes":   {{Key: "1", Score: 1, Value: []byte(`{"x":1.5}`)}, {Key: "7", Score: 7, Value: []byte(`{"x":-2e-9}`)}},
		"members": {{Key: "3", Score: 3, Value: []byte(`{"nodeA":1,"nodeB":7}`)}},
	}}
	var b bytes.Buffer
	if err := Encode(&b, snap, "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	dec, err := Decode(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	for name, rows := range snap.Collections {
		got := dec.Snapshot.Collections[name]
		if len(got) != len(rows) {
			t.Fatalf("%s: %d rows, want %d", name, len(got), len(rows))
		}
		for i := range rows {
			if got[i].Key != rows[i].Key || got[i].Score != rows[i].Score || !bytes.Equal(got[i].Value, rows[i].Value) {
				t.Errorf("%s row %d = %+v, want %+v", name, i, got[i], rows[i])
			}
		}
	}
	if dec.Manifest.Version != FormatVersion || len(dec.Manifest.Collections) != 2 {
		t.Errorf("manifest %+v", dec.Manifest)
	}
}
