package server

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/analysis/adapter"
	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/dynamic"
	"github.com/gusset/gusset/pkg/fem/modal"
	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/samples"
	"github.com/gusset/gusset/pkg/store/redisstore"
)

// eigenQuery reads a buckling or dynamic result query (path under
// /job/query/analysis/).
func eigenQuery[T any](s *stack, path string) envelope[T] {
	s.t.Helper()
	var e envelope[T]
	s.must(200, "GET", "/job/query/analysis/"+path, nil).decode(s.t, &e)
	return e
}

// startEigen starts a run of kind ("buckling" or "dynamic-frequency")
// with body and waits for it to complete.
func (s *stack) runEigen(kind string, body any) model.Run {
	s.t.Helper()
	var run model.Run
	s.must(202, "POST", "/job/analysis/"+kind+"/run", body).decode(s.t, &run)
	done := s.wait(run.RunID)
	if done.Status != model.RunCompleted {
		s.t.Fatalf("%s run ended %s: %s", kind, done.Status, done.ErrorMessage)
	}
	return done
}

// Sway portal, in the XY plane, default job units (m, mm, MPa, kN): fixed
// bases, columns and beam of one section with h = L = 4 m, so k =
// (I_b/L)/(I_c/h) = 1, and P = 100 kN on each column top. Out-of-plane
// freedoms of the top nodes are held. The closed form assumes members
// that neither shorten nor shear, so the area is 10 m² and the shear
// areas huge.
const (
	spH = 4.0   // m
	spP = 100.0 // kN
	spE = 200e3 // MPa
	spI = 1e8   // mm⁴
)

func swayPortal(s *stack) {
	s.t.Helper()
	s.must(200, "POST", "/job/new", nil)
	s.must(201, "POST", "/job/structure/materials", map[string]any{"id": 1, "name": "steel", "youngsModulus": spE,
		"poissonsRatio": 0.3, "massDensity": 7.85})
	s.must(201, "POST", "/job/structure/sections", map[string]any{"id": 1, "name": "col", "a": 1e7, "j": 2 * spI,
		"iy": spI, "iz": spI, "ay": 1e12, "az": 1e12})
	for i, xy := range [][2]float64{{0, 0}, {0, spH}, {spH, spH}, {spH, 0}} {
		s.must(201, "POST", "/job/structure/nodes", map[string]any{"id": i + 1, "x": xy[0], "y": xy[1], "z": 0})
	}
	for i, ab := range [][2]int{{1, 2}, {2, 3}, {4, 3}} {
		s.must(201, "POST", "/job/structure/members", map[string]any{"id": i + 1, "nodeA": ab[0], "nodeB": ab[1],
			"section": 1, "material": 1})
	}
	for _, n := range []int{1, 4} {
		s.must(201, "POST", "/job/structure/node-restraints", map[string]any{"node": n, "restraintCode": "FFFFFF"})
	}
	for _, n := range []int{2, 3} {
		s.must(201, "POST", "/job/structure/node-restraints", map[string]any{"node": n, "restraintCode": "RRFFFR"})
	}
	s.must(201, "POST", "/job/loads/load-cases", map[string]any{"id": 1, "title": "P on the columns"})
	for _, n := range []int{2, 3} {
		s.must(201, "POST", "/job/loads/node-loads", map[string]any{"loadCase": 1, "node": n, "fy": -spP})
	}
}

