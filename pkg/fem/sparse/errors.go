package sparse

import (
	"fmt"
)

// SingularError reports a zero or relatively tiny pivot met during numeric
// factorization. DOF is the original (un-permuted) index of the DOF whose
// pivot failed, so the caller can map it to "node 12, rotation about Z".
// Use errors.As to retrieve it from a wrapped error.
type SingularError struct {
	DOF   int     // original DOF index (row/column of the input matrix)
	Pivot float64 // the pivot value d found for that DOF
	Ref   float64 // magnitude the pivot was judged against (largest |a| in the original column)
}

func (e *SingularError) Error() string {
	return fmt.Sprintf("sparse: matrix is singular to working precision at DOF %d (pivot %.3g against column scale %.3g)", e.DOF, e.Pivot, e.Ref)
}

// Inertia counts the signs of the pivots D of A = P·L·D·Lᵀ·Pᵀ. By Sylvester's
// law of inertia they equal the numbers of positive, negative and zero
// eigenvalues of A. For K − σM, Negative is the number of eigenvalues below σ
// (the Sturm-sequence count used to check shift-invert eigensolvers).
type Inertia struct {
	Positive, Negative, Zero int
}
