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

// Analyze runs the large-displacement static analysis of load case name
// (a primary case) of d, a domain from domain.Build, and returns the
// converged state at the full load (λ = 1).
//
// The load is applied in opts.Steps steps; each iterates with the
// (symmetrized) co-rotational tangent until opts.Convergence is met
// (package doc). A step that does not converge in opts.MaxIterations
// returns a *NotConvergedError with the step, the load factor reached,
// the iterations and the residual; a singular tangent returns the
// *dof.MechanismError naming the node and DOF. What the analysis does not
// support yet (package doc) is refused before any work, with an error
// naming the member, plate, node or case. The context is checked between
// iterations and passed to the factorizer. A case with no load on a free
// DOF returns the initial state without iterating.
func Analyze(ctx context.Context, d *domain.Domain, name string, opts Options) (*Result, error) {
	if err := opts.resolve(); err != nil {
		return nil, fmt.Errorf("non-linear analysis: %w", err)
	}
	if err := checkScope(d, name); err != nil {
		return nil, fmt.Errorf("non-linear analysis: %w", err)
	}
	a, err := newAnalysis(ctx, d, name, opts)
	if err != nil {
		return nil, fmt.Errorf("non-linear analysis of case %s: %w", name, err)
	}
	lambda, err := a.run()
	if err != nil {
		var nc *NotConvergedError
		if errors.As(err, &nc) {
			return nil, err
		}
		return nil, fmt.Errorf("non-linear analysis of case %s: %w", name, err)
	}
	return a.result(lambda), nil
}

// analysis is the state of one Analyze call.
type analysis struct {
	ctx     context.Context
	d       *domain.Domain
	name    string
	opts    Options
	num     *dof.Numbering
	as      *sparse.Assembler
	members []member
	// p is the reference load per global DOF; fix the local fixed-end
	// actions of each member's loads (zero when unloaded), for member end
	// forces.
	p   []float64
	fix [][12]float64
	// The state: node translations and turning matrices, and per global
	// DOF the element forces (springs excluded).
	u    []geom.Vec3
	rot  []geom.Rotation
	fint []float64
	hist []Iteration
}

// newAnalysis numbers the equations, prepares the members and resolves
// the loads.
func newAnalysis(ctx context.Context, d *domain.Domain, name string, opts Options) (*analysis, error) {
	a := &analysis{ctx: ctx, d: d, name: name, opts: opts}
	a.num = d.DOF.Number(nil)
	as, err := d.NewAssembler(a.num)
	if err != nil {
		return nil, fmt.Errorf("assemble: %w", err)
	}
	a.as = as
	if a.members, err = newMembers(d); err != nil {
		return nil, err
	}
	loads, err := d.ResolveCase(name)
	if err != nil {
		return nil, err
	}
	if len(loads.Presc) > 0 {
		return nil, errors.New("prescribed displacements are not supported yet by the large-displacement analysis")
	}
	a.p = append([]float64(nil), loads.NodeF...)
	a.fix = make([][12]float64, len(d.Frames))
	var pe [12]float64
	var q0 [12]float64
	for i, fe := range d.Frames {
		l := loads.MemberLoads(i)
		if l.Empty() {
			continue
		}
		if err := fe.FixedEnd(l, a.fix[i][:], q0[:]); err != nil {
			return nil, err
		}
		pe = [12]float64{}
		if err := fe.LoadVector(loads, pe[:]); err != nil {
			return nil, fmt.Errorf("member %s: %w", fe.ID, err)
		}
		for e, nd := range fe.Nodes() {
			for k := range 6 {
				a.p[6*nd+k] += pe[6*e+k]
			}
		}
	}
	n := len(d.Pos)
	a.u, a.rot, a.fint = make([]geom.Vec3, n), make([]geom.Rotation, n), make([]float64, 6*n)
	for i := range a.rot {
		a.rot[i] = geom.Identity
	}
	return a, nil
}

// run applies the load steps and returns the load factor reached.
func (a *analysis) run() (float64, error) {
	neq := a.num.Equations()
	r := make([]float64, neq)
	pEq := make([]float64, neq)
	a.num.Distribute(a.p, pEq, nil)
	pNorm := norm(pEq)
	if pNorm == 0 {
		// No load on a free DOF: the initial state is the solution (loads
		// on restrained DOFs go straight into the reactions).
		return a.opts.loadFactor(a.opts.Steps), nil
	}
	var k *sparse.SymMatrix
	var fact linsys.Factorization
	reached := 0.0
	kCurrent := false // k is the tangent of the current state
	for step := 1; step <= a.opts.Steps; step++ {
		lambda := a.opts.loadFactor(step)
		if !kCurrent {
			var err error
			if k, err = a.assemble(true); err != nil {
				return reached, err
			}
		}
		rn := a.residual(lambda, r)
		var dn float64
		converged := false
		for iter := 1; iter <= a.opts.MaxIterations; iter++ {
			if err := a.ctx.Err(); err != nil {
				return reached, err
			}
			if iter == 1 || a.opts.Matrix == Tangent {
				var err error
				if fact, err = a.factor(k); err != nil {
					return reached, err
				}
			}
			dx := make([]float64, neq)
			copy(dx, r)
			if neq > 0 {
				if err := fact.Solve(a.ctx, dx, 1); err != nil {
					return reached, fmt.Errorf("solve: %w", err)
				}
			}
			a.update(dx)
			dn = norm(dx)
			wantK := a.opts.Matrix == Tangent
			km, err := a.assemble(wantK)
			if err != nil {
				return reached, fmt.Errorf("step %d iteration %d: %w", step, iter, err)
			}
			if wantK {
				k = km
			}
			kCurrent = wantK
			rn = a.residual(lambda, r)
			converged = a.converged(rn, lambda*pNorm, dn)
			rec := Iteration{Step: step, LoadFactor: lambda, Iteration: iter, Residual: rn, Increment: dn, Converged: converged}
			a.hist = append(a.hist, rec)
			if a.opts.Progress != nil {
				a.opts.Progress(rec)
			}
			if converged {
				break
			}
			if !isFinite(rn) || !isFinite(dn) {
				return reached, &NotConvergedError{Case: a.name, Step: step, Target: lambda, LoadFactor: reached,
					Iterations: iter, Residual: rn, Increment: dn}
			}
		}
		if !converged {
			return reached, &NotConvergedError{Case: a.name, Step: step, Target: lambda, LoadFactor: reached,
				Iterations: a.opts.MaxIterations, Residual: rn, Increment: dn}
		}
		reached = lambda
	}
	return reached, nil
}

// converged applies the criterion of the options to the residual norm rn
// (against the applied load norm ref) and the increment norm dn (against
// the norm of the total displacements).
func (a *analysis) converged(rn, ref, dn float64) bool {
	tol := a.opts.Tolerance
	res := rn <= tol*ref
	def := dn <= tol*norm(a.displacementsEq())
	switch a.opts.Convergence {
	case Deflections:
		return def
	case Both:
		return res && def
	}
	return res
}

// factor factors k, turning a zero pivot into the mechanism error naming
// its node and DOF.
func (a *analysis) factor(k *sparse.SymMatrix) (linsys.Factorization, error) {
	f, err := a.opts.Factorizer.Factor(a.ctx, k, a.num.NodeOf)
	if err != nil {
		var se *linsys.SingularError
		if errors.As(err, &se) && se.Equation >= 0 && se.Equation < a.num.Equations() {
			return nil, a.num.Mechanism(se.Equation)
		}
		return nil, fmt.Errorf("factor tangent: %w", err)
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
