package archtest

import (
	"go/ast"
	"go/token"
	"strconv"
)

// TagReader is the one package that reads struct tags. Its field
// definitions (model.DefOf, model.TagsOf) are what the validator, the HTTP
// edge, the API document, job files and the editor's encoder take a
// field's rules from: a second reader could give a tag a second meaning,
// and the document would then promise what the validator does not do.
const TagReader = "pkg/model"

// TagReads returns where the file f reads a struct tag itself: it names
// reflect.StructTag (a conversion or a variable of that type), calls Get
// or Lookup on a Tag, or selects the Tag of a value it got as a
// reflect.StructField (from Type.Field, FieldByName, FieldByIndex,
// FieldByNameFunc or reflect.VisibleFields, or declared as one). The check
// is syntactic, as the rest of this package, so it follows a struct field
// only within the function that got it; that covers the ways the tree
// has read tags, and a Tag of anything else (go/ast's) is not reported.
func TagReads(fset *token.FileSet, f *ast.File) []token.Position {
	refl := reflectName(f)
	var out []token.Position
	report := func(n ast.Node) { out = append(out, fset.Position(n.Pos())) }
	// fields holds the names bound to a reflect.StructField (or a slice of
	// them) in the function being walked; file-level declarations are in
	// the outermost set.
	fields := structFieldNames(f, refl, map[string]bool{})
	var walk func(n ast.Node, fields map[string]bool)
	walk = func(n ast.Node, fields map[string]bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.FuncDecl:
				if m != n {
					walk(m, structFieldNames(m, refl, copySet(fields)))
					return false
				}
			case *ast.FuncLit:
				if m != n {
					walk(m, structFieldNames(m, refl, copySet(fields)))
					return false
				}
			case *ast.SelectorExpr:
				switch {
				case isReflect(m, refl, "StructTag"):
					report(m)
				case m.Sel.Name == "Tag" && isStructField(m.X, fields):
					report(m)
				case (m.Sel.Name == "Get" || m.Sel.Name == "Lookup") && isSelector(m.X, "Tag"):
					report(m)
					return false // the Tag under it is this one read
				}
			case *ast.Ident:
				if refl == "." && m.Name == "StructTag" {
					report(m)
				}
			}
			return true
		})
	}
	walk(f, fields)
	return out
}

// reflectName is the name the file gives package reflect: "" when it does
// not import it, "." for a dot import.
func reflectName(f *ast.File) string {
	for _, imp := range f.Imports {
		if p, err := strconv.Unquote(imp.Path.Value); err != nil || p != "reflect" {
			continue
		}
		if imp.Name != nil {
			return imp.Name.Name
		}
		return "reflect"
	}
	return ""
}

// isReflect reports whether e is reflect.<name> in a file that calls the
// package refl.
func isReflect(e ast.Expr, refl, name string) bool {
	if refl == "." {
		id, ok := e.(*ast.Ident)
		return ok && id.Name == name
	}
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name || refl == "" {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == refl
}

func isSelector(e ast.Expr, name string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == name
}

// structFieldMethods are the methods of reflect.Type that return a
// reflect.StructField (first).
var structFieldMethods = map[string]bool{"Field": true, "FieldByName": true, "FieldByIndex": true, "FieldByNameFunc": true}

// isStructFieldCall reports whether e is a call that returns a
// reflect.StructField: t.Field(i) and its siblings.
func isStructFieldCall(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	return ok && structFieldMethods[sel.Sel.Name]
}

// isStructField reports whether e is a reflect.StructField as far as the
// file shows: such a call, a name bound to one, or an element of a
// slice of them.
func isStructField(e ast.Expr, fields map[string]bool) bool {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return isStructField(e.X, fields)
	case *ast.CallExpr:
		return isStructFieldCall(e)
	case *ast.Ident:
		return fields[e.Name]
	case *ast.IndexExpr:
		id, ok := e.X.(*ast.Ident)
		return ok && fields[id.Name]
	}
	return false
}

// isStructFieldType reports whether t is reflect.StructField, a pointer
// to one, or a slice or array of them.
func isStructFieldType(t ast.Expr, refl string) bool {
	switch t := t.(type) {
	case *ast.StarExpr:
		return isStructFieldType(t.X, refl)
	case *ast.ArrayType:
		return isStructFieldType(t.Elt, refl)
	}
	return isReflect(t, refl, "StructField")
}

// structFieldNames adds to names the names that n's own declarations
// bind to a reflect.StructField, not looking into nested functions:
// parameters and variables of that type, the first of several results
// of t.Field(i) and its siblings, and the values of a range over
// reflect.VisibleFields or a slice of struct fields.
func structFieldNames(n ast.Node, refl string, names map[string]bool) map[string]bool {
	bind := func(e ast.Expr) {
		if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
			names[id.Name] = true
		}
	}
	fromSlice := func(e ast.Expr) bool {
		if call, ok := e.(*ast.CallExpr); ok && isReflect(call.Fun, refl, "VisibleFields") {
			return true
		}
		id, ok := e.(*ast.Ident)
		return ok && names[id.Name]
	}
	ast.Inspect(n, func(m ast.Node) bool {
		switch m := m.(type) {
		case *ast.FuncLit:
			if m != n {
				return false
			}
		case *ast.FuncDecl:
			if m != n {
				return false
			}
		case *ast.Field:
			if isStructFieldType(m.Type, refl) {
				for _, id := range m.Names {
					bind(id)
				}
			}
		case *ast.ValueSpec:
			if m.Type != nil && isStructFieldType(m.Type, refl) {
				for _, id := range m.Names {
					bind(id)
				}
			}
			if len(m.Values) > 0 && len(m.Names) > 0 && isStructFieldCall(m.Values[0]) {
				bind(m.Names[0])
			}
		case *ast.AssignStmt:
			if len(m.Rhs) == 1 && len(m.Lhs) > 0 && isStructFieldCall(m.Rhs[0]) {
				bind(m.Lhs[0])
			}
			for i, r := range m.Rhs {
				if len(m.Lhs) == len(m.Rhs) && isStructFieldCall(r) {
					bind(m.Lhs[i])
				}
			}
		case *ast.RangeStmt:
			if m.Value != nil && fromSlice(m.X) {
				bind(m.Value)
			}
		}
		return true
	})
	return names
}

func copySet(s map[string]bool) map[string]bool {
	out := make(map[string]bool, len(s))
	for k, v := range s {
		out[k] = v
	}
	return out
}
