package sparse

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// Pattern is the immutable nonzero structure of a symmetric matrix in
// compressed-column form, lower triangle only. Column j holds the row indices
// RowIdx[ColPtr[j]:ColPtr[j+1]], strictly ascending, and the first entry of
// every column is the diagonal j: keeping the diagonal always present lets the
// factorization and the pivot checks index it without a search.
type Pattern struct {
	N      int     // order of the matrix (number of DOFs)
	ColPtr []int   // length N+1
	RowIdx []int32 // length ColPtr[N]
}

// SymMatrix is a symmetric sparse matrix: a shared Pattern plus one value per
// stored entry. Several matrices (stiffness K, mass M, K − σM) may share one
// Pattern so that values can be combined slot by slot.
type SymMatrix struct {
	Pat *Pattern
	Val []float64
}

// Nnz returns the number of stored entries (lower triangle with diagonal).
func (p *Pattern) Nnz() int { return p.ColPtr[p.N] }

// Validate checks the structural invariants documented on Pattern.
func (p *Pattern) Validate() error {
	if p.N < 0 || len(p.ColPtr) != p.N+1 || p.ColPtr[0] != 0 {
		return errors.New("sparse: pattern: bad ColPtr length or origin")
	}
	if len(p.RowIdx) != p.ColPtr[p.N] {
		return errors.New("sparse: pattern: RowIdx length does not match ColPtr")
	}
	for j := 0; j < p.N; j++ {
		lo, hi := p.ColPtr[j], p.ColPtr[j+1]
		if hi <= lo || int(p.RowIdx[lo]) != j {
			return fmt.Errorf("sparse: pattern: column %d does not start with its diagonal", j)
		}
		for q := lo + 1; q < hi; q++ {
			if p.RowIdx[q] <= p.RowIdx[q-1] || int(p.RowIdx[q]) >= p.N {
				return fmt.Errorf("sparse: pattern: column %d rows not ascending or out of range", j)
			}
		}
	}
	return nil
}

// NewSymMatrix returns a zero-valued matrix on pattern p.
func NewSymMatrix(p *Pattern) *SymMatrix {
	return &SymMatrix{Pat: p, Val: make([]float64, p.Nnz())}
}

// N returns the order of the matrix.
func (a *SymMatrix) N() int { return a.Pat.N }

// Zero clears all values and keeps the pattern, ready for a new numeric
// assembly (for example the next non-linear iteration).
func (a *SymMatrix) Zero() { clear(a.Val) }

// At returns entry (i, j); symmetric access, zero when not stored.
func (a *SymMatrix) At(i, j int) float64 {
	if i < j {
		i, j = j, i
	}
	p := a.Pat
	rows := p.RowIdx[p.ColPtr[j]:p.ColPtr[j+1]]
	k := sort.Search(len(rows), func(k int) bool { return int(rows[k]) >= i })
	if k < len(rows) && int(rows[k]) == i {
		return a.Val[p.ColPtr[j]+k]
	}
	return 0
}

// MulVec computes y = A·x using the stored lower triangle for both halves.
func (a *SymMatrix) MulVec(y, x []float64) {
	p := a.Pat
	clear(y[:p.N])
	for j := 0; j < p.N; j++ {
		lo, hi := p.ColPtr[j], p.ColPtr[j+1]
		xj := x[j]
		s := a.Val[lo] * xj
		for q := lo + 1; q < hi; q++ {
			i := p.RowIdx[q]
			v := a.Val[q]
			y[i] += v * xj
			s += v * x[i]
		}
		y[j] += s
	}
}

// Shifted returns K − σM as a new matrix sharing K's pattern. M must use the
// same Pattern (pointer-identical), which is what lets the shift-invert
// eigensolvers form the operator without any symbolic work.
func Shifted(k *SymMatrix, sigma float64, m *SymMatrix) (*SymMatrix, error) {
	out := &SymMatrix{Pat: k.Pat, Val: make([]float64, len(k.Val))}
	if err := ShiftedInto(out, k, sigma, m); err != nil {
		return nil, err
	}
	return out, nil
}

// ShiftedInto writes K − σM into dst, which must share the pattern of K and M;
// it allocates nothing, so repeated shifts reuse one buffer.
func ShiftedInto(dst, k *SymMatrix, sigma float64, m *SymMatrix) error {
	if k.Pat != m.Pat || dst.Pat != k.Pat {
		return errors.New("sparse: shifted: K, M and destination must share one pattern")
	}
	for q, v := range k.Val {
		dst.Val[q] = v - sigma*m.Val[q]
	}
	return nil
}

// MaxAbs returns the largest stored magnitude, used for relative thresholds.
func (a *SymMatrix) MaxAbs() float64 {
	m := 0.0
	for _, v := range a.Val {
		m = math.Max(m, math.Abs(v))
	}
	return m
}

// FromCOO builds a matrix from coordinate triplets. Entries may be given in
// either triangle (they are mirrored into the lower one) and duplicates are
// summed, as in finite-element assembly. The diagonal is always stored.
func FromCOO(n int, rows, cols []int, vals []float64) (*SymMatrix, error) {
	if len(rows) != len(cols) || len(rows) != len(vals) {
		return nil, errors.New("sparse: from COO: triplet slices differ in length")
	}
	cnt := make([]int, n+1)
	for j := 0; j < n; j++ {
		cnt[j]++ // diagonal
	}
	for t := range rows {
		i, j := rows[t], cols[t]
		if i < 0 || j < 0 || i >= n || j >= n {
			return nil, fmt.Errorf("sparse: from COO: entry (%d,%d) outside %d×%d", i, j, n, n)
		}
		if i < j {
			j = i
		}
		cnt[j]++
	}
	ptr := make([]int, n+1)
	for j := 0; j < n; j++ {
		ptr[j+1] = ptr[j] + cnt[j]
	}
	ri := make([]int32, ptr[n])
	rv := make([]float64, ptr[n])
	next := append([]int(nil), ptr[:n]...)
	for j := 0; j < n; j++ {
		ri[next[j]] = int32(j)
		next[j]++
	}
	for t := range rows {
		i, j := rows[t], cols[t]
		if i < j {
			i, j = j, i
		}
		ri[next[j]] = int32(i)
		rv[next[j]] = vals[t]
		next[j]++
	}
	// Sort each column and merge duplicates in place.
	colPtr := make([]int, n+1)
	w := 0
	for j := 0; j < n; j++ {
		lo, hi := ptr[j], ptr[j+1]
		sortRowsVals(ri[lo:hi], rv[lo:hi])
		colPtr[j] = w
		for q := lo; q < hi; q++ {
			if q > lo && ri[q] == ri[w-1] {
				rv[w-1] += rv[q]
				continue
			}
			ri[w], rv[w] = ri[q], rv[q]
			w++
		}
	}
	colPtr[n] = w
	p := &Pattern{N: n, ColPtr: colPtr, RowIdx: ri[:w:w]}
	return &SymMatrix{Pat: p, Val: rv[:w:w]}, nil
}

type rowVal struct {
	r []int32
	v []float64
}

func (s rowVal) Len() int           { return len(s.r) }
func (s rowVal) Less(a, b int) bool { return s.r[a] < s.r[b] }
func (s rowVal) Swap(a, b int) {
	s.r[a], s.r[b] = s.r[b], s.r[a]
	s.v[a], s.v[b] = s.v[b], s.v[a]
}

func sortRowsVals(r []int32, v []float64) { sort.Stable(rowVal{r, v}) }
