package sparse

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Assembler holds the result of symbolic assembly: the Pattern implied by an
// element→DOF map and, for every element, the slot in SymMatrix.Val that each
// entry of its dense element matrix adds into. Numeric assembly is then a
// plain indexed add with no search or map lookup, so re-assembling the same
// model (non-linear iterations, K and M on one pattern) costs only the adds.
type Assembler struct {
	Pat   *Pattern
	ne    []int   // ne[e] = number of local DOFs of element e
	ptr   []int   // element e's slot table is slots[ptr[e] : ptr[e]+ne[e]²]
	slots []int32 // row-major ne×ne; −1 where the entry is skipped
}

// NewAssembler performs symbolic assembly. elemDOFs[e] lists the global DOF
// index of each local DOF of element e in the element's own order; a negative
// index marks a constrained DOF whose rows and columns are dropped. Every DOF
// in [0, n) gets a diagonal entry even if no element touches it, so that an
// unconnected DOF surfaces later as a zero pivot naming that DOF instead of
// as a malformed pattern.
func NewAssembler(n int, elemDOFs [][]int) (*Assembler, error) {
	inc := make([][]int32, n) // DOF → elements touching it
	total := 0
	for e, dofs := range elemDOFs {
		for _, d := range dofs {
			if d >= n {
				return nil, fmt.Errorf("sparse: symbolic assembly: element %d DOF %d outside [0,%d)", e, d, n)
			}
			if d >= 0 {
				inc[d] = append(inc[d], int32(e))
			}
		}
		total += len(dofs) * len(dofs)
	}
	if total > math.MaxInt32 {
		return nil, errors.New("sparse: symbolic assembly: element slot table exceeds 2^31 entries")
	}
	mark := make([]int32, n)
	for i := range mark {
		mark[i] = -1
	}
	colPtr := make([]int, n+1)
	var rows []int32
	var col []int32
	for j := 0; j < n; j++ {
		col = append(col[:0], int32(j))
		mark[j] = int32(j)
		for _, e := range inc[j] {
			for _, d := range elemDOFs[e] {
				if d > j && mark[d] != int32(j) {
					mark[d] = int32(j)
					col = append(col, int32(d))
				}
			}
		}
		slices.Sort(col[1:])
		rows = append(rows, col...)
		colPtr[j+1] = len(rows)
	}
	if len(rows) > math.MaxInt32 {
		return nil, errors.New("sparse: symbolic assembly: more than 2^31 stored entries")
	}
	p := &Pattern{N: n, ColPtr: colPtr, RowIdx: rows}
	as := &Assembler{Pat: p, ne: make([]int, len(elemDOFs)), ptr: make([]int, len(elemDOFs)+1)}
	as.slots = make([]int32, 0, total)
	for e, dofs := range elemDOFs {
		ne := len(dofs)
		as.ne[e] = ne
		as.ptr[e] = len(as.slots)
		for a, da := range dofs {
			for b, db := range dofs {
				s := int32(-1)
				// Only the lower triangle is stored: take (a,b) when its
				// global row is below the column, and the diagonal once.
				if da >= 0 && db >= 0 && (da > db || (da == db && a == b)) {
					s = int32(p.slot(da, db))
				}
				as.slots = append(as.slots, s)
			}
		}
	}
	as.ptr[len(elemDOFs)] = len(as.slots)
	return as, nil
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

// Add adds the dense element matrix ke (row-major, ne×ne, in the element's
// local DOF order as given to NewAssembler) of element e into a. a must use
// the assembler's Pattern. Only ke's lower-triangle entries in global
// numbering are read: element matrices are symmetric by contract.
func (as *Assembler) Add(a *SymMatrix, e int, ke []float64) {
	ne := as.ne[e]
	sl := as.slots[as.ptr[e] : as.ptr[e]+ne*ne]
	ke = ke[:len(sl)]
	val := a.Val
	for t, s := range sl {
		if s >= 0 {
			val[s] += ke[t]
		}
	}
}

// NumElements returns the number of elements known to the assembler.
func (as *Assembler) NumElements() int { return len(as.ne) }
