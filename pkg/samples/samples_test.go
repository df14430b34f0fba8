package samples

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/model/library"
	"github.com/gusset/gusset/pkg/store"
)

var update = flag.Bool("update", false, "rewrite the embedded sample files")

// rows encodes records as the model store keeps them, in key order as a
// saved job lists them (keys are fixed-width, so text order is id order).
func rows[T any](key func(T) []int64, recs ...T) []store.Row {
	out := make([]store.Row, len(recs))
	for i, r := range recs {
		b, err := json.Marshal(r)
		if err != nil {
			panic(err)
		}
		out[i] = store.Row{Key: store.Key(key(r)...), Value: b}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// byID keys a record by its own id, as the structure collections do.
func byID(id int64) []int64 { return []int64{id} }

// librarySection is a library pick as the API stores it: the catalogue
// properties, unit factors, and the shape so that stresses reach the
// extreme fibres. A missing name is a mistake in a definition, hence the
// panic.
func librarySection(id int64, lib, name string) model.Section {
	sec, err := library.LookupSection(lib, name)
	if err != nil {
		panic(err)
	}
	f := sec.Shape.ExtremeFibres()
	return model.Section{ID: id, Name: sec.Name, Library: sec.Library,
		A: sec.A, J: sec.J, Iy: sec.Iy, Iz: sec.Iz, Ay: sec.Ay, Az: sec.Az, Source: "Library", AreaFactor: 1, TorsionFactor: 1,
		IyFactor: 1, IzFactor: 1, AngleType: "NotApplicable", Shapes: []model.Shape{{Family: string(sec.Shape.Family),
			D: sec.Shape.D, B: sec.Shape.B, Tf: sec.Shape.Tf, Tw: sec.Shape.Tw, T: sec.Shape.T, R: sec.Shape.R,
			YTop: f.YPos, YBtm: f.YNeg, ZTop: f.ZPos, ZBtm: f.ZNeg}}}
}

// libraryMaterial is a library material as the API stores it.
func libraryMaterial(id int64, lib, name string) model.Material {
	m, err := library.LookupMaterial(lib, name)
	if err != nil {
		panic(err)
	}
	return model.Material{ID: id, Name: m.Name, YoungsModulus: m.YoungsModulus, PoissonsRatio: m.PoissonsRatio,
		MassDensity: m.MassDensity, ThermalCoeff: m.ThermalCoeff, Source: "Library", Library: m.Library}
}

// support is a rigid restraint with the API's defaults for everything a
// rigid support leaves unused, so that a sample reads back as if entered.
func support(node int64, code string) model.NodeRestraint {
	return model.NodeRestraint{Node: node, RestraintCode: code, ActiveDirection: "BBBBBB", XFrictionNormalAxis: "None",
		YFrictionNormalAxis: "None", ZFrictionNormalAxis: "None", XFrictionNormalDirection: "Either",
		YFrictionNormalDirection: "Either", ZFrictionNormalDirection: "Either"}
}

// rigidEnds are the releases of a member rigidly joined at both ends.
var rigidEnds = model.Releases{FixityCodeAtA: "FFFFFF", FixityCodeAtB: "FFFFFF"}

// byAngle and alongAxis are member directions in the normalised form the
// API stores (the unused fields zeroed or NotApplicable).
var byAngle = model.Direction{Source: "Angle", DirAxis: "NotApplicable"}

func alongAxis(axis string) model.Direction { return model.Direction{Source: "Axis", DirAxis: axis} }

// Row keys of the load collections.
func nodeLoadKey(x model.NodeLoad) []int64 { return []int64{x.LoadCase, x.Node} }
func distributedKey(x model.MemberDistributedLoad) []int64 {
	return []int64{x.LoadCase, x.Member, x.SubLoad}
}

// udl is a uniform load along global Y over a whole member, in N/m of its
// length (negative is down with Y up).
func udl(lc, member int64, wy float64) model.MemberDistributedLoad {
	return model.MemberDistributedLoad{LoadCase: lc, Member: member, SubLoad: 1, Axes: "GlobalInclined", PositionUnits: "Percent",
		FinishPosition: 100, FyStart: wy, FyFinish: wy}
}

// combination is a combination case of (case, factor) pairs.
func combination(id int64, title, notes string, terms ...model.CombinationItem) model.LoadCase {
	return model.LoadCase{ID: id, Title: title, Notes: notes, CombinationItems: terms}
}

// gravity is standard gravity, m/s² (the self-weight acceleration).
const gravity = 9.80665

// portalFrame is a 6 m × 4 m steel portal with fixed bases (Y up): dead
// load as self-weight, a live load on the beam, wind at the knee, and the
// 1.2G + 1.5Q combination.
func portalFrame() store.Snapshot {
	job := model.NewJob()
	job.Headings = model.Headings{ProjectHeading: "Gusset samples", Heading: "Portal frame",
		Notes: "Fixed-base steel portal, 360UB44.7 (AS/NZS 3679.1), 6 m span, 4 m high."}
	member := func(n, a, b int64) model.Member {
		return model.Member{ID: n, NodeA: a, NodeB: b, Type: "Normal", Section: 1, Material: 1, Direction: byAngle, Releases: rigidEnds}
	}
	return store.Snapshot{Job: job, Collections: map[string][]store.Row{
		model.CollNodes: rows(func(n model.Node) []int64 { return byID(n.ID) },
			model.Node{ID: 1}, model.Node{ID: 2, Y: 4}, model.Node{ID: 3, X: 6, Y: 4}, model.Node{ID: 4, X: 6}),
		model.CollSections:       rows(func(x model.Section) []int64 { return byID(x.ID) }, librarySection(1, "Aust300", "360UB44.7")),
		model.CollMaterials:      rows(func(x model.Material) []int64 { return byID(x.ID) }, libraryMaterial(1, "Aust", "STEEL")),
		model.CollMembers:        rows(func(m model.Member) []int64 { return byID(m.ID) }, member(1, 1, 2), member(2, 2, 3), member(3, 4, 3)),
		model.CollNodeRestraints: rows(func(r model.NodeRestraint) []int64 { return byID(r.Node) }, support(1, "FFFFFF"), support(4, "FFFFFF")),
		model.CollLoadCases: rows(func(c model.LoadCase) []int64 { return byID(c.ID) },
			model.LoadCase{ID: 1, Title: "Dead (self-weight)"}, model.LoadCase{ID: 2, Title: "Live"},
			model.LoadCase{ID: 3, Title: "Wind"},
			combination(4, "1.2G + 1.5Q", "", model.CombinationItem{LoadCase: 1, MultiplyingFactor: 1.2}, model.CombinationItem{LoadCase: 2, MultiplyingFactor: 1.5})),
		model.CollSelfWeightLoads: rows(func(x model.SelfWeightLoad) []int64 { return byID(x.LoadCase) },
			model.SelfWeightLoad{LoadCase: 1, AccelerationY: -gravity}),
		model.CollMemberDistributedLoads: rows(distributedKey, udl(2, 2, -10e3)),
		model.CollNodeLoads:              rows(nodeLoadKey, model.NodeLoad{LoadCase: 3, Node: 2, Fx: 5e3}),
	}}
}

// definitions are the sources of the embedded samples.
func definitions() map[string]store.Snapshot {
	metric := model.NewJob()
	metric.Headings = model.Headings{ProjectHeading: "Gusset samples", Heading: "Metric job template",
		Notes: "Blank job in SI-based units: m, mm, kN, kNm, MPa."}
	us := model.NewJob()
	us.Headings = model.Headings{ProjectHeading: "Gusset samples", Heading: "US customary job template",
		Notes: "Blank job in US customary units: ft, in, kip, kip-ft, ksi."}
	us.Units = model.Units{Length: "ft", SectionProperties: "in", MaterialStrength: "Ksi", MassDensity: "lbperft3",
		Temperature: "degF", Force: "K", Moment: "Kft", Mass: "lb", Acceleration: "gs", Translation: "inch", Stress: "Ksi", Pressure: "Psf"}
	return map[string]store.Snapshot{
		"Metric template.gsj":       {Job: metric},
		"US customary template.gsj": {Job: us},
		"Portal frame.gsj":          portalFrame(),
		"Multi-storey frame.gsj":    multiStoreyFrame(),
		"Braced tower.gsj":          bracedTower(),
		"Flat slab on columns.gsj":  flatSlab(),
		"Bridge deck.gsj":           bridgeDeck(),
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
			if !reflect.DeepEqual(dec.Snapshot.Collections, nonNil(snap.Collections)) {
				t.Errorf("embedded %s holds other model rows (run go test ./pkg/samples -update)", name)
			}
			if !reflect.DeepEqual(dec.Snapshot.Job, snap.Job) {
				t.Errorf("embedded %s holds %+v, want %+v (run go test ./pkg/samples -update)", name, dec.Snapshot.Job, snap.Job)
			}
			// Headings beyond the API's limits would open but never save.
			h := snap.Job.Headings
			p := model.HeadingsPatch{ProjectHeading: &h.ProjectHeading, Heading: &h.Heading, DesignerInitials: &h.DesignerInitials, Notes: &h.Notes}
			if err := p.Apply(&model.Headings{}); err != nil {
				t.Errorf("%s headings: %v", name, err)
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

func nonNil(c map[string][]store.Row) map[string][]store.Row {
	if c == nil {
		return map[string][]store.Row{}
	}
	return c
}

// The samples are not signed (job-file signatures): they open as files
// without results, so they must carry none, or opening one would warn
// that its results were dropped.
func TestSamplesCarryNoResults(t *testing.T) {
	key, err := jobfile.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	keys, err := jobfile.NewKeys(key)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range Names() {
		b, _, err := Read(name)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := jobfile.DecodeContext(context.Background(), bytes.NewReader(b), int64(len(b)), 0, keys)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if dec.ResultsDropped != "" || len(dec.Snapshot.Results) > 0 {
			t.Errorf("%s carries results (%q): a sample is not signed, so they would not open", name, dec.ResultsDropped)
		}
	}
}
