//go:build ccx

package ccx

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
)

// PlateOptions controls how WritePlates writes a model.
type PlateOptions struct {
	// Refine splits each plate into Refine × Refine S4 elements (0 means
	// 1): CalculiX's mesh is then finer than the engine's, so that its
	// own discretisation error does not use up a comparison's tolerance.
	// The new nodes are placed bilinearly between the plate's corners and
	// shared with the neighbouring plate along an edge. A new node on an
	// edge whose two corner nodes both have supports gets the DOFs held at
	// both (the supports are taken as a line support along the edge);
	// node loads stay on the model nodes and pressures cover every
	// sub-element.
	Refine int
}

// WritePlates converts a model of plates, and only plates, with its load
// case caseID into a static CalculiX deck of S4 shells.
//
// What is written: four-node plates of one thickness each (Membrane,
// Bending and Shear zero or equal to Thickness, no offset) as S4
// elements with a *SHELL SECTION; fixed/free supports (F/R); node forces
// and moments (*CLOAD); and pressures normal to the plate (*DLOAD, label
// P): Local ones with only a z component, and GlobalInclined ones whose
// direction is the plate's normal. Anything else (triangles, members,
// offsets, in-plane or projected pressures, springs, self-weight,
// thermal loads, …) is an error, so that the cross-check never silently
// drops part of a model.
//
// CalculiX expands each S4 element into a C3D8I brick one layer thick
// and ties each model node to the expanded nodes by linear equations
// (mean rotation constraints for rotational supports, a rigid knot
// where plates meet at an angle). *NODE PRINT of the model nodes, the
// shells' reference nodes, then gives their translations only (three
// values a line, at knots too), so a cross-check compares translations.
// See plate_test.go for what that brick is in plate terms.
func WritePlates(m *domain.Model, caseID int64, opt PlateOptions) (*Deck, error) {
	if opt.Refine <= 0 {
		opt.Refine = 1
	}
	lc, err := findCase(m, caseID)
	if err != nil {
		return nil, err
	}
	switch {
	case len(m.Plates) == 0:
		return nil, errors.New("no plates")
	case len(m.Members) > 0:
		return nil, errors.New("members are not written to a plate deck")
	case len(m.Constraints) > 0:
		return nil, errors.New("constraints are not written")
	case len(lc.Members) > 0 || len(lc.Thermal) > 0 || len(lc.Prestress) > 0 ||
		len(lc.Prescribed) > 0 || len(lc.PlateThermal) > 0 || lc.SelfWeight != [3]float64{}:
		return nil, errors.New("only node loads and normal plate pressures are written")
	}
	for _, s := range m.Supports {
		if s.Springs != [6]float64{} || s.Active != [6]byte{} {
			return nil, fmt.Errorf("support at %d: springs and one-way supports are not written", s.Node)
		}
		for _, tb := range s.Tables {
			if len(tb) > 0 {
				return nil, fmt.Errorf("support at %d: spring tables are not written", s.Node)
			}
		}
	}
	w, err := newWriter(m, lc)
	if err != nil {
		return nil, err
	}
	plateIdx := make(map[int64]int, len(m.Plates))
	normals := make([]geom.Vec3, len(m.Plates))
	for i := range m.Plates {
		p := &m.Plates[i]
		if _, dup := plateIdx[p.ID]; dup {
			return nil, fmt.Errorf("plate %d defined twice", p.ID)
		}
		plateIdx[p.ID] = i
		if err := plateWritable(p); err != nil {
			return nil, fmt.Errorf("plate %d: %w", p.ID, err)
		}
		if _, ok := w.matIdx[p.Material]; !ok {
			return nil, fmt.Errorf("plate %d: unknown material %d", p.ID, p.Material)
		}
		corners := make([]geom.Vec3, len(p.Nodes))
		for k, id := range p.Nodes {
			n, ok := w.nodeOf[id]
			if !ok {
				return nil, fmt.Errorf("plate %d: unknown node %d", p.ID, id)
			}
			corners[k] = w.coords[n-1]
		}
		g, err := geom.PlateGeometry(corners)
		if err != nil {
			return nil, fmt.Errorf("plate %d: %w", p.ID, err)
		}
		if g.WarpRatio > 1e-9 {
			return nil, fmt.Errorf("plate %d: warped (ratio %.3g); only flat plates are written", p.ID, g.WarpRatio)
		}
		normals[i] = g.Normal
	}
	// Normal pressure of each loaded plate, along its normal (local +z).
	pz := make([]float64, len(m.Plates))
	for _, pr := range lc.Pressures {
		i, ok := plateIdx[pr.Plate]
		if !ok {
			return nil, fmt.Errorf("pressure on unknown plate %d", pr.Plate)
		}
		v := geom.Vec3(pr.P)
		switch pr.Axes {
		case domain.Local:
			if v[0] != 0 || v[1] != 0 {
				return nil, fmt.Errorf("pressure on plate %d: in-plane local components are not written", pr.Plate)
			}
			pz[i] += v[2]
		case domain.GlobalInclined:
			n := normals[i]
			along := v.Dot(n)
			if v.Sub(n.Scale(along)).HypotNorm() > 1e-12*v.HypotNorm() {
				return nil, fmt.Errorf("pressure on plate %d: a global pressure must be along the normal", pr.Plate)
			}
			pz[i] += along
		default:
			return nil, fmt.Errorf("pressure on plate %d: axes %v are not written", pr.Plate, pr.Axes)
		}
	}
	text, err := w.renderPlates(pz, opt.Refine)
	if err != nil {
		return nil, err
	}
	return &Deck{Text: text, Nodes: w.nodeOf}, nil
}

