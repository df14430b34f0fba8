package domain

import (
	"math"
	"strings"

	"github.com/gusset/gusset/pkg/fem/shell"
)

// The transverse shears of a Kirchhoff plate come from a fit of the
// centroid moments of its patch (shell.PatchShear): the plates around it
// whose moments belong to the same smooth field. This file builds the
// patches, once per model, and gathers their moments for a fit.

// PatchAngle is the largest angle, rad, between the normals of two
// plates of one shear patch (or between a plate and the reversed normal
// of the other: the normal's sense does not matter, see
// shell.TurnMoments). Past it the two meet at a fold, where the moments of
// one side turn partly into membrane forces of the other and the moment
// field is not one smooth field to fit. Below it the plates are treated
// as one plane: projecting a neighbour's moments and centroid into the
// plate's plane errs by 1 − cos φ ≤ 1.3e-3, well under the error of the
// recovery itself (1 % and more), and the moment about a fold line carries
// across unchanged. 0.05 rad (2.9°) keeps together the plates of a flat
// mesh with rounding in its coordinates and of a mildly warped one (whose
// mean planes differ by about four times the warp ratio, 0.04 at
// WarpWarn), and the facets of a curved shell of 126 or more facets per
// turn; it parts folds of 3° and more, which is where the folds a
// designer draws on purpose are.
const PatchAngle = 0.05

// linkPatches gives each Kirchhoff plate its shear patch (once, when
// ShearFitter or ShearPatch first asks): first ring, the
// plates that share a corner node with it, then second ring, the plates
// that share one with a first-ring plate; each Kirchhoff, within
// PatchAngle of the plate (and, for the second ring, reached through a
// first-ring plate that is), at most shell.MaxPatch − 1 of them. Two
// rings are needed by the quadratic fit: one ring of plates along an edge
// has two columns of centroids, too few for a square term across the
// edge. A Mindlin plate has its own shear strains and gets no patch; a
// Mindlin plate next to a Kirchhoff one is not in its patch either, since
// its moments are those of another theory.
//
// Plates meet in a patch only through nodes where nothing else acts on
// the plates (patchBreaks): at a support, a member, a constraint or a node
// load the shear jumps by the force taken there, and a fit across it
// would average the two sides — at an interior support it gave a fifth
// of the largest shear of the slab. The patch is then one-sided there,
// which the quadratic fit handles as at a free edge.
//
// Plates modelled in layers — two plates over the same area, on the same
// nodes, usually with offsets — carry each its own share of the moments,
// and a fit through both layers' moments would give each the average.
// So where either plate overlaps another (shares three or more corner
// nodes with it, which plates of one conforming sheet never do), a
// neighbour joins the patch only if it is of the same layer: the same
// offset and rigidities. Elsewhere a change of thickness, material or
// offset does not part a patch — the moments of a single sheet are
// continuous across it by equilibrium, and a tapered plate, whose every
// plate has its own thickness, still needs its neighbours.
func (d *Domain) linkPatches() {
	np := len(d.Pos)
	// Plates on each node, CSR.
	start := make([]int, np+1)
	for _, s := range d.Plates {
		for _, n := range s.nodes {
			start[n+1]++
		}
	}
	for i := range np {
		start[i+1] += start[i]
	}
	at := make([]int, np)
	copy(at, start[:np])
	on := make([]int32, start[np])
	for _, s := range d.Plates {
		for _, n := range s.nodes {
			on[at[n]] = int32(s.Index)
			at[n]++
		}
	}
	// seen[j] == i+1 marks plate j as met already while working on plate
	// i; shared counts the corner nodes they share.
	seen := make([]int32, len(d.Plates))
	shared := make([]int8, len(d.Plates))
	layered := make([]bool, len(d.Plates))
	for _, s := range d.Plates {
		mark := int32(s.Index + 1)
		for _, n := range s.nodes {
			for _, j := range on[start[n]:start[n+1]] {
				if int(j) == s.Index {
					continue
				}
				if seen[j] != mark {
					seen[j], shared[j] = mark, 0
				}
				if shared[j]++; shared[j] == 3 {
					layered[s.Index], layered[j] = true, true
				}
			}
		}
	}
	clear(seen)
	brk := d.patchBreaks()
	cosTol := math.Cos(PatchAngle)
	joins := func(s, o *ShellElement) bool {
		if o.El.Theory != shell.Kirchhoff || math.Abs(s.Rot.Z().Dot(o.Rot.Z())) < cosTol {
			return false
		}
		if !layered[s.Index] && !layered[o.Index] {
			return true
		}
		// A layer's plates carry a share of the section and the plates
		// beyond its end the whole of it: the two do not belong together.
		if layered[s.Index] != layered[o.Index] {
			return false
		}
		return o.El.Props == s.El.Props && d.Model.Plates[o.Index].Offset == d.Model.Plates[s.Index].Offset
	}
	ring := make([][]int32, len(d.Plates))
	for _, s := range d.Plates {
		if s.El.Theory != shell.Kirchhoff {
			continue
		}
		mark := int32(s.Index + 1)
		seen[s.Index] = mark
		for _, n := range s.nodes {
			if brk[n] {
				continue
			}
			for _, j := range on[start[n]:start[n+1]] {
				if seen[j] != mark && joins(s, d.Plates[j]) {
					seen[j] = mark
					ring[s.Index] = append(ring[s.Index], j)
				}
			}
		}
	}
	clear(seen)
	for _, s := range d.Plates {
		if s.El.Theory != shell.Kirchhoff {
			continue
		}
		mark := int32(s.Index + 1)
		seen[s.Index] = mark
		first := ring[s.Index]
		p := make([]int32, 0, min(shell.MaxPatch-1, 4*len(first)))
		for _, j := range first {
			seen[j] = mark
		}
		p = append(p, first[:min(len(first), shell.MaxPatch-1)]...)
		for _, j := range first {
			for _, k := range ring[j] {
				if len(p) == shell.MaxPatch-1 {
					break
				}
				if seen[k] != mark && joins(s, d.Plates[k]) {
					seen[k] = mark
					p = append(p, k)
				}
			}
		}
		s.patch = p
	}
}

