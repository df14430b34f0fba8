package dynamic_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/dynamic"
	"github.com/gusset/gusset/pkg/fem/modal"
)

const (
	e   = 2.1e11
	rho = 7850.0
	L   = 5.0
	a   = 0.01
	iz  = 2e-6 // bending in the x-y plane
)

// beam returns a member along X from node 4 to node 5 of length L, bending
// softly in the x-y plane (Iz) and stiffly out of it (Iy, J large), so that
// its lowest modes are the x-y bending modes, with a self-weight case.
func beam(supA, supB string, iy float64) *domain.Model {
	m := &domain.Model{
		Nodes:     []domain.Node{{ID: 4}, {ID: 5, X: L}},
		Materials: []domain.Material{{ID: 3, E: e, G: 8.1e10, Density: rho}},
		Sections:  []domain.Section{{ID: 2, A: a, J: 1e-2, Iy: iy, Iz: iz}},
		Members:   []domain.Member{{ID: 1, NodeA: 4, NodeB: 5, Section: 2, Material: 3}},
		LoadCases: []domain.LoadCase{{ID: 6, SelfWeight: [3]float64{0, -1, 0}}},
	}
	for n, code := range map[int64]string{4: supA, 5: supB} {
		if code != "" {
			m.Supports = append(m.Supports, domain.Support{Node: n, Code: code})
		}
	}
	return m
}

func analyze(t *testing.T, m *domain.Model, opts dynamic.Options) *dynamic.Results {
	t.Helper()
	res, err := dynamic.Analyze(context.Background(), m, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range res.Warnings {
		t.Errorf("warning: %s", w)
	}
	return res
}

// bending returns f_n = (β_n·L)²/(2π·L²)·√(EI/(ρA)), Hz.
func bending(betaL float64) float64 {
	return betaL * betaL / (2 * math.Pi * L * L) * math.Sqrt(e*iz/(rho*a))
}

// TestBeamFrequencies checks the lowest frequencies of members modelled as
// one member against the Euler–Bernoulli closed forms (Blevins, Formulas
// for Natural Frequency and Mode Shape, 1979, table 8-1): the cantilever's
// β_nL = 1.87510407, 4.69409113, 7.85475744, 10.99554073 and the simply
// supported beam's nπ, each within 0.1 % (the accuracy target; the
// subdivided model is well inside it).
func TestBeamFrequencies(t *testing.T) {
	cases := []struct {
		name       string
		supA, supB string
		betaL      []float64
	}{
		{"cantilever", "FFFFFF", "", []float64{1.87510407, 4.69409113, 7.85475744, 10.99554073}},
		{"simply supported", "FFFFFR", "RFFFFR", []float64{math.Pi, 2 * math.Pi, 3 * math.Pi}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := analyze(t, beam(c.supA, c.supB, 0.02), dynamic.Options{Settings: modal.Settings{Modes: len(c.betaL)}})
			modes := res.Cases[0].Modes
			if len(modes) != len(c.betaL) {
				t.Fatalf("%d modes, want %d", len(modes), len(c.betaL))
			}
			for i, bl := range c.betaL {
				want := bending(bl)
				if got := modes[i].Frequency; !(math.Abs(got-want) <= 1e-3*want) {
					t.Errorf("mode %d: %.6f Hz, want %.6f Hz (%.4f %%)", i+1, got, want, 100*(got-want)/want)
				}
				if p := modes[i].Period; !(math.Abs(p*modes[i].Frequency-1) <= 1e-12) {
					t.Errorf("mode %d: period %g is not 1/f", i+1, p)
				}
			}
		})
	}
}

// TestCantileverParticipation: the first mode of a uniform cantilever moves
// 61.3 % of its mass along the direction of vibration (effective modal
// mass 0.6131·m, e.g. Chopra, Dynamics of Structures, 4th ed., §17.4),
// and none along the beam's axis; tolerance 0.1 percentage point.
func TestCantileverParticipation(t *testing.T) {
	res := analyze(t, beam("FFFFFF", "", 0.02), dynamic.Options{Settings: modal.Settings{Modes: 1}})
	c := res.Cases[0]
	for d, m := range c.TotalMass {
		if want := rho * a * L; !(math.Abs(m-want) <= 1e-12*want) {
			t.Errorf("total mass along %d: %g, want ρAL = %g", d, m, want)
		}
	}
	p := c.Modes[0].Participation
	if !(math.Abs(p[1]-0.6131) <= 1e-3) || !(p[0] <= 1e-9) || !(p[2] <= 1e-9) {
		t.Errorf("participation %v, want [0 0.613 0]", p)
	}
}

