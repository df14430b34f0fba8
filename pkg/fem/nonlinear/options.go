package nonlinear

import (
	"fmt"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/linsys"
	"github.com/gusset/gusset/pkg/fem/sparse"
)

// Theory is the kinematics of the analysis (package doc).
type Theory int

// Theories. The zero value is Finite, the path this package had before
// Small was added, so existing callers keep it; the service's default
// non-linear theory is Small, which a caller selects explicitly.
const (
	// Finite is the large-displacement analysis on the co-rotational
	// transform: geometry updated, rotations composed as turning matrices.
	Finite Theory = iota
	// Large is the service's other large-displacement theory: the same
	// analysis as Finite.
	Large
	// Small is second-order analysis with small-displacement kinematics:
	// P-Δ and P-δ through the geometric stiffness of the elements' stress
	// state, iterated to convergence, on the initial geometry, rotations
	// additive.
	Small
)

// String names the theory as the service does.
func (t Theory) String() string {
	switch t {
	case Finite:
		return "Finite"
	case Large:
		return "Large"
	case Small:
		return "Small"
	}
	return fmt.Sprintf("Theory(%d)", int(t))
}

// Stepping is how the load factor grows over the steps.
type Stepping int

// Steppings: with n steps, step k (1 … n) is in equilibrium with λ_k·P.
const (
	// Linear steps: λ_k = k/n.
	Linear Stepping = iota
	// Parabolic steps: λ_k = (k/n)², small first, for structures that
	// soften or rotate most at the start of loading.
	Parabolic
)

// Convergence selects the criterion a step must meet.
type Convergence int

// Convergence criteria, with tol = Options.Tolerance and the 2-norms over
// the equations (forces and moments, displacements and rotations
// together, in the model's units).
const (
	// Residuals: ‖R‖ ≤ tol·‖λ·P‖, R = λ·P − F_int the out-of-balance
	// forces of the free DOFs.
	Residuals Convergence = iota
	// Deflections: ‖Δu‖ ≤ tol·‖u‖, Δu the last increment and u the total
	// displacements (rotations as the rotation vectors of the nodes).
	Deflections
	// Both criteria at once.
	Both
)

// MatrixType selects the matrix the iterations solve with.
type MatrixType int

// Matrix types.
const (
	// Tangent: the tangent stiffness at the current state, assembled and
	// factored at every iteration (Newton–Raphson).
	Tangent MatrixType = iota
	// Secant: the tangent at the start of each step, factored once per
	// step and kept for its iterations (modified Newton): cheaper
	// iterations, more of them. It diverges when a step turns slender
	// members much: the start-of-step matrix keeps each member's axial
	// stiffness along its old chord, so the axial out-of-balance of the
	// turned chords lands on the soft bending stiffness (the cantilever
	// of the tests rolling up under an end moment diverges even at
	// 0.03 rad per step); use Tangent there. When a member law changes
	// branch (a gap closes, a one-way member goes slack, a fuse yields or
	// breaks) or a support law switches a restraint, the matrix is
	// assembled and factored again from the current state.
	Secant
)

// PDelta selects the geometric stiffness of frame members in the Small
// theory; the large-displacement theories include both effects through
// their kinematics and ignore it.
type PDelta int

// PDelta choices.
const (
	// PDeltaBoth is the consistent geometric stiffness of each member:
	// P-Δ (the chord's rotation) and P-δ (the member's own curvature).
	PDeltaBoth PDelta = iota
	// PDeltaChord is P-Δ alone: the string stiffness N/L on the
	// transverse translations of each member's ends (the member's axial
	// force acting on its chord rotation), no P-δ.
	PDeltaChord
	// PDeltaNone leaves the geometric stiffness out: the analysis is
	// linear in its geometry, and only the non-linear members and
	// supports make it iterate.
	PDeltaNone
)

// Iteration is one record of the convergence history: the state after the
// correction of one iteration.
type Iteration struct {
	Step       int     // 1 … Options.Steps
	LoadFactor float64 // λ of the step
	Iteration  int     // 1 … Options.MaxIterations
	// Residual is ‖R‖ after the correction; Increment is ‖Δu‖ of the
	// correction (see Convergence).
	Residual, Increment float64
	// Measure is the quantity Options.Tolerance bounds: ‖R‖/‖λ·P‖
	// (Residuals), ‖Δu‖/‖u‖ (Deflections) or the larger of the two
	// (Both). The step has converged when Measure ≤ Tolerance.
	Measure float64
	// Converged is set on the last iteration of a converged step.
	Converged bool
}

