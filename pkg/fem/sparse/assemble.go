package sparse

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/gusset/gusset/pkg/fem/internal/par"
)

// Reduction relates DOFs to equations: u_d = Σ Coef[k]·x_Eq[k] over k in
// [Ptr[d], Ptr[d+1]). A DOF with no terms is restrained: its rows and
// columns are dropped. A free DOF numbered as its own equation has one term
// with coefficient 1; a DOF tied to others (a master–slave constraint) has
// one term per independent equation it follows. Assembling with a Reduction
// forms Cᵀ·K·C, the stiffness in the independent unknowns, without ever
// forming C or K.
type Reduction struct {
	N    int // number of equations
	Ptr  []int
	Eq   []int32
	Coef []float64
}

// DOFs returns the number of DOFs the reduction maps.
func (r *Reduction) DOFs() int { return len(r.Ptr) - 1 }

// plain reports whether DOF d is restrained or its own unknown with
// coefficient 1 (so an element made only of such DOFs scatters by slot).
func (r *Reduction) plain(d int) bool {
	lo, hi := r.Ptr[d], r.Ptr[d+1]
	return hi-lo == 0 || (hi-lo == 1 && r.Coef[lo] == 1)
}

// Incidence lists the DOFs of every element: element e's local DOF i is
// DOF[Ptr[e]+i], in the element's own order (the order of its matrices).
type Incidence struct {
	Ptr []int
	DOF []int32
}

// Elements returns the number of elements.
func (in *Incidence) Elements() int { return len(in.Ptr) - 1 }

// Assembler holds the result of symbolic assembly: the Pattern of Cᵀ·K·C
// over every element and, for every element, where each entry of its dense
// matrix adds into SymMatrix.Val. Numeric assembly is then an indexed add
// with no search or map lookup, so assembling again on the same pattern
// (another state of the same numbering, K and M and K_G for an eigenproblem,
// each iteration of a non-linear analysis) costs only the adds.
//
// Elements whose DOFs are all plain (restrained or their own equation) use
// a slot table; elements touching tied DOFs use a list of weighted terms,
// one per contribution to Cᵀ·K·C. Every ordered pair of local DOFs adds
// where its row equation is at or below its column equation, which counts
// each entry of Cᵀ·K·C once (element matrices are symmetric by contract).
type Assembler struct {
	Pat   *Pattern
	plans []elemPlan
}

// elemPlan scatters one element matrix (row-major, n×n).
type elemPlan struct {
	n     int
	slots []int32 // −1 where the entry is skipped
	terms []assemblyTerm
}

// assemblyTerm adds c·k[t] to value slot.
type assemblyTerm struct {
	t    int32
	slot int32
	c    float64
}

// NewAssembler performs symbolic assembly for elements whose DOFs are
// numbered as equations directly: elemDOFs[e] lists the equation of each
// local DOF of element e, a negative index marking a restrained DOF whose
// rows and columns are dropped. It is NewReducedAssembler with the identity
// reduction.
func NewAssembler(n int, elemDOFs [][]int) (*Assembler, error) {
	in := &Incidence{Ptr: make([]int, 1, len(elemDOFs)+1)}
	for e, dofs := range elemDOFs {
		for _, d := range dofs {
			if d >= n {
				return nil, fmt.Errorf("sparse: symbolic assembly: element %d DOF %d outside [0,%d)", e, d, n)
			}
			if d < 0 {
				d = n // the restrained DOF past the equations
			}
			in.DOF = append(in.DOF, int32(d))
		}
		in.Ptr = append(in.Ptr, len(in.DOF))
	}
	red := &Reduction{N: n, Ptr: make([]int, n+2), Eq: make([]int32, n), Coef: make([]float64, n)}
	for d := range n {
		red.Ptr[d+1] = d + 1
		red.Eq[d], red.Coef[d] = int32(d), 1
	}
	red.Ptr[n+1] = n
	return NewReducedAssembler(in, red)
}

