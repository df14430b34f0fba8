package static_test

import (
	"math"
	"slices"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/internal/navier"
	"github.com/gusset/gusset/pkg/fem/internal/platecase"
	"github.com/gusset/gusset/pkg/fem/shell"
	"github.com/gusset/gusset/pkg/fem/static"
)

// centreMx returns the mean Mx at the centroids of the plates that touch
// the centre node of an even grid, and the mean of the exact Mx/(q·a²)
// at the same centroids (navier.Kirchhoff): plates report at their
// centroids, which on 16 × 16 lie h/2 off the centre, where the exact Mx
// is already 0.7 % below its peak, so the element is judged where it
// reports.
func centreMx(t *testing.T, m *domain.Model, c static.CaseResult, centre int64, a float64) (got, exact float64) {
	t.Helper()
	pos := map[int64][2]float64{}
	for _, n := range m.Nodes {
		pos[n.ID] = [2]float64{n.X, n.Y}
	}
	k := 0
	for i, p := range m.Plates {
		if !slices.Contains(p.Nodes, centre) {
			continue
		}
		var cx, cy float64
		for _, id := range p.Nodes {
			cx += pos[id][0] / float64(len(p.Nodes))
			cy += pos[id][1] / float64(len(p.Nodes))
		}
		_, mx, _ := navier.Kirchhoff(0.3, cx/a, cy/a)
		got += c.Plates[i].Resultants.M[0]
		exact += mx
		k++
	}
	if k == 0 {
		t.Fatalf("no plate touches %d", centre)
	}
	return got / float64(k), exact / float64(k)
}

// TestNavierPlate is the simply supported square plate under uniform
// load q and under a central point load P, thin (a/t = 100), for both
// theories, quads and triangles. Timoshenko & Woinowsky-Krieger, Theory
// of Plates and Shells, 2nd ed., Table 8 (Navier series, ν = 0.3):
// w_c = 0.0040624·q·a⁴/D and M_x = 0.04789·q·a² at the centre under q;
// w_c = 0.01160·P·a²/D under P; M_x is compared at the centroids of the
// plates around the centre (see centreMx). The mesh is n × n over the
// whole plate; the errors must fall as n doubles and, on 16 × 16, be
// within 1 % (uniform load) and 2 % (point load, whose moment is singular
// under the load). Mindlin triangles converge more slowly (1.3 % on M_x at
// 16 × 16) and are held to the same bounds on 32 × 32.
func TestNavierPlate(t *testing.T) {
	const a, tk, q, P = 1.0, 0.01, 1000.0, 1000.0
	d := 1e9 * tk * tk * tk / (12 * (1 - 0.3*0.3))
	wq, wp := 0.0040624*q*a*a*a*a/d, 0.01160*P*a*a/d
	for _, th := range []shell.Theory{shell.Kirchhoff, shell.Mindlin} {
		for _, tri := range []bool{false, true} {
			name := th.String() + map[bool]string{false: " quads", true: " triangles"}[tri]
			t.Run(name, func(t *testing.T) {
				prev := [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}
				meshes := []int{4, 8, 16}
				if tri && th == shell.Mindlin {
					meshes = append(meshes, 32)
				}
				for _, n := range meshes {
					m := platecase.Grid(n, n, a, a, tri, th, tk)
					platecase.SimplySupport(m, n, n)
					centre := platecase.NodeID(n/2, n/2)
					uni := domain.LoadCase{ID: 1}
					for i := range m.Plates {
						uni.Pressures = append(uni.Pressures, domain.PlatePressure{Plate: m.Plates[i].ID, Axes: domain.Local, P: [3]float64{0, 0, -q}})
					}
					pt := domain.LoadCase{ID: 2, NodeLoads: []domain.NodeLoad{{Node: centre, F: [6]float64{0, 0, -P}}}}
					m.LoadCases = []domain.LoadCase{uni, pt}
					res := run(t, m, static.Options{})
					cq, cp := caseByName(t, res, 1), caseByName(t, res, 2)
					mx, mExact := centreMx(t, m, cq, centre, a)
					mExact *= q * a * a
					errs := [3]float64{
						math.Abs(-nodeRes(t, cq, centre).Disp[2]/wq - 1),
						math.Abs(-mx/mExact - 1),
						math.Abs(-nodeRes(t, cp, centre).Disp[2]/wp - 1),
					}
					t.Logf("%2d×%-2d  w_c(q) err %.4f  M_x(q) err %.4f  w_c(P) err %.4f", n, n, errs[0], errs[1], errs[2])
					for k, e := range errs {
						if n > 4 && !(e < prev[k]) && e > 1e-3 {
							t.Errorf("%d×%d: error %d = %.4g did not fall from %.4g", n, n, k, e, prev[k])
						}
					}
					prev = errs
					if n == meshes[len(meshes)-1] {
						verify(t, []check{
							{"w_c under q", -nodeRes(t, cq, centre).Disp[2], wq, 0.01},
							{"M_x under q", -mx, mExact, 0.01},
							{"w_c under P", -nodeRes(t, cp, centre).Disp[2], wp, 0.02},
						})
					}
				}
			})
		}
	}
}
