package nonlinear_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/nonlinear"
)

// rotCantilever returns a cantilever of ne members along +X, length L,
// EI = 1 about local z and about local y, loaded in member local axes on
// every member: w along local +y and w/2 along local −z (per unit
// length) and a distributed moment w·L/4 about local x, so that it bends
// in both planes and twists. Node 1 is clamped but for its rotation
// about Z, held by a spring kr when kr > 0 (clamped when kr = 0).
func rotCantilever(L float64, ne int, w, kr float64) *domain.Model {
	s := section{E: 1e4, G: 4e3, A: 100, J: 2e-4, Iy: 1e-4, Iz: 1e-4}
	m := chainModel(straight(L, ne), s, geom.YAxis, nil)
	if kr > 0 {
		m.Supports[0].Code = "FFFFFS"
		m.Supports[0].Springs[5] = kr
	}
	for i := 1; i <= ne; i++ {
		id := int64(i)
		m.LoadCases[0].Members = append(m.LoadCases[0].Members,
			domain.MemberLoad{Member: id, Type: domain.DistributedForce, Axes: domain.Local, Direction: geom.YAxis, P1: w, P2: w},
			domain.MemberLoad{Member: id, Type: domain.DistributedForce, Axes: domain.Local, Direction: geom.ZAxis, P1: -w / 2, P2: -w / 2},
			domain.MemberLoad{Member: id, Type: domain.DistributedMoment, Axes: domain.Local, Direction: geom.XAxis, P1: w * L / 4, P2: w * L / 4})
	}
	return m
}

// checkNodeEquilibrium checks that the member end actions of a chain
// (member i from node i−1 to node i), turned to global axes, balance at
// every node but the support: the node loads are zero, so at an
// interior node end B of one member and end A of the next cancel and at
// the tip end B of the last member vanishes. tol is absolute.
func checkNodeEquilibrium(t *testing.T, res *nonlinear.Result, tol float64) {
	t.Helper()
	global := func(mr *nonlinear.MemberResult, end *[6]float64) [6]float64 {
		var out [6]float64
		f := mr.Axes.ApplyT(geom.Vec3{end[0], end[1], end[2]})
		mo := mr.Axes.ApplyT(geom.Vec3{end[3], end[4], end[5]})
		copy(out[:3], f[:])
		copy(out[3:], mo[:])
		return out
	}
	ne := len(res.Members)
	for n := 1; n <= ne; n++ {
		sum := global(&res.Members[n-1], &res.Members[n-1].EndB)
		if n < ne {
			a := global(&res.Members[n], &res.Members[n].EndA)
			for k := range sum {
				sum[k] += a[k]
			}
		}
		for k, v := range sum {
			if !(math.Abs(v) <= tol) {
				t.Errorf("node N%d: end actions out of balance by %g in DOF %d", n, v, k)
			}
		}
	}
}

// TestFollowerRigidRotation: with loads that follow their members, a
// cantilever whose clamp may turn about Z against a spring kr takes the
// state of the clamped cantilever turned rigidly by θ = −Mz/kr, Mz the
// clamped one's reaction moment (the loads turn with the members, and the
// spring resists the rotation vector's Z component, exact for rotations
// about one axis: package doc). kr is chosen for θ ≈ 1.2 rad. The local
// end actions of every member are then the clamped ones, and the nodes
// the turned ones, both to the convergence tolerance (1e-10, relative):
// held within 1e-7 of the largest end action and 1e-7·L. Without
// FollowLocalLoads the loads keep their initial directions, so the local
// end actions differ (by more than 10 % of the largest here) — but with
// either setting the end actions balance at every free node (within
// 1e-7 of the largest end action): the fixed-end actions of loads that
// keep their directions are turned into the current frame.
func TestFollowerRigidRotation(t *testing.T) {
	const (
		L  = 2.0
		ne = 4
		w  = 0.3
	)
	opts := nonlinear.Options{Theory: nonlinear.Large, Steps: 10, MaxIterations: 100, Tolerance: 1e-8, FollowLocalLoads: true}
	clamped := analyze(t, rotCantilever(L, ne, w, 0), opts)
	mz := clamped.Nodes[0].Reaction[5]
	const theta = 1.2
	kr := math.Abs(mz) / theta
	big := 0.0
	for _, mr := range clamped.Members {
		for k := range 6 {
			big = math.Max(big, math.Max(math.Abs(mr.EndA[k]), math.Abs(mr.EndB[k])))
		}
	}
	for _, follow := range []bool{true, false} {
		t.Run(fmt.Sprintf("follow=%v", follow), func(t *testing.T) {
			o := opts
			o.FollowLocalLoads = follow
			res := analyze(t, rotCantilever(L, ne, w, kr), o)
			got := res.Nodes[0].Rotation[2]
			worst := 0.0
			for i, mr := range res.Members {
				c := clamped.Members[i]
				for k := range 6 {
					worst = math.Max(worst, math.Max(math.Abs(mr.EndA[k]-c.EndA[k]), math.Abs(mr.EndB[k]-c.EndB[k])))
				}
			}
			t.Logf("clamp rotation %.6f rad (clamped Mz %.6g, kr %.6g); largest end action %.4g, largest difference from the clamped %.3g",
				got, mz, kr, big, worst)
			checkNodeEquilibrium(t, res, 1e-7*big)
			if !follow {
				if !(worst > 0.1*big) {
					t.Errorf("loads that keep their directions give nearly the clamped end actions (%.3g of %.3g)", worst, big)
				}
				return
			}
			if !near(got, -mz/kr, 1e-8) {
				t.Errorf("clamp rotation %g, want %g", got, -mz/kr)
			}
			if !(worst <= 1e-7*big) {
				t.Errorf("end actions differ from the clamped ones by %g (largest %g)", worst, big)
			}
			rz := geom.ExpMap(geom.Vec3{0, 0, got})
			for n := range res.Nodes {
				x0 := geom.Vec3{L * float64(n) / ne}
				want := rz.Apply(x0.Add(clamped.Nodes[n].Translation)).Sub(x0)
				if d := res.Nodes[n].Translation.Sub(want).Norm(); !(d <= 1e-7*L) {
					t.Errorf("node N%d at %v, want the turned clamped %v", n, res.Nodes[n].Translation, want)
				}
			}
		})
	}
	t.Run("clamped equilibrium", func(t *testing.T) { checkNodeEquilibrium(t, clamped, 1e-7*big) })
}
