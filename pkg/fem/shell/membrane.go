package shell

// The membrane field: u and v interpolated linearly (triangle) or
// bilinearly (quad) from the corners, and the drilling rotation θz
// interpolated the same way, independently of them. The Hughes–Brezzi
// functional adds γ·∫(θz − ω)² dA, ω = (v,x − u,y)/2, which ties θz to the
// rotation of the membrane field without changing any state in which they
// already agree, so the patch test holds for any γ > 0 and the drilling
// freedom has stiffness of its own, as a shell meeting a frame needs.

// MembraneStrain writes the 3×3N matrix B with (εx, εy, γxy) = B·um at
// (ξ, η) into b, um being the membrane DOFs (u, v, θz) corner by corner,
// and returns det J there.
func MembraneStrain(p *Plane, xi, eta float64, b []float64) float64 {
	j := p.At(xi, eta)
	n := 3 * p.N
	clear(b[:3*n])
	for i := range p.N {
		b[3*i] = j.Dx[i]
		b[n+3*i+1] = j.Dy[i]
		b[2*n+3*i] = j.Dy[i]
		b[2*n+3*i+1] = j.Dx[i]
	}
	return j.Det
}

// DrillStrain writes the 1×3N row g with θz − ω = g·um at (ξ, η) into g
// and returns det J there.
func DrillStrain(p *Plane, xi, eta float64, g []float64) float64 {
	j := p.At(xi, eta)
	clear(g[:3*p.N])
	for i := range p.N {
		g[3*i] = j.Dy[i] / 2
		g[3*i+1] = -j.Dx[i] / 2
		g[3*i+2] = j.N[i]
	}
	return j.Det
}

// MembraneStiffness writes the 3N×3N membrane stiffness over (u, v, θz)
// into k: ∫Bᵀ·Dm·B dA plus the drilling term gamma·∫gᵀg dA, gamma in N/m
// (the caller's G·Tm times the plate's drilling multiplier). Both are
// integrated with [Plane.Gauss]: exact for the triangle, and on the quad
// the 2×2 rule that keeps the drilling term free of spurious modes.
func MembraneStiffness(p *Plane, dm *Mat3, gamma float64, k []float64) {
	n := 3 * p.N
	clear(k[:n*n])
	var b [3 * 12]float64
	var g [12]float64
	for _, q := range p.Gauss() {
		det := MembraneStrain(p, q.Xi, q.Eta, b[:])
		DrillStrain(p, q.Xi, q.Eta, g[:])
		w := q.W * det
		addBtDB(n, b[:], dm, w, k)
		for r := range n {
			if g[r] == 0 {
				continue
			}
			f := w * gamma * g[r]
			for c := range n {
				k[r*n+c] += f * g[c]
			}
		}
	}
}

// addBtDB adds w·Bᵀ·D·B to the n×n matrix k, B being 3×n.
func addBtDB(n int, b []float64, d *Mat3, w float64, k []float64) {
	var db [3 * 12]float64 // D·B
	for i := range 3 {
		for c := range n {
			db[i*n+c] = d[i][0]*b[c] + d[i][1]*b[n+c] + d[i][2]*b[2*n+c]
		}
	}
	for r := range n {
		b0, b1, b2 := b[r], b[n+r], b[2*n+r]
		if b0 == 0 && b1 == 0 && b2 == 0 {
			continue
		}
		row := k[r*n : r*n+n]
		for c := range n {
			row[c] += w * (b0*db[c] + b1*db[n+c] + b2*db[2*n+c])
		}
	}
}
