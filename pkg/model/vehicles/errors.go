package vehicles

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNotFound is matched (errors.Is) by every [*NotFoundError].
var ErrNotFound = errors.New("vehicle not found in library")

// ErrUnknownLibrary is matched (errors.Is) by every [*UnknownLibraryError].
var ErrUnknownLibrary = errors.New("unknown vehicle library")

// ErrInvalidParameter is wrapped by the constructors' errors when an argument
// lies outside the range the standard allows (or is not a finite number).
var ErrInvalidParameter = errors.New("invalid vehicle parameter")

// NotFoundError reports a vehicle name missing from a known library. Its
// message names both and lists the library's vehicles, so that it can be
// shown to a user as is.
type NotFoundError struct {
	Library string   // canonical library name
	Name    string   // the name as the caller spelled it
	Known   []string // the library's vehicle names
}

// Error implements error.
func (e *NotFoundError) Error() string {
	return fmt.Sprintf("vehicle %q not found in library %q; known: %s",
		e.Name, e.Library, strings.Join(e.Known, ", "))
}

// Is makes errors.Is(err, ErrNotFound) true.
func (e *NotFoundError) Is(target error) bool { return target == ErrNotFound }

// UnknownLibraryError reports a library name that is not built in, listing
// the known ones.
type UnknownLibraryError struct {
	Library string   // the name as the caller spelled it
	Known   []string // canonical library names
}

// Error implements error.
func (e *UnknownLibraryError) Error() string {
	return fmt.Sprintf("unknown vehicle library %q; known: %s", e.Library, strings.Join(e.Known, ", "))
}

// Is makes errors.Is(err, ErrUnknownLibrary) true.
func (e *UnknownLibraryError) Is(target error) bool { return target == ErrUnknownLibrary }
