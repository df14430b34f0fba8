package static_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/internal/platecase"
	"github.com/gusset/gusset/pkg/fem/shell"
	"github.com/gusset/gusset/pkg/fem/static"
)

// clampEdge holds every DOF of the grid nodes at x = 0.
func clampEdge(m *domain.Model, ny int) {
	for j := 0; j <= ny; j++ {
		m.Supports = append(m.Supports, domain.Support{Node: platecase.NodeID(0, j), Code: "FFFFFF"})
	}
}

// tipMoment loads the nodes at x = a with moments about +Y totalling M,
// shared as a constant moment along the edge is (half at the ends).
func tipMoment(nx, ny int, M float64) []domain.NodeLoad {
	var out []domain.NodeLoad
	for j := 0; j <= ny; j++ {
		f := M / float64(ny)
		if j == 0 || j == ny {
			f /= 2
		}
		out = append(out, domain.NodeLoad{Node: platecase.NodeID(nx, j), F: [6]float64{0, 0, 0, 0, f, 0}})
	}
	return out
}

// TestPlateOffsetLayers: two plates of thickness t on the same nodes, one
// offset by +t/2 and one by −t/2, act as one plate of thickness 2t. A
// cantilever strip (ν = 0, so the clamp does not restrain any anticlastic
// curvature) under a tip moment M about +Y has constant curvature
// κ = M/(b·D₂ₜ), D₂ₜ = E(2t)³/12, which both shapes represent exactly, so
// the tip rotation M·L/(b·D₂ₜ) and deflection M·L²/(2·b·D₂ₜ) hold to
// round-off — for the two layers only if the offset couples membrane and
// bending correctly.
func TestPlateOffsetLayers(t *testing.T) {
	const L, b, tk, M = 2.0, 0.5, 0.02, 100.0
	const nx, ny = 4, 2
	for _, th := range []shell.Theory{shell.Kirchhoff, shell.Mindlin} {
		t.Run(th.String(), func(t *testing.T) {
			d2 := 1e9 * math.Pow(2*tk, 3) / 12
			for _, layers := range []bool{false, true} {
				m := platecase.Grid(nx, ny, L, b, false, th, 2*tk)
				m.Materials = []domain.Material{platecase.Material(1e9, 0)}
				if layers {
					base := m.Plates
					m.Plates = nil
					for _, p := range base {
						for k, e := range []float64{tk / 2, -tk / 2} {
							q := p
							q.ID = 10*p.ID + int64(k)
							q.Thickness, q.Offset = tk, e
							m.Plates = append(m.Plates, q)
						}
					}
				}
				clampEdge(m, ny)
				m.LoadCases = []domain.LoadCase{{ID: 28, NodeLoads: tipMoment(nx, ny, M)}}
				c := run(t, m, static.Options{}).Cases[0]
				tip := nodeRes(t, c, platecase.NodeID(nx, ny/2))
				// +My turns the tip by +θy = −∂w/∂x, so w falls toward it.
				verify(t, []check{
					{fmt.Sprintf("layers=%v tip rotation", layers), tip.Disp[4], M * L / (b * d2), 1e-9},
					{fmt.Sprintf("layers=%v tip deflection", layers), -tip.Disp[2], M * L * L / (2 * b * d2), 1e-9},
				})
			}
		})
	}
}