// A portal buckling run goes from POST to Completed, and its queries give
// the sway load of the fixed-base portal with k = 1: P_cr = 7.37915·EI/h²
// per column, the root of slope-deflection with the stability functions
// of Livesley and Chandler (Stability Functions for Structural
// Frameworks, 1956), equivalently of x·cot x = −6 with x² = P·h²/EI (the
// sway alignment chart with G = 1 at the top, 0 at a fixed base), within
// 0.5 % (the acceptance bound; the engine's own test checks the same).
func TestBucklingRunPortal(t *testing.T) {
	s := startStack(t, 1)
	swayPortal(s)
	run := s.runEigen("buckling", map[string]any{"modes": 2})
	if !strings.Contains(run.Header, "BUCKLING") {
		t.Errorf("header %q", run.Header)
	}
	ei := spE * 1e3 * spI * 1e-12 // kN·m²
	pcr := 7.37915 * ei / (spH * spH)

	lf := eigenQuery[model.BucklingLoadFactorRow](s, "buckling/load-factors")
	if len(lf.Results) != 2 || len(lf.Warnings.ModesNotAnalyzed) != 0 {
		t.Fatalf("load factors %+v", lf)
	}
	first := lf.Results[0]
	if first.LoadCase != 1 || first.Mode != 1 || !near(first.LoadFactor*spP, pcr, 5e-3) || first.Warning != "" {
		t.Errorf("mode 1: %+v; λ·P = %g, want %g", first, first.LoadFactor*spP, pcr)
	}
	// The sway mode moves the top along X; its largest translation is
	// there (both top nodes move alike: the first of them).
	if first.TransAxis != "X" || (first.NodeAtMaxTrans != 2 && first.NodeAtMaxTrans != 3) || first.RotnAxis != "Z" {
		t.Errorf("mode 1 extremes: %+v", first)
	}
	if !(lf.Results[1].LoadFactor > first.LoadFactor) {
		t.Errorf("mode 2 λ %g not above mode 1's %g", lf.Results[1].LoadFactor, first.LoadFactor)
	}

	// Effective lengths of the columns: π·√(EI/Pcr) = π/√7.37915·h.
	el := eigenQuery[model.EffectiveLengthRow](s, "buckling/member-effective-lengths?modes=1&members=1-3")
	if len(el.Results) != 3 {
		t.Fatalf("effective lengths %+v", el)
	}
	le := math.Pi / math.Sqrt(7.37915) * spH
	for _, r := range el.Results {
		switch r.Member {
		case 1, 3:
			if !near(r.Pcr, pcr, 5e-3) || !near(r.Ly, le, 5e-3) || !near(r.Lz, le, 5e-3) || !near(r.Length, spH, 1e-12) ||
				r.ExclusionReason != "" {
				t.Errorf("column %d: %+v, want pcr %g, ly = lz = %g", r.Member, r, pcr, le)
			}
		case 2:
			// The beam carries no axial force under the column loads.
			if r.ExclusionReason == "" || r.Pcr != 0 {
				t.Errorf("beam: %+v, want an exclusion reason", r)
			}
		}
	}
	// Modes the filter asks for beyond those found are warned of, per case.
	more := eigenQuery[model.EffectiveLengthRow](s, "buckling/member-effective-lengths?modes=2-5&members=1")
	if len(more.Results) != 1 || more.Results[0].Mode != 2 || len(more.Warnings.ModesNotAnalyzed) != 1 ||
		more.Warnings.ModesNotAnalyzed[0] != (model.ModesNotFound{LoadCase: 1, Modes: "3-5"}) {
		t.Errorf("modes 2-5: %+v", more)
	}
	// Paging runs over (case, mode, member).
	r := s.must(200, "GET", "/job/query/analysis/buckling/member-effective-lengths?offset=2&limit=2", nil)
	var page envelope[model.EffectiveLengthRow]
	r.decode(t, &page)
	if r.header.Get("Total-Count") != "6" || len(page.Results) != 2 || page.Results[0].Member != 3 || page.Results[1].Mode != 2 {
		t.Errorf("page: Total-Count %s, %+v", r.header.Get("Total-Count"), page.Results)
	}
	// Buckling shapes are scaled to a largest translation of +1.
	shapes := eigenQuery[model.ModeShapeRow](s, "buckling/mode-shapes?modes=1")
	if len(shapes.Results) != 1 || shapes.Results[0].Normalization != "Unit" || len(shapes.Results[0].Node) != 4 {
		t.Fatalf("buckling shapes %+v", shapes)
	}
	top := shapes.Results[0]
	if big := math.Max(math.Abs(top.Tx[1]), math.Abs(top.Tx[2])); !near(big, 1, 1e-12) || top.Tx[0] != 0 {
		t.Errorf("sway shape tx %v", top.Tx)
	}
	var info model.ResultsInfo
	s.must(200, "GET", "/job/analysis/buckling/info", nil).decode(t, &info)
	if !info.HasResults || len(info.LoadCases) != 1 || info.LoadCases[0].Modes != 2 {
		t.Errorf("info %+v", info)
	}
	var st struct {
		Analysis struct {
			HasBucklingResults, HasStaticResults bool
		} `json:"analysis"`
	}
	s.must(200, "GET", "/job/status", nil).decode(t, &st)
	if !st.Analysis.HasBucklingResults || st.Analysis.HasStaticResults {
		t.Errorf("status flags %+v", st.Analysis)
	}
	// A model change deletes the results.
	s.must(200, "PATCH", "/job/structure/nodes/2", map[string]any{"x": 0.001})
	if r := s.call("GET", "/job/query/analysis/buckling/load-factors", nil); r.status != 409 {
		t.Errorf("query after a model change = %d %s", r.status, r.body)
	}
}

