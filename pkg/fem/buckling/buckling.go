package buckling

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"unsafe"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/eigen"
	"github.com/gusset/gusset/pkg/fem/linsys"
	"github.com/gusset/gusset/pkg/fem/modal"
	"github.com/gusset/gusset/pkg/fem/sparse"
	"github.com/gusset/gusset/pkg/fem/static"
)

// Options control Analyze: the common settings, limits on load factors.
// The zero Normalization means φᵀ·K·φ = 1 here.
type Options struct {
	modal.Settings
}

// Results are the buckling modes of every case analysed, in request order.
// Factorizations include the static analyses'.
type Results struct {
	Cases []CaseResult
	modal.Report
}

// CaseResult holds the buckling modes of one load case, smallest load
// factor first.
type CaseResult struct {
	Case  int64 // the load case's id
	Modes []Mode
	// Axial is each member's axial force under the case's loads (N,
	// tension positive, the most compressive value along the member).
	Axial []float64
}

// Mode is one buckling mode.
type Mode struct {
	LoadFactor float64
	// Tolerance is the mode's relative residual; Iterations the Lanczos
	// steps of its case.
	Tolerance  float64
	Iterations int
	// Shape holds ux uy uz rx ry rz of every node of the model.
	Shape [][6]float64
	// Members are the effective lengths of every member, model order.
	Members []EffectiveLength
}

// EffectiveLength is a member's critical force and effective lengths in
// one mode.
type EffectiveLength struct {
	Member int64
	// Pcr is λ·|N|, N; Length the member's length between rigid offsets;
	// Ly and Lz the effective lengths about the principal axes y and z,
	// m. All zero when Excluded is set.
	Pcr, Length, Ly, Lz float64
	// Excluded says why the member has no effective length.
	Excluded string
}

// Analyze finds the buckling modes of m for each requested load case.
func Analyze(ctx context.Context, m *domain.Model, opts Options) (*Results, error) {
	if err := opts.Resolve("buckling"); err != nil {
		return nil, err
	}
	fz := opts.Factorizer()
	s, err := modal.New(ctx, m, opts.Modes, fz)
	if err != nil {
		return nil, domain.Wrapf("buckling: %w", err)
	}
	if opts.Stabilize {
		s.Stabilize()
	}
	res := &Results{Report: modal.Report{Equations: s.Equations()}}
	// The static analysis of every case factors K once, on the same
	// numbering and values as the system's; that factorization is the
	// eigen operator's too, unless the static one needed more than one
	// (stabilization).
	ids := opts.CaseIDs(m)
	if opts.Admit != nil {
		// Once, the static analysis's own numbering, pattern, stiffness and
		// assembly plans (a frame's 144 slots); per case its static
		// results (with stations), its geometric stiffness and its
		// members' axial forces.
		nnz, frames := int64(len(s.K.Pat.RowIdx)), int64(len(s.D.Frames))
		once := 8*int64(s.K.Pat.N+1) + 12*nnz + 600*frames
		perCase := int64(len(s.D.Pos))*int64(unsafe.Sizeof(static.NodeResult{})) +
			frames*(int64(unsafe.Sizeof(static.MemberResult{}))+11*int64(unsafe.Sizeof(static.Station{}))+8) + 8*nnz
		if err := s.Admit(ctx, opts.Admit, len(ids), opts.Modes, once, perCase); err != nil {
			return nil, domain.Wrapf("buckling: %w", err)
		}
	}
	kp := &keeper{SparseFactorizer: fz}
	// With stabilizing, static adds the same springs (the same rule on the
	// same diagonal) to its own copy of K.
	st, err := static.Run(ctx, s.D, static.Options{Cases: ids, Factorizer: kp, StabilizeUnrestrainedNodes: opts.Stabilize})
	if err != nil {
		return nil, domain.Wrapf("buckling: %w", err)
	}
	res.Factorizations += st.Timings.Factorizations
	f := kp.last
	if st.Timings.Factorizations != 1 || f == nil {
		if f, err = s.Factor(ctx, 0, nil); err != nil {
			return nil, domain.Wrapf("buckling: %w", err)
		}
		res.Factorizations++
	}
	for i, id := range ids {
		cr, err := analyzeCase(ctx, s, f, &st.Cases[i], id, i == len(ids)-1, opts, res)
		if err != nil {
			return nil, domain.Wrapf("buckling: load case %d: %w", id, err)
		}
		res.Cases = append(res.Cases, *cr)
	}
	if w := s.StabilizedWarning(); w != "" {
		res.Warnings = append(res.Warnings, w)
	}
	return res, nil
}

