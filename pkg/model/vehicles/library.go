package vehicles

import "strings"

// entry is one named vehicle of a library. Each lookup builds a fresh value,
// so a caller that edits the returned Loads cannot change the library.
type entry struct {
	name  string
	build func() Vehicle
}

type library struct {
	name    string
	entries []entry
}

// libraries lists the built-in libraries in display order. Parameterised
// vehicles appear with the parameter value the package doc names.
var libraries = []library{
	{LibraryAS5100, []entry{
		{NameM1600TriAxle, M1600TriAxle},
		{NameM1600, func() Vehicle { return must(M1600(AS5100MinVariableSpacing)) }},
		{NameS1600, func() Vehicle { return must(S1600(AS5100MinVariableSpacing)) }},
	}},
	{LibraryAASHTO, []entry{
		{NameHL93Truck, func() Vehicle { return must(HL93Truck(HL93MinRearSpacing)) }},
		{NameHL93Tandem, HL93Tandem},
		{NameHL93Lane, HL93Lane},
	}},
}

// must unwraps a constructor called with a constant the package knows to be
// valid; a failure is a bug in this file, not a user error.
func must(v Vehicle, err error) Vehicle {
	if err != nil {
		panic(err)
	}
	return v
}

// Libraries returns the canonical names of the built-in vehicle libraries.
func Libraries() []string {
	out := make([]string, len(libraries))
	for i, l := range libraries {
		out[i] = l.name
	}
	return out
}

// Names returns the vehicle names of a library (matched case-insensitively),
// in display order, or nil for an unknown library.
func Names(lib string) []string {
	l, ok := findLibrary(lib)
	if !ok {
		return nil
	}
	return l.names()
}

// Lookup returns a vehicle by library and name, both matched
// case-insensitively and ignoring surrounding spaces. An unknown library is
// an [*UnknownLibraryError]; a missing vehicle a [*NotFoundError].
func Lookup(lib, name string) (Vehicle, error) {
	l, ok := findLibrary(lib)
	if !ok {
		return Vehicle{}, &UnknownLibraryError{Library: lib, Known: Libraries()}
	}
	for _, e := range l.entries {
		if strings.EqualFold(strings.TrimSpace(name), e.name) {
			return e.build(), nil
		}
	}
	return Vehicle{}, &NotFoundError{Library: l.name, Name: name, Known: l.names()}
}

func findLibrary(name string) (library, bool) {
	for _, l := range libraries {
		if strings.EqualFold(strings.TrimSpace(name), l.name) {
			return l, true
		}
	}
	return library{}, false
}

func (l library) names() []string {
	out := make([]string, len(l.entries))
	for i, e := range l.entries {
		out[i] = e.name
	}
	return out
}