// plateWritable reports why plate p cannot be an S4 element with a
// homogeneous *SHELL SECTION, if it cannot.
func plateWritable(p *domain.Plate) error {
	if len(p.Nodes) != 4 {
		return fmt.Errorf("%d nodes: only quads are written (S4)", len(p.Nodes))
	}
	if !(p.Thickness > 0) {
		return errors.New("thickness must be positive")
	}
	for _, t := range []float64{p.Membrane, p.Bending, p.Shear} {
		if t != 0 && t != p.Thickness {
			return errors.New("membrane, bending and shear thicknesses other than the thickness are not written")
		}
	}
	if p.Offset != 0 {
		return errors.New("offsets are not written")
	}
	return nil
}

// renderPlates assembles a plate deck: nodes, S4 elements (r × r per
// plate) in one set per (material, thickness), sections, supports, and a
// *STATIC step with the node loads and the normal pressures pz (along
// each plate's normal).
func (w *writer) renderPlates(pz []float64, r int) (string, error) {
	// The model nodes come first (newWriter numbered them), then the
	// nodes that refinement adds.
	codes, err := w.supportCodes()
	if err != nil {
		return "", err
	}
	type edgeKey struct{ lo, hi, k int } // corner nodes and the step from lo
	edgeNode := map[edgeKey]int{}
	var extraFixed [][2]int // (node, DOF 1..6) of refinement nodes
	// elems[i] are the sub-elements of plate i, four node numbers each.
	elems := make([][][4]int, len(w.m.Plates))
	for i := range w.m.Plates {
		p := &w.m.Plates[i]
		var c [4]int
		for k, id := range p.Nodes {
			c[k] = w.nodeOf[id]
		}
		grid := make([][]int, r+1) // grid[a][b], a along A→B, b along A→D
		for a := 0; a <= r; a++ {
			grid[a] = make([]int, r+1)
			for b := 0; b <= r; b++ {
				// The edge (corner from, corner to, step) the point lies
				// on, if it is not a corner or inside the plate.
				var from, to, step int
				switch {
				case (a == 0 || a == r) && (b == 0 || b == r):
					grid[a][b] = c[cornerAt(a == r, b == r)]
					continue
				case b == 0:
					from, to, step = c[0], c[1], a
				case a == r:
					from, to, step = c[1], c[2], b
				case b == r:
					from, to, step = c[2], c[3], r-a
				case a == 0:
					from, to, step = c[3], c[0], r-b
				default:
					grid[a][b] = w.addNode(bilinear(w.coords, c, float64(a)/float64(r), float64(b)/float64(r)))
					continue
				}
				key := edgeKey{from, to, step}
				if from > to {
					key = edgeKey{to, from, r - step}
				}
				n, ok := edgeNode[key]
				if !ok {
					n = w.addNode(bilinear(w.coords, c, float64(a)/float64(r), float64(b)/float64(r)))
					edgeNode[key] = n
					// A line support along the edge holds what both
					// corners hold.
					cf, okf := codes[from]
					ct, okt := codes[to]
					for d := range 6 {
						if okf && okt && cf[d] == 'F' && ct[d] == 'F' {
							extraFixed = append(extraFixed, [2]int{n, d + 1})
						}
					}
				}
				grid[a][b] = n
			}
		}
		for b := 0; b < r; b++ {
			for a := 0; a < r; a++ {
				elems[i] = append(elems[i], [4]int{grid[a][b], grid[a+1][b], grid[a+1][b+1], grid[a][b+1]})
			}
		}
	}

	var b strings.Builder
	w.writeNodes(&b, "gusset plate cross-check")
	f := num

	// One element set per material and thickness; the sub-elements of
	// plate i are numbered i·r² + 1 … (i+1)·r².
	type key struct {
		mat int
		t   float64
	}
	sets := map[key][]int{}
	var order []key
	for i := range w.m.Plates {
		p := &w.m.Plates[i]
		k := key{w.matIdx[p.Material], p.Thickness}
		if _, ok := sets[k]; !ok {
			order = append(order, k)
		}
		sets[k] = append(sets[k], i)
	}
	for s, k := range order {
		fmt.Fprintf(&b, "*ELEMENT, TYPE=S4, ELSET=SH%d\n", s+1)
		for _, i := range sets[k] {
			for j, e := range elems[i] {
				fmt.Fprintf(&b, "%d, %d, %d, %d, %d\n", i*r*r+j+1, e[0], e[1], e[2], e[3])
			}
		}
	}
	used := map[int]bool{}
	for _, k := range order {
		used[k.mat] = true
	}
	for i, mat := range w.m.Materials {
		if !used[i] {
			continue
		}
		if !(mat.E > 0 && mat.G > 0) {
			return "", fmt.Errorf("material %d needs E and G", mat.ID)
		}
		nu := mat.E/(2*mat.G) - 1
		if !(nu > -1 && nu < 0.5) {
			return "", fmt.Errorf("material %d: Poisson's ratio %g from E and G is out of range", mat.ID, nu)
		}
		fmt.Fprintf(&b, "*MATERIAL, NAME=MAT%d\n*ELASTIC\n%s, %s\n", i+1, f(mat.E), f(nu))
	}
	for s, k := range order {
		// The reference surface is the mid-surface (no OFFSET), as for
		// the engine's plates without offset.
		fmt.Fprintf(&b, "*SHELL SECTION, ELSET=SH%d, MATERIAL=MAT%d\n%s\n", s+1, k.mat+1, f(k.t))
	}
	if err := w.boundary(&b); err != nil {
		return "", err
	}
	for _, nd := range extraFixed {
		fmt.Fprintf(&b, "%d, %d, %d\n", nd[0], nd[1], nd[1])
	}
	b.WriteString("*STEP\n*STATIC\n")
	if len(w.cload) > 0 {
		b.WriteString("*CLOAD\n")
		w.writeCloads(&b)
	}
	var loaded []int
	for i, p := range pz {
		if p != 0 {
			loaded = append(loaded, i)
		}
	}
	if len(loaded) > 0 {
		// ccx 2.20 applies a positive P to an S4 element along its normal
		// (as the engine's local +z: checked by running it, the plate
		// test would fail on a wrong sign), so pz is written as it is.
		b.WriteString("*DLOAD\n")
		for _, i := range loaded {
			for j := range elems[i] {
				fmt.Fprintf(&b, "%d, P, %s\n", i*r*r+j+1, f(pz[i]))
			}
		}
	}
	if len(w.cload) == 0 && len(loaded) == 0 {
		return "", errors.New("the load case has no loads")
	}
	b.WriteString("*NODE PRINT, NSET=NOUT\nU\n*END STEP\n")
	return b.String(), nil
}

