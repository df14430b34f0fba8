package model

import (
	"errors"
	"fmt"
)

// Kind classifies an error by what the caller did wrong (or what went wrong
// underneath). The HTTP layer maps each kind to a status code and an
// errorCode in a single table. The list is append-only: wire clients key on
// the errorCode derived from it, so a kind is never renumbered or removed.
type Kind int

// The kinds of error. Append new kinds at the end.
const (
	// KindInternal is an unexpected failure; clients see "internal error".
	KindInternal Kind = iota
	// KindValidation is a request that breaks a rule (bad value, missing field).
	KindValidation
	// KindNotFound is a missing entity, row, run or file.
	KindNotFound
	// KindDuplicate is a create whose id or parent row already exists.
	KindDuplicate
	// KindNoJobOpen is a job-scoped operation while no job is loaded.
	KindNoJobOpen
	// KindJobAlreadyOpen is an open, new or import while a job is loaded.
	KindJobAlreadyOpen
	// KindConflict is a request that cannot be done in the current state
	// (saving a new job without a path, opening a file with newer unsaved
	// changes without a forceOption).
	KindConflict
	// KindAnalysisInProgress is a mutation or run start while an analysis runs.
	KindAnalysisInProgress
	// KindUnauthorized is a request without valid credentials.
	KindUnauthorized
	// KindMalformed is a body that is not valid JSON or has the wrong shape.
	KindMalformed
	// KindUnsupportedMedia is a body whose Content-Type is not accepted.
	KindUnsupportedMedia
	// KindTooLarge is a body over the size limit.
	KindTooLarge
	// KindMethodNotAllowed is a known path with a method it does not serve.
	KindMethodNotAllowed
	// KindUnavailable is a dependency (Redis, the file system) that cannot be
	// reached; retrying later may succeed.
	KindUnavailable
	// KindNotImplemented is a valid request for a feature that is not
	// available yet (moving-load generation before its generator exists).
	KindNotImplemented
	// KindForbidden is a request the service refuses whoever sends it in
	// this configuration: a browser's cross-origin write, or a Host name
	// that is not allowed (DNS rebinding).
	KindForbidden
	// KindLimitExceeded is a request that would take a workspace past one
	// of its limits (Limits): more nodes or load cases than it may hold,
	// say. Nothing of the request is done.
	KindLimitExceeded
	// KindStorageFull is a write the data store refused because it is at
	// its memory limit (Redis maxmemory with noeviction). Nothing of the
	// write happened; what frees storage (closing or clearing a job,
	// deleting rows) still works.
	KindStorageFull
)

// FieldError names one offending field of a request.
type FieldError struct {
	Field   string
	Message string
}

// Error is the one error type of the service. Op says which operation failed
// ("open job"), Msg says what a person should know, and Err keeps the cause
// for errors.Is/As and for logs.
type Error struct {
	Kind   Kind
	Op     string
	Msg    string
	Fields []FieldError
	Err    error
}

// Error implements error.
func (e *Error) Error() string {
	switch {
	case e.Op != "" && e.Err != nil && e.Msg == "":
		return fmt.Sprintf("%s: %v", e.Op, e.Err)
	case e.Op != "" && e.Err != nil:
		return fmt.Sprintf("%s: %s: %v", e.Op, e.Msg, e.Err)
	case e.Op != "":
		return fmt.Sprintf("%s: %s", e.Op, e.Msg)
	case e.Err != nil && e.Msg == "":
		return e.Err.Error()
	}
	return e.Msg
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is makes a sentinel *Error (ErrNoJobOpen, a store's ErrRunFinished) match
// its copies: Wrap copies an *Error to add the operation, so identity alone
// would lose the sentinel on the first wrap.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Kind == e.Kind && t.Msg == e.Msg && t.Op == "" && t.Err == nil
}

// E builds an Error of the given kind with a formatted message.
func E(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// Invalid is a validation error about one field.
func Invalid(field, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	return &Error{Kind: KindValidation, Msg: msg, Fields: []FieldError{{Field: field, Message: msg}}}
}

// NotFound reports a missing thing, e.g. NotFound("node", 12).
func NotFound(what string, id any) *Error {
	return &Error{Kind: KindNotFound, Msg: fmt.Sprintf("%s %v not found", what, id)}
}

// ErrNoJobOpen is returned by every job-scoped operation while no job is open.
var ErrNoJobOpen = &Error{Kind: KindNoJobOpen, Msg: "no job is open: create a new job or open one first"}

// ErrJobAlreadyOpen is returned when a job is opened or created while one is open.
var ErrJobAlreadyOpen = &Error{Kind: KindJobAlreadyOpen, Msg: "a job is already open: close it first"}

// Wrap attaches an operation name to err. A *Error keeps its kind and
// message; any other error becomes KindInternal so that its text never
// reaches a client.
func Wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	var me *Error
	if errors.As(err, &me) {
		cp := *me
		if cp.Op == "" {
			cp.Op = op
		} else {
			cp.Op = op + ": " + cp.Op
		}
		cp.Err = me.Err
		return &cp
	}
	return &Error{Kind: KindInternal, Op: op, Err: err}
}

// KindOf returns the kind of err, KindInternal when err is not an *Error.
func KindOf(err error) Kind {
	var me *Error
	if errors.As(err, &me) {
		return me.Kind
	}
	return KindInternal
}

// RowError is the rule one stored row of a snapshot breaks (a job file's,
// an imported file's), wrapped in the validation error that reports it:
// a reader that knows where the row came from (the line of a text file)
// can say so instead.
type RowError struct {
	Coll, Key string // the collection and the stored key of the row
	Problem   string // what is wrong, without the row's name
}

// Error implements error.
func (e *RowError) Error() string { return e.Coll + " row " + e.Key + ": " + e.Problem }