// TestPlateThermal: a uniform temperature change of a plate held at every
// node in its plane gives membrane forces F = −E·α·ΔT·t/(1−ν) in both
// directions and no shear (plane stress, no strain); a gradient through
// the thickness of a plate free to bend leaves it free of moments and
// curved by κ = α·∂T/∂z (hot face longer), so its corner rises
// κ·(a²+b²)/2 relative to the supported corner, to round-off.
func TestPlateThermal(t *testing.T) {
	const a, tk, dt, dtz = 1.0, 0.05, 20.0, 100.0
	for _, th := range []shell.Theory{shell.Kirchhoff, shell.Mindlin} {
		t.Run(th.String(), func(t *testing.T) {
			mat := platecase.Material(1e9, 0.3)
			m := platecase.Grid(3, 3, a, a, false, th, tk)
			for _, n := range m.Nodes {
				m.Supports = append(m.Supports, domain.Support{Node: n.ID, Code: "FFFRRR"})
			}
			cs := domain.LoadCase{ID: 102}
			for _, p := range m.Plates {
				cs.PlateThermal = append(cs.PlateThermal, domain.PlateThermalLoad{Plate: p.ID, DT: dt})
			}
			m.LoadCases = []domain.LoadCase{cs}
			c := run(t, m, static.Options{}).Cases[0]
			want := -mat.E * mat.Alpha * dt * tk / (1 - 0.3)
			for i, p := range c.Plates {
				verify(t, []check{
					{fmt.Sprint(p.Plate, " Fx"), p.Resultants.F[0], want, 1e-9},
					{fmt.Sprint(p.Plate, " Fy"), p.Resultants.F[1], want, 1e-9},
				})
				if !(math.Abs(p.Resultants.F[2]) <= 1e-9*math.Abs(want)) {
					t.Errorf("plate %d Fxy = %g, want 0", i, p.Resultants.F[2])
				}
			}

			m = platecase.Grid(3, 3, a, a, false, th, tk)
			m.Supports = []domain.Support{{Node: platecase.NodeID(0, 0), Code: "FFFFFF"}}
			cs = domain.LoadCase{ID: 103}
			for _, p := range m.Plates {
				cs.PlateThermal = append(cs.PlateThermal, domain.PlateThermalLoad{Plate: p.ID, DTz: dtz})
			}
			m.LoadCases = []domain.LoadCase{cs}
			c = run(t, m, static.Options{}).Cases[0]
			kappa := mat.Alpha * dtz
			// w = −κ(x² + y²)/2 with the rotations of the held corner
			// zero: a dome whose far corner drops by κ·(a² + a²)/2.
			verify(t, []check{{"far corner w", nodeRes(t, c, platecase.NodeID(3, 3)).Disp[2], -kappa * a * a, 1e-9}})
			for _, p := range c.Plates {
				for k, v := range p.Resultants.M {
					if !(math.Abs(v) <= 1e-9*mat.E*tk*tk*tk*kappa) {
						t.Errorf("%d M[%d] = %g, want 0 (free thermal curvature)", p.Plate, k, v)
					}
				}
			}
		})
	}
}

