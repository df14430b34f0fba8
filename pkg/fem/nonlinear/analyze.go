package nonlinear

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/gusset/gusset/pkg/fem/dof"
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/linsys"
	"github.com/gusset/gusset/pkg/fem/sparse"
)

// Analyze runs the non-linear static analysis of load case caseID (a
// primary case) of d, a domain from domain.Build, in the theory of
// opts.Theory, and returns the converged state at the full load (λ = 1).
//
// The load is applied in opts.Steps steps; each iterates with the
// theory's tangent (package doc) until opts.Convergence is met. A step
// that does not converge in opts.MaxIterations returns a
// *NotConvergedError with the step, the load factor reached, the
// iterations and the residual; a singular tangent returns a
// *domain.ModelError naming the node and DOF; in the Small theory a
// tangent with negative pivots (past the critical load) returns an
// *UnstableError. What the theory does not support yet (package doc) is
// refused before any work, with an error naming the member, plate, node
// or case. All of these are model errors: errors.As finds a
// *domain.ModelError in them (NotConvergedError and UnstableError
// included), whose message is the error's; other errors are internal
// faults (package fem). The context is checked between iterations and
// passed to the factorizer. A case with no load on a free DOF returns
// the initial state without iterating.
func Analyze(ctx context.Context, d *domain.Domain, caseID int64, opts Options) (*Result, error) {
	if err := opts.resolve(); err != nil {
		return nil, domain.Wrapf("non-linear analysis: %w", err)
	}
	if err := checkScope(d, caseID, opts.Theory); err != nil {
		return nil, domain.Wrapf("non-linear analysis: %w", err)
	}
	if opts.Theory == Small {
		s, err := newSmall(ctx, d, caseID, opts)
		if err != nil {
			return nil, domain.Wrapf("non-linear analysis of case %d: %w", caseID, err)
		}
		final := func(lambda float64) (*Result, error) {
			res, err := s.result(lambda)
			if err != nil {
				return nil, err
			}
			if err := s.applied(res, lambda); err != nil {
				return nil, domain.Wrapf("non-linear analysis of case %d: %w", caseID, err)
			}
			return res, nil
		}
		s.stepped = stepper(opts.Step, final)
		lambda, err := s.run(s)
		if err != nil {
			return nil, runError(caseID, err)
		}
		return final(lambda)
	}
	a, err := newAnalysis(ctx, d, caseID, opts)
	if err != nil {
		return nil, domain.Wrapf("non-linear analysis of case %d: %w", caseID, err)
	}
	final := func(lambda float64) (*Result, error) {
		res := a.result(lambda)
		a.applied(res, lambda)
		return res, nil
	}
	a.stepped = stepper(opts.Step, final)
	lambda, err := a.run(a)
	if err != nil {
		return nil, runError(caseID, err)
	}
	return final(lambda)
}

// stepper returns the driver's per-step hook for Options.Step (nil when
// the caller keeps no steps): the state of the step, from final, handed
// to step.
func stepper(step func(int, *Result) error, final func(lambda float64) (*Result, error)) func(int, float64) error {
	if step == nil {
		return nil
	}
	return func(k int, lambda float64) error {
		res, err := final(lambda)
		if err != nil {
			return err
		}
		return step(k, res)
	}
}

// runError returns the error of a failed run: typed failures as they are,
// others wrapped with the case.
func runError(caseID int64, err error) error {
	var nc *NotConvergedError
	var ue *UnstableError
	if errors.As(err, &nc) || errors.As(err, &ue) {
		return err
	}
	return domain.Wrapf("non-linear analysis of case %d: %w", caseID, err)
}

// problem is what the load stepping of driver.run needs from a theory:
// the state's forces and tangent, its residual and its update.
type problem interface {
	// assemble computes the internal forces of the current state at load
	// factor lambda and, when wantK is set, returns the tangent.
	assemble(lambda float64, wantK bool) (*sparse.SymMatrix, error)
	// residual writes R = λ·P − F_int at the equations into r and
	// returns its norm.
	residual(lambda float64, r []float64) float64
	// update applies the equation increments dx.
	update(dx []float64)
	// displacementsEq returns the state at the equations, for the
	// deflection criterion.
	displacementsEq() []float64
	// loadNorm is ‖P‖ at the equations, the reference of the residual
	// criterion at λ = 1; zero when the case loads no free DOF.
	loadNorm() float64
}

