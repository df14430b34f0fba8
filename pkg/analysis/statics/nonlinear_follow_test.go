package statics

import (
	"context"
	"fmt"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/nonlinear"
	"github.com/gusset/gusset/pkg/model"
)

// followSettings returns the default static settings in theory th with
// rotateLocalLoads set to rotate, tight enough to compare directions.
func followSettings(th string, rotate bool) model.StaticSettings {
	s := model.DefaultStaticSettings()
	s.Theory, s.RotateLocalLoads = th, rotate
	s.ConvergenceAccuracy = 1e-6 // percent
	s.LoadStepIterations = 100
	s.MatrixType = model.MatrixTangent
	return s
}

// TestRotateLocalLoadsOption: rotateLocalLoads reaches the engine as
// nonlinear.Options.FollowLocalLoads, in every theory (the Small theory
// ignores it).
func TestRotateLocalLoadsOption(t *testing.T) {
	for _, th := range []string{model.TheoryFinite, model.TheoryLarge, model.TheorySmall} {
		for _, rotate := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/%v", th, rotate), func(t *testing.T) {
				if got := nonlinearOptions(followSettings(th, rotate)).FollowLocalLoads; got != rotate {
					t.Errorf("FollowLocalLoads = %v, want %v", got, rotate)
				}
			})
		}
	}
	if !model.DefaultStaticSettings().RotateLocalLoads {
		t.Error("rotateLocalLoads is off by default; the API documents it on")
	}
}

// TestRotateLocalLoadsRun: through the service's options, a cantilever
// of 10 members (EI = 1, L = 1) under a tip force P = 3 along the last
// member's local +y, in the Finite theory: with rotateLocalLoads on the
// applied tip force stays perpendicular to the turned last member (its
// current element axes, within 1e-9·P), with it off it stays along
// global Y (exactly: P is not recomputed). The tip turns by about 1 rad,
// so the two are far apart.
func TestRotateLocalLoadsRun(t *testing.T) {
	const ne, P = 10, 3.0
	m := &domain.Model{
		VerticalAxis: geom.YAxis,
		Materials:    []domain.Material{{ID: 1, E: 1e4, G: 4e3}},
		Sections:     []domain.Section{{ID: 1, A: 100, J: 2e-4, Iy: 1e-4, Iz: 1e-4}},
		Supports:     []domain.Support{{Node: 1, Code: "FFFFFF"}},
		LoadCases: []domain.LoadCase{{ID: 1, Members: []domain.MemberLoad{{Member: ne, Type: domain.ConcentratedForce,
			Axes: domain.Local, Direction: geom.YAxis, Position: domain.Percent, A: 100, P1: P}}}},
	}
	for i := range ne + 1 {
		m.Nodes = append(m.Nodes, domain.Node{ID: int64(i + 1), X: float64(i) / ne})
		if i > 0 {
			m.Members = append(m.Members, domain.Member{ID: int64(i), NodeA: int64(i), NodeB: int64(i + 1),
				Section: 1, Material: 1})
		}
	}
	d, err := domain.Build(context.Background(), m, domain.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, rotate := range []bool{true, false} {
		t.Run(fmt.Sprint(rotate), func(t *testing.T) {
			res, err := nonlinear.Analyze(context.Background(), d, 1, nonlinearOptions(followSettings(model.TheoryFinite, rotate)))
			if err != nil {
				t.Fatal(err)
			}
			f := geom.Vec3(res.Applied[6*ne : 6*ne+3])
			ax := res.Members[ne-1].Axes
			want := geom.Vec3{0, P, 0}
			if rotate {
				want = ax.Y().Scale(P)
			}
			t.Logf("tip rotation %.4f rad, tip force %v, last member's y axis %v", res.Nodes[ne].Rotation[2], f, ax.Y())
			if d := f.Sub(want).Norm(); !(d <= 1e-9*P) {
				t.Errorf("tip force %v, want %v", f, want)
			}
			if r := res.Nodes[ne].Rotation[2]; !(r > 0.8) {
				t.Errorf("tip rotation %g rad: the test needs a large one", r)
			}
		})
	}
}