// Cantilever along X, one member, default units: its first natural
// frequencies and mode shapes through HTTP. f_n = (β_nL)²/(2π)·√(EI/(m·L⁴))
// with β_1L = 1.87510407, β_2L = 4.69409113 (Blevins, Formulas for Natural
// Frequency and Mode Shape, Table 8-1), within 0.1 %; the first mode
// moves 61.3 % of the mass (Chopra, Dynamics of Structures, §17.3: the
// effective mass of a cantilever's first mode is 0.613·mL). Bending
// about local z and y are alike, so each frequency is a repeated pair.
func TestFrequencyRunCantilever(t *testing.T) {
	s := startStack(t, 1)
	const (
		L   = 5.0   // m
		rho = 7.85  // T/m³
		a   = 1e4   // mm²
		i   = 1e8   // mm⁴
		e   = 200e3 // MPa
	)
	s.must(200, "POST", "/job/new", nil)
	s.must(201, "POST", "/job/structure/materials", map[string]any{"id": 1, "name": "steel", "youngsModulus": e,
		"poissonsRatio": 0.3, "massDensity": rho})
	s.must(201, "POST", "/job/structure/sections", map[string]any{"id": 1, "name": "bar", "a": a, "j": 2 * i,
		"iy": i, "iz": i, "ay": 1e12, "az": 1e12})
	s.must(201, "POST", "/job/structure/nodes", map[string]any{"id": 1, "x": 0, "y": 0, "z": 0})
	s.must(201, "POST", "/job/structure/nodes", map[string]any{"id": 2, "x": L, "y": 0, "z": 0})
	s.must(201, "POST", "/job/structure/members", map[string]any{"id": 1, "nodeA": 1, "nodeB": 2, "section": 1, "material": 1})
	s.must(201, "POST", "/job/structure/node-restraints", map[string]any{"node": 1, "restraintCode": "FFFFFF"})
	s.must(201, "POST", "/job/loads/load-cases", map[string]any{"id": 1, "title": "self-weight"})
	s.must(201, "POST", "/job/loads/self-weight-loads", map[string]any{"loadCase": 1, "accelerationY": -1})
	s.must(201, "POST", "/job/loads/load-cases", map[string]any{"id": 2, "title": "no mass"})

	run := s.runEigen("dynamic-frequency", map[string]any{"loadCases": "1", "modes": 4})
	params := map[string]string{}
	for _, p := range run.Parameters {
		params[p.Label] = p.Value
	}
	if params["Modes"] != "4" || params["Factorizations"] == "" || params["Load cases"] != "1" {
		t.Errorf("parameters %v", params)
	}
	ei := e * 1e6 * i * 1e-12 // N·m²
	m := rho * 1e3 * a * 1e-6 // kg/m
	f := func(beta float64) float64 { return beta * beta / (2 * math.Pi) * math.Sqrt(ei/(m*L*L*L*L)) }
	want := []float64{f(1.87510407), f(1.87510407), f(4.69409113), f(4.69409113)}
	nf := eigenQuery[model.NaturalFrequencyRow](s, "dynamic/natural-frequencies")
	if len(nf.Results) != 4 || nf.Warnings.LoadCasesNotAnalyzed != "2" {
		t.Fatalf("frequencies %+v", nf)
	}
	for k, r := range nf.Results {
		if r.Mode != k+1 || !near(r.NaturalFrequency, want[k], 1e-3) || !near(r.NaturalPeriod, 1/r.NaturalFrequency, 1e-12) ||
			r.Warning != "" || !(r.FrequencyTolerance <= 1e-4) {
			t.Errorf("mode %d: %+v, want %g Hz", k+1, r, want[k])
		}
	}
	// The first pair bends in Y and in Z: one of them moves 61.3 % of the
	// mass along Y, the other along Z (0.5 %: the effective-mass fraction
	// has three digits).
	p1, p2 := nf.Results[0], nf.Results[1]
	if !near(p1.MassPartY+p2.MassPartY, 61.3, 5e-3) || !near(p1.MassPartZ+p2.MassPartZ, 61.3, 5e-3) ||
		!near(p2.MassPartSumY, p1.MassPartY+p2.MassPartY, 1e-12) || p1.MassPartX > 1e-6 {
		t.Errorf("participation: %+v, %+v; want 61.3 %% along Y and Z", p1, p2)
	}
	// Mode shapes: Unit puts the tip at 1; Mass gives φᵀ·M·φ = 1, which
	// for the exact first mode is φ_tip² ≈ 4/(mL) (Blevins: the tip
	// ordinate of a mass-normalized cantilever mode is 2/√(mL)).
	unit := eigenQuery[model.ModeShapeRow](s, "dynamic/mode-shapes?modes=1&nodes=2&normalization=Unit")
	if len(unit.Results) != 1 || unit.Results[0].Normalization != "Unit" || unit.Results[0].Node[0] != 2 ||
		!near(math.Max(math.Abs(unit.Results[0].Ty[0]), math.Abs(unit.Results[0].Tz[0])), 1, 1e-12) {
		t.Errorf("unit shape %+v", unit.Results)
	}
	mass := eigenQuery[model.ModeShapeRow](s, "dynamic/mode-shapes?modes=1&nodes=2")
	if len(mass.Results) != 1 || mass.Results[0].Normalization != "Mass" {
		t.Fatalf("mass shape %+v", mass.Results)
	}
	tip := math.Hypot(mass.Results[0].Ty[0], mass.Results[0].Tz[0])
	if !near(tip, 2/math.Sqrt(m*L), 2e-3) {
		t.Errorf("mass-normalized tip %g, want %g", tip, 2/math.Sqrt(m*L))
	}
	for q, code := range map[string]int{
		"dynamic/mode-shapes?normalization=Max":           400,
		"dynamic/mode-shapes?nodes=7":                     400,
		"dynamic/natural-frequencies?modes=0":             400,
		"dynamic/natural-frequencies?loadCases=9":         400,
		"buckling/load-factors":                           409,
		"dynamic/natural-frequencies?modes=3-9&offset=99": 200,
	} {
		if r := s.call("GET", "/job/query/analysis/"+q, nil); r.status != code || (code != 200 && !isErrorResponse(r)) {
			t.Errorf("%s = %d %s, want %d", q, r.status, r.body, code)
		}
	}
	// A case without mass fails the run, saying so.
	var failed model.Run
	s.must(202, "POST", "/job/analysis/dynamic-frequency/run", map[string]any{"loadCases": "2"}).decode(t, &failed)
	if r := s.wait(failed.RunID); r.Status != model.RunFailed || !strings.Contains(r.ErrorMessage, "mass") {
		t.Errorf("run of a case without mass: %s %q", r.Status, r.ErrorMessage)
	}
}

