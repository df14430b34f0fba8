package examples_test

import (
	"fmt"
	"math"
	"testing"
)

// columnResult is the last line of column_modes.py.
type columnResult struct {
	Units   map[string]string `json:"units"`
	Height  float64           `json:"height"`
	Load    float64           `json:"load"`
	Section struct {
		A, Iy, Iz float64
	} `json:"section"`
	Material struct {
		YoungsModulus float64 `json:"youngsModulus"`
		MassDensity   float64 `json:"massDensity"`
	} `json:"material"`
	Frequencies []struct {
		Mode             int     `json:"mode"`
		NaturalFrequency float64 `json:"naturalFrequency"`
		MassPartX        float64 `json:"massPartX"`
		MassPartZ        float64 `json:"massPartZ"`
	} `json:"frequencies"`
	LoadFactors []struct {
		Mode       int     `json:"mode"`
		LoadFactor float64 `json:"loadFactor"`
	} `json:"loadFactors"`
	EffectiveLengths []struct {
		Mode int     `json:"mode"`
		Pcr  float64 `json:"pcr"`
		Ly   float64 `json:"ly"`
		Lz   float64 `json:"lz"`
	} `json:"effectiveLengths"`
}

// checkColumn compares column_modes.py's numbers with the closed forms of
// a cantilever column of height L (the section's shear areas are huge, so
// Euler–Bernoulli holds), in the default job units (m, kN, mm⁴, MPa,
// T/m³), each within 0.1 % (the acceptance bound; the service subdivides
// the member internally):
//   - frequencies f = (β₁L)²/(2π·L²)·√(EI/m), β₁L = 1.87510407 (Blevins,
//     Formulas for Natural Frequency and Mode Shape, Table 8-1), first
//     about the weaker axis (Iz), then the stronger (Iy); each moves 61.3 %
//     of the mass along its direction (Chopra, Dynamics of Structures,
//     §17.3);
//   - buckling loads P = π²·EI/(2L)² (Timoshenko and Gere, Theory of
//     Elastic Stability, §2.1), weaker axis first, and in that mode the
//     effective length about the buckling axis is 2L.
func checkColumn(t *testing.T, got columnResult) {
	t.Helper()
	if got.Units["length"] != "m" || got.Units["force"] != "kN" || got.Units["sectionProperties"] != "mm" ||
		got.Units["stress"] != "MPa" || got.Units["massDensity"] != "Tperm3" {
		t.Fatalf("units %v, want the defaults the checks assume", got.Units)
	}
	L := got.Height
	e := got.Material.YoungsModulus * 1e6                      // Pa
	m := got.Material.MassDensity * 1e3 * got.Section.A * 1e-6 // kg/m
	ei := func(i float64) float64 { return e * i * 1e-12 }     // N·m²
	f := func(i float64) float64 {
		const b = 1.87510407
		return b * b / (2 * math.Pi * L * L) * math.Sqrt(ei(i)/m)
	}
	if len(got.Frequencies) < 2 || len(got.LoadFactors) != 2 || len(got.EffectiveLengths) != 2 {
		t.Fatalf("modes: %d frequencies, %d load factors, %d effective lengths", len(got.Frequencies),
			len(got.LoadFactors), len(got.EffectiveLengths))
	}
	near(t, "f1 (about z)", got.Frequencies[0].NaturalFrequency, f(got.Section.Iz), 1e-3, 0)
	near(t, "f2 (about y)", got.Frequencies[1].NaturalFrequency, f(got.Section.Iy), 1e-3, 0)
	for k := range 2 {
		fr := got.Frequencies[k]
		near(t, fmt.Sprintf("participation of mode %d", k+1), fr.MassPartX+fr.MassPartZ, 61.3, 5e-3, 0)
	}
	pcr := func(i float64) float64 { return math.Pi * math.Pi * ei(i) / (4 * L * L) / 1e3 } // kN
	near(t, "λ1·P", got.LoadFactors[0].LoadFactor*got.Load, pcr(got.Section.Iz), 1e-3, 0)
	near(t, "λ2·P", got.LoadFactors[1].LoadFactor*got.Load, pcr(got.Section.Iy), 1e-3, 0)
	el := got.EffectiveLengths
	near(t, "Pcr of mode 1", el[0].Pcr, pcr(got.Section.Iz), 1e-3, 0)
	near(t, "lz in mode 1", el[0].Lz, 2*L, 1e-3, 0)
	near(t, "ly in mode 2", el[1].Ly, 2*L, 1e-3, 0)
}