// TestRepeatedFrequencies: with Iy = Iz the cantilever bends alike in both
// planes, so each frequency is double. Both copies are found, and the
// Sturm count agrees (analyze fails on any warning).
func TestRepeatedFrequencies(t *testing.T) {
	res := analyze(t, beam("FFFFFF", "", iz), dynamic.Options{Settings: modal.Settings{Modes: 4}})
	modes := res.Cases[0].Modes
	for _, pair := range [][2]int{{0, 1}, {2, 3}} {
		f0, f1 := modes[pair[0]].Frequency, modes[pair[1]].Frequency
		if !(math.Abs(f0-f1) <= 1e-8*f0) {
			t.Errorf("modes %d and %d: %.10g and %.10g Hz, want equal", pair[0]+1, pair[1]+1, f0, f1)
		}
	}
	if want := bending(1.87510407); !(math.Abs(modes[0].Frequency-want) <= 1e-3*want) {
		t.Errorf("first frequency %g, want %g", modes[0].Frequency, want)
	}
}

// TestMassFromLoads: a massless cantilever (no self-weight) carrying a tip
// mass is a single oscillator along each axis, f = √(k/m)/(2π) with the tip
// stiffness k = 3EI/L³ (exact: the member's own mass is zero). The mass
// may be a lumped mass or a downward tip force m·g; tolerance 1e-9.
func TestMassFromLoads(t *testing.T) {
	const tip = 500.0
	want := math.Sqrt(3*e*iz/(L*L*L)/tip) / (2 * math.Pi)
	for _, c := range []struct {
		name string
		lc   domain.LoadCase
	}{
		{"lumped mass", domain.LoadCase{ID: 13, Masses: []domain.NodeMass{{Node: 5, M: [6]float64{tip, tip, tip}}}}},
		{"downward force", domain.LoadCase{ID: 13, NodeLoads: []domain.NodeLoad{{Node: 5, F: [6]float64{1: -tip * domain.G}}}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := beam("FFFFFF", "", 0.02)
			m.LoadCases = []domain.LoadCase{c.lc}
			res := analyze(t, m, dynamic.Options{Settings: modal.Settings{Modes: 1}})
			if got := res.Cases[0].Modes[0].Frequency; !(math.Abs(got-want) <= 1e-9*want) {
				t.Errorf("%.12g Hz, want %.12g Hz", got, want)
			}
		})
	}
}

func TestNoMass(t *testing.T) {
	m := beam("FFFFFF", "", 0.02)
	m.LoadCases = []domain.LoadCase{{ID: 7}}
	_, err := dynamic.Analyze(context.Background(), m, dynamic.Options{})
	if err == nil || !strings.Contains(err.Error(), "no mass") {
		t.Fatalf("error %v, want one saying the case has no mass", err)
	}
}

// TestStrainLoadsAddNoMass: thermal and prestress loads in the mass case
// are self-equilibrated strains, not weights: a standing cantilever's
// first frequency and mass are the same with and without them (tolerance:
// round-off).
func TestStrainLoadsAddNoMass(t *testing.T) {
	// Standing up: the strain loads' equivalent node loads are vertical.
	column := func() *domain.Model {
		m := beam("FFFFFF", "", 0.02)
		m.Nodes[1] = domain.Node{ID: 5, Y: L}
		return m
	}
	plain := analyze(t, column(), dynamic.Options{Settings: modal.Settings{Modes: 1}})
	m := column()
	m.Materials[0].Alpha = 1.2e-5
	m.LoadCases[0].Thermal = []domain.ThermalLoad{{Member: 1, DT: -30, DTy: 5}}
	m.LoadCases[0].Prestress = []domain.PrestressLoad{{Member: 1, Force: 1e5}}
	got := analyze(t, m, dynamic.Options{Settings: modal.Settings{Modes: 1}})
	f0, f1 := plain.Cases[0].Modes[0].Frequency, got.Cases[0].Modes[0].Frequency
	if !(math.Abs(f1-f0) <= 1e-9*f0) || got.Cases[0].TotalMass != plain.Cases[0].TotalMass {
		t.Errorf("with strain loads %.10g Hz and %v kg, without %.10g Hz and %v kg", f1, got.Cases[0].TotalMass, f0, plain.Cases[0].TotalMass)
	}
}

