package static

import (
	"slices"
	"strings"
)

// assembly is the symbolic assembly of one equation numbering: the
// lower-triangle pattern of the reduced stiffness Cᵀ·K·C over every
// element, active or not, and for each element the slots its global matrix
// adds into. Reversal states that switch members off but keep the
// numbering share it, so their matrices have one pattern and the
// factorizer reuses its ordering and symbolic analysis; numeric assembly is
// then a plain indexed add per entry.
type assembly struct {
	neq    int
	colPtr []int
	rowIdx []int
	nodeOf []int // equation → node
	diag   []int // equation → slot of its diagonal entry
	plans  []elemPlan
}

// elemPlan scatters one element matrix (row-major, n×n). Elements whose
// DOFs are all independent use slots (−1 where the entry is skipped:
// restrained, or above the diagonal in equation order); elements touching
// tied slave DOFs use terms, one per contribution to Cᵀ·K·C.
type elemPlan struct {
	n     int
	slots []int32
	terms []assemblyTerm
}

// assemblyTerm adds c·k[t] to value slot.
type assemblyTerm struct {
	t    int32
	slot int32
	c    float64
}

// numberingKey identifies the equation numbering of a state: only
// switched-off one-way supports change it.
func numberingKey(st state) string {
	var b strings.Builder
	for _, v := range st.dofOff {
		b.WriteByte('0' + boolByte(v))
	}
	return b.String()
}

// assemblyFor returns the symbolic assembly of s's numbering, building it
// once per analysis.
func (a *analysis) assemblyFor(s *system) *assembly {
	k := numberingKey(s.st)
	if as, ok := a.assemblies[k]; ok {
		return as
	}
	as := a.newAssembly(s)
	a.assemblies[k] = as
	return as
}

// newAssembly builds the pattern and scatter plans for s's numbering.
func (a *analysis) newAssembly(s *system) *assembly {
	els := a.elements(state{})
	n := s.neq
	// Equations of each element (CSR: eqPtr/eqList) and whether it is
	// plain (every DOF its own unknown).
	eqPtr := make([]int, len(els)+1)
	var eqList []int
	plain := make([]bool, len(els))
	var dofs []int
	for i, el := range els {
		_, dofs = elementDOFs(el, dofs[:0])
		plain[i] = true
		start := len(eqList)
		for _, g := range dofs {
			ds := a.deps[g]
			if len(ds) != 1 || ds[0].g != g || ds[0].c != 1 {
				plain[i] = false
			}
			for _, d := range ds {
				if e := s.eq[d.g]; e >= 0 && !slices.Contains(eqList[start:], e) {
					eqList = append(eqList, e)
				}
			}
		}
		eqPtr[i+1] = len(eqList)
	}
	// Equation → elements touching it (CSR).
	incPtr := make([]int, n+1)
	for _, e := range eqList {
		incPtr[e+1]++
	}
	for e := range n {
		incPtr[e+1] += incPtr[e]
	}
	inc := make([]int32, len(eqList))
	fill := slices.Clone(incPtr[:n])
	for i := range els {
		for _, e := range eqList[eqPtr[i]:eqPtr[i+1]] {
			inc[fill[e]] = int32(i)
			fill[e]++
		}
	}
	// Column j holds j and every equation > j sharing an element with it:
	// count first, then fill, so the pattern is one allocation.
	as := &assembly{neq: n, colPtr: make([]int, n+1), nodeOf: make([]int, n), diag: make([]int, n)}
	mark := make([]int, n)
	for j := range mark {
		mark[j] = -1
	}
	column := func(j int, emit func(r int)) {
		mark[j] = j
		for _, i := range inc[incPtr[j]:incPtr[j+1]] {
			for _, r := range eqList[eqPtr[i]:eqPtr[i+1]] {
				if r > j && mark[r] != j {
					mark[r] = j
					emit(r)
				}
			}
		}
	}
	for j := range n {
		cnt := 1
		column(j, func(int) { cnt++ })
		as.colPtr[j+1] = as.colPtr[j] + cnt
	}
	clear(mark)
	for j := range mark {
		mark[j] = -1
	}
	as.rowIdx = make([]int, as.colPtr[n])
	for j := range n {
		as.nodeOf[j] = s.eqDOF[j] / 6
		lo := as.colPtr[j]
		as.diag[j] = lo
		as.rowIdx[lo] = j
		k := lo + 1
		column(j, func(r int) { as.rowIdx[k] = r; k++ })
		slices.Sort(as.rowIdx[lo+1 : k])
	}
	// Scatter plans, in parallel; the slot tables of plain elements share
	// one slab.
	off := make([]int, len(els)+1)
	for i, el := range els {
		off[i+1] = off[i]
		if plain[i] {
			ne := len(el.Nodes()) * el.DOFsPerNode()
			off[i+1] += ne * ne
		}
	}
	slab := make([]int32, off[len(els)])
	as.plans = make([]elemPlan, len(els))
	parallelChunks(len(els), 1024, func(_, lo, hi int) {
		var dofs []int
		for i := lo; i < hi; i++ {
			var ne int
			ne, dofs = elementDOFs(els[i], dofs[:0])
			p := elemPlan{n: ne}
			if plain[i] {
				p.slots = slab[off[i]:off[i+1]:off[i+1]]
				for r, gr := range dofs {
					er := s.eq[gr]
					for c, gc := range dofs {
						ec := s.eq[gc]
						sl := int32(-1)
						if er >= 0 && ec >= 0 && er >= ec {
							sl = int32(as.slot(er, ec))
						}
						p.slots[r*ne+c] = sl
					}
				}
			} else {
				p.terms = a.constrainedTerms(as, s, dofs)
			}
			as.plans[i] = p
		}
	})
	return as
}

