package shell

import "math"

// Transverse shears of Kirchhoff plates by patch recovery.
//
// A discrete Kirchhoff element has no shear strain, and the gradient of
// its own moment field does not converge to the shear force of
// equilibrium (see KirchhoffCurvatureGradient). Its centroid moments do
// converge, at second order, so the shear is taken from the gradient of a
// smooth field fitted through the centroid moments of a patch of
// neighbouring plates. PatchShear is that fit for one plate; choosing the
// patch, and turning the neighbours into the plate's axes, is the
// caller's (package domain, which knows the mesh).

// PatchPoint is one plate of the patch around a Kirchhoff plate: the
// point (X, Y), m, where it reports its moments — its centroid — in the
// local frame of the plate being recovered (origin at that plate's
// centroid), and its moments M = (Mx, My, Mxy), N·m/m, turned into that
// plate's axes (see TurnMoments).
type PatchPoint struct {
	X, Y float64
	M    [3]float64
}

// PatchFit tells how PatchShear fitted the moments.
type PatchFit int

// The fits of PatchShear: none (the points cannot give a gradient: fewer
// than three, or all on one line), the complete linear polynomial, or the
// linear polynomial with the quadratic terms the points can carry.
const (
	FitNone PatchFit = iota
	FitLinear
	FitQuadratic
)

// MaxPatch is the largest number of points PatchShear uses; it ignores
// the rest, so callers list the nearest plates first. The two rings of
// plates around a plate of a regular mesh of triangles number about 40.
const MaxPatch = 64

// patchRank is the fraction of a column of the fitting matrix, in
// coordinates scaled to the patch, that must remain once the earlier
// columns are projected out for the column to be kept. Exactly collinear
// points (or a square term over two abscissae only) leave rounding, 1e-16;
// the patches of real meshes leave order 0.1 to 1 (even a single row of
// triangles, whose centroids zigzag across the row by a third of its
// width, leaves 0.7 of the y column). Between those, 1e-2 drops a term
// the points barely determine, whose coefficient would amplify the
// scatter of the moments a hundredfold.
const patchRank = 1e-2

// PatchShear returns the transverse shears V = (Vxz, Vyz), N/m, at the
// origin from a least-squares fit of the moment field through the patch
// points pts (the plate itself, at the origin, and its neighbours), by
// equilibrium: Vxz = Mx,x + Mxy,y and Vyz = Mxy,x + My,y of the fitted
// field at the origin.
//
// The fitted polynomial is 1, x, y, then the quadratic terms x², xy, y²,
// each kept only where the points can carry it (Gram–Schmidt in that
// order, dropping a column the earlier ones nearly explain) and while the
// points still outnumber the terms, so that the fit smooths rather than
// interpolates. The quadratic terms matter at edges: a linear fit returns
// the slope of a chord across the patch, which on the one-sided patch of
// a plate at an edge is the slope half a patch inwards, wrong by about
// half the patch width times the pressure — a first-order error; fitting
// the curvature of the moments removes it. The patch is the plate's two
// rings of neighbours (package domain), which a quadratic needs at an
// edge. Measured on a simply supported plate (package static's
// TestKirchhoffShearNavier), RMS error over the plate on meshes of 8, 16
// and 32: this fit 13, 3.7, 1.0 % for DKQ and 14, 3.9, 0.9 % for DKT,
// second order; a linear fit over one ring 20, 8.8, 3.5 %, first order;
// a cubic over two rings 5.6, 1.4, 0.4 % on regular quads but 17, 12,
// 8 % for DKT, whose centroid moments scatter from triangle to triangle,
// and worse on distorted quads (22 % at 32 with corners moved by a
// quarter of the mesh size, where this fit stays at 1.4 %).
//
// The fit is FitNone when fewer than three points, or points on one line,
// leave the gradient undetermined; V is zero then and the caller keeps
// what it had.
func PatchShear(pts []PatchPoint) (v [2]float64, fit PatchFit) {
	n := min(len(pts), MaxPatch)
	if n < 3 {
		return v, FitNone
	}
	// Scale the coordinates by the patch's RMS radius so the columns are
	// of order one whatever the units and the mesh size.
	r2 := 0.0
	for _, p := range pts[:n] {
		r2 += p.X*p.X + p.Y*p.Y
	}
	h := math.Sqrt(r2 / float64(n))
	if !(h > 0) || math.IsInf(h, 0) {
		return v, FitNone
	}
	var q qrFit
	var b [3][MaxPatch]float64 // right-hand sides Mx, My, Mxy
	for i, p := range pts[:n] {
		b[0][i], b[1][i], b[2][i] = p.M[0], p.M[1], p.M[2]
	}
	var col [MaxPatch]float64
	for c := range 6 {
		if c >= 3 && q.rank >= n-1 {
			break // keep a redundant point: no interpolation
		}
		for i, p := range pts[:n] {
			col[i] = monomial(c, p.X/h, p.Y/h)
		}
		if !q.add(col[:n], c) && c < 3 {
			return v, FitNone // no plane through the points
		}
	}
	coef := q.solve(&b, n)
	fit = FitLinear
	if q.rank > 3 {
		fit = FitQuadratic
	}
	// At the origin the derivative of the fit is its linear coefficient,
	// over h for the scaled coordinates.
	mxX, myY := coef[0][1]/h, coef[1][2]/h
	mxyX, mxyY := coef[2][1]/h, coef[2][2]/h
	return [2]float64{mxX + mxyY, mxyX + myY}, fit
}

