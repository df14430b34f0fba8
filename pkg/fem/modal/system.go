package modal

import (
	"context"
	"errors"
	"fmt"

	"github.com/gusset/gusset/pkg/fem/dof"
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/eigen"
	"github.com/gusset/gusset/pkg/fem/internal/par"
	"github.com/gusset/gusset/pkg/fem/linsys"
	"github.com/gusset/gusset/pkg/fem/sparse"
)

// MaxSegments bounds the segments of one member.
const MaxSegments = 16

// Segments returns how many segments each member of m gets for an
// analysis of modes modes: enough for about 8·modes + 16 frame segments in
// all, at least 1 and at most MaxSegments per member. Axial-only members
// are never split (domain.Subdivide keeps them whole).
func Segments(m *domain.Model, modes int) func(i int) int {
	frames := 0
	for _, mb := range m.Members {
		if !mb.Type.AxialOnly() {
			frames++
		}
	}
	s := 1
	if frames > 0 {
		s = min(MaxSegments, max(1, (8*modes+16+frames-1)/frames))
	}
	return func(int) int { return s }
}

// System is the refined model of an eigen analysis and its equations.
type System struct {
	// Model is the original model; D the refined domain, Sub the map
	// between them.
	Model *domain.Model
	D     *domain.Domain
	Sub   *domain.Subdivision
	// Num numbers the refined model's equations; As is its assembler and
	// K its stiffness, support springs included.
	Num *dof.Numbering
	As  *sparse.Assembler
	K   *sparse.SymMatrix

	fz *linsys.SparseFactorizer
	// spare is a factorization no longer needed, whose storage the next
	// factorization reuses (see Recycle).
	spare linsys.Refactorer
	stab  stabilizer
}

// New checks m, refines it for modes modes and assembles its stiffness.
// fz factors every matrix of the analysis (nil: the default orderings).
func New(ctx context.Context, m *domain.Model, modes int, fz *linsys.SparseFactorizer) (*System, error) {
	// Build the original first, so that errors name the user's members
	// and nodes, not their segments.
	d, err := domain.Build(ctx, m, domain.BuildOptions{})
	if err != nil {
		return nil, err
	}
	segs := Segments(m, modes)
	rm, sub, err := domain.Subdivide(m, segs)
	if err != nil {
		return nil, err
	}
	if len(rm.Members) != len(m.Members) {
		// Some member was split: the refined model is another model.
		if d, err = domain.Build(ctx, rm, domain.BuildOptions{}); err != nil {
			return nil, err
		}
	}
	if fz == nil {
		fz = &linsys.SparseFactorizer{}
	}
	s := &System{Model: m, D: d, Sub: sub, fz: fz, Num: d.DOF.Number(nil)}
	if s.As, err = d.NewAssembler(s.Num); err != nil {
		return nil, err
	}
	s.K = s.As.NewMatrix()
	d.Assemble(s.As, s.K, domain.StiffnessMatrix, nil)
	domain.AddSprings(s.As, s.K, s.Num, s.Num.Spring)
	return s, nil
}

// Equations returns the number of equations.
func (s *System) Equations() int { return s.Num.Equations() }

// Factor factors K − σ·B (B on the system's pattern; nil or σ = 0: K
// alone). At σ = 0 a zero pivot is a mechanism naming the node and DOF
// (or the member, inside one), or, after Stabilize, gets a spring. At σ ≠ 0 it means σ is an eigenvalue to
// working precision: the shift is moved by a relative 1e-9, far inside any
// tolerance, and the factorization tried again.
func (s *System) Factor(ctx context.Context, sigma float64, b *sparse.SymMatrix) (linsys.Factorization, error) {
	for try, springs := 0, 0; ; try++ {
		a := s.K
		if sigma != 0 && b != nil {
			var err error
			if a, err = sparse.Shifted(s.K, sigma, b); err != nil {
				return nil, err
			}
		}
		f, err := s.factor(ctx, a)
		var se *linsys.SingularError
		switch {
		case err == nil:
			return f, nil
		case !errors.As(err, &se) || se.DOF < 0 || se.DOF >= s.Equations():
			return nil, err
		case (sigma == 0 || b == nil) && s.stab.on && springs < s.Equations():
			// Stabilizing: a zero pivot of K gets a spring, and the same
			// factorization is tried again.
			s.addSpring(se.DOF)
			springs++
			try--
			continue
		case sigma == 0 || b == nil:
			return nil, s.mechanism(se.DOF)
		case try == 3:
			// Not the model's: a shift moved three times stays singular.
			return nil, fmt.Errorf("the shift stays on an eigenvalue after moving it: %v", s.mechanism(se.DOF))
		}
		sigma *= 1 + 1e-9*float64(int(1)<<try)
	}
}