// committer is a problem with history (member and support laws): commit
// is called when a step has converged, to make the state's history the
// start of the next step's iterations.
type committer interface{ commit() }

// switcher is a problem whose equations change with its state (support
// laws that restrain or free DOFs): switched reports, and clears, whether
// an assembly since the last call switched a restraint, after which the
// numbering, the tangent and the residual are those of the new state and
// the iteration is not converged.
type switcher interface{ switched() bool }

// staler is a problem whose tangent can change abruptly (member laws
// switching branch): stale reports, and clears, whether the forces
// assembled since the last tangent had another tangent. The secant matrix
// is then assembled and factored again, so that modified Newton does not
// iterate on a matrix that misses a gap that closed or keeps a fuse that
// broke. It does not bear on convergence.
type staler interface{ stale() bool }

// driver steps the load of one Analyze call and iterates each step
// (package doc, "Solution"), for either theory.
type driver struct {
	ctx    context.Context
	d      *domain.Domain
	caseID int64
	opts   Options
	num    *dof.Numbering
	hist   []Iteration
	// stable, when set, refuses a tangent with negative pivots (when the
	// factorizer counts them): the small-displacement theory past its
	// critical load.
	stable bool
	// stepped, when set, is called with each converged step and its load
	// factor (Options.Step).
	stepped func(step int, lambda float64) error
	// admitted is set once Options.Admit has passed the analysis.
	admitted bool
}

// analysis is the state of one large-displacement Analyze call.
type analysis struct {
	driver
	as      *sparse.Assembler
	members []member
	plates  []plate
	// p is the reference load per global DOF, of the current
	// configuration when loads follow their members (fol, nil when none
	// do: follow.go); fix the local fixed-end actions of each member's
	// other loads, initial local axes (zero when unloaded), for member
	// end forces.
	p   []float64
	fix [][12]float64
	fol *followers
	// The state: node translations and turning matrices, and per global
	// DOF the element forces (springs excluded).
	u    []geom.Vec3
	rot  []geom.Rotation
	fint []float64
	// started is set once the first tangent has been assembled (member
	// laws use their elastic tangent in the first); lawsMoved when a
	// law's tangent left the one of the last assembled matrix (staler).
	started, lawsMoved bool
}

// newAnalysis numbers the equations, prepares the members and resolves
// the loads.
func newAnalysis(ctx context.Context, d *domain.Domain, caseID int64, opts Options) (*analysis, error) {
	a := &analysis{driver: driver{ctx: ctx, d: d, caseID: caseID, opts: opts}}
	a.num = d.DOF.Number(nil)
	as, err := d.NewAssembler(a.num)
	if err != nil {
		return nil, fmt.Errorf("assemble: %w", err)
	}
	a.as = as
	if a.members, err = newMembers(d); err != nil {
		return nil, err
	}
	loads, err := caseLoads(d, caseID)
	if err != nil {
		return nil, err
	}
	if len(loads.Presc) > 0 {
		return nil, domain.ModelErrorf(domain.ModelError{Case: caseID}, "prescribed displacements are not supported yet by the large-displacement analysis")
	}
	if err := a.setLoads(caseID, loads); err != nil {
		return nil, err
	}
	refs := [][]float64{a.p}
	if a.fol != nil {
		refs = append(refs, a.fol.p0) // plate loads keep their directions
	}
	if a.plates, err = newPlates(d, loads, refs...); err != nil {
		return nil, err
	}
	n := len(d.Pos)
	a.u, a.rot, a.fint = make([]geom.Vec3, n), make([]geom.Rotation, n), make([]float64, 6*n)
	for i := range a.rot {
		a.rot[i] = geom.Identity
	}
	return a, nil
}

// loadNorm implements problem.
func (a *analysis) loadNorm() float64 {
	pEq := make([]float64, a.num.Equations())
	a.num.Distribute(a.p, pEq, nil)
	return norm(pEq)
}

