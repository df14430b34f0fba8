package shell

import "math"

// The discrete Kirchhoff elements DKT (Batoz, Bathe & Ho, Int. J. Numer.
// Methods Eng. 15, 1980) and DKQ (Batoz & Ben Tahar, Int. J. Numer.
// Methods Eng. 18, 1982) share one construction, written here once for
// N = 3 and N = 4 corners:
//
//   - The rotations of the normal β = (βx, βy) are interpolated with the
//     2N-node element of the next order: the 6-node quadratic triangle,
//     or the 8-node serendipity quad on the bilinear geometry. The
//     curvature κ is then a derivative of β alone; w enters only through
//     the constraints below.
//   - At the corners the Kirchhoff hypothesis holds exactly, β = −∇w, so
//     the corner values of β are the corner rotations: βx = θy and
//     βy = −θx, the papers' convention and ours alike.
//   - Along each straight edge from corner i to corner j (length l, unit
//     tangent s, normal n) w is the cubic Hermite interpolant of w and
//     w,s at the ends, βs is quadratic and βn linear. The mid-edge
//     rotation follows from ∫(w,s + βs) ds = 0 over the edge (DKQ),
//     which for these degrees is the same as w,s + βs = 0 at the midpoint
//     (DKT):
//
//     βs,k = −3(wj − wi)/(2l) − (βs,i + βs,j)/4,  βn,k = (βn,i + βn,j)/2.
//
//     Written as a vector with nnᵀ = I − ssᵀ this is
//
//     βk = (½I − ¾ssᵀ)(βi + βj) − 3s(wj − wi)/(2l),
//
//     which needs neither the orientation of n nor the angle of the edge
//     and so works for any element orientation.
//
// Both the DKT and the DKQ reproduce any quadratic w exactly (the mid-edge
// values above are then exact and the 2N-node interpolation contains every
// bilinear function of the natural coordinates), which is the patch test
// the papers report and the tests check.

// dkEdges is the per-edge data of the discrete Kirchhoff constraint: the
// 2×2 matrix ½I − ¾ssᵀ and the vector 3s/(2l) of edge k, which runs from
// corner k to corner k+1.
type dkEdges struct {
	a [4][2][2]float64
	c [4][2]float64
}

// edges fills the constraint data of p's edges. A straight edge keeps
// s and l fixed, so they are computed once per call from the corners.
func (e *dkEdges) edges(p *Plane) {
	for k := range p.N {
		j := (k + 1) % p.N
		dx, dy := p.X[j]-p.X[k], p.Y[j]-p.Y[k]
		l := math.Hypot(dx, dy)
		sx, sy := dx/l, dy/l
		e.a[k] = [2][2]float64{{0.5 - 0.75*sx*sx, -0.75 * sx * sy}, {-0.75 * sx * sy, 0.5 - 0.75*sy*sy}}
		e.c[k] = [2]float64{1.5 * sx / l, 1.5 * sy / l}
	}
}

// rows writes the rows of D(βx) and D(βy) in the bending DOFs of the
// element, where d holds a linear operator D (a first or second x, y
// derivative) applied to the 2N shape functions of β: corners first, then
// the mid-edge nodes in edge order. It is where the mid-edge rotations are
// condensed onto the corner DOFs.
func (e *dkEdges) rows(n int, d *[8]float64, rx, ry *[12]float64) {
	for i := range n {
		km := (i + n - 1) % n // the edge that ends at corner i
		dk, dm := d[n+i], d[n+km]
		// Coefficient of β_i in D(β): d_i·I + Σ over both edges of d_k·A_k.
		var g [2][2]float64
		for r := range 2 {
			for c := range 2 {
				g[r][c] = dk*e.a[i][r][c] + dm*e.a[km][r][c]
			}
			g[r][r] += d[i]
		}
		// Coefficient of w_i: +3s/(2l) from the edge it starts, −3s/(2l)
		// from the edge it ends.
		gw0 := dk*e.c[i][0] - dm*e.c[km][0]
		gw1 := dk*e.c[i][1] - dm*e.c[km][1]
		// β_i = (θy, −θx): the θx column is −g[:,1], the θy column g[:,0].
		rx[3*i], rx[3*i+1], rx[3*i+2] = gw0, -g[0][1], g[0][0]
		ry[3*i], ry[3*i+1], ry[3*i+2] = gw1, -g[1][1], g[1][0]
	}
}

// dkShape is the x, y derivatives of the 2N shape functions of β at a
// point, first and (when asked for) second, with det J there.
type dkShape struct {
	det           float64
	dx, dy        [8]float64
	dxx, dyy, dxy [8]float64
}

