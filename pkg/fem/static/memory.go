package static

import (
	"unsafe"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/sparse"
)

// MemoryEstimate is the peak memory a linear static analysis will take,
// in bytes, as the symbolic analysis of its stiffness predicts it before
// the numeric factorization starts: a caller with a memory budget (a
// worker) can refuse a run that does not fit instead of dying of it.
// Every figure counts what the analysis allocates from its start (the
// domain built from the model included, the model itself not).
type MemoryEstimate struct {
	// Equations and Cases size the analysis: the free equations, and
	// the load cases and combinations it reports.
	Equations, Cases int
	// Model is the domain: element matrices and their assembly plans.
	Model int64
	// System is the assembled stiffness and its symbolic analysis.
	System int64
	// Factor is the numeric factorization at its peak: the factor's
	// values, the update matrices and scratch (sparse.Symbolic.NumericBytes).
	Factor int64
	// Work is what an analysis holds once beside the factor, whatever the
	// number of cases: an eigen analysis's vectors (0 for a static one).
	Work int64
	// PerCase is one case's right-hand side, displacements and results.
	PerCase int64
	// Total is the peak: Model + System + Factor + Work + Cases·PerCase. The
	// factor is counted alongside the cases' results because its memory
	// is returned only when a collection finds it unused, which may be
	// after recovery began.
	Total int64
}

// Bytes per domain item, measured as the growth of the Go heap from
// domain.Build and the assembler's construction, less the pattern (which
// System counts), on grid-20 (25,620 frames: 3,773 bytes a frame with
// 400 a node) and the 100 × 100 Mindlin plate mesh (10,000 plates: 3,013
// a plate): an element's matrices and state (FrameElement, ShellElement)
// and its assembly plan, a node's position, DOF map and numbering.
const (
	memPerNode  = 400
	memPerFrame = 3800
	memPerPlate = 3000
)

// BaseEstimate returns the part of an analysis's memory estimate that
// every analysis of domain d with stiffness k, analysed as sym, needs:
// Equations, Model, System and Factor (Cases, PerCase and Total are the
// caller's). The eigen analyses build theirs on it.
func BaseEstimate(d *domain.Domain, k *sparse.SymMatrix, sym *sparse.Symbolic) MemoryEstimate {
	n, nnz := int64(k.Pat.N), int64(len(k.Pat.RowIdx))
	return MemoryEstimate{Equations: int(n),
		Model: memPerNode*int64(len(d.Pos)) + memPerFrame*int64(len(d.Frames)) + memPerPlate*int64(len(d.Plates)),
		// Pattern, values and the symbolic analysis.
		System: 8*(n+1) + 12*nnz + sym.Bytes(),
		Factor: sym.NumericBytes()}
}

// estimate returns the memory estimate of a linear analysis of a's
// domain reporting cases cases (primary primaries solved), whose
// stiffness m was analysed as sym.
func (a *analysis) estimate(m *sparse.SymMatrix, sym *sparse.Symbolic, cases, primaries int) MemoryEstimate {
	nodes, frames, plates := int64(len(a.d.Pos)), int64(len(a.d.Frames)), int64(len(a.d.Plates))
	nd, n := 6*nodes, int64(m.Pat.N)
	e := BaseEstimate(a.d, m, sym)
	e.Cases = cases
	// A primary case solved: its load vectors (node forces and totals),
	// its prescribed and expanded displacements, and its column of the
	// right-hand side block twice (the block and its row-major copy).
	solved := 4*8*nd + 2*8*n
	// A case reported: its node, member and plate results, the forces
	// the nodes exert on its members, its member loads (a pointer per
	// member, and 64 bytes a member on average of loads resolved and
	// their fixed-end actions, as measured on grid-6 with 500 cases of
	// grid-n's ten kinds), and the vectors its totals and combination
	// need.
	divs := int64(a.divisions()) + 1
	stations := divs * int64(unsafe.Sizeof(Station{}))
	if a.opts.EndsOnly {
		stations = 0
	}
	reported := nodes*int64(unsafe.Sizeof(NodeResult{})) +
		frames*(int64(unsafe.Sizeof(MemberResult{}))+stations+12*8+8+64) +
		plates*(int64(unsafe.Sizeof(PlateResult{}))+24*8) + 4*8*nd
	if cases > 0 {
		e.PerCase = reported + solved*int64(primaries)/int64(cases)
	}
	e.Total = e.Model + e.System + e.Factor + int64(cases)*e.PerCase
	return e
}