// run applies the load steps to p and returns the load factor reached.
func (a *driver) run(p problem) (float64, error) {
	pNorm := p.loadNorm()
	if pNorm == 0 {
		// No load on a free DOF: the initial state is the solution (loads
		// on restrained DOFs go straight into the reactions).
		if a.stepped != nil {
			for step := 1; step <= a.opts.Steps; step++ {
				if err := a.stepped(step, a.opts.loadFactor(step)); err != nil {
					return 0, err
				}
			}
		}
		return a.opts.loadFactor(a.opts.Steps), nil
	}
	sw, _ := p.(switcher)
	switched := func() bool { return sw != nil && sw.switched() }
	var k *sparse.SymMatrix
	var fact linsys.Factorization
	var r []float64
	// residual sizes r to the current equations (a switcher renumbers
	// them) and returns ‖R‖.
	residual := func(lambda float64) float64 {
		if n := a.num.Equations(); len(r) != n {
			r = make([]float64, n)
		}
		return p.residual(lambda, r)
	}
	reached := 0.0
	kCurrent := false // k is the tangent of the current state
	for step := 1; step <= a.opts.Steps; step++ {
		lambda := a.opts.loadFactor(step)
		if !kCurrent {
			var err error
			if k, err = p.assemble(lambda, true); err != nil {
				return reached, err
			}
		}
		switched() // the restraints at the start of the step are the step's
		rn := residual(lambda)
		var dn float64
		converged := false
		refactor := true
		for iter := 1; iter <= a.opts.MaxIterations; iter++ {
			if err := a.ctx.Err(); err != nil {
				return reached, err
			}
			if refactor || a.opts.Matrix == Tangent {
				var err error
				if fact, err = a.factor(k, lambda); err != nil {
					return reached, err
				}
				refactor = false
			}
			neq := a.num.Equations()
			dx := make([]float64, neq)
			copy(dx, r)
			if neq > 0 {
				if err := fact.Solve(a.ctx, dx, 1); err != nil {
					return reached, fmt.Errorf("solve: %w", err)
				}
			}
			if step <= a.opts.DampingSteps && a.opts.Damping > 0 {
				for i := range dx {
					dx[i] *= 1 - a.opts.Damping
				}
			}
			p.update(dx)
			dn = norm(dx)
			wantK := a.opts.Matrix == Tangent
			km, err := p.assemble(lambda, wantK)
			if err != nil {
				return reached, domain.Wrapf("step %d iteration %d: %w", step, iter, err)
			}
			sw := switched()
			stale := false
			if st, ok := p.(staler); ok && !wantK {
				stale = st.stale()
			}
			if (sw || stale) && !wantK {
				// The equations or a law's branch changed under the secant
				// matrix: it is assembled and factored from the new state.
				if km, err = p.assemble(lambda, true); err != nil {
					return reached, domain.Wrapf("step %d iteration %d: %w", step, iter, err)
				}
				sw = switched() || sw
				wantK, refactor = true, true
			}
			if wantK {
				k = km
			}
			kCurrent = wantK
			rn = residual(lambda)
			measure := a.measure(rn, lambda*pNorm, dn, p.displacementsEq())
			converged = !sw && measure <= a.opts.Tolerance
			rec := Iteration{Step: step, LoadFactor: lambda, Iteration: iter, Residual: rn, Increment: dn,
				Measure: measure, Converged: converged}
			a.hist = append(a.hist, rec)
			if a.opts.Progress != nil {
				a.opts.Progress(rec)
			}
			if converged {
				break
			}
			if !isFinite(rn) || !isFinite(dn) {
				return reached, &NotConvergedError{Case: a.caseID, Step: step, Target: lambda, LoadFactor: reached,
					Iterations: iter, Residual: rn, Increment: dn}
			}
		}
		if !converged {
			return reached, &NotConvergedError{Case: a.caseID, Step: step, Target: lambda, LoadFactor: reached,
				Iterations: a.opts.MaxIterations, Residual: rn, Increment: dn}
		}
		if c, ok := p.(committer); ok {
			c.commit()
		}
		reached = lambda
		if a.stepped != nil {
			if err := a.stepped(step, lambda); err != nil {
				return reached, err
			}
		}
	}
	return reached, nil
}