// sampleEngineModel converts the named sample for the engine as a worker
// does, in a workspace of its own on the stack's Redis.
func sampleEngineModel(t *testing.T, s *stack, name string) *domain.Model {
	t.Helper()
	ctx := context.Background()
	raw, _, err := samples.Read(name)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := jobfile.Decode(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		t.Fatal(err)
	}
	rdb := s.redis.Client(t)
	jobs := redisstore.NewJobs(rdb, editor.Collections())
	now := time.Now()
	if _, err := jobs.Open(ctx, "engine-check", dec.Snapshot, model.State{OpenedAt: &now}); err != nil {
		t.Fatal(err)
	}
	ed := editor.New(redisstore.NewModel(rdb), jobs)
	st := editor.NewStructure(ed)
	in, err := adapter.Build(ctx, adapter.Source{Structure: st, Loads: editor.NewLoads(ed, st)}, "engine-check", dec.Snapshot.Job.Settings)
	if err != nil {
		t.Fatal(err)
	}
	return in.Model
}

// A frequency run of the multi-storey sample goes from POST to Completed,
// and its queries return what the engine finds for the same model (whose
// mass and modes pkg/analysis's TestMultiStoreyFrequencies checks against
// statics): the store and the wire lose nothing. The engine's solve is
// deterministic for a given number of cores, so only the percent
// conversion's rounding (1e-10) and the shapes' sign are allowed for.
func TestFrequencyRunMultiStorey(t *testing.T) {
	s := startStack(t, 1)
	s.must(200, "POST", "/job/open-sample", map[string]any{"fileName": "Multi-storey frame"})
	s.runEigen("dynamic-frequency", map[string]any{"loadCases": "1", "modes": 6})
	got := eigenQuery[model.NaturalFrequencyRow](s, "dynamic/natural-frequencies")
	shapes := eigenQuery[model.ModeShapeRow](s, "dynamic/mode-shapes?normalization=None&nodes=21-24")

	res, err := dynamic.Analyze(context.Background(), sampleEngineModel(t, s, "Multi-storey frame"),
		dynamic.Options{Settings: modal.Settings{Cases: []int64{1}, Modes: 6, Tolerance: 1e-4}})
	if err != nil {
		t.Fatal(err)
	}
	want := res.Cases[0].Modes
	if len(got.Results) != len(want) || len(shapes.Results) != len(want) {
		t.Fatalf("%d frequencies and %d shapes, want %d", len(got.Results), len(shapes.Results), len(want))
	}
	var sumX float64
	for i, w := range want {
		g := got.Results[i]
		sumX += w.Participation[0]
		if !near(g.NaturalFrequency, w.Frequency, 1e-10) || !near(g.NaturalPeriod, w.Period, 1e-10) ||
			!near(g.MassPartX, 100*w.Participation[0], 1e-10) || !near(g.MassPartSumX, 100*sumX, 1e-10) {
			t.Errorf("mode %d: %+v, engine %g Hz, participation %v", i+1, g, w.Frequency, w.Participation)
		}
		// Nodes 21-24 are the first four of level 1 (model order): the
		// rows' arrays are the engine's shape there, up to its sign.
		sh := shapes.Results[i]
		big := 0.0
		for _, u := range w.Shape {
			for _, v := range u {
				big = math.Max(big, math.Abs(v))
			}
		}
		dot := 0.0
		for j := range 4 {
			for k, arr := range [][]float64{sh.Tx, sh.Ty, sh.Tz, sh.Rx, sh.Ry, sh.Rz} {
				dot += arr[j] * w.Shape[20+j][k]
			}
		}
		sign := math.Copysign(1, dot)
		for j := range 4 {
			if sh.Node[j] != int64(21+j) || math.Abs(sh.Tx[j]-sign*w.Shape[20+j][0]) > 1e-10*big ||
				math.Abs(sh.Rz[j]-sign*w.Shape[20+j][5]) > 1e-10*big {
				t.Errorf("mode %d node %d: tx %g rz %g, engine %v", i+1, sh.Node[j], sh.Tx[j], sh.Rz[j], w.Shape[20+j])
			}
		}
	}
}