// factor factors a into the spare factorization when there is one (which
// stays the spare after a failure, its storage still good), else anew.
func (s *System) factor(ctx context.Context, a *sparse.SymMatrix) (linsys.Factorization, error) {
	if s.spare == nil {
		return s.fz.Factor(ctx, a, s.Num.NodeOf)
	}
	if err := s.spare.Refactor(ctx, a); err != nil {
		return nil, err
	}
	f := s.spare
	s.spare = nil
	return f, nil
}

// Recycle hands back a factorization made by Factor that the caller no
// longer needs: the next Factor or Count factors into its storage instead
// of allocating a new factor (the Sturm check after the modes, say). f must
// not be used afterwards. Factorizations that cannot be refactored are
// ignored. A System is not safe for concurrent use.
func (s *System) Recycle(f linsys.Factorization) {
	if r, ok := f.(linsys.Refactorer); ok {
		s.spare = r
	}
}

// mechanism names the node and DOF of equation q; for a node inside a
// member (one Subdivide made), the member.
func (s *System) mechanism(q int) error {
	g := s.Num.EqDOF[q]
	if i, ok := s.Sub.InteriorOf(g / dof.PerNode); ok {
		id, dir := s.Model.Members[i].ID, dof.Names[g%dof.PerNode]
		return domain.ModelErrorf(domain.ModelError{Member: id, DOF: dir},
			"mechanism inside member %d, %s (check its releases and the supports of its ends)", id, dir)
	}
	return s.D.Mechanism(s.Num, q)
}

// Count returns the number of eigenvalues of K·φ = λ·B·φ below σ: the
// negative pivots of K − σ·B. The factorization serves nothing else, so
// it is recycled (see Recycle): counts in a row share one factor's storage.
func (s *System) Count(ctx context.Context, sigma float64, b *sparse.SymMatrix) (int, error) {
	f, err := s.Factor(ctx, sigma, b)
	if err != nil {
		return 0, err
	}
	in, ok := f.(linsys.Inertial)
	if !ok {
		return 0, errors.New("sturm count: the factorization reports no inertia")
	}
	neg := in.Inertia().Negative
	s.Recycle(f)
	return neg, nil
}

// Problem returns the eigen problem Op = F⁻¹·C in the inner product of W,
// for a factored F. When C is W (frequencies), Op·x is also offered from
// W·x, which the eigensolver keeps for its basis: no product with C then.
// The products with C of a block run on all cores, one vector each, and
// so do the block solves when f can (linsys.ParallelSolver): modes need no
// bitwise reproducibility, only their tolerance.
func (s *System) Problem(f linsys.Factorization, c, w *sparse.SymMatrix) eigen.Problem {
	n := s.Equations()
	solve := f.Solve
	if ps, ok := f.(linsys.ParallelSolver); ok {
		solve = ps.SolveParallel
	}
	p := eigen.Problem{
		N: n,
		Apply: func(ctx context.Context, x, y []float64, k int) error {
			par.Chunks(k, 1, func(_, v, _ int) { c.MulVec(y[v*n:(v+1)*n], x[v*n:(v+1)*n]) })
			return solve(ctx, y[:n*k], k)
		},
		W: func(x, y []float64) { w.MulVec(y, x) },
	}
	if c == w {
		p.FromW = func(ctx context.Context, wx, y []float64, k int) error {
			copy(y[:n*k], wx[:n*k])
			return solve(ctx, y[:n*k], k)
		}
	}
	return p
}

// NodeShapes expands the equation values x of a mode to the displacements
// of the original model's nodes (6 per node, global axes).
func (s *System) NodeShapes(x []float64) [][6]float64 {
	u := s.Num.Expand(x, nil)
	out := make([][6]float64, len(s.Model.Nodes))
	for n := range out {
		copy(out[n][:], u[6*n:6*n+6])
	}
	return out
}

// Extra is how many modes beyond the wanted ones an analysis asks the
// eigensolver for, so that a repeated eigenvalue at the last wanted mode is
// found whole and the Sturm count at that mode agrees.
func Extra(modes int) int { return max(2, modes/5) }

// Normalization says how mode shapes are scaled.
type Normalization int

// Mode shape normalizations.
const (
	// MassNormalized scales φ so that φᵀ·M·φ = 1 (buckling: φᵀ·K·φ = 1).
	MassNormalized Normalization = iota
	// UnitNormalized scales φ so that its largest translation is 1 (its
	// largest rotation when no node translates; see Dominant).
	UnitNormalized
	// NotNormalized leaves φ as the solver returns it (mass-normalized
	// for frequencies; the sign is arbitrary).
	NotNormalized
)
