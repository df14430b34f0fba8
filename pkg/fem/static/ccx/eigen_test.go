//go:build ccx

package ccx

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/fem/buckling"
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/dynamic"
	"github.com/gusset/gusset/pkg/fem/modal"
)

// eigenDivisions is the number of B31 elements per member in the eigen
// decks. ccx's bricks converge slowly near the rigid member ends (each
// halving of the pieces removes only about two thirds of the error), so
// the mesh must be fine for the reference to be well inside the
// tolerance. grid-4, first frequency and buckling factor:
//
//	pieces        8       16      32      64      (extrapolated)
//	f1, Hz        1.8133  1.7958  1.7898  1.7878  (1.7868)
//	λ1            30.713  30.121  29.922  29.856  (29.82)
//
// With 32 pieces ccx is about 0.2 % (frequencies) and 0.35 % (buckling
// factors) above its converged values; a deck takes about 6 s and 0.5 GB.
const eigenDivisions = 32

// eigenTolerance is the acceptance figure for each frequency and buckling
// factor: 1 % of the engine's value. What separates the two, measured on
// grid-4 (README.md has the table):
//
//   - ccx's discretisation with eigenDivisions pieces: +0.15–0.2 % on the
//     frequencies, +0.3 % on the buckling factors (see eigenDivisions);
//   - the engine's: its eigen analyses keep one cubic element per member
//     in a model of 260 members (modal.Segments), which puts the
//     frequencies up to 0.35 % and the buckling factors 0.7–1.2 % above
//     the engine's own values with members in 8 segments (a sway column
//     as one cubic element buckles at 10·EI/L², not π²·EI/L²);
//   - solid against beam, both converged: ccx 0.1–0.25 % stiffer (the
//     rigid knots at the member ends, its shear stiffness, which the
//     shear areas A of RectSection match to a few per cent, less its
//     rotary inertia of bending, which the engine's mass lacks).
//
// The engine ends up within 0.3 % of ccx for the frequencies and 0.75 %
// for the third buckling factor: inside 1 %, and most of the buckling
// difference is the engine's one-element columns, not noise. Against
// ccx extrapolated to a fine mesh that factor is 1.0 % apart. A section
// turned by 90° misses by 30 % (TestEigenSensitivity).
const eigenTolerance = 0.01

// eigenCase is one eigen analysis of a load case, by both solvers.
type eigenCase struct {
	name   string
	lc     int64
	step   Step
	modes  int
	unit   string
	engine func(ctx context.Context, m *domain.Model, lc int64, modes int) ([]float64, error)
}

var eigenCases = []eigenCase{
	{name: "grid-4 frequencies", lc: 2, step: Frequency, modes: 10, unit: "Hz", engine: engineFrequencies},
	{name: "grid-4 buckling", lc: 3, step: Buckle, modes: 3, unit: "", engine: engineBuckling},
}

func TestEigenCrossCheck(t *testing.T) {
	ccx := findCCX(t)
	for _, tc := range eigenCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := rectGridModel(4)
			ours := engineEigen(t, tc, m)
			theirs := ccxEigen(t, ccx, tc, m, gridRect)
			worst := 0.0
			for i := range ours {
				rel := (theirs[i] - ours[i]) / ours[i]
				worst = math.Max(worst, math.Abs(rel))
				t.Logf("mode %2d: engine %9.5f %s, ccx %9.5f %s, %+.2f %%", i+1, ours[i], tc.unit, theirs[i], tc.unit, 100*rel)
				if math.Abs(rel) > eigenTolerance {
					t.Errorf("mode %d: engine %.5g, ccx %.5g: %.2f %% apart, more than %g %%", i+1, ours[i], theirs[i], 100*rel, 100*eigenTolerance)
				}
			}
			t.Logf("max difference %.2f %%", 100*worst)
		})
	}
}