// patchBreaks marks the nodes a shear patch must not reach across: those
// with a support (a restrained or sprung DOF), those of a member or a
// constraint, and those loaded by a node load in any case — the case is
// not known when the patches are built, and a node load at a node
// between plates is a point load, where the shear is not smooth anyway.
func (d *Domain) patchBreaks() []bool {
	m := d.Model
	brk := make([]bool, len(d.Pos))
	mark := func(id int64) {
		if n, ok := d.nodeIdx[id]; ok {
			brk[n] = true
		}
	}
	for _, s := range m.Supports {
		acts := strings.ContainsAny(s.Code, "Ff")
		for k := range 6 {
			acts = acts || s.Springs[k] != 0 || len(s.Tables[k]) > 0
		}
		if acts {
			mark(s.Node)
		}
	}
	for _, mb := range m.Members {
		mark(mb.NodeA)
		mark(mb.NodeB)
	}
	for _, c := range m.Constraints {
		mark(c.Master)
		for _, sl := range c.Slaves {
			mark(sl)
		}
	}
	for _, lc := range m.LoadCases {
		for _, nl := range lc.NodeLoads {
			mark(nl.Node)
		}
	}
	return brk
}

// ShearPatch returns the plates of plate i's shear patch (indices in
// Plates, nearest first, without i itself), appended to buf; none for a
// Mindlin plate. See linkPatches for which plates belong.
func (d *Domain) ShearPatch(i int, buf []int) []int {
	d.patches.Do(d.linkPatches)
	for _, j := range d.Plates[i].patch {
		buf = append(buf, int(j))
	}
	return buf
}

// ShearFitter returns a function that recovers the transverse shears of a
// Kirchhoff plate from its patch (shell.PatchShear): m and f are the
// centroid moments and membrane forces of every plate in Model.Plates
// order, each in its own local axes, as recovery reports them (thermal
// curvatures subtracted), and
// have tells which plates have them (a plate an analysis switched off
// has none and is left out). The function returns plate i's V, local
// axes, and the fit; shell.FitNone for a Mindlin plate, a plate without
// moments, or one whose patch cannot give a gradient (a lone plate, a
// single row of quads), which keeps its own in-element value. It reuses
// its buffers, so each goroutine needs its own; m and have are only read.
func (d *Domain) ShearFitter(m, f [][3]float64, have []bool) func(i int) ([2]float64, shell.PatchFit) {
	d.patches.Do(d.linkPatches)
	var pts []shell.PatchPoint
	return func(i int) ([2]float64, shell.PatchFit) {
		s := d.Plates[i]
		if s.El.Theory != shell.Kirchhoff || !have[i] {
			return [2]float64{}, shell.FitNone
		}
		pts = append(pts[:0], shell.PatchPoint{M: m[i]})
		ex, ey, ez := s.Rot.X(), s.Rot.Y(), s.Rot.Z()
		zi := d.Model.Plates[i].Offset
		for _, j := range s.patch {
			if !have[j] {
				continue
			}
			o := d.Plates[j]
			r := o.centre.Sub(s.centre)
			ox, oy := o.Rot.X(), o.Rot.Y()
			q := shell.Mat2{{ex.Dot(ox), ex.Dot(oy)}, {ey.Dot(ox), ey.Dot(oy)}}
			mj := shell.TurnMoments(q, m[j])
			// Each plate's moments are about its own reference surface; a
			// neighbour's, moved to this plate's (Δ along this normal from
			// this surface to that one), gain Δ·F of its membrane forces,
			// which would otherwise read as a moment gradient across an
			// offset step (a thickness change with a flush face).
			zj := r.Dot(ez) + d.Model.Plates[j].Offset*o.Rot.Z().Dot(ez)
			if dz := zj - zi; dz != 0 {
				fj := shell.TurnForces(q, f[j])
				for k := range 3 {
					mj[k] += dz * fj[k]
				}
			}
			pts = append(pts, shell.PatchPoint{X: r.Dot(ex), Y: r.Dot(ey), M: mj})
		}
		return shell.PatchShear(pts)
	}
}
