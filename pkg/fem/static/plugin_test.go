package static_test

import (
	"context"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/static"
)

// cst is a test-only element family: the constant-strain triangle in
// plane stress, lying in the global X-Y plane, with two DOFs per node (ux,
// uy). It exists to show that a new family plugs into the shared parts —
// the domain's element list, the DOF map, the assembler, the factorizer
// and the static analysis — without any change to them.
type cst struct {
	id     int64
	nodes  [3]int
	xy     [3][2]float64
	e, nu  float64 // Pa, Poisson's ratio
	t, rho float64 // thickness m, density kg/m³
}

var _ domain.Element = (*cst)(nil)

func (c *cst) ID() int64        { return c.id }
func (c *cst) Nodes() []int     { return c.nodes[:] }
func (c *cst) DOFsPerNode() int { return 2 }
func (c *cst) NumForces() int   { return 3 }

// d is the plane-stress elasticity matrix.
func (c *cst) d() [3][3]float64 {
	f := c.e / (1 - c.nu*c.nu)
	return [3][3]float64{{f, f * c.nu, 0}, {f * c.nu, f, 0}, {0, 0, f * (1 - c.nu) / 2}}
}

// InternalForces are the stresses σx, σy, τxy = D·B·u.
func (c *cst) InternalForces(u []float64, _ *domain.Loads, q []float64) error {
	b, d := c.b(), c.d()
	var eps [3]float64
	for i := range 3 {
		for s := range 6 {
			eps[i] += b[i][s] * u[s]
		}
	}
	for i := range 3 {
		q[i] = 0
		for j := range 3 {
			q[i] += d[i][j] * eps[j]
		}
	}
	return nil
}

// area and b return the area and the strain-displacement matrix B (3×6:
// εx, εy, γxy from ux1 uy1 ux2 uy2 ux3 uy3).
func (c *cst) area() float64 {
	p := c.xy
	return 0.5 * ((p[1][0]-p[0][0])*(p[2][1]-p[0][1]) - (p[2][0]-p[0][0])*(p[1][1]-p[0][1]))
}

func (c *cst) b() [3][6]float64 {
	p, a2 := c.xy, 2*c.area()
	var b [3][6]float64
	for i := range 3 {
		j, k := (i+1)%3, (i+2)%3
		bi, ci := (p[j][1]-p[k][1])/a2, (p[k][0]-p[j][0])/a2
		b[0][2*i] = bi
		b[1][2*i+1] = ci
		b[2][2*i], b[2][2*i+1] = ci, bi
	}
	return b
}

// Stiffness is t·A·Bᵀ·D·B (Zienkiewicz and Taylor, The Finite Element
// Method, vol. 1, 5th ed., §4.2).
func (c *cst) Stiffness(k []float64) {
	d, b := c.d(), c.b()
	ta := c.t * c.area()
	for r := range 6 {
		for s := range 6 {
			v := 0.0
			for i := range 3 {
				for j := range 3 {
					v += b[i][r] * d[i][j] * b[j][s]
				}
			}
			k[r*6+s] = ta * v
		}
	}
}

// Mass is the consistent mass ρtA/12·[2 1 1; 1 2 1; 1 1 2] per direction.
func (c *cst) Mass(m []float64) {
	clear(m[:36])
	w := c.rho * c.t * c.area() / 12
	for i := range 3 {
		for j := range 3 {
			v := w
			if i == j {
				v = 2 * w
			}
			m[(2*i)*6+2*j], m[(2*i+1)*6+2*j+1] = v, v
		}
	}
}

func (c *cst) GeometricStiffness(_ []float64, _ *domain.Loads, kg []float64) error {
	clear(kg[:36])
	return nil
}

func (c *cst) Resisting(u []float64, _ *domain.Loads, f []float64) error {
	var k [36]float64
	c.Stiffness(k[:])
	for r := range 6 {
		f[r] = 0
		for s := range 6 {
			f[r] += k[r*6+s] * u[s]
		}
	}
	return nil
}

func (c *cst) LoadVector(*domain.Loads, []float64) error { return nil }

// triangles returns the BuildOptions.Elements of the two triangles that
// make the w×h plate of nodes 1–4 (counter-clockwise from the origin).
func triangles(e, nu, th, rho float64) func(*domain.Domain) ([]domain.Element, error) {
	return func(d *domain.Domain) ([]domain.Element, error) {
		var out []domain.Element
		for k, tri := range [][3]int{{0, 1, 2}, {0, 2, 3}} {
			el := &cst{id: int64(k + 1), nodes: tri, e: e, nu: nu, t: th, rho: rho}
			for i, n := range tri {
				el.xy[i] = [2]float64{d.Pos[n][0], d.Pos[n][1]}
			}
			out = append(out, el)
		}
		return out, nil
	}
}

