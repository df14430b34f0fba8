package adapter_test

import (
	"bytes"
	"context"
	"math"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/analysis/adapter"
	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/fem/dynamic"
	"github.com/gusset/gusset/pkg/fem/modal"
	"github.com/gusset/gusset/pkg/fem/static"
	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/samples"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/store/redisstore"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// stored opens a job in a fresh Redis and returns the model source.
func stored(t *testing.T) (adapter.Source, context.Context) {
	t.Helper()
	ctx := context.Background()
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	jobs := redisstore.NewJobs(rdb, editor.Collections())
	now := time.Now()
	if _, err := jobs.Open(ctx, "w", store.Snapshot{Job: model.NewJob()}, model.State{OpenedAt: &now}); err != nil {
		t.Fatal(err)
	}
	ed := editor.New(redisstore.NewModel(rdb), jobs)
	st := editor.NewStructure(ed)
	return adapter.Source{Structure: st, Loads: editor.NewLoads(ed, st)}, ctx
}

func create[T any](t *testing.T, ctx context.Context, c *editor.Collection[T], recs ...T) {
	t.Helper()
	items := make([]editor.Item[T], len(recs))
	for i, r := range recs {
		items[i] = editor.Item[T]{Rec: r, HasKey: true}
	}
	if _, err := c.Create(ctx, "w", items, false); err != nil {
		t.Fatal(err)
	}
}

// A stored cantilever, converted and analysed, deflects as the closed form
// says, and a stored combination is the factored case.
func TestStoredCantileverThroughTheEngine(t *testing.T) {
	src, ctx := stored(t)
	s, l := src.Structure, src.Loads
	const (
		L  = 4.0     // m
		E  = 200e9   // Pa
		nu = 0.3     //
		A  = 1e-2    // m²
		I  = 8e-5    // m⁴
		As = 4e-3    // m², shear area along local y
		P  = 12000.0 // N, downward tip load
	)
	create(t, ctx, s.Materials, model.Material{ID: 1, Name: "steel", YoungsModulus: E, PoissonsRatio: nu})
	create(t, ctx, s.Sections, model.Section{ID: 1, Name: "s", A: A, J: 2 * I, Iy: I, Iz: I, Ay: As, Az: As,
		AreaFactor: 1, TorsionFactor: 1, IyFactor: 1, IzFactor: 1})
	create(t, ctx, s.Nodes, model.Node{ID: 1}, model.Node{ID: 2, X: L}, model.Node{ID: 3, X: L, Z: 1})
	create(t, ctx, s.Members, model.Member{ID: 1, NodeA: 1, NodeB: 2, Section: 1, Material: 1, Type: "Normal",
		Direction: model.Direction{Source: "Angle"}, Releases: model.Releases{FixityCodeAtA: "FFFFFF", FixityCodeAtB: "FFFFFF"}})
	create(t, ctx, s.Restraints, model.NodeRestraint{Node: 1, RestraintCode: "FFFFFF", ActiveDirection: "BBBBBB"},
		model.NodeRestraint{Node: 3, RestraintCode: "FFFFFF", ActiveDirection: "BBBBBB"})
	create(t, ctx, l.Cases, model.LoadCase{ID: 1, Title: "tip"}, model.LoadCase{ID: 2, Title: "unused"})
	create(t, ctx, l.NodeLoads, model.NodeLoad{LoadCase: 1, Node: 2, Fy: -P})
	create(t, ctx, l.Combinations, model.CombinationLoadCase{ID: 3, Title: "1.5 tip", CombinationItems: []model.CombinationItem{{LoadCase: 1, MultiplyingFactor: 1.5}}})

	in, err := adapter.Build(ctx, src, "w", model.DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Model.LoadCases) != 2 || len(in.Model.Combinations) != 1 || len(in.Warnings) != 0 {
		t.Fatalf("cases %d, combinations %d, warnings %v", len(in.Model.LoadCases), len(in.Model.Combinations), in.Warnings)
	}
	res, err := static.Analyze(ctx, in.Model, static.Options{})
	if err != nil {
		t.Fatal(err)
	}
	G := E / (2 * (1 + nu))
	// Timoshenko cantilever with a tip load: δ = PL³/3EI + PL/(G·As)
	// (bending plus shear; Timoshenko & Gere, Mechanics of Materials).
	// The element is exact for this case, hence 1e-9 relative.
	want := P*L*L*L/(3*E*I) + P*L/(G*As)
	disp := map[int64]float64{}
	for _, c := range res.Cases {
		for _, n := range c.Nodes {
			if n.Node == 2 {
				disp[c.Case] = -n.Disp[1]
			}
		}
	}
	if math.Abs(disp[1]-want) > 1e-9*want {
		t.Errorf("tip deflection %.9g, want %.9g", disp[1], want)
	}
	if math.Abs(disp[3]-1.5*want) > 1e-9*want || disp[2] != 0 {
		t.Errorf("combination %.9g (want %.9g), unused case %g", disp[3], 1.5*want, disp[2])
	}
}

// The bundled portal frame sample converts and solves, and each case is in
// equilibrium: the reactions balance the applied loads (statics).
func TestPortalSampleIsInEquilibrium(t *testing.T) {
	ctx := context.Background()
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	jobs := redisstore.NewJobs(rdb, editor.Collections())
	raw, _, err := samples.Read("Portal frame")
	if err != nil {
		t.Fatal(err)
	}
	dec, err := jobfile.Decode(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if _, err := jobs.Open(ctx, "w", dec.Snapshot, model.State{OpenedAt: &now}); err != nil {
		t.Fatal(err)
	}
	ed := editor.New(redisstore.NewModel(rdb), jobs)
	st := editor.NewStructure(ed)
	in, err := adapter.Build(ctx, adapter.Source{Structure: st, Loads: editor.NewLoads(ed, st)}, "w", dec.Snapshot.Job.Settings)
	if err != nil {
		t.Fatal(err)
	}
	res, err := static.Analyze(ctx, in.Model, static.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Cases) != 4 {
		t.Fatalf("%d cases", len(res.Cases))
	}
	for _, c := range res.Cases {
		// Load + Reaction = 0 to 1e-9 of the largest load (verification
		// README, equilibrium row).
		for i := 0; i < 3; i++ {
			if r := math.Abs(c.Summary.Load[i] + c.Summary.Reaction[i]); r > 1e-9*c.Summary.MaxLoad {
				t.Errorf("case %d: component %d load %g, reaction %g", c.Case, i, c.Summary.Load[i], c.Summary.Reaction[i])
			}
		}
	}
	// Wind: 5 kN at the knee, so the bases push back 5 kN in total.
	for _, c := range res.Cases {
		if c.Case == 3 && math.Abs(c.Summary.Reaction[0]+5e3) > 1e-6 {
			t.Errorf("wind base shear %g N, want -5000", c.Summary.Reaction[0])
		}
	}
}

// TestStoredLumpedMass: a stored lumped mass reaches the engine's load
// case, and a frequency analysis of a cantilever carrying it at its tip
// (no self-weight: the member is massless) oscillates at
// √(k/m)/2π with the Timoshenko tip stiffness k = 1/(L³/(3EI) + L/(G·As))
// (tolerance 1e-9: the subdivided element is exact for a tip load).
func TestStoredLumpedMass(t *testing.T) {
	src, ctx := stored(t)
	s, l := src.Structure, src.Loads
	const (
		L, E, nu, A, I, As = 4.0, 200e9, 0.3, 1e-2, 8e-5, 4e-3
		m                  = 800.0 // kg
	)
	create(t, ctx, s.Materials, model.Material{ID: 1, Name: "steel", YoungsModulus: E, PoissonsRatio: nu})
	create(t, ctx, s.Sections, model.Section{ID: 1, Name: "s", A: A, J: 2 * I, Iy: I, Iz: I, Ay: As, Az: As,
		AreaFactor: 1, TorsionFactor: 1, IyFactor: 1, IzFactor: 1})
	create(t, ctx, s.Nodes, model.Node{ID: 1}, model.Node{ID: 2, X: L})
	create(t, ctx, s.Members, model.Member{ID: 1, NodeA: 1, NodeB: 2, Section: 1, Material: 1, Type: "Normal",
		Direction: model.Direction{Source: "Angle"}, Releases: model.Releases{FixityCodeAtA: "FFFFFF", FixityCodeAtB: "FFFFFF"}})
	create(t, ctx, s.Restraints, model.NodeRestraint{Node: 1, RestraintCode: "FFFFFF", ActiveDirection: "BBBBBB"})
	create(t, ctx, l.Cases, model.LoadCase{ID: 1, Title: "mass"})
	create(t, ctx, l.LumpedMasses, model.LumpedMassLoad{LoadCase: 1, Node: 2, Tmx: m, Tmy: m, Tmz: m})
	in, err := adapter.Build(ctx, src, "w", model.DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	if ms := in.Model.LoadCases[0].Masses; len(ms) != 1 || ms[0].Node != 2 || ms[0].M != [6]float64{m, m, m} {
		t.Fatalf("masses %+v, want %g kg at node 2 along X, Y, Z", ms, m)
	}
	res, err := dynamic.Analyze(ctx, in.Model, dynamic.Options{Settings: modal.Settings{Modes: 1}})
	if err != nil {
		t.Fatal(err)
	}
	g := E / (2 * (1 + nu))
	k := 1 / (L*L*L/(3*E*I) + L/(g*As))
	if got, want := res.Cases[0].Modes[0].Frequency, math.Sqrt(k/m)/(2*math.Pi); !(math.Abs(got-want) <= 1e-9*want) {
		t.Errorf("%.12g Hz, want %.12g Hz", got, want)
	}
}
