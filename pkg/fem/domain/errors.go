package domain

import (
	"errors"
	"fmt"

	"github.com/gusset/gusset/pkg/fem/dof"
)

// ModelError is an error the user fixes in the model or in the analysis
// settings: a reference to something that does not exist, a member of
// zero length, a mechanism, a case with no mass, a step that does not
// converge. Every analysis returns one, possibly wrapped, for such a
// failure, and callers find it with errors.As; any other error of the
// engine is an internal fault (package doc, "Errors"), which no change
// to the model can mend.
//
// The ids say what the error is about, so that a caller can point at it;
// they are 0 when the error names no such thing (the model's ids are
// positive). They are a summary: the message says the same in words.
type ModelError struct {
	Node, Member, Plate int64
	// Case is a load case or combination.
	Case int64
	// DOF is the node's degree of freedom at fault, in the words of
	// dof.Names ("rotation about Z"); "" when the error names none.
	DOF string
	// Msg is the whole message, with the context the engine added around
	// the fault ("load case 3: member 7: ...").
	Msg string
	// Err is the lower-level error the message was made from, if any, so
	// that errors.Is and errors.As still see it.
	Err error
}

// Error is the message a user reads.
func (e *ModelError) Error() string { return e.Msg }

// Unwrap returns the cause.
func (e *ModelError) Unwrap() error { return e.Err }

// DOFIndex returns the index in dof.Names (0..5: ux uy uz rx ry rz) of
// the DOF the error names, −1 when it names none.
func (e *ModelError) DOFIndex() int {
	for k, n := range dof.Names {
		if n == e.DOF {
			return k
		}
	}
	return -1
}

// ModelErrorf returns a copy of at, which holds the ids and DOF the error
// names, with the message and the wrapped error (%w) of
// fmt.Errorf(format, args...). What a wrapped *ModelError names fills in
// what at leaves zero.
func ModelErrorf(at ModelError, format string, args ...any) *ModelError {
	err := fmt.Errorf(format, args...)
	at.Msg, at.Err = err.Error(), errors.Unwrap(err)
	var inner *ModelError
	if errors.As(at.Err, &inner) {
		at.fill(inner)
	}
	return &at
}

// fill sets the ids and DOF that e leaves zero from o.
func (e *ModelError) fill(o *ModelError) {
	for _, p := range [][2]*int64{{&e.Node, &o.Node}, {&e.Member, &o.Member}, {&e.Plate, &o.Plate}, {&e.Case, &o.Case}} {
		if *p[0] == 0 {
			*p[0] = *p[1]
		}
	}
	if e.DOF == "" {
		e.DOF = o.DOF
	}
}

// Wrapf adds context to an error as fmt.Errorf(format, args...) does,
// format wrapping it with %w; when the error holds a *ModelError, the
// result is a *ModelError too, naming what that one names, whose message
// includes the context. errors.As finds the outermost *ModelError, so
// the context a user reads is not lost to a wrapper that is not one.
func Wrapf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	var inner *ModelError
	if !errors.As(err, &inner) {
		return err
	}
	out := *inner
	out.Msg, out.Err = err.Error(), err
	return &out
}

// Mechanism returns the model error of equation q of numbering num
// having no stiffness (a zero pivot, or a zero diagonal): the structure
// is a mechanism there, and the error names the node and its DOF.
func (d *Domain) Mechanism(num *dof.Numbering, q int) *ModelError {
	g := num.EqDOF[q]
	node, dir := d.DOF.Describe(g)
	return ModelErrorf(ModelError{Node: node, DOF: dir},
		"mechanism at node %d, %s (restrain it, or set stabilizeUnrestrainedNodes)", node, dir)
}