// Options control Analyze. The zero value is the Finite theory, one
// linear step with the tangent matrix, residual convergence to 1e-8 and
// at most 30 iterations.
type Options struct {
	// Theory is the kinematics: Finite or Large (large displacements,
	// co-rotational) or Small (P-Δ and P-δ on the initial geometry).
	Theory Theory
	// Steps is the number of load steps (the service's loadSteps); 0
	// means 1.
	Steps int
	// Stepping is the growth of the load factor over the steps.
	Stepping Stepping
	// MaxIterations bounds the iterations of each step; 0 means 30.
	MaxIterations int
	// Tolerance is the relative tolerance of Convergence (the service's
	// convergenceAccuracy, %, divided by 100); 0 means 1e-8.
	Tolerance float64
	// Convergence is the criterion.
	Convergence Convergence
	// Matrix is the matrix type.
	Matrix MatrixType
	// PDelta selects the geometric stiffness of frames in the Small
	// theory.
	PDelta PDelta
	// FollowLocalLoads makes member loads given in member local axes
	// (domain.Local) turn with their members in the Finite and Large
	// theories (the service's rotateLocalLoads; package doc, "Loads"):
	// they stay fixed to the member's current element frame, so P depends
	// on the configuration. Loads in global axes and node loads keep
	// their directions either way. The Small theory never updates the
	// geometry, so it ignores the option.
	FollowLocalLoads bool
	// Damping, in [0, 1), scales the corrections of the iterations of the
	// first DampingSteps steps by 1 − Damping: smaller moves where a
	// structure with slack members or a snap in its supports would
	// otherwise jump between states. 0 means no damping.
	Damping      float64
	DampingSteps int
	// Factorizer factors the (symmetric) stiffness; nil means a new
	// linsys.SparseFactorizer with its default orderings.
	Factorizer linsys.Factorizer
	// Admit, when not nil, is given the first tangent and its symbolic
	// analysis before the first numeric factorization, when Factorizer
	// is a *linsys.SparseFactorizer, so that the caller can size the
	// analysis (the factor's bytes, sparse.Symbolic.NumericBytes) and
	// refuse it before its largest allocations; its error ends Analyze.
	// Every later factorization has the same pattern.
	Admit func(k *sparse.SymMatrix, sym *sparse.Symbolic) error
	// Progress, when not nil, is called after every iteration with its
	// record (the same as Result.History), from the analysing goroutine;
	// it must return quickly and may cancel the context.
	Progress func(Iteration)
	// Step, when not nil, is called after every converged step with the
	// state of that step (Result.LoadFactor is the step's load factor and
	// Result.History the iterations so far), from the analysing
	// goroutine, so that a caller can keep the intermediate states; an
	// error it returns stops the analysis with that error. A case with no
	// load on a free DOF calls it once per step with the initial state.
	// The last call is the state Analyze returns.
	Step func(step int, r *Result) error
}

// resolve fills in defaults and checks the options.
func (o *Options) resolve() error {
	if o.Steps == 0 {
		o.Steps = 1
	}
	if o.MaxIterations == 0 {
		o.MaxIterations = 30
	}
	if o.Tolerance == 0 {
		o.Tolerance = 1e-8
	}
	switch {
	case o.Theory < Finite || o.Theory > Small:
		return domain.ModelErrorf(domain.ModelError{}, "unknown theory %d", o.Theory)
	case o.Steps < 1:
		return domain.ModelErrorf(domain.ModelError{}, "load steps must be at least 1, got %d", o.Steps)
	case o.MaxIterations < 1:
		return domain.ModelErrorf(domain.ModelError{}, "iterations per step must be at least 1, got %d", o.MaxIterations)
	case !(o.Tolerance > 0 && o.Tolerance < 1):
		return domain.ModelErrorf(domain.ModelError{}, "tolerance must be in (0, 1), got %g", o.Tolerance)
	case o.Stepping != Linear && o.Stepping != Parabolic:
		return domain.ModelErrorf(domain.ModelError{}, "unknown stepping %d", o.Stepping)
	case o.Convergence < Residuals || o.Convergence > Both:
		return domain.ModelErrorf(domain.ModelError{}, "unknown convergence criterion %d", o.Convergence)
	case o.Matrix != Tangent && o.Matrix != Secant:
		return domain.ModelErrorf(domain.ModelError{}, "unknown matrix type %d", o.Matrix)
	case o.PDelta < PDeltaBoth || o.PDelta > PDeltaNone:
		return domain.ModelErrorf(domain.ModelError{}, "unknown P-delta choice %d", o.PDelta)
	case !(o.Damping >= 0 && o.Damping < 1):
		return domain.ModelErrorf(domain.ModelError{}, "damping must be in [0, 1), got %g", o.Damping)
	case o.DampingSteps < 0:
		return domain.ModelErrorf(domain.ModelError{}, "damped steps must not be negative, got %d", o.DampingSteps)
	}
	if o.Factorizer == nil {
		o.Factorizer = &linsys.SparseFactorizer{}
	}
	return nil
}