// at evaluates the derivatives of the quadratic (triangle) or serendipity
// (quad) shape functions of β at (ξ, η), mapped through the linear or
// bilinear geometry of p. The second derivatives are mapped with the
// Hessian rule H_xy = J⁻¹(H_ξη − G)J⁻ᵀ, G holding the second derivatives
// of the geometry times the first derivatives of the shape function; only
// x,ξη and y,ξη are non-zero for a bilinear map, none for a linear one.
func (s *dkShape) at(p *Plane, xi, eta float64, second bool) {
	var nx, ne, nxx, nee, nxe [8]float64
	var gxe [2]float64 // x,ξη and y,ξη
	if p.N == 3 {
		triDeriv(xi, eta, &nx, &ne, &nxx, &nee, &nxe)
	} else {
		quadDeriv(xi, eta, &nx, &ne, &nxx, &nee, &nxe)
		sx := [4]float64{-1, 1, 1, -1}
		sy := [4]float64{-1, -1, 1, 1}
		for i := range 4 {
			gxe[0] += sx[i] * sy[i] * p.X[i] / 4
			gxe[1] += sx[i] * sy[i] * p.Y[i] / 4
		}
	}
	j := p.At(xi, eta)
	s.det = j.Det
	// J⁻¹, so that (∂/∂x, ∂/∂y) = J⁻¹·(∂/∂ξ, ∂/∂η).
	ji := [2][2]float64{
		{j.J[1][1] / j.Det, -j.J[0][1] / j.Det},
		{-j.J[1][0] / j.Det, j.J[0][0] / j.Det},
	}
	m := 2 * p.N
	for i := range m {
		s.dx[i] = ji[0][0]*nx[i] + ji[0][1]*ne[i]
		s.dy[i] = ji[1][0]*nx[i] + ji[1][1]*ne[i]
	}
	if !second {
		return
	}
	for i := range m {
		g := gxe[0]*s.dx[i] + gxe[1]*s.dy[i]
		h := [2][2]float64{{nxx[i], nxe[i] - g}, {nxe[i] - g, nee[i]}}
		// t = J⁻¹·h, then H = t·J⁻ᵀ.
		var t [2][2]float64
		for r := range 2 {
			for c := range 2 {
				t[r][c] = ji[r][0]*h[0][c] + ji[r][1]*h[1][c]
			}
		}
		s.dxx[i] = t[0][0]*ji[0][0] + t[0][1]*ji[0][1]
		s.dxy[i] = t[0][0]*ji[1][0] + t[0][1]*ji[1][1]
		s.dyy[i] = t[1][0]*ji[1][0] + t[1][1]*ji[1][1]
	}
}

// triDeriv writes the natural derivatives of the 6-node quadratic
// triangle, ξ = L2, η = L3: corners L(2L − 1), then 4L1L2, 4L2L3, 4L3L1
// on the edges 1–2, 2–3, 3–1.
func triDeriv(xi, eta float64, nx, ne, nxx, nee, nxe *[8]float64) {
	l1 := 1 - xi - eta
	*nx = [8]float64{1 - 4*l1, 4*xi - 1, 0, 4 * (l1 - xi), 4 * eta, -4 * eta}
	*ne = [8]float64{1 - 4*l1, 0, 4*eta - 1, -4 * xi, 4 * xi, 4 * (l1 - eta)}
	*nxx = [8]float64{4, 4, 0, -8, 0, 0}
	*nee = [8]float64{4, 0, 4, 0, 0, -8}
	*nxe = [8]float64{4, 0, 0, -4, 4, -4}
}

// quadDeriv writes the natural derivatives of the 8-node serendipity quad:
// corners ¼(1+ξξi)(1+ηηi)(ξξi+ηηi−1) in the order of [Plane], then the
// mid-edge functions ½(1−ξ²)(1+ηηk) or ½(1+ξξk)(1−η²) of the edges 1–2,
// 2–3, 3–4, 4–1, at (0,−1), (1,0), (0,1), (−1,0).
func quadDeriv(xi, eta float64, nx, ne, nxx, nee, nxe *[8]float64) {
	sx := [4]float64{-1, 1, 1, -1}
	sy := [4]float64{-1, -1, 1, 1}
	for i := range 4 {
		a, b := sx[i]*xi, sy[i]*eta
		nx[i] = sx[i] * (1 + b) * (2*a + b) / 4
		ne[i] = sy[i] * (1 + a) * (a + 2*b) / 4
		nxx[i] = (1 + b) / 2
		nee[i] = (1 + a) / 2
		nxe[i] = sx[i] * sy[i] * (2*a + 2*b + 1) / 4
	}
	for _, k := range [2]int{0, 2} { // ξ-edges at η = ∓1
		s := sy[k+1] // −1 for edge 1–2, +1 for edge 3–4
		nx[4+k] = -xi * (1 + s*eta)
		ne[4+k] = s * (1 - xi*xi) / 2
		nxx[4+k] = -(1 + s*eta)
		nee[4+k] = 0
		nxe[4+k] = -xi * s
	}
	for _, k := range [2]int{1, 3} { // η-edges at ξ = ±1
		s := sx[k] // +1 for edge 2–3, −1 for edge 4–1
		nx[4+k] = s * (1 - eta*eta) / 2
		ne[4+k] = -eta * (1 + s*xi)
		nxx[4+k] = 0
		nee[4+k] = -(1 + s*xi)
		nxe[4+k] = -eta * s
	}
}

