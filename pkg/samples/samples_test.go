package samples

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

var update = flag.Bool("update", false, "rewrite the embedded sample files")

// definitions are the sources of the embedded samples. Model samples join
// them as the model resources land.
func definitions() map[string]store.Snapshot {
	metric := model.NewJob()
	metric.Headings = model.Headings{ProjectHeading: "Gusset samples", Heading: "Metric job template",
		Notes: "Blank job in SI-based units: m, mm, kN, kNm, MPa."}
	us := model.NewJob()
	us.Headings = model.Headings{ProjectHeading: "Gusset samples", Heading: "US customary job template",
		Notes: "Blank job in US customary units: ft, in, kip, kip-ft, ksi."}
	us.Units = model.Units{Length: "ft", SectionProperties: "in", MaterialStrength: "Ksi", MassDensity: "lbperft3",
		Temperature: "degF", Force: "K", Moment: "Kft", Mass: "lb", Acceleration: "gs", Translation: "inch", Stress: "Ksi"}
	return map[string]store.Snapshot{
		"Metric template.gsj":       {Job: metric},
		"US customary template.gsj": {Job: us},
	}
}

func TestSamplesMatchDefinitions(t *testing.T) {
	saved := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	defs := definitions()
	for name, snap := range defs {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := jobfile.Encode(&buf, snap, "gusset samples", saved); err != nil {
				t.Fatal(err)
			}
			if *update {
				if err := os.WriteFile(filepath.Join("files", name), buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			b, got, err := Read(name)
			if err != nil {
				t.Fatalf("Read(%q): %v (run go test ./pkg/samples -update)", name, err)
			}
			if got != name {
				t.Errorf("Read returned name %q, want %q", got, name)
			}
			dec, err := jobfile.Decode(bytes.NewReader(b), int64(len(b)))
			if err != nil {
				t.Fatalf("decode embedded %s: %v", name, err)
			}
			if dec.Snapshot.Job != snap.Job {
				t.Errorf("embedded %s holds %+v, want %+v (run go test ./pkg/samples -update)", name, dec.Snapshot.Job, snap.Job)
			}
		})
	}
	if n := len(Names()); n != len(defs) {
		t.Errorf("embedded %d samples, defined %d", n, len(defs))
	}
}

func TestReadUnknownSampleNamesTheSamples(t *testing.T) {
	_, _, err := Read("nope")
	if model.KindOf(err) != model.KindNotFound {
		t.Fatalf("Read(nope) = %v, want a not-found error", err)
	}
	if !bytes.Contains([]byte(err.Error()), []byte("Metric template.gsj")) {
		t.Errorf("error %q does not list the samples", err)
	}
}

func TestReadIgnoresCaseAndExtension(t *testing.T) {
	_, name, err := Read("metric TEMPLATE")
	if err != nil || name != "Metric template.gsj" {
		t.Fatalf("Read = %q, %v", name, err)
	}
}
