package library

import "math"

// This file computes section properties from dimensions (all in m). The
// formulas are the ones the Australian catalogues use, so that computed
// values reproduce the published tables (see aust300_test.go):
//
//   - areas and second moments are exact for the idealised outline: straight
//     plates plus root-fillet (or corner) spandrels;
//   - open-section torsion uses El Darwish & Johnston's fillet correction
//     (I-sections) or Roark's angle-junction correction (channels), because
//     the plain Σb·t³/3 is 6–25 % low for rolled I-sections;
//   - hollow rectangles use the Bredt–Batho thin-wall formula with the St
//     Venant wall term, on the mid-wall line with rounded corners.

// spandrel describes the fillet left between two perpendicular faces by a
// radius r: an r×r square minus a quarter disc. It returns the area, the
// distance c of its centroid from each of its two straight edges, and its
// second moment about a centroidal axis parallel to an edge.
func spandrel(r float64) (area, c, i0 float64) {
	area = r * r * (1 - math.Pi/4)
	if area == 0 {
		return 0, 0, 0
	}
	// First moment about an edge: r³/2 (square) − (π/4 − 1/3)r³ (quarter disc).
	c = r * (5.0/6 - math.Pi/4) / (1 - math.Pi/4)
	// Second moment about an edge: r⁴/3 − (5π/16 − 2/3)r⁴, then shift.
	i0 = r*r*r*r*(1-5*math.Pi/16) - area*c*c
	return area, c, i0
}

// props are computed section properties; Yc and Zc locate the centroid from
// the bounding box's -y and -z edges.
type props struct {
	A, Iy, Iz, J, Ay, Az float64
	Yc, Zc               float64
}

// iSectionProps computes a doubly symmetric rolled I-section of depth d,
// flange width b, flange thickness tf, web thickness tw and root radius r.
// Shear areas: Ay = d·tw (web), Az = 5/6·2·b·tf (flanges as rectangles).
func iSectionProps(d, b, tf, tw, r float64) props {
	hw := d - 2*tf
	as, c, i0 := spandrel(r)
	a := 2*b*tf + hw*tw + 4*as
	arm := (d - tf) / 2
	iz := 2*(b*tf*tf*tf/12+b*tf*arm*arm) + tw*hw*hw*hw/12 + 4*(i0+as*(hw/2-c)*(hw/2-c))
	iy := 2*tf*b*b*b/12 + hw*tw*tw*tw/12 + 4*(i0+as*(tw/2+c)*(tw/2+c))
	return props{
		A: a, Iy: iy, Iz: iz, J: iSectionTorsion(d, b, tf, tw, r),
		Ay: d * tw, Az: 5.0 / 6 * 2 * b * tf,
		Yc: d / 2, Zc: b / 2,
	}
}

// iSectionTorsion is El Darwish & Johnston's (1965) torsion constant for a
// rolled I-section, in the form given by AISC Design Guide 9 (Appendix A):
// J = 2·J1 + J2 + 2·α·D⁴, with J1 the flange (both ends free), J2 the web
// between the flanges and α·D⁴ the web-flange fillet junction.
func iSectionTorsion(d, b, tf, tw, r float64) float64 {
	j1 := b * tf * tf * tf * (1.0/3 - 0.21*(tf/b)*(1-math.Pow(tf/b, 4)/12))
	j2 := (d - 2*tf) * tw * tw * tw / 3
	alpha := -0.042 + 0.2204*tw/tf + 0.1355*r/tf - 0.0865*r*tw/(tf*tf) - 0.0725*tw*tw/(tf*tf)
	dj := ((tf+r)*(tf+r) + tw*(r+tw/4)) / (2*r + tf)
	return 2*j1 + j2 + 2*alpha*math.Pow(dj, 4)
}

// channelProps computes a parallel-flange channel (web on the -z side).
// Shear areas as for I-sections: Ay = d·tw, Az = 5/6·2·b·tf.
func channelProps(d, b, tf, tw, r float64) props {
	hw := d - 2*tf
	as, c, i0 := spandrel(r)
	a := 2*b*tf + hw*tw + 2*as
	zc := (b*tf*b + hw*tw*tw/2 + 2*as*(tw+c)) / a
	arm := (d - tf) / 2
	iz := 2*(b*tf*tf*tf/12+b*tf*arm*arm) + tw*hw*hw*hw/12 + 2*(i0+as*(hw/2-c)*(hw/2-c))
	// About the back of the web, then moved to the centroid.
	iyBack := 2*tf*b*b*b/3 + hw*tw*tw*tw/3 + 2*(i0+as*(tw+c)*(tw+c))
	return props{
		A: a, Iy: iyBack - a*zc*zc, Iz: iz, J: channelTorsion(d, b, tf, tw, r),
		Ay: d * tw, Az: 5.0 / 6 * 2 * b * tf,
		Yc: d / 2, Zc: zc,
	}
}

