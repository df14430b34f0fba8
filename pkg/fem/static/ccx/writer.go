//go:build ccx

package ccx

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
)

// Options controls how a model is written.
type Options struct {
	// Divisions is the least number of pieces per member; load points add
	// more. 0 means 8.
	Divisions int
	// Step is the analysis step. Frequency and Buckle decks are built
	// from B31 beams with solid rectangles (doc.go, "Eigen decks").
	Step Step
	// Modes is the number of eigenvalues a Frequency or Buckle step
	// asks for; 0 means 10.
	Modes int
	// Rect gives the solid rectangle of each section, by id, for the
	// B31 beams of Frequency and Buckle decks.
	Rect map[int64]Rect
}

// Step is the kind of CalculiX step a deck holds.
type Step int

// The steps: a linear *STATIC step with U1 beams, or an eigen step
// (*FREQUENCY, *BUCKLE) with B31 beams.
const (
	Static Step = iota
	Frequency
	Buckle
)

func (s Step) String() string {
	switch s {
	case Static:
		return "static"
	case Frequency:
		return "frequency"
	case Buckle:
		return "buckle"
	}
	return "step(" + strconv.Itoa(int(s)) + ")"
}

// Deck is a CalculiX input deck for one load case and one step.
type Deck struct {
	// Text is the .inp file.
	Text string
	// Nodes maps each model node id to its CalculiX node number. These
	// nodes, and only these, are printed to the .dat file of a Static
	// step.
	Nodes map[int64]int
	// Step is the deck's step, which says what its .dat file holds.
	Step Step
}

// shearRigidK is the U1 shear coefficient that makes the element
// Euler–Bernoulli: its defective shear terms then change the stiffness by
// about 4·12EI/(k·G·A·ℓ²), under 1e-7 for the pieces of building frames,
// while every product stays far inside float64 range.
const shearRigidK = 1e9

// beamSet is one U1 element set with its section card.
type beamSet struct {
	name   string
	mat    int
	a, i11 float64
	oneDir geom.Vec3
	elems  []int // (element, node 1, node 2) triples
}

// term is one term of a linear equation: coef·u(node, dof), dof 1..6.
type term struct {
	node, dof int
	coef      float64
}

// writer accumulates the deck.
type writer struct {
	m       *domain.Model
	coords  []geom.Vec3 // node n at index n−1
	nodeOf  map[int64]int
	matIdx  map[int64]int
	sets    []beamSet
	nElem   int
	springs map[[2]string][]int // (dof, stiffness) → element node pairs, flattened
	eqs     [][]term
	cload   map[int]*[6]float64
	rects   []rectSet // B31 element sets of eigen decks
}

// Write converts model m and its load case caseID into a CalculiX deck
// with the step opt.Step. A Static deck supports frame members with F/R
// releases, global or local rigid offsets, fixed/free supports, node
// loads, member forces and moments (concentrated) and forces
// (distributed), and self-weight; Frequency and Buckle decks support
// frame members with the rectangles of opt.Rect, fixed/free supports, and
// self-weight (Frequency: the mass) or node loads (Buckle: the preload).
// Anything else is an error, so a cross-check never silently drops part
// of a model.
func Write(m *domain.Model, caseID int64, opt Options) (*Deck, error) {
	if opt.Divisions <= 0 {
		opt.Divisions = 8
	}
	lc, err := findCase(m, caseID)
	if err != nil {
		return nil, err
	}
	if len(m.Constraints) > 0 || len(lc.Thermal) > 0 || len(lc.Prestress) > 0 || len(lc.Prescribed) > 0 {
		return nil, errors.New("constraints, thermal, prestress and prescribed displacements are not written")
	}
	switch opt.Step {
	case Static:
	case Frequency, Buckle:
		return writeBeams(m, lc, opt)
	default:
		return nil, fmt.Errorf("unknown step %v", opt.Step)
	}
	w, err := newWriter(m, lc)
	if err != nil {
		return nil, err
	}
	for i := range m.Members {
		if err := w.member(i, lc, opt.Divisions); err != nil {
			return nil, fmt.Errorf("member %d: %w", m.Members[i].ID, err)
		}
	}
	text, err := w.render(lc)
	if err != nil {
		return nil, err
	}
	return &Deck{Text: text, Nodes: w.nodeOf}, nil
}

func (w *writer) addNode(p geom.Vec3) int {
	w.coords = append(w.coords, p)
	return len(w.coords)
}

// addLoad adds a global force and moment to node n.
func (w *writer) addLoad(n int, f [6]float64) {
	l := w.cload[n]
	if l == nil {
		l = &[6]float64{}
		w.cload[n] = l
	}
	for d := range 6 {
		l[d] += f[d]
	}
}