// TestElementFamilyPlugsIn runs the membrane patch test through the static
// analysis with two test-only triangles: a w×h plate under a uniform
// tension σ on its edge x = w (nodal forces σ·t·h/2), held at x = 0 so it
// may contract freely. Constant-strain elements reproduce a constant
// stress state exactly (the patch test, Zienkiewicz and Taylor §10.3), so
// ux = σ·x/E and uy = −ν·σ·y/E at every node and the stresses are (σ, 0,
// 0) in both triangles, up to round-off (tolerance 1e-12 relative). In the
// second case node 3's ux is tied to node 2, whose rotation about Z is
// free: u3x = u2x − θz2·h. Nothing else stiffens θz2, so without the
// constraint elimination (here through weighted terms) the model would be
// a mechanism; with it the exact field, which has u3x = u2x, comes back.
func TestElementFamilyPlugsIn(t *testing.T) {
	const (
		w, h, th = 2.0, 1.5, 0.01
		ee, nu   = 70e9, 0.3
		sigma    = 50e6
	)
	for _, tc := range []struct {
		name        string
		support2    string
		constraints []domain.Constraint
	}{
		{"plain", "RRFFFF", nil},
		{"through a constraint", "RRFFFR", []domain.Constraint{{Master: 2, Slaves: []int64{3}, Code: "FRRRRR"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &domain.Model{
				Nodes: []domain.Node{node(1, 0, 0, 0), node(2, w, 0, 0), node(3, w, h, 0), node(4, 0, h, 0)},
				Supports: []domain.Support{{Node: 1, Code: "FFFFFF"}, {Node: 2, Code: tc.support2},
					{Node: 3, Code: "RRFFFF"}, {Node: 4, Code: "FRFFFF"}},
				Constraints: tc.constraints,
				LoadCases: []domain.LoadCase{{ID: 1, NodeLoads: []domain.NodeLoad{
					{Node: 2, F: [6]float64{sigma * th * h / 2}}, {Node: 3, F: [6]float64{sigma * th * h / 2}}}}},
			}
			ctx := context.Background()
			d, err := domain.Build(ctx, m, domain.BuildOptions{Elements: triangles(ee, nu, th, 2700)})
			if err != nil {
				t.Fatal(err)
			}
			res, err := static.Run(ctx, d, static.Options{})
			if err != nil {
				t.Fatal(err)
			}
			c := caseByName(t, res, 1)
			checkEquilibrium(t, c)
			for _, nd := range m.Nodes {
				got := nodeRes(t, c, nd.ID).Disp
				want := [2]float64{sigma * nd.X / ee, -nu * sigma * nd.Y / ee}
				for k := range 2 {
					if !(math.Abs(got[k]-want[k]) <= 1e-12*sigma*w/ee) {
						t.Errorf("node %d u%c = %.15g, want %.15g", nd.ID, "xy"[k], got[k], want[k])
					}
				}
			}
			if len(c.Elements) != 2 {
				t.Fatalf("%d element results, want 2", len(c.Elements))
			}
			for _, er := range c.Elements {
				want := []float64{sigma, 0, 0}
				for k := range 3 {
					if !(math.Abs(er.Forces[k]-want[k]) <= 1e-9*sigma) {
						t.Errorf("element %d stress %d = %g, want %g", er.Element, k, er.Forces[k], want[k])
					}
				}
			}
			// The supports at x = 0 take the whole load back.
			rx := nodeRes(t, c, 1).Reaction[0] + nodeRes(t, c, 4).Reaction[0]
			if want := -sigma * th * h; !(math.Abs(rx-want) <= 1e-9*math.Abs(want)) {
				t.Errorf("reaction %g, want %g", rx, want)
			}
		})
	}
}

// TestElementFamilyMass assembles the consistent mass of the same two
// triangles through the domain's assembler on a numbering with every DOF
// free: a uniform unit velocity along X has kinetic energy ½·ρ·t·w·h, so
// vᵀ·M·v equals the plate's mass (tolerance: round-off).
func TestElementFamilyMass(t *testing.T) {
	const w, h, th, rho = 2.0, 1.5, 0.01, 2700.0
	m := &domain.Model{Nodes: []domain.Node{node(1, 0, 0, 0), node(2, w, 0, 0), node(3, w, h, 0), node(4, 0, h, 0)}}
	d, err := domain.Build(context.Background(), m, domain.BuildOptions{Elements: triangles(1, 0, th, rho)})
	if err != nil {
		t.Fatal(err)
	}
	num := d.DOF.Number(nil)
	as, err := d.NewAssembler(num)
	if err != nil {
		t.Fatal(err)
	}
	mm := as.NewMatrix()
	d.Assemble(as, mm, domain.MassMatrix, nil)
	v := make([]float64, num.Equations())
	for q, g := range num.EqDOF {
		if g%6 == 0 {
			v[q] = 1
		}
	}
	mv := make([]float64, len(v))
	mm.MulVec(mv, v)
	got := 0.0
	for q := range v {
		got += v[q] * mv[q]
	}
	if want := rho * th * w * h; !(math.Abs(got-want) <= 1e-12*want) {
		t.Errorf("vᵀMv = %.15g, want %.15g", got, want)
	}
}