// What the eigen runs cannot do yet, or cannot do with this model, fails
// the run with a message that says what to change.
func TestEigenRunRefusals(t *testing.T) {
	s := startStack(t, 1)
	swayPortal(s)
	s.must(201, "POST", "/job/loads/combination-load-cases", map[string]any{"id": 2, "title": "2 × P",
		"combinationItems": []map[string]any{{"loadCase": 1, "multiplyingFactor": 2}}})
	fails := func(kind string, body map[string]any, want string) {
		t.Helper()
		var run model.Run
		s.must(202, "POST", "/job/analysis/"+kind+"/run", body).decode(t, &run)
		if r := s.wait(run.RunID); r.Status != model.RunFailed || !strings.Contains(r.ErrorMessage, want) {
			t.Errorf("%s %v: %s %q, want Failed saying %q", kind, body, r.Status, r.ErrorMessage, want)
		}
	}
	// With all cases (the default) the combination is left out, not
	// refused: the frequency run analyses case 1 only.
	s.runEigen("dynamic-frequency", nil)
	if nf := eigenQuery[model.NaturalFrequencyRow](s, "dynamic/natural-frequencies"); nf.Warnings.LoadCasesNotAnalyzed != "2" {
		t.Errorf("frequencies of all cases: %+v", nf.Warnings)
	}
	fails("buckling", map[string]any{"loadCases": "2"}, "is a combination")
	fails("dynamic-frequency", map[string]any{"loadCases": "1-2"}, "is a combination")
	fails("buckling", map[string]any{"axialForceDistribution": "NonLinear"}, "set it to Linear")
	fails("buckling", map[string]any{"loadCases": "1,5"}, "do not exist")
	// Pulling the columns leaves nothing in compression.
	s.must(200, "PATCH", "/job/loads/node-loads/1/2", map[string]any{"fy": spP})
	s.must(200, "PATCH", "/job/loads/node-loads/1/3", map[string]any{"fy": spP})
	fails("buckling", map[string]any{}, "no member or plate is in compression")
	// A tension-only member cannot be resolved by a buckling run yet,
	// unless it is treated as two-way.
	s.must(200, "PATCH", "/job/structure/members/2", map[string]any{"type": "TensionOnly"})
	fails("buckling", map[string]any{}, "set tensionCompressionOnly to NoReversal")
}