// channelTorsion treats a channel as two flanges with one free end each, a
// web between them and two L-junctions, using Roark's expressions for an
// angle (Roark's Formulas for Stress and Strain, Table 10.1, angle section):
// flange b·tf³[1/3 − 0.105(tf/b)(1 − tf⁴/(192b⁴))], junction α·D⁴ with
// α = (t_min/t_max)(0.07 + 0.076 r/t_max), D = 2[tf + tw + 3r − √(2(2r+tf)(2r+tw))].
func channelTorsion(d, b, tf, tw, r float64) float64 {
	j1 := b * tf * tf * tf * (1.0/3 - 0.105*(tf/b)*(1-math.Pow(tf/b, 4)/192))
	j2 := (d - 2*tf) * tw * tw * tw / 3
	tmin, tmax := math.Min(tf, tw), math.Max(tf, tw)
	alpha := tmin / tmax * (0.07 + 0.076*r/tmax)
	dj := 2 * (tf + tw + 3*r - math.Sqrt(2*(2*r+tf)*(2*r+tw)))
	return 2*j1 + j2 + 2*alpha*math.Pow(dj, 4)
}

// roundedRect returns the area and second moments of a solid d×b rectangle
// whose four corners are rounded to radius r.
func roundedRect(d, b, r float64) (a, iz, iy float64) {
	as, c, i0 := spandrel(r)
	a = b*d - 4*as
	iz = b*d*d*d/12 - 4*(i0+as*(d/2-c)*(d/2-c))
	iy = d*b*b*b/12 - 4*(i0+as*(b/2-c)*(b/2-c))
	return a, iz, iy
}

// hollowRectProps computes a rectangular hollow section of depth d (along y),
// width b and wall t, with outer corner radius ro and inner radius
// max(ro−t, 0). Torsion is the thin-wall Bredt–Batho constant plus the St
// Venant term of the walls, on the mid-wall line (corner radius (ro+ri)/2):
// J = t³h/3 + 2K·Ah, K = 2t·Ah/h, where h is the mid-line perimeter and Ah
// the area it encloses. Shear areas split the area in proportion to the
// walls parallel to the shear: Ay = A·d/(d+b), Az = A·b/(d+b).
func hollowRectProps(d, b, t, ro float64) props {
	ri := math.Max(ro-t, 0)
	ao, izo, iyo := roundedRect(d, b, ro)
	ai, izi, iyi := roundedRect(d-2*t, b-2*t, ri)
	a := ao - ai
	rc := (ro + ri) / 2
	h := 2*((b-t)+(d-t)) - 2*rc*(4-math.Pi)
	ah := (b-t)*(d-t) - rc*rc*(4-math.Pi)
	k := 2 * t * ah / h
	return props{
		A: a, Iy: iyo - iyi, Iz: izo - izi, J: t*t*t*h/3 + 2*k*ah,
		Ay: a * d / (d + b), Az: a * b / (d + b),
		Yc: d / 2, Zc: b / 2,
	}
}

// tubeProps computes a circular tube of outside diameter do and wall t
// exactly. Shear area A/2, the thin-tube Timoshenko value.
func tubeProps(do, t float64) props {
	di := do - 2*t
	a := math.Pi / 4 * (do*do - di*di)
	i := math.Pi / 64 * (math.Pow(do, 4) - math.Pow(di, 4))
	return props{A: a, Iy: i, Iz: i, J: 2 * i, Ay: a / 2, Az: a / 2, Yc: do / 2, Zc: do / 2}
}

// solidCircleProps computes a round bar of diameter dia exactly. Shear area
// 0.9·A, the usual Timoshenko coefficient for a solid circle (Cowper's
// 6(1+ν)/(7+6ν) is 0.886 at ν = 0.3).
func solidCircleProps(dia float64) props {
	a := math.Pi / 4 * dia * dia
	i := math.Pi / 64 * math.Pow(dia, 4)
	return props{A: a, Iy: i, Iz: i, J: 2 * i, Ay: 0.9 * a, Az: 0.9 * a, Yc: dia / 2, Zc: dia / 2}
}

// solidRectProps computes a d×b rectangle. Shear areas 5/6·A.
func solidRectProps(d, b float64) props {
	a := d * b
	return props{
		A: a, Iy: d * b * b * b / 12, Iz: b * d * d * d / 12, J: rectTorsion(d, b),
		Ay: 5.0 / 6 * a, Az: 5.0 / 6 * a,
		Yc: d / 2, Zc: b / 2,
	}
}

// rectTorsion is the St Venant torsion constant of a solid rectangle by the
// exact series (Timoshenko & Goodier, Theory of Elasticity, §109):
// J = (l·s³/3)·[1 − (192/π⁵)(s/l) Σ_{n=1,3,5…} tanh(nπl/2s)/n⁵],
// with l ≥ s the long and short sides. The terms fall as 1/n⁵, so a few
// dozen reach machine precision.
func rectTorsion(d, b float64) float64 {
	l, s := math.Max(d, b), math.Min(d, b)
	sum := 0.0
	for n := 1.0; n < 200; n += 2 {
		term := math.Tanh(n*math.Pi*l/(2*s)) / math.Pow(n, 5)
		sum += term
		if term < 1e-17*sum {
			break
		}
	}
	return l * s * s * s / 3 * (1 - 192/math.Pow(math.Pi, 5)*(s/l)*sum)
}