// keeper is the factorizer the static analysis runs with: it keeps the
// factorization it makes.
type keeper struct {
	*linsys.SparseFactorizer
	last linsys.Factorization
}

// Factor implements linsys.Factorizer.
func (k *keeper) Factor(ctx context.Context, a *sparse.SymMatrix, nodeOf []int) (linsys.Factorization, error) {
	f, err := k.SparseFactorizer.Factor(ctx, a, nodeOf)
	k.last = f
	return f, err
}

// analyzeCase finds the buckling modes of one case with the factored K,
// f; last says no case follows, so f may be recycled for the Sturm check.
func analyzeCase(ctx context.Context, s *modal.System, f linsys.Factorization, sc *static.CaseResult,
	id int64, last bool, opts Options, res *Results) (*CaseResult, error) {
	u := make([]float64, s.D.DOF.DOFs())
	for n, nr := range sc.Nodes {
		copy(u[6*n:6*n+6], nr.Disp[:])
	}
	loads, err := s.D.ResolveCase(id)
	if err != nil {
		return nil, err
	}
	kg := s.As.NewMatrix()
	if err := s.D.AssembleGeometric(s.As, kg, u, loads, nil); err != nil {
		return nil, err
	}
	c := &sparse.SymMatrix{Pat: kg.Pat, Val: make([]float64, len(kg.Val))} // −K_G
	for i, v := range kg.Val {
		c.Val[i] = -v
	}
	cr := &CaseResult{Case: id, Axial: axialForces(s, sc.Members)}
	// Axial forces below a billionth of the largest end force of any
	// member are round-off (a member loaded across its axis only): they
	// must neither count as compression nor give load factors.
	small := 1e-9 * forceScale(sc.Members)
	if !compressed(cr.Axial, small) && !platesCompressed(sc.Plates) {
		return nil, domain.ModelErrorf(domain.ModelError{Case: id}, "no member or plate is in compression, so the case cannot buckle")
	}
	// θ = 1/λ: the largest positive θ are the smallest positive factors.
	thLo, thHi := 0.0, math.Inf(1)
	if opts.UpperLimit > 0 {
		thLo = 1 / opts.UpperLimit
	}
	if opts.LowerLimit > 0 {
		thHi = 1 / opts.LowerLimit
	}
	sol, err := eigen.Solve(ctx, s.Problem(f, c, s.K), eigen.Options{
		Wanted: opts.Modes + modal.Extra(opts.Modes), Tol: opts.Tolerance,
		Accept: func(th float64) bool { return th > thLo && th <= thHi },
	})
	partial := errors.Is(err, eigen.ErrNotConverged)
	if err != nil && !partial {
		return nil, err
	}
	res.Applies += sol.Applies
	if len(sol.Theta) == 0 {
		return nil, domain.ModelErrorf(domain.ModelError{Case: id}, "no positive load factor was found in the range asked for")
	}
	n := s.Equations()
	// Solve returns the largest θ (smallest factors) first; the extra
	// ones only keep a repeated factor from being cut in two.
	order := make([]int, min(opts.Modes, len(sol.Theta)))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return sol.Theta[order[a]] > sol.Theta[order[b]] })
	for _, i := range order {
		lambda := 1 / sol.Theta[i]
		md := Mode{LoadFactor: lambda, Tolerance: sol.Residual[i], Iterations: sol.Steps,
			Shape: s.NodeShapes(sol.Vectors[i*n : (i+1)*n])}
		modal.Normalize(md.Shape, opts.Normalization)
		md.Members = effectiveLengths(s, cr.Axial, lambda, small)
		cr.Modes = append(cr.Modes, md)
	}
	if partial {
		res.Warnings = append(res.Warnings, fmt.Sprintf("load case %d: %d of %d modes converged", id, len(cr.Modes), opts.Modes))
	} else if len(cr.Modes) < opts.Modes {
		res.Warnings = append(res.Warnings, fmt.Sprintf("load case %d: only %d positive load factors exist in the range asked for", id, len(cr.Modes)))
	}
	// Sturm: the factors in (0, λ_max] are the negative pivots of
	// K − λ_max·(−K_G); none lie below 0 when K is positive definite.
	top := cr.Modes[len(cr.Modes)-1].LoadFactor * (1 + 1e-6)
	if last {
		// No case needs K's factorization any more: the Sturm check's
		// reuses its storage.
		s.Recycle(f)
	}
	count, err := s.Count(ctx, top, c)
	res.Factorizations++
	if err != nil {
		return nil, err
	}
	below := 0
	if opts.LowerLimit > 0 {
		if below, err = s.Count(ctx, cr.Modes[0].LoadFactor*(1-1e-6), c); err != nil {
			return nil, err
		}
		res.Factorizations++
	}
	found := 0
	for _, th := range sol.Theta {
		if l := 1 / th; l <= top && (opts.LowerLimit <= 0 || l >= cr.Modes[0].LoadFactor*(1-1e-6)) {
			found++
		}
	}
	if got := count - below; got != found {
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"load case %d: the Sturm check counts %d load factors between %.6g and %.6g, but %d were found; some may be missing",
			id, got, cr.Modes[0].LoadFactor, cr.Modes[len(cr.Modes)-1].LoadFactor, found))
	}
	return cr, nil
}