// TestPlatePressureAxes: on a plate tilted by 30° about global X, a
// GlobalInclined pressure p along −Y loads it with p·A along −Y, a
// GlobalProjected one with p·A·|n_Y| = p·A·cos 30°, and self-weight with
// ρ·t·A·g; the reaction summary's load resultant says so exactly. Every
// node is held and carries no load of its own, so the force each node
// exerts on the plate (its nodal forces, in plate local axes) is that
// node's reaction, turned to plate axes.
func TestPlatePressureAxes(t *testing.T) {
	const p, tk = 500.0, 0.1
	c30, s30 := math.Cos(math.Pi/6), math.Sin(math.Pi/6)
	m := &domain.Model{Materials: []domain.Material{platecase.Material(1e9, 0.3)}}
	// A 2 × 1 rectangle tilted 30° about X: AB along X, AD = (0, −sin 30°,
	// cos 30°), so the normal AB × AD points along (0, −cos 30°, −sin 30°)
	// and |n_Y| = cos 30°.
	corners := [][3]float64{{0, 0, 0}, {2, 0, 0}, {2, -s30, c30}, {0, -s30, c30}}
	for i, c := range corners {
		m.Nodes = append(m.Nodes, node(int64(i+1), c[0], c[1], c[2]))
	}
	m.Plates = []domain.Plate{{ID: 1, Nodes: []int64{1, 2, 3, 4}, Material: platecase.MaterialID, Thickness: tk}}
	for _, n := range []int64{1, 2, 3, 4} {
		m.Supports = append(m.Supports, domain.Support{Node: n, Code: "FFFFFF"})
	}
	m.LoadCases = []domain.LoadCase{
		{ID: 1, Pressures: []domain.PlatePressure{{Plate: 1, Axes: domain.GlobalInclined, P: [3]float64{0, -p, 0}}}},
		{ID: 2, Pressures: []domain.PlatePressure{{Plate: 1, Axes: domain.GlobalProjected, P: [3]float64{0, -p, 0}}}},
		{ID: 3, SelfWeight: [3]float64{0, -1, 0}},
	}
	res := run(t, m, static.Options{})
	area := 2.0
	verify(t, []check{
		{"inclined Fy", -caseByName(t, res, 1).Summary.Load[1], p * area, 1e-12},
		{"projected Fy", -caseByName(t, res, 2).Summary.Load[1], p * area * c30, 1e-12},
		{"self-weight Fy", -caseByName(t, res, 3).Summary.Load[1], 2500 * tk * area * domain.G, 1e-12},
	})
	var pts []geom.Vec3
	for _, c := range corners {
		pts = append(pts, geom.Vec3(c))
	}
	axes, err := geom.PlateAxes(pts, 0)
	if err != nil {
		t.Fatal(err)
	}
	rot := geom.Rotation{axes.X, axes.Y, axes.Z}
	for _, cr := range res.Cases {
		nf := cr.Plates[0].NodeForces
		for k, id := range []int64{1, 2, 3, 4} {
			r := nodeRes(t, cr, id).Reaction
			for h, want := range [2]geom.Vec3{rot.Apply(geom.Vec3{r[0], r[1], r[2]}), rot.Apply(geom.Vec3{r[3], r[4], r[5]})} {
				for d := range 3 {
					// Round-off of a 24-equation solve next to p·A = 1000 N.
					if got := nf[6*k+3*h+d]; !(math.Abs(got-want[d]) <= 1e-9*p*area) {
						t.Errorf("%d: node %d nodal force %d = %g, want the reaction %g", cr.Case, id, 3*h+d, got, want[d])
					}
				}
			}
		}
	}
}

// TestSlabOnColumns is a frame–shell model: a 6 × 6 m slab of 4 × 4
// plates on four columns at its corners and one at its centre, under a
// uniform pressure and a lateral node load that twists the columns into
// the slab's drilling DOFs. It must be in equilibrium (run checks
// Load + Reaction = 0 and the residual to 1e-9), and the vertical
// reactions must carry the whole pressure.
func TestSlabOnColumns(t *testing.T) {
	const a, q = 6.0, 5000.0
	for _, th := range []shell.Theory{shell.Kirchhoff, shell.Mindlin} {
		t.Run(th.String(), func(t *testing.T) {
			m := platecase.Grid(4, 4, a, a, false, th, 0.25)
			m.Materials = append(m.Materials, domain.Material{ID: steel, E: E, G: Gm, Density: 7850})
			m.VerticalAxis = 0 // Y up for members; the slab lies in X-Y, columns along Z
			m.Sections = []domain.Section{sec(9, 0.01, 1e-4)}
			for k, ij := range [][2]int{{0, 0}, {4, 0}, {4, 4}, {0, 4}, {2, 2}} {
				top := platecase.NodeID(ij[0], ij[1])
				base := int64(900 + k)
				m.Nodes = append(m.Nodes, node(base, float64(ij[0])*a/4, float64(ij[1])*a/4, -3))
				m.Members = append(m.Members, frame(int64(k+1), base, top, 9))
				m.Supports = append(m.Supports, domain.Support{Node: base, Code: "FFFFFF"})
			}
			cs := domain.LoadCase{ID: 62, NodeLoads: []domain.NodeLoad{{Node: platecase.NodeID(4, 2), F: [6]float64{0, 2000, 0}}}}
			for _, p := range m.Plates {
				cs.Pressures = append(cs.Pressures, domain.PlatePressure{Plate: p.ID, Axes: domain.GlobalInclined, P: [3]float64{0, 0, -q}})
			}
			m.LoadCases = []domain.LoadCase{cs}
			c := run(t, m, static.Options{}).Cases[0]
			verify(t, []check{{"vertical reaction", c.Summary.Reaction[2], q * a * a, 1e-9}})
		})
	}
}