// TestEigenSensitivity shows that the eigen comparison sees the sections'
// orientation: CalculiX gets grid-4 with every rectangle turned by 90°
// about the member axis (sides along local y and z swapped) and must then
// miss the engine's values for the original by more than the tolerance.
// The other choices RectSection makes are too small to show at 1 %
// (README.md): the Saint-Venant J instead of ccx's moves the frequencies
// by at most 0.2 %, shear areas 0 instead of A by at most 0.5 %.
func TestEigenSensitivity(t *testing.T) {
	ccx := findCCX(t)
	turned := Rect{Y: gridRect.Z, Z: gridRect.Y}
	for _, tc := range eigenCases {
		t.Run(tc.name+" with the sections turned", func(t *testing.T) {
			t.Parallel()
			ours := engineEigen(t, tc, rectGridModel(4))
			m := rectGridModel(4)
			m.Sections = []domain.Section{RectSection(1, turned)}
			theirs := ccxEigen(t, ccx, tc, m, turned)
			worst := 0.0
			for i := range ours {
				worst = math.Max(worst, math.Abs(theirs[i]-ours[i])/ours[i])
			}
			t.Logf("largest difference %.1f %%", 100*worst)
			if worst <= eigenTolerance {
				t.Errorf("within %g %% of the original model, so the cross-check cannot see the orientation", 100*eigenTolerance)
			}
		})
	}
}

// engineEigen runs the engine's analysis of tc on m and checks that it
// found all the modes asked for without warnings.
func engineEigen(t *testing.T, tc eigenCase, m *domain.Model) []float64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	vals, err := tc.engine(ctx, m, tc.lc, tc.modes)
	if err != nil {
		t.Fatalf("engine: %v", err)
	}
	if len(vals) != tc.modes {
		t.Fatalf("engine: %d modes, want %d", len(vals), tc.modes)
	}
	return vals
}

// ccxEigen writes m's case of tc as a deck with eigenDivisions B31
// pieces per member and the rectangle r for its section, runs ccx and
// returns its values.
func ccxEigen(t *testing.T, ccx string, tc eigenCase, m *domain.Model, r Rect) []float64 {
	t.Helper()
	d, err := Write(m, tc.lc, Options{Divisions: eigenDivisions, Step: tc.step, Modes: tc.modes,
		Rect: map[int64]Rect{1: r}})
	if err != nil {
		t.Fatalf("write: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	start := time.Now()
	vals, err := RunEigen(ctx, ccx, t.TempDir(), d)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("ccx: %d lines of input, %.1f s", strings.Count(d.Text, "\n"), time.Since(start).Seconds())
	if len(vals) != tc.modes {
		t.Fatalf("ccx: %d modes, want %d", len(vals), tc.modes)
	}
	return vals
}

// engineFrequencies returns the lowest natural frequencies of case lc, Hz.
func engineFrequencies(ctx context.Context, m *domain.Model, lc int64, modes int) ([]float64, error) {
	res, err := dynamic.Analyze(ctx, m, dynamic.Options{Settings: modal.Settings{Modes: modes, Cases: []int64{lc}}})
	if err != nil {
		return nil, err
	}
	if len(res.Warnings) > 0 {
		return nil, fmt.Errorf("warnings: %v", res.Warnings)
	}
	var f []float64
	for _, md := range res.Cases[0].Modes {
		f = append(f, md.Frequency)
	}
	return f, nil
}

// engineBuckling returns the smallest buckling factors of case lc.
func engineBuckling(ctx context.Context, m *domain.Model, lc int64, modes int) ([]float64, error) {
	res, err := buckling.Analyze(ctx, m, buckling.Options{Settings: modal.Settings{Modes: modes, Cases: []int64{lc}}})
	if err != nil {
		return nil, err
	}
	if len(res.Warnings) > 0 {
		return nil, fmt.Errorf("warnings: %v", res.Warnings)
	}
	var f []float64
	for _, md := range res.Cases[0].Modes {
		f = append(f, md.LoadFactor)
	}
	return f, nil
}