// supportCodes returns the support code of each supported node, by deck
// node number.
func (w *writer) supportCodes() (map[int]string, error) {
	codes := map[int]string{}
	for _, s := range w.m.Supports {
		n, ok := w.nodeOf[s.Node]
		if !ok {
			return nil, fmt.Errorf("support on unknown node %d", s.Node)
		}
		if _, dup := codes[n]; dup {
			return nil, fmt.Errorf("node %d supported twice", s.Node)
		}
		codes[n] = s.Code
	}
	return codes, nil
}

// cornerAt is the corner (0..3 for A..D) at the end s = 1 or 0 of A→B
// and the end t = 1 or 0 of A→D.
func cornerAt(s, t bool) int {
	switch {
	case s && t:
		return 2
	case s:
		return 1
	case t:
		return 3
	}
	return 0
}

// bilinear is the point (s, t) ∈ [0, 1]² of the quad with corner nodes c
// (deck numbers; s along A→B, t along A→D).
func bilinear(coords []geom.Vec3, c [4]int, s, t float64) geom.Vec3 {
	p := func(k int) geom.Vec3 { return coords[c[k]-1] }
	return p(0).Scale((1 - s) * (1 - t)).Add(p(1).Scale(s * (1 - t))).Add(p(2).Scale(s * t)).Add(p(3).Scale((1 - s) * t))
}