// kirchhoffB fills the 3×3N curvature matrix from the shape derivatives
// s: κx = βx,x, κy = βy,y, κxy = βx,y + βy,x.
func kirchhoffB(n int, e *dkEdges, s *dkShape, b *[3][12]float64) {
	var xx, xy, yx, yy [12]float64 // βx,x  βy,x  βx,y  βy,y
	e.rows(n, &s.dx, &xx, &xy)
	e.rows(n, &s.dy, &yx, &yy)
	for c := range 3 * n {
		b[0][c] = xx[c]
		b[1][c] = yy[c]
		b[2][c] = yx[c] + xy[c]
	}
}

// KirchhoffBending writes the 3N×3N bending stiffness of the DKT (N = 3)
// or DKQ (N = 4) element into k (row-major, corner by corner
// (w, θx, θy)): ∫Bᵀ·Db·B dA over the element. The DKQ takes 2×2 Gauss
// points as Batoz & Ben Tahar (1982) do; the DKT's B is linear, so the
// three edge midpoints integrate its quadratic integrand exactly, as in
// Batoz, Bathe & Ho (1980). Thin-plate theory has no transverse shear
// energy: the discrete Kirchhoff constraints already removed it, which is
// why these elements do not lock at any thickness.
func KirchhoffBending(p *Plane, db *Mat3, k []float64) {
	m := 3 * p.N
	for i := range m * m {
		k[i] = 0
	}
	var e dkEdges
	e.edges(p)
	var s dkShape
	var b [3][12]float64
	for _, g := range p.Gauss() {
		s.at(p, g.Xi, g.Eta, false)
		kirchhoffB(p.N, &e, &s, &b)
		w := g.W * s.det
		var dbB [3][12]float64
		for r := range 3 {
			for c := range m {
				dbB[r][c] = w * (db[r][0]*b[0][c] + db[r][1]*b[1][c] + db[r][2]*b[2][c])
			}
		}
		for r := range m {
			row := k[r*m : r*m+m]
			b0, b1, b2 := b[0][r], b[1][r], b[2][r]
			for c := range m {
				row[c] += b0*dbB[0][c] + b1*dbB[1][c] + b2*dbB[2][c]
			}
		}
	}
}

// KirchhoffCurvature writes the 3×3N matrix B with κ = B·ub at natural
// point (ξ, η) into b and returns det J there (so that ∫…dA = Σ W·detJ·…
// over p.Gauss()). Recovery evaluates it where it reports (the Gauss
// points or [Plane.Centroid]); the moments are then Db·κ. The curvatures
// are those of the DKT/DKQ rotation field (Batoz, Bathe & Ho 1980; Batoz &
// Ben Tahar 1982), linear on a triangle and not polynomial on a general
// quad.
func KirchhoffCurvature(p *Plane, xi, eta float64, b []float64) float64 {
	var e dkEdges
	e.edges(p)
	var s dkShape
	s.at(p, xi, eta, false)
	var bb [3][12]float64
	kirchhoffB(p.N, &e, &s, &bb)
	m := 3 * p.N
	for r := range 3 {
		copy(b[r*m:r*m+m], bb[r][:m])
	}
	return s.det
}

// KirchhoffCurvatureGradient writes ∂B/∂x and ∂B/∂y (each 3×3N) at
// (ξ, η): the gradient of the curvature field, from which
// Element.Resultants gets the in-element transverse shear forces of
// equilibrium Vxz = Mx,x + Mxy,y, Vyz = Mxy,x + My,y, which a Kirchhoff
// element has no strain for. It is the exact derivative of the DKT/DKQ
// rotation field, with the second derivatives of the bilinear map of a
// quad taken into account. The field is only a discrete Kirchhoff one,
// and shear forces taken from its gradient inside one element do NOT
// converge: 17 % off (RMS) on a simply supported plate of DKQs and 21 %
// of DKTs at every mesh, 31 % on a DKT cantilever strip. Analyses
// therefore take the shears from a patch fit of the centroid moments over
// neighbouring plates (PatchShear), which converges at second order; the
// in-element value is the fallback where no patch can be fitted.
func KirchhoffCurvatureGradient(p *Plane, xi, eta float64, bx, by []float64) {
	var e dkEdges
	e.edges(p)
	var s dkShape
	s.at(p, xi, eta, true)
	var xxx, xxy, xyy, yxx, yxy, yyy [12]float64 // βx,xx βy,xx  βx,xy βy,xy  βx,yy βy,yy
	e.rows(p.N, &s.dxx, &xxx, &yxx)
	e.rows(p.N, &s.dxy, &xxy, &yxy)
	e.rows(p.N, &s.dyy, &xyy, &yyy)
	m := 3 * p.N
	for c := range m {
		// ∂κ/∂x = (βx,xx, βy,yx, βx,yx + βy,xx).
		bx[c] = xxx[c]
		bx[m+c] = yxy[c]
		bx[2*m+c] = xxy[c] + yxx[c]
		// ∂κ/∂y = (βx,xy, βy,yy, βx,yy + βy,xy).
		by[c] = xxy[c]
		by[m+c] = yyy[c]
		by[2*m+c] = xyy[c] + yxy[c]
	}
}