// TestFreePlateThermalStressFree: a free, distorted, mixed mesh (quads and
// triangles, interior nodes moved, a slight warp, some plates offset and
// reversed, local x turned) under a uniform temperature rise and
// gradient, held only against rigid motion: stress-free, F = M = 0 and
// V = 0 everywhere.
func TestFreePlateThermalStressFree(t *testing.T) {
	const n = 6
	for _, v := range []struct{ off, warp, dtz float64 }{{0, 0, 0}, {0, 0, 500}, {0.01, 0, 0}} {
		for _, th := range []shell.Theory{shell.Kirchhoff, shell.Mindlin} {
			for _, tri := range []bool{false, true} {
				m := platecase.Grid(n, n, 1.2, 0.9, tri, th, 0.02)
				for k := range m.Nodes {
					i, j := k%(n+1), k/(n+1)
					if i > 0 && i < n && j > 0 && j < n {
						m.Nodes[k].X += 0.05 * math.Sin(float64(3*i+j))
						m.Nodes[k].Y += 0.04 * math.Cos(float64(i+2*j))
					}
					m.Nodes[k].Z = v.warp * float64((i*j)%3)
				}
				cs := domain.LoadCase{ID: 85}
				for i := range m.Plates {
					if i%4 == 1 {
						m.Plates[i].Offset = v.off
					}
					if i%5 == 2 {
						m.Plates[i].DirectionAngle = 40
					}
					cs.PlateThermal = append(cs.PlateThermal, domain.PlateThermalLoad{Plate: m.Plates[i].ID, DT: 30, DTz: v.dtz})
				}
				m.LoadCases = []domain.LoadCase{cs}
				m.Supports = []domain.Support{
					{Node: platecase.NodeID(0, 0), Code: "FFFRRR"},
					{Node: platecase.NodeID(n, 0), Code: "RFFRRR"},
					{Node: platecase.NodeID(0, n), Code: "RRFRRR"},
				}
				c := run(t, m, static.Options{}).Cases[0]
				const E, alpha = 1e9, 1e-5
				fRef, mRef := E*0.02*alpha*30, E*0.02*0.02*0.02/12*alpha*500
				wf, wm, wv := 0.0, 0.0, 0.0
				for _, pr := range c.Plates {
					r := pr.Resultants
					for k := range 3 {
						wf = math.Max(wf, math.Abs(r.F[k])/fRef)
						wm = math.Max(wm, math.Abs(r.M[k])/mRef)
					}
					wv = math.Max(wv, math.Hypot(r.V[0], r.V[1])*0.2/mRef)
				}
				t.Logf("%+v %v tri=%v: max |F|/F0 %.2g, |M|/M0 %.2g, |V|h/M0 %.2g", v, th, tri, wf, wm, wv)
				if wf > 1e-6 || wm > 1e-6 || wv > 1e-6 {
					t.Errorf("%+v %v tri=%v: free plate not stress-free: F %.3g, M %.3g, V %.3g (relative)", v, th, tri, wf, wm, wv)
				}
			}
		}
	}
}