// stabilizeUnrestrainedNodes reaches the eigen runs: a truss bar whose
// free end has no rotational stiffness fails as a mechanism without it,
// and with it completes, warning about the freedoms it stabilized.
func TestEigenStabilizeUnrestrainedNodes(t *testing.T) {
	s := startStack(t, 1)
	s.must(200, "POST", "/job/new", nil)
	s.must(201, "POST", "/job/structure/materials", map[string]any{"id": 1, "name": "steel", "youngsModulus": spE,
		"poissonsRatio": 0.3, "massDensity": 7.85})
	s.must(201, "POST", "/job/structure/sections", map[string]any{"id": 1, "name": "bar", "a": 1e4, "j": 2 * spI, "iy": spI, "iz": spI,
		"ay": 1e12, "az": 1e12})
	s.must(201, "POST", "/job/structure/nodes", map[string]any{"id": 1, "x": 0, "y": 0, "z": 0})
	s.must(201, "POST", "/job/structure/nodes", map[string]any{"id": 2, "x": 3, "y": 0, "z": 0})
	s.must(201, "POST", "/job/structure/members", map[string]any{"id": 1, "nodeA": 1, "nodeB": 2, "section": 1, "material": 1, "type": "Truss"})
	s.must(201, "POST", "/job/structure/node-restraints", map[string]any{"node": 1, "restraintCode": "FFFFFF"})
	s.must(201, "POST", "/job/structure/node-restraints", map[string]any{"node": 2, "restraintCode": "RFFRRR"})
	s.must(201, "POST", "/job/loads/load-cases", map[string]any{"id": 1, "title": "self-weight along the bar"})
	s.must(201, "POST", "/job/loads/self-weight-loads", map[string]any{"loadCase": 1, "accelerationX": -1})
	var run model.Run
	s.must(202, "POST", "/job/analysis/dynamic-frequency/run", map[string]any{"modes": 1}).decode(t, &run)
	if r := s.wait(run.RunID); r.Status != model.RunFailed || !strings.Contains(r.ErrorMessage, "mechanism at node 2") {
		t.Errorf("without stabilizing: %s %q, want a mechanism at node 2", r.Status, r.ErrorMessage)
	}
	done := s.runEigen("dynamic-frequency", map[string]any{"modes": 1, "stabilizeUnrestrainedNodes": true})
	if !strings.Contains(strings.Join(done.Warnings, "\n"), "node 2 rotation about X") {
		t.Errorf("warnings %q do not name node 2's rotation", done.Warnings)
	}
	if nf := eigenQuery[model.NaturalFrequencyRow](s, "dynamic/natural-frequencies"); len(nf.Results) != 1 {
		t.Errorf("frequencies %+v, want the bar's axial mode", nf.Results)
	}
}