// tie writes r_i·(u_dep − u_ind − θ_ind × e) = 0 for the local
// translations i in dofs (0..2) and r_i·(θ_dep − θ_ind) = 0 for the local
// rotations (3..5): a rigid link of arm e (global, from ind to dep) on
// the DOFs that are not released. The dependent DOF of each equation is
// a DOF of dep, chosen so that every equation has its own.
func (w *writer) tie(dep, ind int, r geom.Rotation, dofs []int, e geom.Vec3) error {
	for blk := 0; blk < 2; blk++ {
		var rows []int
		for _, d := range dofs {
			if d/3 == blk {
				rows = append(rows, d%3)
			}
		}
		cols, ok := assign(r, rows)
		if !ok {
			return errors.New("no independent dependent DOFs for a tie")
		}
		for k, i := range rows {
			ri := geom.Vec3(r[i])
			eq := []term{{dep, 3*blk + cols[k] + 1, ri[cols[k]]}}
			for j := range 3 {
				if j != cols[k] {
					eq = append(eq, term{dep, 3*blk + j + 1, ri[j]})
				}
				eq = append(eq, term{ind, 3*blk + j + 1, -ri[j]})
			}
			if blk == 0 {
				exr := e.Cross(ri)
				for j := range 3 {
					eq = append(eq, term{ind, 4 + j, -exr[j]})
				}
			}
			w.eqs = append(w.eqs, eq)
		}
	}
	return nil
}

// assign picks distinct columns for rows of r, maximising the smallest
// |r[row][col]| (tried over all permutations: at most 3! of them), so
// that each equation's dependent term is well away from zero.
func assign(r geom.Rotation, rows []int) ([]int, bool) {
	perms := [][]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	var best []int
	bestMin := 0.1 // a rotation row always has an entry ≥ 1/√3
	for _, p := range perms {
		mn := math.Inf(1)
		for k, i := range rows {
			mn = math.Min(mn, math.Abs(r[i][p[k]]))
		}
		if mn > bestMin {
			bestMin, best = mn, p[:len(rows)]
		}
	}
	return best, best != nil || len(rows) == 0
}

// writeNodes writes the deck's heading, every node (set NALL) and the
// model's own nodes (set NOUT, whose results are compared).
func (w *writer) writeNodes(b *strings.Builder, heading string) {
	b.WriteString("*HEADING\n" + heading + "\n*NODE, NSET=NALL\n")
	for i, p := range w.coords {
		fmt.Fprintf(b, "%d, %s, %s, %s\n", i+1, num(p[0]), num(p[1]), num(p[2]))
	}
	b.WriteString("*NSET, NSET=NOUT\n")
	ids := make([]int, 0, len(w.nodeOf))
	for _, n := range w.nodeOf {
		ids = append(ids, n)
	}
	sort.Ints(ids)
	writeList(b, ids)
}

// render assembles the deck text.
func (w *writer) render(lc *domain.LoadCase) (string, error) {
	var b strings.Builder
	w.writeNodes(&b, "gusset cross-check, load case "+strconv.FormatInt(lc.ID, 10))
	f := num
	// U1 declares six DOFs per node; no integration points are needed
	// for this linear, analytically integrated element.
	b.WriteString("*USER ELEMENT, TYPE=U1, INTEGRATION POINTS=2, MAXDOF=6, NODES=2\n")
	for _, s := range w.sets {
		fmt.Fprintf(&b, "*ELEMENT, TYPE=U1, ELSET=%s\n", s.name)
		for k := 0; k < len(s.elems); k += 3 {
			fmt.Fprintf(&b, "%d, %d, %d\n", s.elems[k], s.elems[k+1], s.elems[k+2])
		}
	}
	keys := make([][2]string, 0, len(w.springs))
	for k := range w.springs {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i][0]+keys[i][1] < keys[j][0]+keys[j][1] })
	for i, k := range keys {
		fmt.Fprintf(&b, "*ELEMENT, TYPE=SPRING2, ELSET=SPR%d\n", i+1)
		pairs := w.springs[k]
		for j := 0; j < len(pairs); j += 2 {
			w.nElem++
			fmt.Fprintf(&b, "%d, %d, %d\n", w.nElem, pairs[j], pairs[j+1])
		}
		fmt.Fprintf(&b, "*SPRING, ELSET=SPR%d\n%s, %s\n%s\n", i+1, k[0], k[0], k[1])
	}
	for _, eq := range w.eqs {
		var kept []term
		for _, t := range eq {
			if math.Abs(t.coef) > 1e-14 {
				kept = append(kept, t)
			}
		}
		fmt.Fprintf(&b, "*EQUATION\n%d\n", len(kept))
		for k, t := range kept {
			sep := ", "
			if k%4 == 3 || k == len(kept)-1 {
				sep = "\n"
			}
			fmt.Fprintf(&b, "%d, %d, %s%s", t.node, t.dof, f(t.coef), sep)
		}
	}
	for i, mat := range w.m.Materials {
		if !(mat.E > 0 && mat.G > 0) {
			return "", fmt.Errorf("material %d needs E and G", mat.ID)
		}
		// ccx takes E and ν; ν = E/(2G) − 1 gives back G exactly.
		fmt.Fprintf(&b, "*MATERIAL, NAME=MAT%d\n*ELASTIC\n%s, %s\n", i+1, f(mat.E), f(mat.E/(2*mat.G)-1))
	}
	for _, s := range w.sets {
		// GENERAL: A, I11, I12, I22, shear coefficient; then the
		// 1-direction. I22 = 0 keeps U1's defective second plane inert.
		fmt.Fprintf(&b, "*BEAM SECTION, ELSET=%s, MATERIAL=MAT%d, SECTION=GENERAL\n%s, %s, 0, 0, %s\n%s, %s, %s\n",
			s.name, s.mat+1, f(s.a), f(s.i11), f(shearRigidK), f(s.oneDir[0]), f(s.oneDir[1]), f(s.oneDir[2]))
	}
	if err := w.boundary(&b); err != nil {
		return "", err
	}
	b.WriteString("*STEP\n*STATIC\n*CLOAD\n")
	w.writeCloads(&b)
	b.WriteString("*NODE PRINT, NSET=NOUT\nU\n*END STEP\n")
	return b.String(), nil
}