// NewReducedAssembler performs symbolic assembly of Cᵀ·K·C: the pattern over
// red.N equations implied by the elements of in through red, and each
// element's scatter plan. Every equation gets a diagonal entry even if no
// element touches it, so that an unconnected equation surfaces as a zero
// pivot naming it instead of as a malformed pattern.
func NewReducedAssembler(in *Incidence, red *Reduction) (*Assembler, error) {
	n, ne := red.N, in.Elements()
	if len(red.Ptr) < 1 || red.Ptr[len(red.Ptr)-1] != len(red.Eq) || len(red.Eq) != len(red.Coef) {
		return nil, errors.New("sparse: symbolic assembly: malformed reduction")
	}
	nd := red.DOFs()
	total := 0
	for e := range ne {
		k := in.Ptr[e+1] - in.Ptr[e]
		total += k * k
	}
	if total > math.MaxInt32 {
		return nil, errors.New("sparse: symbolic assembly: element slot table exceeds 2^31 entries")
	}
	// Equations of each element (CSR: eqPtr/eqList), each once, and
	// whether it is plain.
	eqPtr := make([]int, ne+1)
	eqList := make([]int32, 0, len(in.DOF))
	plain := make([]bool, ne)
	for e := range ne {
		plain[e] = true
		start := len(eqList)
		for _, d := range in.DOF[in.Ptr[e]:in.Ptr[e+1]] {
			if d < 0 || int(d) >= nd {
				return nil, fmt.Errorf("sparse: symbolic assembly: element %d DOF %d outside [0,%d)", e, d, nd)
			}
			if !red.plain(int(d)) {
				plain[e] = false
			}
			for _, q := range red.Eq[red.Ptr[d]:red.Ptr[d+1]] {
				if q < 0 || int(q) >= n {
					return nil, fmt.Errorf("sparse: symbolic assembly: DOF %d follows equation %d outside [0,%d)", d, q, n)
				}
				if !slices.Contains(eqList[start:], q) {
					eqList = append(eqList, q)
				}
			}
		}
		eqPtr[e+1] = len(eqList)
	}
	// Equation → elements touching it (CSR).
	incPtr := make([]int, n+1)
	for _, q := range eqList {
		incPtr[q+1]++
	}
	for q := range n {
		incPtr[q+1] += incPtr[q]
	}
	inc := make([]int32, len(eqList))
	fill := slices.Clone(incPtr[:n])
	for e := range ne {
		for _, q := range eqList[eqPtr[e]:eqPtr[e+1]] {
			inc[fill[q]] = int32(e)
			fill[q]++
		}
	}
	// Column j holds j and every equation > j sharing an element with it:
	// count first, then fill, so the pattern is one allocation.
	mark := make([]int32, n)
	column := func(j int, emit func(r int32)) {
		mark[j] = int32(j)
		for _, e := range inc[incPtr[j]:incPtr[j+1]] {
			for _, r := range eqList[eqPtr[e]:eqPtr[e+1]] {
				if int(r) > j && mark[r] != int32(j) {
					mark[r] = int32(j)
					emit(r)
				}
			}
		}
	}
	colPtr := make([]int, n+1)
	for i := range mark {
		mark[i] = -1
	}
	for j := range n {
		cnt := 1
		column(j, func(int32) { cnt++ })
		colPtr[j+1] = colPtr[j] + cnt
	}
	if colPtr[n] > math.MaxInt32 {
		return nil, errors.New("sparse: symbolic assembly: more than 2^31 stored entries")
	}
	for i := range mark {
		mark[i] = -1
	}
	rows := make([]int32, colPtr[n])
	for j := range n {
		lo := colPtr[j]
		rows[lo] = int32(j)
		k := lo + 1
		column(j, func(r int32) { rows[k] = r; k++ })
		slices.Sort(rows[lo+1 : k])
	}
	as := &Assembler{Pat: &Pattern{N: n, ColPtr: colPtr, RowIdx: rows}, plans: make([]elemPlan, ne)}
	// Scatter plans, in parallel; the slot tables of plain elements share
	// one slab.
	off := make([]int, ne+1)
	for e := range ne {
		off[e+1] = off[e]
		if plain[e] {
			k := in.Ptr[e+1] - in.Ptr[e]
			off[e+1] += k * k
		}
	}
	slab := make([]int32, off[ne])
	par.Chunks(ne, 1024, func(_, lo, hi int) {
		for e := lo; e < hi; e++ {
			dofs := in.DOF[in.Ptr[e]:in.Ptr[e+1]]
			k := len(dofs)
			p := elemPlan{n: k}
			if plain[e] {
				p.slots = slab[off[e]:off[e+1]:off[e+1]]
				for r, dr := range dofs {
					er := red.only(int(dr))
					for c, dc := range dofs {
						ec := red.only(int(dc))
						s := int32(-1)
						if er >= 0 && ec >= 0 && er >= ec {
							s = int32(as.Pat.slot(int(er), int(ec)))
						}
						p.slots[r*k+c] = s
					}
				}
			} else {
				p.terms = as.reducedTerms(red, dofs)
			}
			as.plans[e] = p
		}
	})
	return as, nil
}