// constrainedTerms returns the scatter terms of an element with global
// DOFs dofs touching tied slave DOFs. Every ordered pair adds where its
// row equation is ≥ its column equation, which counts each entry of
// Cᵀ·K·C once.
func (a *analysis) constrainedTerms(as *assembly, s *system, dofs []int) []assemblyTerm {
	ne := len(dofs)
	var terms []assemblyTerm
	for r, gr := range dofs {
		for _, dr := range a.deps[gr] {
			er := s.eq[dr.g]
			if er < 0 {
				continue
			}
			for c, gc := range dofs {
				for _, dc := range a.deps[gc] {
					if ec := s.eq[dc.g]; ec >= 0 && ec <= er {
						terms = append(terms, assemblyTerm{t: int32(r*ne + c), slot: int32(as.slot(er, ec)), c: dr.c * dc.c})
					}
				}
			}
		}
	}
	return terms
}

// slot returns the value index of entry (r, c), r ≥ c, which must be in
// the pattern.
func (as *assembly) slot(r, c int) int {
	lo, hi := as.colPtr[c], as.colPtr[c+1]
	k, _ := slices.BinarySearch(as.rowIdx[lo:hi], r)
	return lo + k
}

// matrix assembles the stiffness of s: the elements active in s's state
// plus support and stabilization springs. The pattern slices are shared by
// every matrix of this assembly.
func (a *analysis) matrix(as *assembly, s *system) *SymMatrix {
	val := make([]float64, len(as.rowIdx))
	els := a.elements(state{})
	var k []float64
	for i, el := range els {
		if s.st.memberOff != nil && s.st.memberOff[i] {
			continue
		}
		p := &as.plans[i]
		if cap(k) < p.n*p.n {
			k = make([]float64, p.n*p.n)
		}
		k = k[:p.n*p.n]
		el.GlobalStiffness(k)
		if p.slots != nil {
			for t, sl := range p.slots {
				if sl >= 0 {
					val[sl] += k[t]
				}
			}
			continue
		}
		for _, tm := range p.terms {
			val[tm.slot] += tm.c * k[tm.t]
		}
	}
	for g, kv := range s.spring {
		if e := s.eq[g]; kv != 0 && e >= 0 {
			val[as.diag[e]] += kv
		}
	}
	return &SymMatrix{N: as.neq, ColPtr: as.colPtr, RowIdx: as.rowIdx, Val: val, NodeOf: as.nodeOf}
}