// measure returns the quantity the criterion of the options bounds
// (Iteration.Measure): the residual norm rn against the applied load norm
// ref, the increment norm dn against the norm of the total displacements
// x at the equations, or the larger of the two. A zero norm over a zero
// reference counts as 0 (nothing left to converge), over a non-zero one
// as +Inf; NaN stays NaN, which no tolerance accepts.
func (a *driver) measure(rn, ref, dn float64, x []float64) float64 {
	ratio := func(v, of float64) float64 {
		if v == 0 {
			return 0
		}
		return v / of
	}
	res, def := ratio(rn, ref), ratio(dn, norm(x))
	switch a.opts.Convergence {
	case Deflections:
		return def
	case Both:
		if math.IsNaN(res) || math.IsNaN(def) {
			return math.NaN()
		}
		return math.Max(res, def)
	}
	return res
}

// admit hands the first tangent k and its symbolic analysis to
// Options.Admit; the factorizer reuses the analysis when it factors k.
func (a *driver) admit(k *sparse.SymMatrix) error {
	if a.opts.Admit == nil || a.admitted {
		return nil
	}
	a.admitted = true
	fz := a.opts.Factorizer
	if ff, ok := fz.(*followFactorizer); ok {
		fz = ff.inner
	}
	sf, ok := fz.(*linsys.SparseFactorizer)
	if !ok {
		return nil
	}
	sym, err := sf.Analyze(a.ctx, k, a.num.NodeOf)
	if err != nil || sym == nil {
		return err
	}
	return a.opts.Admit(k, sym)
}

// factor factors k, turning a zero pivot into the mechanism error naming
// its node and DOF and, when a.stable is set, negative pivots into an
// *UnstableError.
func (a *driver) factor(k *sparse.SymMatrix, lambda float64) (linsys.Factorization, error) {
	if err := a.admit(k); err != nil {
		return nil, err
	}
	f, err := a.opts.Factorizer.Factor(a.ctx, k, a.num.NodeOf)
	if err != nil {
		var se *linsys.SingularError
		if errors.As(err, &se) && se.DOF >= 0 && se.DOF < a.num.Equations() {
			return nil, a.d.Mechanism(a.num, se.DOF)
		}
		return nil, fmt.Errorf("factor tangent: %w", err)
	}
	if in, ok := f.(linsys.Inertial); ok && a.stable {
		if neg := in.Inertia().Negative; neg > 0 {
			return nil, &UnstableError{Case: a.caseID, LoadFactor: lambda, Negative: neg}
		}
	}
	return f, nil
}

// displacements returns the state per global DOF: translations and the
// rotation vectors geom.LogMap(Q) of the nodes.
func (a *analysis) displacements() []float64 {
	x := make([]float64, 6*len(a.u))
	for n := range a.u {
		w := geom.LogMap(a.rot[n])
		for k := range 3 {
			x[6*n+k], x[6*n+3+k] = a.u[n][k], w[k]
		}
	}
	return x
}

// displacementsEq returns displacements() at the equations.
func (a *analysis) displacementsEq() []float64 {
	x := a.displacements()
	out := make([]float64, a.num.Equations())
	for q, g := range a.num.EqDOF {
		out[q] = x[g]
	}
	return out
}

// residual writes R = λ·P − F_int (springs included) at the equations into
// r and returns its norm.
func (a *analysis) residual(lambda float64, r []float64) float64 {
	x := a.displacements()
	g := make([]float64, len(a.p))
	for i := range g {
		g[i] = lambda*a.p[i] - a.fint[i] - a.num.Spring[i]*x[i]
	}
	clear(r)
	a.num.Distribute(g, r, nil)
	return norm(r)
}

// update applies the equation increments dx: translations add, node
// rotations turn by the spins, Q ← ExpMap(Δθ)·Q.
func (a *analysis) update(dx []float64) {
	full := a.num.Expand(dx, nil)
	for n := range a.u {
		var w geom.Vec3
		for k := range 3 {
			a.u[n][k] += full[6*n+k]
			w[k] = full[6*n+3+k]
		}
		if w != (geom.Vec3{}) {
			a.rot[n] = geom.ExpMap(w).Mul(a.rot[n])
		}
	}
}

// norm returns the 2-norm of x.
func norm(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s)
}

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