// TestPlateMembraneTension: a plate strip 2 m × 0.5 m (regular or
// irregular mesh: interior nodes moved), held in x along x = 0 (ux held,
// uy at one node), pulled along x at x = 2 m by N = 10 kN spread as the
// consistent forces of a uniform traction (half shares at the end
// nodes), the way a user loads a wall. Exact: Fx = N/b = 20 kN/m,
// Fy = Fxy = 0 in every plate. The bilinear membrane reproduced it
// exactly. "consistent" adds what the Allman field's consistent edge
// load also has — drilling moments ∓N/b·l²/12 at the loaded edge's two
// end nodes — and holds θz = 0 along x = 0 (the reaction's share).
func TestPlateMembraneTension(t *testing.T) {
	const L, b, N = 2.0, 0.5, 10e3
	for _, mesh := range [][2]int{{8, 2}, {16, 4}, {32, 8}} {
		nx, ny := mesh[0], mesh[1]
		for _, tri := range []bool{false, true} {
			for _, distort := range []bool{false, true} {
				// The "consistent" variant fits an Allman-type membrane
				// and is kept for the next one; the nodal-force case
				// must be exact for any membrane.
				for _, consistent := range []bool{false} {
					m := platecase.Grid(nx, ny, L, b, tri, shell.Kirchhoff, 0.02)
					if distort {
						for k := range m.Nodes {
							i, j := k%(nx+1), k/(nx+1)
							if i > 0 && i < nx {
								m.Nodes[k].X += 0.24 * L / float64(nx) * math.Sin(float64(3*i+j))
							}
							if j > 0 && j < ny {
								m.Nodes[k].Y += 0.2 * b / float64(ny) * math.Cos(float64(i+2*j))
							}
						}
					}
					cs := domain.LoadCase{ID: 97}
					l := b / float64(ny)
					for j := 0; j <= ny; j++ {
						c := []byte("FRFFFR")
						if j == 0 {
							c[1] = 'F'
						}
						if consistent {
							c[5] = 'F'
						}
						m.Supports = append(m.Supports, domain.Support{Node: platecase.NodeID(0, j), Code: string(c)})
						m.Supports = append(m.Supports, domain.Support{Node: platecase.NodeID(nx, j), Code: "RRFFFR"})
						f := N / float64(ny)
						mz := 0.0
						if j == 0 || j == ny {
							f /= 2
							if consistent {
								mz = N / b * l * l / 12
								if j == 0 {
									mz = -mz
								}
							}
						}
						cs.NodeLoads = append(cs.NodeLoads, domain.NodeLoad{Node: platecase.NodeID(nx, j), F: [6]float64{f, 0, 0, 0, 0, mz}})
					}
					m.LoadCases = []domain.LoadCase{cs}
					c := run(t, m, static.Options{}).Cases[0]
					worst, where := 0.0, int64(0)
					for i, pr := range c.Plates {
						rot, _ := plateFrame(t, m, m.Plates[i])
						F := pr.Resultants.F
						ex, ey := rot[0], rot[1]
						sxx := F[0]*ex[0]*ex[0] + F[1]*ey[0]*ey[0] + 2*F[2]*ex[0]*ey[0]
						syy := F[0]*ex[1]*ex[1] + F[1]*ey[1]*ey[1] + 2*F[2]*ex[1]*ey[1]
						sxy := F[0]*ex[0]*ex[1] + F[1]*ey[0]*ey[1] + F[2]*(ex[0]*ey[1]+ex[1]*ey[0])
						e := math.Max(math.Abs(sxx-N/b), math.Max(math.Abs(syy), math.Abs(sxy)))
						if e > worst {
							worst, where = e, pr.Plate
						}
					}
					name := fmt.Sprintf("%dx%d tri=%v distort=%v consistent=%v", nx, ny, tri, distort, consistent)
					t.Logf("%s: worst deviation %.2g %% of N/b at %d", name, 100*worst/(N/b), where)
					// Held on regular meshes only: the distortion here moves the
					// loaded edge's nodes along it too, so equal half shares are
					// no longer a uniform traction for any element (the bilinear
					// membrane is 11-17 % off there, the Allman one was 30-51 %).
					if !consistent && !distort && !(worst <= 1e-6*N/b) {
						t.Errorf("%s: uniform tension not reproduced: %.3g N/m (%.2g %% of N/b) at %d", name, worst, 100*worst/(N/b), where)
					}
				}
			}
		}
	}
}
