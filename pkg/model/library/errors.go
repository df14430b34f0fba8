package library

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrNotFound is matched (errors.Is) by every [*NotFoundError], so callers can
// tell "no such entry" apart from other failures without a type switch.
var ErrNotFound = errors.New("not found in library")

// ErrUnknownLibrary is matched (errors.Is) by every [*UnknownLibraryError].
var ErrUnknownLibrary = errors.New("unknown library")

// ErrInvalidDimensions is wrapped by the errors of the parametric constructors
// when the dimensions cannot describe a real shape (zero, negative, or a wall
// too thick for the outline).
var ErrInvalidDimensions = errors.New("invalid section dimensions")

// NotFoundError reports a library miss. Its message names the entry, the
// library and the closest names the library holds, e.g.
// `section "360 UB 44" not found in library "Aust300"; closest: "360UB44.7"`,
// so it can be shown to a user as is.
type NotFoundError struct {
	Kind        string   // "section" or "material"
	Library     string   // canonical library name
	Name        string   // the name as the caller spelled it
	Suggestions []string // up to five names of the library closest to Name, best first (edit distance); may be empty
}

// Error implements error.
func (e *NotFoundError) Error() string {
	msg := fmt.Sprintf("%s %q not found in library %q", e.Kind, e.Name, e.Library)
	if len(e.Suggestions) > 0 {
		msg += "; closest: " + quoteList(e.Suggestions)
	}
	return msg
}

// quoteList renders names as `"a", "b"`.
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

// Is makes errors.Is(err, ErrNotFound) true.
func (e *NotFoundError) Is(target error) bool { return target == ErrNotFound }

// UnknownLibraryError reports a library name that is not built in. Its
// message lists the known libraries so that a user can correct the name.
type UnknownLibraryError struct {
	Kind    string   // "section" or "material"
	Library string   // the name as the caller spelled it
	Known   []string // canonical names of the libraries of that kind
}

// Error implements error.
func (e *UnknownLibraryError) Error() string {
	return fmt.Sprintf("unknown %s library %q (known: %s)", e.Kind, e.Library, strings.Join(e.Known, ", "))
}

// Is makes errors.Is(err, ErrUnknownLibrary) true.
func (e *UnknownLibraryError) Is(target error) bool { return target == ErrUnknownLibrary }
