package shell

import (
	"errors"
	"math"
)

// Plane is an element's corners in its local plane, m: corner i at
// (X[i], Y[i]), counter-clockwise seen from +z. N is 3 (a triangle; the
// fourth entries are unused) or 4.
type Plane struct {
	N    int
	X, Y [4]float64
}

// ErrShape is returned for a plane with other than 3 or 4 corners or a
// Jacobian that is not positive somewhere in the element (corners
// clockwise, collinear or re-entrant).
var ErrShape = errors.New("shell: corners must be 3 or 4, counter-clockwise, enclosing a convex area")

// Mat3 is a 3×3 constitutive matrix (membrane or bending).
type Mat3 = [3][3]float64

// Mat2 is a 2×2 constitutive matrix (transverse shear).
type Mat2 = [2][2]float64

// Point is a point of the element in natural coordinates with the weight
// of a quadrature rule on the parent element. For a quad (ξ, η) ∈
// [−1, 1]²; for a triangle ξ = L2 and η = L3, the area coordinates of
// corners B and C, on the parent triangle of area ½.
type Point struct{ Xi, Eta, W float64 }

// gp is the abscissa of the 2-point Gauss rule, 1/√3.
var gp = 1 / math.Sqrt(3)

// quad2x2 is the 2×2 Gauss rule, exact for bicubic integrands.
var quad2x2 = [4]Point{{-gp, -gp, 1}, {gp, -gp, 1}, {gp, gp, 1}, {-gp, gp, 1}}

// tri3 is the 3-point rule at the edge midpoints, exact for quadratics
// (Hammer–Stroud; Zienkiewicz & Taylor, The Finite Element Method, vol. 1,
// table 6.3).
var tri3 = [3]Point{{0.5, 0, 1.0 / 6}, {0.5, 0.5, 1.0 / 6}, {0, 0.5, 1.0 / 6}}

// Gauss returns the quadrature rule the element matrices use: 2×2 Gauss
// points on a quad, the three edge midpoints on a triangle. Σ W·detJ is
// the area.
func (p *Plane) Gauss() []Point {
	if p.N == 3 {
		return tri3[:]
	}
	return quad2x2[:]
}

// Centroid returns the natural coordinates of the parent element's centre
// (the centroid of a parallelogram or triangle), where recovery reports.
func (p *Plane) Centroid() (xi, eta float64) {
	if p.N == 3 {
		return 1.0 / 3, 1.0 / 3
	}
	return 0, 0
}

// Shape writes the shape functions of the linear (triangle) or bilinear
// (quad) interpolation at (ξ, η) into n, and their derivatives with
// respect to ξ and η into dxi and deta (each of length p.N).
func (p *Plane) Shape(xi, eta float64, n, dxi, deta []float64) {
	if p.N == 3 {
		n[0], n[1], n[2] = 1-xi-eta, xi, eta
		dxi[0], dxi[1], dxi[2] = -1, 1, 0
		deta[0], deta[1], deta[2] = -1, 0, 1
		return
	}
	sx := [4]float64{-1, 1, 1, -1}
	sy := [4]float64{-1, -1, 1, 1}
	for i := range 4 {
		n[i] = (1 + sx[i]*xi) * (1 + sy[i]*eta) / 4
		dxi[i] = sx[i] * (1 + sy[i]*eta) / 4
		deta[i] = sy[i] * (1 + sx[i]*xi) / 4
	}
}

// Jacobian is the map from natural to local coordinates at a point:
// J = [[x,ξ y,ξ] [x,η y,η]], its determinant, and the derivatives of the
// shape functions with respect to x and y.
type Jacobian struct {
	J      [2][2]float64
	Det    float64
	N      [4]float64
	Dx, Dy [4]float64
}

// At evaluates the interpolation and its Jacobian at (ξ, η). The
// determinant is not checked here; [Plane.Check] checks it once.
func (p *Plane) At(xi, eta float64) Jacobian {
	var j Jacobian
	var dxi, deta [4]float64
	p.Shape(xi, eta, j.N[:], dxi[:], deta[:])
	for i := range p.N {
		j.J[0][0] += dxi[i] * p.X[i]
		j.J[0][1] += dxi[i] * p.Y[i]
		j.J[1][0] += deta[i] * p.X[i]
		j.J[1][1] += deta[i] * p.Y[i]
	}
	j.Det = j.J[0][0]*j.J[1][1] - j.J[0][1]*j.J[1][0]
	// [∂/∂x ∂/∂y]ᵀ = J⁻¹·[∂/∂ξ ∂/∂η]ᵀ, with the 2×2 inverse written out.
	for i := range p.N {
		j.Dx[i] = (j.J[1][1]*dxi[i] - j.J[0][1]*deta[i]) / j.Det
		j.Dy[i] = (-j.J[1][0]*dxi[i] + j.J[0][0]*deta[i]) / j.Det
	}
	return j
}

// Check returns ErrShape unless p has 3 or 4 corners and a positive
// Jacobian at every corner, which for a bilinear map means everywhere.
func (p *Plane) Check() error {
	switch p.N {
	case 3:
		if p.Area() > 0 {
			return nil
		}
	case 4:
		corners := [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}
		for _, c := range corners {
			if j := p.At(c[0], c[1]); !(j.Det > 0) {
				return ErrShape
			}
		}
		return nil
	}
	return ErrShape
}

// Area returns the area of the element, m² (shoelace formula).
func (p *Plane) Area() float64 {
	a := 0.0
	for i := range p.N {
		k := (i + 1) % p.N
		a += p.X[i]*p.Y[k] - p.X[k]*p.Y[i]
	}
	return a / 2
}

// Props are a plate's isotropic material and thicknesses.
type Props struct {
	E, Nu float64 // Pa, Poisson's ratio
	// Tm, Tb and Ts are the membrane, bending and transverse-shear
	// thicknesses, m.
	Tm, Tb, Ts float64
}

// ShearFactor is the transverse-shear correction factor of a homogeneous
// plate, 5/6 (Reissner).
const ShearFactor = 5.0 / 6

// G returns the shear modulus E/2(1+ν).
func (p Props) G() float64 { return p.E / (2 * (1 + p.Nu)) }

// planeStress returns the plane-stress elasticity matrix times f.
func (p Props) planeStress(f float64) Mat3 {
	c := f * p.E / (1 - p.Nu*p.Nu)
	return Mat3{{c, c * p.Nu, 0}, {c * p.Nu, c, 0}, {0, 0, c * (1 - p.Nu) / 2}}
}

// Dm returns the membrane rigidity, N/m: the plane-stress matrix times Tm.
func (p Props) Dm() Mat3 { return p.planeStress(p.Tm) }

// Db returns the bending rigidity, N·m: the plane-stress matrix times
// Tb³/12, so that Db[0][0] = D = E·Tb³/12(1−ν²).
func (p Props) Db() Mat3 { return p.planeStress(p.Tb * p.Tb * p.Tb / 12) }

// Ds returns the transverse-shear rigidity, N/m: 5/6·G·Ts on the diagonal.
func (p Props) Ds() Mat2 {
	s := ShearFactor * p.G() * p.Ts
	return Mat2{{s, 0}, {0, s}}
}