// Limits the engine refuses are a 400 at PATCH and at the run's start,
// naming the field: negative buckling limits, and lowerLimit equal to
// upperLimit (the range must not be empty). Before, the run was accepted
// and then failed.
func TestEigenLimitsRefusedAtStart(t *testing.T) {
	s := startStack(t, 1)
	swayPortal(s)
	if r := s.call("PATCH", "/job/analysis/buckling/settings", map[string]any{"lowerLimit": -2}); r.status != 400 {
		t.Errorf("PATCH buckling settings lowerLimit -2 = %d, want 400", r.status)
		s.must(200, "PATCH", "/job/analysis/buckling/settings", map[string]any{"lowerLimit": 0})
	}
	for _, c := range []struct {
		kind string
		body map[string]any
	}{
		{"buckling", map[string]any{"lowerLimit": -2}},
		{"buckling", map[string]any{"lowerLimit": 50, "upperLimit": 50}},
		{"dynamic-frequency", map[string]any{"lowerLimit": 1, "upperLimit": 1}},
	} {
		r := s.call("POST", "/job/analysis/"+c.kind+"/run", c.body)
		if r.status == 400 && isErrorResponse(r) {
			continue
		}
		if r.status != 202 {
			t.Errorf("%s %v: POST = %d %s", c.kind, c.body, r.status, r.body)
			continue
		}
		var run model.Run
		r.decode(t, &run)
		if end := s.wait(run.RunID); end.Status == model.RunFailed {
			t.Errorf("%s %v: accepted (202), then the run failed: %q; want a 400 at POST (and PATCH)", c.kind, c.body, end.ErrorMessage)
		}
	}
}

// The settings allow up to 1000 modes, but a run computes at most 200 per
// case: starting one with more is a 400 naming 200.
func TestEigenModesAbove200Refused(t *testing.T) {
	s := startStack(t, 1)
	swayPortal(s)
	for _, kind := range []string{"buckling", "dynamic-frequency"} {
		r := s.call("POST", "/job/analysis/"+kind+"/run", map[string]any{"modes": 500})
		if r.status != 400 || !isErrorResponse(r) || !strings.Contains(string(r.body), "200") {
			t.Errorf("%s modes 500: POST = %d %.160s; want a 400 naming the limit 200", kind, r.status, r.body)
		}
		if r.status == 202 {
			var run model.Run
			r.decode(t, &run)
			s.wait(run.RunID)
		}
	}
}