// only returns the equation of a plain DOF, −1 when restrained.
func (r *Reduction) only(d int) int32 {
	if r.Ptr[d] == r.Ptr[d+1] {
		return -1
	}
	return r.Eq[r.Ptr[d]]
}

// reducedTerms returns the scatter terms of an element with DOFs dofs, some
// tied to others.
func (as *Assembler) reducedTerms(red *Reduction, dofs []int32) []assemblyTerm {
	k := len(dofs)
	var terms []assemblyTerm
	for r, dr := range dofs {
		for a := red.Ptr[dr]; a < red.Ptr[dr+1]; a++ {
			er := red.Eq[a]
			for c, dc := range dofs {
				for b := red.Ptr[dc]; b < red.Ptr[dc+1]; b++ {
					if ec := red.Eq[b]; ec <= er {
						terms = append(terms, assemblyTerm{t: int32(r*k + c), slot: int32(as.Pat.slot(int(er), int(ec))), c: red.Coef[a] * red.Coef[b]})
					}
				}
			}
		}
	}
	return terms
}

// Index returns the position of entry (i, j) of the symmetric matrix (either
// triangle) in the value array, or −1 when it is not stored: for additions
// outside element matrices, such as lumped masses on tied DOFs.
func (p *Pattern) Index(i, j int) int {
	if i < j {
		i, j = j, i
	}
	return p.slot(i, j)
}

// slot returns the index of (i, j), i ≥ j, in the value array, or −1.
func (p *Pattern) slot(i, j int) int {
	lo, hi := p.ColPtr[j], p.ColPtr[j+1]
	rows := p.RowIdx[lo:hi]
	k, ok := slices.BinarySearch(rows, int32(i))
	if !ok {
		return -1
	}
	return lo + k
}

// NewMatrix returns a zero matrix on the assembler's pattern.
func (as *Assembler) NewMatrix() *SymMatrix { return NewSymMatrix(as.Pat) }

// Add adds the dense element matrix ke (row-major, n×n, in the element's
// local DOF order) of element e into a, which must use the assembler's
// Pattern.
func (as *Assembler) Add(a *SymMatrix, e int, ke []float64) {
	p := &as.plans[e]
	val := a.Val
	if p.slots != nil {
		ke = ke[:len(p.slots)]
		for t, s := range p.slots {
			if s >= 0 {
				val[s] += ke[t]
			}
		}
		return
	}
	for _, tm := range p.terms {
		val[tm.slot] += tm.c * ke[tm.t]
	}
}

// AddDiagonal adds v to the diagonal entry of equation q of a, which must
// use the assembler's Pattern: support springs and stabilization.
func (as *Assembler) AddDiagonal(a *SymMatrix, q int, v float64) {
	a.Val[as.Pat.ColPtr[q]] += v
}

// Diagonal returns the value slot of equation q's diagonal entry.
func (p *Pattern) Diagonal(q int) int { return p.ColPtr[q] }

// NumElements returns the number of elements known to the assembler.
func (as *Assembler) NumElements() int { return len(as.plans) }
