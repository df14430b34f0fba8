package statics

import (
	"github.com/gusset/gusset/pkg/fem/linsys"
	"github.com/gusset/gusset/pkg/fem/nonlinear"
	"github.com/gusset/gusset/pkg/model"
)

// CheckNonLinear refuses static settings a non-linear run cannot use, with
// a message naming the field: the API answers it as a 400 before queueing,
// and a worker fails the run with it should the settings have changed in
// between.
func CheckNonLinear(s model.StaticSettings) error {
	switch {
	case s.SteppingMethod == model.SteppingFile:
		return model.E(model.KindValidation, "steppingMethod File (load steps read from a file) is not supported: use Linear or Parabolic")
	case s.PDeltaSmall && !s.PDeltaBig:
		return model.E(model.KindValidation, "pDeltaSmall without pDeltaBig is not supported: the P-δ effect of a member's "+
			"curvature is measured from its chord, so it comes with P-Δ (turn pDeltaBig on, or both off for no geometric effects)")
	case !s.DeflectionsConvergence && !s.ResidualsConvergence:
		return model.E(model.KindValidation, "deflectionsConvergence and residualsConvergence are both off: "+
			"a non-linear run needs at least one convergence criterion")
	}
	return nil
}

// nonlinearOptions maps the static settings onto the non-linear engine's
// options (CheckNonLinear has passed):
//
//   - theory Small, Finite, Large: the engine's theories of those names;
//   - loadSteps, steppingMethod, loadStepIterations, matrixType as they
//     are; convergenceAccuracy (percent) / 100 is the relative tolerance
//     of deflectionsConvergence, residualsConvergence or both;
//   - dampingFactor (percent) and dampingSteps: the corrections of the
//     first dampingSteps steps are scaled by 1 − dampingFactor/100;
//   - pDeltaBig and pDeltaSmall select the geometric stiffness of the
//     Small theory (both: P-Δ and P-δ; pDeltaBig alone: P-Δ, the chord
//     rotation only; neither: a linear analysis of the non-linear
//     members and supports); the large-displacement theories include
//     both by their kinematics and ignore them (pDeltaSmall alone is
//     refused);
//   - rotateLocalLoads: member loads in member local axes turn with their
//     members in the Finite and Large theories
//     (nonlinear.Options.FollowLocalLoads); loads in global axes and node
//     loads keep their directions. The Small theory never moves the
//     geometry, so the setting has nothing to act on there;
//   - loading Full and Residual reach the same converged state: the
//     engine iterates on the out-of-balance forces (Residual); in the
//     Small theory, where the internal forces are linear in the
//     displacements for a given axial force, re-solving with the full
//     load is the same iteration.
func nonlinearOptions(s model.StaticSettings) nonlinear.Options {
	o := nonlinear.Options{
		Steps:         s.LoadSteps,
		MaxIterations: s.LoadStepIterations,
		Tolerance:     s.ConvergenceAccuracy / 100,
		Damping:       s.DampingFactor / 100,
		DampingSteps:  s.DampingSteps,
		// Only the large-displacement theories read it.
		FollowLocalLoads: s.RotateLocalLoads,
	}
	switch s.Theory {
	case model.TheoryFinite:
		o.Theory = nonlinear.Finite
	case model.TheoryLarge:
		o.Theory = nonlinear.Large
	default:
		o.Theory = nonlinear.Small
	}
	if s.SteppingMethod == model.SteppingParabolic {
		o.Stepping = nonlinear.Parabolic
	}
	switch {
	case s.DeflectionsConvergence && s.ResidualsConvergence:
		o.Convergence = nonlinear.Both
	case s.DeflectionsConvergence:
		o.Convergence = nonlinear.Deflections
	}
	if s.MatrixType == model.MatrixSecant {
		o.Matrix = nonlinear.Secant
	}
	switch {
	case s.PDeltaBig && s.PDeltaSmall:
		o.PDelta = nonlinear.PDeltaBoth
	case s.PDeltaBig:
		o.PDelta = nonlinear.PDeltaChord
	default:
		o.PDelta = nonlinear.PDeltaNone
	}
	o.Factorizer = &linsys.SparseFactorizer{Orderings: engineOptions(s).Orderings()}
	return o
}