// pinnedColumn is an Euler column along Y (default units): pinned base,
// top held along X and Z, free along Y, P = 100 kN down at the top and
// self-weight for mass. Its bending modes move the member between its
// two nodes; at the nodes only rotations (and round-off translations)
// remain — the README's "a member modelled alone gives its Euler load and
// its first frequencies".
func pinnedColumn(s *stack) {
	s.t.Helper()
	s.must(200, "POST", "/job/new", nil)
	s.must(201, "POST", "/job/structure/materials", map[string]any{"id": 1, "name": "steel", "youngsModulus": spE,
		"poissonsRatio": 0.3, "massDensity": 7.85})
	s.must(201, "POST", "/job/structure/sections", map[string]any{"id": 1, "name": "col", "a": 1e4, "j": 2 * spI,
		"iy": spI, "iz": spI, "ay": 1e12, "az": 1e12})
	s.must(201, "POST", "/job/structure/nodes", map[string]any{"id": 1, "x": 0, "y": 0, "z": 0})
	s.must(201, "POST", "/job/structure/nodes", map[string]any{"id": 2, "x": 0, "y": spH, "z": 0})
	s.must(201, "POST", "/job/structure/members", map[string]any{"id": 1, "nodeA": 1, "nodeB": 2, "section": 1, "material": 1})
	s.must(201, "POST", "/job/structure/node-restraints", map[string]any{"node": 1, "restraintCode": "FFFFFR"})
	s.must(201, "POST", "/job/structure/node-restraints", map[string]any{"node": 2, "restraintCode": "FRFFFR"})
	s.must(201, "POST", "/job/loads/load-cases", map[string]any{"id": 1, "title": "P"})
	s.must(201, "POST", "/job/loads/node-loads", map[string]any{"loadCase": 1, "node": 2, "fy": -spP})
	s.must(201, "POST", "/job/loads/self-weight-loads", map[string]any{"loadCase": 1, "accelerationY": -1})
}

// A single member bending between held nodes leaves the nodes only
// rotations and round-off translations: Unit normalization must scale by
// the largest rotation then, not blow round-off up to 1 (it gave rotations
// of 1e15), and load-factors must not name a support as the node of the
// largest translation.
func TestEigenUnitShapesOfRoundOff(t *testing.T) {
	s := startStack(t, 1)
	pinnedColumn(s)
	s.runEigen("dynamic-frequency", map[string]any{"modes": 4})
	s.runEigen("buckling", map[string]any{"modes": 2})
	for _, q := range []string{"dynamic/mode-shapes?normalization=Unit", "buckling/mode-shapes"} {
		for _, row := range eigenQuery[model.ModeShapeRow](s, q).Results {
			big, unit := 0.0, false
			for _, arr := range [][]float64{row.Tx, row.Ty, row.Tz, row.Rx, row.Ry, row.Rz} {
				for _, v := range arr {
					big = math.Max(big, math.Abs(v))
					unit = unit || math.Abs(math.Abs(v)-1) < 1e-9
				}
			}
			if big >= 1e3 || !unit {
				t.Errorf("%s mode %d (%s): largest |component| %.3g, a component of ±1: %v; ty %v rz %v",
					q, row.Mode, row.Normalization, big, unit, row.Ty, row.Rz)
			}
		}
	}
	lf := eigenQuery[model.BucklingLoadFactorRow](s, "buckling/load-factors")
	for _, r := range lf.Results {
		if r.NodeAtMaxTrans == 1 {
			t.Errorf("buckling mode %d: nodeAtMaxTrans %d (%s) is the pinned base, which cannot translate", r.Mode, r.NodeAtMaxTrans, r.TransAxis)
		}
	}
}