// monomial returns term c of 1, x, y, x², xy, y².
func monomial(c int, x, y float64) float64 {
	switch c {
	case 0:
		return 1
	case 1:
		return x
	case 2:
		return y
	case 3:
		return x * x
	case 4:
		return x * y
	}
	return y * y
}

// qrFit is a least-squares fit by modified Gram–Schmidt with column
// dropping: the kept columns, orthonormalized, and the triangular factor.
type qrFit struct {
	rank int
	cols [6]int // which monomial each kept column is
	q    [6][MaxPatch]float64
	r    [6][6]float64
}

// add orthogonalizes column col (values a at the points) against the kept
// ones and keeps it unless what remains is below patchRank of its length.
func (f *qrFit) add(a []float64, col int) bool {
	n := len(a)
	var w [MaxPatch]float64
	copy(w[:n], a)
	norm0 := 0.0
	for _, x := range a {
		norm0 += x * x
	}
	norm0 = math.Sqrt(norm0)
	k := f.rank
	var r [6]float64
	// Two passes of Gram–Schmidt keep the columns orthogonal to rounding.
	for range 2 {
		for j := range k {
			d := 0.0
			for i := range n {
				d += f.q[j][i] * w[i]
			}
			r[j] += d
			for i := range n {
				w[i] -= d * f.q[j][i]
			}
		}
	}
	norm := 0.0
	for i := range n {
		norm += w[i] * w[i]
	}
	norm = math.Sqrt(norm)
	if !(norm > patchRank*norm0) {
		return false
	}
	for i := range n {
		f.q[k][i] = w[i] / norm
	}
	for j := range k {
		f.r[j][k] = r[j]
	}
	f.r[k][k] = norm
	f.cols[k] = col
	f.rank++
	return true
}

// solve returns the least-squares coefficients of the 6 monomials (zero
// for dropped ones) for each right-hand side b: R·c = Qᵀ·b.
func (f *qrFit) solve(b *[3][MaxPatch]float64, n int) [3][6]float64 {
	var out [3][6]float64
	for s := range b {
		var y, c [6]float64
		for j := range f.rank {
			d := 0.0
			for i := range n {
				d += f.q[j][i] * b[s][i]
			}
			y[j] = d
		}
		for j := f.rank - 1; j >= 0; j-- {
			v := y[j]
			for k := j + 1; k < f.rank; k++ {
				v -= f.r[j][k] * c[k]
			}
			c[j] = v / f.r[j][j]
		}
		for j := range f.rank {
			out[s][f.cols[j]] = c[j]
		}
	}
	return out
}

// TurnMoments returns moments m = (Mx, My, Mxy) of another plate, given
// in that plate's axes x′, y′, z′, in the axes x, y of this one: q holds
// the direction cosines q[i][j] = eᵢ·e′ⱼ of the two in-plane pairs. The
// moments are a plane tensor, M = Q·M′·Qᵀ, but they are also first
// moments of stress along z: a plate whose normal points the other way
// (det Q < 0) measures z the other way, so its moments change sign too.
// For planes at a small angle φ, Q is that of the projection, which errs
// by 1 − cos φ.
func TurnMoments(q Mat2, m [3]float64) [3]float64 {
	t := turnTensor(q, m)
	if q[0][0]*q[1][1]-q[0][1]*q[1][0] < 0 {
		t = [3]float64{-t[0], -t[1], -t[2]}
	}
	return t
}

// turnTensor returns the plane tensor m = (xx, yy, xy), given in axes
// x′, y′, in axes x, y: Q·M′·Qᵀ.
func turnTensor(q Mat2, m [3]float64) [3]float64 {
	mm := [2][2]float64{{m[0], m[2]}, {m[2], m[1]}}
	var t, r [2][2]float64
	for i := range 2 {
		for j := range 2 {
			t[i][j] = q[i][0]*mm[0][j] + q[i][1]*mm[1][j]
		}
	}
	for i := range 2 {
		for j := range 2 {
			r[i][j] = t[i][0]*q[j][0] + t[i][1]*q[j][1]
		}
	}
	return [3]float64{r[0][0], r[1][1], (r[0][1] + r[1][0]) / 2}
}

// TurnForces returns membrane forces f = (Fx, Fy, Fxy) of another plate,
// given in its axes, in the axes of this one: the plane tensor rotation of
// TurnMoments without its sign, since membrane forces do not depend on
// which way z points.
func TurnForces(q Mat2, f [3]float64) [3]float64 { return turnTensor(q, f) }