// TestFewerModesThanAsked: a massless cantilever with a tip mass moving
// along X, Y and Z has three modes; asking for six finds those three (the
// lowest, bending about Z, at √(3EI/L³/m)/2π exactly) and says the others
// do not exist.
func TestFewerModesThanAsked(t *testing.T) {
	const tip = 500.0
	m := beam("FFFFFF", "", 0.02)
	m.LoadCases = []domain.LoadCase{{ID: 13, Masses: []domain.NodeMass{{Node: 5, M: [6]float64{tip, tip, tip}}}}}
	res, err := dynamic.Analyze(context.Background(), m, dynamic.Options{Settings: modal.Settings{Modes: 6}})
	if err != nil {
		t.Fatal(err)
	}
	modes := res.Cases[0].Modes
	if len(modes) != 3 || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "only 3 modes") {
		t.Fatalf("%d modes, warnings %q; want 3 and one saying only 3 exist", len(modes), res.Warnings)
	}
	if want := math.Sqrt(3*e*iz/(L*L*L)/tip) / (2 * math.Pi); !(math.Abs(modes[0].Frequency-want) <= 1e-9*want) {
		t.Errorf("first %.12g Hz, want %.12g Hz", modes[0].Frequency, want)
	}
}

// TestLimitsAndShift: with the lower limit between the cantilever's first
// and second frequencies and the shift below both, the modes start at the
// second (β₂L = 4.69409113, Blevins table 8-1, within 0.1 %) and the Sturm
// check, which then counts from the limit, agrees (no warning).
func TestLimitsAndShift(t *testing.T) {
	f1, f2 := bending(1.87510407), bending(4.69409113)
	res := analyze(t, beam("FFFFFF", "", 0.02), dynamic.Options{Settings: modal.Settings{Modes: 2, LowerLimit: (f1 + f2) / 2}, Shift: f1 / 2})
	if got := res.Cases[0].Modes[0].Frequency; !(math.Abs(got-f2) <= 1e-3*f2) {
		t.Errorf("first mode above the limit %.6f Hz, want %.6f Hz", got, f2)
	}
	_, err := dynamic.Analyze(context.Background(), beam("FFFFFF", "", 0.02), dynamic.Options{Settings: modal.Settings{LowerLimit: -5}})
	if err == nil || !strings.Contains(err.Error(), "must not be negative") {
		t.Errorf("negative lower limit: error %v", err)
	}
}

// TestMechanismNamed: a cantilever whose tip is released about Z leaves
// the tip node's rotation about Z without stiffness; the analysis names
// that node and DOF.
func TestMechanismNamed(t *testing.T) {
	m := beam("FFFFFF", "", 0.02)
	m.Members[0].ReleaseB = "FFFFFR"
	_, err := dynamic.Analyze(context.Background(), m, dynamic.Options{})
	if err == nil || !strings.Contains(err.Error(), "node 5, rotation about Z") {
		t.Fatalf("error %v, want a mechanism at node 5, rotation about Z", err)
	}
}

// TestSymmetricFrameRepeated: a one-storey frame on a square plan (four
// equal columns with Iy = Iz, four equal beams), symmetric about both
// vertical planes, sways alike along X and Z: its first two frequencies
// are equal (to the solver's tolerance, 1e-8 relative) and both are found,
// with the Sturm count agreeing (analyze fails on any warning).
func TestSymmetricFrameRepeated(t *testing.T) {
	const span, h = 4.0, 3.0
	m := &domain.Model{
		Materials: []domain.Material{{ID: 3, E: e, G: 8.1e10, Density: rho}},
		Sections:  []domain.Section{{ID: 2, A: a, J: 4e-6, Iy: iz, Iz: iz}},
		LoadCases: []domain.LoadCase{{ID: 6, SelfWeight: [3]float64{0, -1, 0}}},
	}
	corners := [][2]float64{{0, 0}, {span, 0}, {span, span}, {0, span}}
	for i, c := range corners {
		base, top := int64(i+1), int64(i+11) // columns 101–104, girders 201–204
		m.Nodes = append(m.Nodes, domain.Node{ID: base, X: c[0], Z: c[1]}, domain.Node{ID: top, X: c[0], Y: h, Z: c[1]})
		m.Supports = append(m.Supports, domain.Support{Node: base, Code: "FFFFFF"})
		m.Members = append(m.Members, domain.Member{ID: int64(101 + i), NodeA: base, NodeB: top, Section: 2, Material: 3},
			domain.Member{ID: int64(201 + i), NodeA: top, NodeB: int64((i+1)%4 + 11), Section: 2, Material: 3})
	}
	res := analyze(t, m, dynamic.Options{Settings: modal.Settings{Modes: 2}})
	f := res.Cases[0].Modes
	if !(math.Abs(f[0].Frequency-f[1].Frequency) <= 1e-8*f[0].Frequency) {
		t.Errorf("first two frequencies %.12g and %.12g Hz, want equal", f[0].Frequency, f[1].Frequency)
	}
	// One sways along X, the other along Z: together they move the same
	// share of the mass along each.
	px := f[0].Participation[0] + f[1].Participation[0]
	pz := f[0].Participation[2] + f[1].Participation[2]
	if !(math.Abs(px-pz) <= 1e-6) || !(px > 0.5) {
		t.Errorf("participation X %g, Z %g: want equal and most of the mass", px, pz)
	}
}