// newWriter numbers the nodes of m, indexes its materials and gathers the
// node loads of lc: what every deck starts from.
func newWriter(m *domain.Model, lc *domain.LoadCase) (*writer, error) {
	w := &writer{m: m, nodeOf: map[int64]int{}, matIdx: map[int64]int{},
		springs: map[[2]string][]int{}, cload: map[int]*[6]float64{}}
	for _, n := range m.Nodes {
		if _, dup := w.nodeOf[n.ID]; dup {
			return nil, fmt.Errorf("node %d defined twice", n.ID)
		}
		w.nodeOf[n.ID] = w.addNode(geom.Vec3{n.X, n.Y, n.Z})
	}
	for i, mat := range m.Materials {
		w.matIdx[mat.ID] = i
	}
	for _, nl := range lc.NodeLoads {
		n, ok := w.nodeOf[nl.Node]
		if !ok {
			return nil, fmt.Errorf("node load on unknown node %d", nl.Node)
		}
		w.addLoad(n, nl.F)
	}
	return w, nil
}

// memberLine is a member's end nodes (deck numbers), their points and its
// direction, with the direction node resolved and the section's principal
// angle added.
type memberLine struct {
	na, nb int
	pa, pb geom.Vec3
	dir    geom.Direction
}

func (w *writer) line(mm *domain.Member, sec *domain.Section) (memberLine, error) {
	var l memberLine
	var oka, okb bool
	l.na, oka = w.nodeOf[mm.NodeA]
	l.nb, okb = w.nodeOf[mm.NodeB]
	if !oka || !okb {
		return l, errors.New("unknown end node")
	}
	l.pa, l.pb = w.coords[l.na-1], w.coords[l.nb-1]
	l.dir = mm.Direction
	if l.dir.Kind == geom.DirectionNode {
		n, ok := w.nodeOf[mm.DirectionNode]
		if !ok {
			return l, errors.New("unknown direction node")
		}
		l.dir.Node = w.coords[n-1]
	}
	l.dir.Angle += sec.PrincipalAngle
	return l, nil
}

// writeCloads writes the data lines of *CLOAD: the non-zero components
// of the node loads, by node number.
func (w *writer) writeCloads(b *strings.Builder) {
	nodes := make([]int, 0, len(w.cload))
	for n := range w.cload {
		nodes = append(nodes, n)
	}
	sort.Ints(nodes)
	for _, n := range nodes {
		for d, v := range w.cload[n] {
			if v != 0 {
				fmt.Fprintf(b, "%d, %d, %s\n", n, d+1, num(v))
			}
		}
	}
}

// boundary writes the supports: F fixes a DOF, R leaves it free.
func (w *writer) boundary(b *strings.Builder) error {
	b.WriteString("*BOUNDARY\n")
	for _, s := range w.m.Supports {
		n, ok := w.nodeOf[s.Node]
		if !ok {
			return fmt.Errorf("support on unknown node %d", s.Node)
		}
		if len(s.Code) != 6 {
			return fmt.Errorf("support at %d: code %q must have 6 characters", s.Node, s.Code)
		}
		for d := range 6 {
			switch s.Code[d] {
			case 'F':
				fmt.Fprintf(b, "%d, %d, %d\n", n, d+1, d+1)
			case 'R':
			default:
				return fmt.Errorf("support at %d: only F and R are written, got %q", s.Node, s.Code)
			}
		}
	}
	return nil
}

// num formats a real for the deck. The exponent form always has a
// decimal point (ccx reads a data line such as "793000000" under
// *SPRING as no data at all), and 13 digits keep every field within the
// 20 characters ccx reads.
func num(v float64) string { return strconv.FormatFloat(v, 'e', 12, 64) }

// writeList writes integers 8 to a line, as ccx set cards want them.
func writeList(b *strings.Builder, ids []int) {
	for i, id := range ids {
		sep := ", "
		if i%8 == 7 || i == len(ids)-1 {
			sep = "\n"
		}
		fmt.Fprintf(b, "%d%s", id, sep)
	}
}

// findCase returns the load case id of m.
func findCase(m *domain.Model, id int64) (*domain.LoadCase, error) {
	for i := range m.LoadCases {
		if m.LoadCases[i].ID == id {
			return &m.LoadCases[i], nil
		}
	}
	return nil, fmt.Errorf("load case %d not in the model", id)
}