// compressed reports whether some member's axial force is below −small.
func compressed(axial []float64, small float64) bool {
	for _, n := range axial {
		if n < -small {
			return true
		}
	}
	return false
}

// platesCompressed reports whether some plate's smaller principal
// membrane force is compressive beyond round-off: below −1e-9 of the
// largest membrane force component of any plate.
func platesCompressed(prs []static.PlateResult) bool {
	scale := 0.0
	for _, p := range prs {
		for _, f := range p.Resultants.F {
			scale = math.Max(scale, math.Abs(f))
		}
	}
	for _, p := range prs {
		f := p.Resultants.F
		if (f[0]+f[1])/2-math.Hypot((f[0]-f[1])/2, f[2]) < -1e-9*scale {
			return true
		}
	}
	return false
}

// forceScale returns the largest end force component of any member.
func forceScale(mrs []static.MemberResult) float64 {
	s := 0.0
	for _, mr := range mrs {
		for d := range 3 {
			s = math.Max(s, math.Max(math.Abs(mr.EndA[d]), math.Abs(mr.EndB[d])))
		}
	}
	return s
}

// axialForces returns each original member's most compressive axial force
// (tension positive) from the refined model's member results.
func axialForces(s *modal.System, mrs []static.MemberResult) []float64 {
	out := make([]float64, len(s.Model.Members))
	for i, segs := range s.Sub.Segments {
		n := math.Inf(1)
		for _, k := range segs {
			// End actions on the member: −EndA[0] and EndB[0] are the
			// axial force at its ends, tension positive.
			n = math.Min(n, math.Min(-mrs[k].EndA[0], mrs[k].EndB[0]))
		}
		out[i] = n
	}
	return out
}

// effectiveLengths returns every member's critical force and effective
// lengths for load factor lambda.
// Axial forces within ±small are none.
func effectiveLengths(s *modal.System, axial []float64, lambda, small float64) []EffectiveLength {
	out := make([]EffectiveLength, len(axial))
	for i, n := range axial {
		el := EffectiveLength{Member: s.Model.Members[i].ID}
		switch {
		case n > small:
			el.Excluded = "in tension"
		case n >= -small:
			el.Excluded = "no axial force"
		default:
			p := s.D.Frames[s.Sub.Segments[i][0]].Props
			for _, k := range s.Sub.Segments[i] {
				el.Length += s.D.Frames[k].Props.L
			}
			el.Pcr = lambda * -n
			el.Ly = math.Pi * math.Sqrt(p.E*p.Iy/el.Pcr)
			el.Lz = math.Pi * math.Sqrt(p.E*p.Iz/el.Pcr)
		}
		out[i] = el
	}
	return out
}