// loadFactor returns λ of step k (1 … Steps).
func (o *Options) loadFactor(k int) float64 {
	t := float64(k) / float64(o.Steps)
	if o.Stepping == Parabolic {
		return t * t
	}
	return t
}

// NotConvergedError reports a step whose iterations did not converge
// within Options.MaxIterations: the case fails, with the state reached.
// It is a model error: errors.As finds a *domain.ModelError in it, with
// the same message, naming the case.
type NotConvergedError struct {
	Case int64
	// Step is the step that failed (1 … Options.Steps) and Target its
	// load factor.
	Step   int
	Target float64
	// LoadFactor is the load factor reached: that of the last converged
	// step (0 if the first failed).
	LoadFactor float64
	// Iterations is the number of iterations run in the failing step.
	Iterations int
	// Residual and Increment are the norms of its last iteration
	// (Iteration.Residual and Iteration.Increment).
	Residual, Increment float64
}

// Error describes the failure.
func (e *NotConvergedError) Error() string {
	return fmt.Sprintf("non-linear analysis of case %d: step %d (load factor %g) did not converge in %d iterations (residual %.3g, increment %.3g); load factor reached %g",
		e.Case, e.Step, e.Target, e.Iterations, e.Residual, e.Increment, e.LoadFactor)
}

// As makes the failure a model error for errors.As.
func (e *NotConvergedError) As(target any) bool { return asModelError(target, e.Case, e) }

// UnstableError reports, in the Small theory, a tangent K + K_G with
// negative pivots: the load factor of the step is past the structure's
// critical (linearized buckling) load factor of the current stress state,
// where the small-displacement equilibrium is unstable and an iteration
// that converges finds a meaningless state. It is only detected with a
// factorizer that counts pivot signs (linsys.Inertial; the default one
// does). It is a model error, as NotConvergedError is.
type UnstableError struct {
	Case int64
	// LoadFactor is the load factor of the step whose tangent was
	// factored.
	LoadFactor float64
	// Negative is the number of negative pivots: the number of buckling
	// modes whose critical factor is below the state's.
	Negative int
}

// Error describes the failure.
func (e *UnstableError) Error() string {
	return fmt.Sprintf("non-linear analysis of case %d: the structure is unstable at load factor %g: the tangent stiffness K + K_G has %d negative pivot(s), the load is past the critical (buckling) load",
		e.Case, e.LoadFactor, e.Negative)
}

// As makes the failure a model error for errors.As.
func (e *UnstableError) As(target any) bool { return asModelError(target, e.Case, e) }

// asModelError sets target, when it is a **domain.ModelError, to the
// model error of case caseID that err is, with err's message.
func asModelError(target any, caseID int64, err error) bool {
	p, ok := target.(**domain.ModelError)
	if ok {
		*p = &domain.ModelError{Case: caseID, Msg: err.Error()}
	}
	return ok
}

// Check reports, without analysing, what Analyze would refuse before any
// work for load case caseID of d with opts: options out of range and what
// the theory does not support (package doc), naming the member, plate,
// node or case. A caller fanning cases out checks the model once here.
func Check(d *domain.Domain, caseID int64, opts Options) error {
	if err := opts.resolve(); err != nil {
		return domain.Wrapf("non-linear analysis: %w", err)
	}
	if err := checkScope(d, caseID, opts.Theory); err != nil {
		return domain.Wrapf("non-linear analysis: %w", err)
	}
	return nil
}
