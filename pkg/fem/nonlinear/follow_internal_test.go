package nonlinear

import (
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/transform"
)

// followerLoads returns the equivalent node loads p_b = −eᵀ·qc_b of local
// fixed-end actions qc in the element frame of c at state (u, rot).
func followerLoads(t *testing.T, c *transform.Corot, u [2]geom.Vec3, rot [2]geom.Rotation, qc *[12]float64) (p [4]geom.Vec3, cfg transform.CorotConfig) {
	t.Helper()
	if err := c.Configure(u, rot, &cfg); err != nil {
		t.Fatal(err)
	}
	ax := cfg.Axes()
	for b := range 4 {
		p[b] = ax.ApplyT(geom.Vec3{qc[3*b], qc[3*b+1], qc[3*b+2]}).Scale(-1)
	}
	return p, cfg
}

// TestLoadStiffness: loadStiffness is −∂p/∂d of loads fixed to the
// element frame, against central differences of p in a turned, stretched
// and twisted configuration (translations perturbed by ±h, node rotations
// by the spins exp(±h·e_k)). The central difference's error is O(h²) with
// h = 1e-6 (≈ 1e-12 relative) plus round-off ≈ 1e-16/h = 1e-10 of the
// loads; accepted within 1e-7 of the largest entry.
func TestLoadStiffness(t *testing.T) {
	r0, err := geom.LocalAxes(geom.Vec3{}, geom.Vec3{2, 1, 0.5}, geom.Direction{}, geom.YAxis)
	if err != nil {
		t.Fatal(err)
	}
	c, err := transform.NewCorot(geom.Vec3{}, geom.Vec3{2, 1, 0.5}, r0)
	if err != nil {
		t.Fatal(err)
	}
	qc := [12]float64{3, -2, 1.5, 0.4, -0.7, 0.9, -1, 2.5, -0.5, 0.3, 0.8, -1.1}
	u := [2]geom.Vec3{{0.1, -0.2, 0.3}, {-0.3, 0.5, 0.2}}
	rot := [2]geom.Rotation{geom.ExpMap(geom.Vec3{0.3, -0.2, 0.5}), geom.ExpMap(geom.Vec3{-0.4, 0.6, 0.1})}
	p, cfg := followerLoads(t, &c, u, rot, &qc)
	var kl [144]float64
	const lambda = 1.7
	loadStiffness(&cfg, p, lambda, &kl)
	const h = 1e-6
	big := 0.0
	for _, v := range kl {
		big = math.Max(big, math.Abs(v))
	}
	for j := range 12 {
		var pp, pm [4]geom.Vec3
		for s, out := range []*[4]geom.Vec3{&pp, &pm} {
			sign := 1 - 2*float64(s)
			uu, rr := u, rot
			end, k := j/6, j%6
			if k < 3 {
				uu[end][k] += sign * h
			} else {
				var w geom.Vec3
				w[k-3] = sign * h
				rr[end] = geom.ExpMap(w).Mul(rr[end])
			}
			*out, _ = followerLoads(t, &c, uu, rr, &qc)
		}
		for b := range 4 {
			for r := range 3 {
				fd := -lambda * (pp[b][r] - pm[b][r]) / (2 * h)
				if got := kl[(3*b+r)*12+j]; !(math.Abs(got-fd) <= 1e-7*big) {
					t.Errorf("K_L[%d][%d] = %.10g, central difference %.10g", 3*b+r, j, got, fd)
				}
			}
		}
	}
}
