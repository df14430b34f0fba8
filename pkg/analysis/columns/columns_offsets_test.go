package columns

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"
)

// offsetCheck finds, in the source of a package, the reads of results
// rows by position outside the files that declare the column layouts: an
// index or a slice bound holding a constant (v[6], row[8:], v[19*m],
// members[widthMember*m+1]), or a variable stepped by a constant
// (r += width), on a row held as bare values instead of as its row type.
//
// Rows held as bare values are traced through the code: they come from
// the layout files' functions returning slices of int64 or float64 (ints,
// values) and from decode on a column made up on the spot
// (column[float64]{…}); values packed bare are traced back from where
// they are encoded (the layout files' functions taking such slices,
// encode on such a column). The trace follows assignments, ranges,
// returns, struct fields and composite literals, the parameters of the
// package's functions and the arguments of callbacks, by the objects the
// type checker resolves, so that two fields or variables of one name are
// not confused. The declared columns of one value per row (nodesCol,
// cableCol) are not traced: their rows have no positions. Typed rows need
// no trace either: their parts have names, so row.A[0] reads end A's Fx,
// not value 0 of a row.
//
// The package is type-checked without its imports (stubImporter): only
// its own declarations matter here, and what depends on an imported type
// has none, which no trace needs.
type offsetCheck struct {
	fset    *token.FileSet
	files   map[string]*ast.File
	sources map[string][]byte
	layout  map[string]bool
	info    *types.Info
	// traced are the variables, fields and functions (their results)
	// that may hold bare row values.
	traced map[types.Object]bool
	// strides are the variables stepped by a constant other than 1.
	strides map[types.Object]bool
	// callbacks[p][i]: the func-typed parameter p is called with bare
	// row values as argument i.
	callbacks map[types.Object]map[int]bool
	changed   bool
}

// stubImporter gives every import as an empty package.
type stubImporter map[string]*types.Package

// Import returns an empty package for path.
func (s stubImporter) Import(path string) (*types.Package, error) {
	if p, ok := s[path]; ok {
		return p, nil
	}
	p := types.NewPackage(path, path[strings.LastIndex(path, "/")+1:])
	p.MarkComplete()
	s[path] = p
	return p, nil
}

// newOffsetCheck parses and type-checks sources, the files of a package
// by name; layout names the files that declare the column layouts.
func newOffsetCheck(sources map[string][]byte, layout map[string]bool) (*offsetCheck, error) {
	c := &offsetCheck{fset: token.NewFileSet(), files: map[string]*ast.File{}, sources: sources, layout: layout,
		info: &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
			Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}},
		traced: map[types.Object]bool{}, strides: map[types.Object]bool{}, callbacks: map[types.Object]map[int]bool{}}
	var files []*ast.File
	for _, name := range slices.Sorted(maps.Keys(sources)) {
		f, err := parser.ParseFile(c.fset, name, sources[name], parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		c.files[name] = f
		files = append(files, f)
	}
	conf := types.Config{Importer: stubImporter{}, Error: func(error) {}}
	_, _ = conf.Check("p", c.fset, files, c.info) // errors: the imports are stubs
	return c, nil
}

// inLayout reports whether obj is declared in a layout file.
func (c *offsetCheck) inLayout(obj types.Object) bool {
	return obj != nil && obj.Pos().IsValid() && c.layout[c.fset.Position(obj.Pos()).Filename]
}

// run traces the bare row values until nothing more is found, then
// returns a message for each read by position outside the layout files,
// and for each encoding or decoding of stored bytes there.
func (c *offsetCheck) run() []string {
	for c.changed = true; c.changed; {
		c.changed = false
		c.walkAll(nil)
	}
	var out []string
	c.walkAll(func(n ast.Node, what string) {
		out = append(out, fmt.Sprintf("%s: %s (%s): read it as its row type and name the field", c.fset.Position(n.Pos()), what, c.text(n)))
	})
	for name, f := range c.files {
		if !c.layout[name] {
			out = append(out, c.codecUse(f)...)
		}
	}
	slices.Sort(out)
	return out
}

// walkAll walks every function outside the layout files.
func (c *offsetCheck) walkAll(report func(ast.Node, string)) {
	for name, f := range c.files {
		if c.layout[name] {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				c.walk(fd, report)
			}
		}
	}
}

// walk traces the bare row values of fd and, with report, reports its
// reads by position.
func (c *offsetCheck) walk(fd *ast.FuncDecl, report func(ast.Node, string)) {
	self := c.info.Defs[fd.Name]
	var stack []ast.Node
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.AssignStmt:
			c.assign(n)
		case *ast.ValueSpec:
			for i, v := range n.Values {
				if i < len(n.Names) {
					c.flow(n.Names[i], v)
				}
			}
		case *ast.RangeStmt:
			if n.Value != nil && c.holds(n.X) {
				c.mark(n.Value)
			}
		case *ast.ReturnStmt:
			if len(n.Results) > 0 && !inClosure(stack) && self != nil {
				if c.holds(n.Results[0]) {
					c.add(self)
				}
				if c.traced[self] {
					c.mark(n.Results[0])
				}
			}
		case *ast.KeyValueExpr:
			if key, ok := n.Key.(*ast.Ident); ok {
				if field, ok := c.info.Uses[key].(*types.Var); ok && field.IsField() {
					c.flowObj(field, n.Value)
				}
			}
		case *ast.CallExpr:
			c.call(n)
		case *ast.IndexExpr:
			if report != nil && c.holdsRow(n.X) && c.offset(n.Index) {
				report(n, "reads a results row by position")
			}
		case *ast.SliceExpr:
			low := n.Low != nil && !isLit(n.Low, "0") && c.offset(n.Low)
			if report != nil && c.holdsRow(n.X) && (low || c.offset(n.High) || c.offset(n.Max)) {
				report(n, "slices a results row by position")
			}
		}
		return true
	})
}

// inClosure reports whether the innermost node of stack is inside a
// function literal.
func inClosure(stack []ast.Node) bool {
	for _, n := range stack {
		if _, ok := n.(*ast.FuncLit); ok {
			return true
		}
	}
	return false
}

// assign traces an assignment, both ways, and notes the variables
// stepped by a constant other than 1.
func (c *offsetCheck) assign(a *ast.AssignStmt) {
	if (a.Tok == token.ADD_ASSIGN || a.Tok == token.SUB_ASSIGN) && len(a.Lhs) == 1 {
		if obj := c.object(a.Lhs[0]); obj != nil && c.hasConst(a.Rhs[0]) && !isLit(a.Rhs[0], "1") {
			c.strides[obj] = true
		}
		return
	}
	if len(a.Lhs) == len(a.Rhs) {
		for i := range a.Lhs {
			c.flow(a.Lhs[i], a.Rhs[i])
		}
		return
	}
	c.flow(a.Lhs[0], a.Rhs[0]) // x, err := f(): the values are the first result
}

// flow traces the assignment of from to to, both ways.
func (c *offsetCheck) flow(to, from ast.Expr) {
	if c.holds(from) {
		c.mark(to)
	}
	if c.holds(to) {
		c.mark(from)
	}
}

// flowObj traces the assignment of from to the variable or field obj.
func (c *offsetCheck) flowObj(obj types.Object, from ast.Expr) {
	if c.holds(from) {
		c.add(obj)
	}
	if c.traced[obj] {
		c.mark(from)
	}
}

// call traces a call: into the layout files' encoders, and between the
// arguments and the parameters of the package's functions, callbacks
// included.
func (c *offsetCheck) call(call *ast.CallExpr) {
	switch callee := c.callee(call).(type) {
	case *types.Var: // a callback
		for i, arg := range call.Args {
			if c.holds(arg) && !c.callbacks[callee][i] {
				if c.callbacks[callee] == nil {
					c.callbacks[callee] = map[int]bool{}
				}
				c.callbacks[callee][i] = true
				c.changed = true
			}
		}
	case *types.Func:
		sig := callee.Type().(*types.Signature)
		if !c.inLayout(callee) {
			c.pass(call, sig.Params())
		} else if sig.Recv() == nil || c.bareColumn(call) {
			for i, arg := range call.Args {
				if i < sig.Params().Len() && isValues(sig.Params().At(i).Type()) {
					c.mark(arg) // encoded bare
				}
			}
		}
	}
}

// pass traces the arguments of call to params, the parameters of the
// package's function it calls, both ways, and the bare row values the
// function hands a callback to the literal given for it.
func (c *offsetCheck) pass(call *ast.CallExpr, params *types.Tuple) {
	for i, arg := range call.Args {
		if i >= params.Len() {
			break
		}
		p := params.At(i)
		c.flowObj(p, arg)
		if lit, ok := arg.(*ast.FuncLit); ok {
			for k := range c.callbacks[p] {
				if names := litParams(lit); k < len(names) {
					c.mark(names[k])
				}
			}
		}
	}
}

// litParams lists the parameters of lit in order.
func litParams(lit *ast.FuncLit) []*ast.Ident {
	var out []*ast.Ident
	for _, f := range lit.Type.Params.List {
		out = append(out, f.Names...)
	}
	return out
}

// callee returns what call calls: a function or method of its generic
// declaration, or a func-typed variable; nil for builtins, conversions
// and the imports.
func (c *offsetCheck) callee(call *ast.CallExpr) types.Object {
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	var id *ast.Ident
	switch f := fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return nil
	}
	switch obj := c.info.Uses[id].(type) {
	case *types.Func:
		return obj.Origin()
	case *types.Var:
		return obj
	}
	return nil
}

// bareColumn reports whether call is a method of a column made up on the
// spot (column[float64]{…}.decode), whose rows a declaration does not
// give.
func (c *offsetCheck) bareColumn(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	_, lit := ast.Unparen(sel.X).(*ast.CompositeLit)
	return lit
}

// holds reports whether e may hold bare row values.
func (c *offsetCheck) holds(e ast.Expr) bool {
	if !carries(c.typeOf(e)) {
		return false
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident, *ast.SelectorExpr:
		return c.traced[c.object(e)]
	case *ast.IndexExpr:
		return c.holds(e.X)
	case *ast.SliceExpr:
		return c.holds(e.X)
	case *ast.StarExpr:
		return c.holds(e.X)
	case *ast.UnaryExpr:
		return c.holds(e.X)
	case *ast.CallExpr:
		return c.returns(e)
	}
	return false
}

// holdsRow reports whether e may hold bare row values and is a slice or
// array of them (not, say, a list of such slices).
func (c *offsetCheck) holdsRow(e ast.Expr) bool {
	t := c.info.Types[e].Type
	if t == nil {
		return false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return isValue(u.Elem()) && c.holds(e)
	case *types.Array:
		return isValue(u.Elem()) && c.holds(e)
	}
	return false
}

// returns reports whether call returns bare row values.
func (c *offsetCheck) returns(call *ast.CallExpr) bool {
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if _, builtin := c.info.Uses[id].(*types.Builtin); builtin {
			return id.Name == "append" && slices.ContainsFunc(appended(call), c.holds)
		}
	}
	callee := c.callee(call)
	if callee == nil {
		return false
	}
	if c.inLayout(callee) {
		sig, _ := callee.Type().(*types.Signature)
		bare := sig != nil && (sig.Recv() == nil || c.bareColumn(call))
		t := c.typeOf(call)
		return bare && t != nil && isValues(t)
	}
	return c.traced[callee]
}

// appended returns the slices a call of append joins: the first
// argument, and the last when it is spread (append(out, row[:]...)).
func appended(call *ast.CallExpr) []ast.Expr {
	if len(call.Args) == 0 {
		return nil
	}
	out := call.Args[:1]
	if call.Ellipsis.IsValid() && len(call.Args) > 1 {
		out = append(out[:1:1], call.Args[len(call.Args)-1])
	}
	return out
}

// typeOf returns the type of e; of its first value for a call of several
// results.
func (c *offsetCheck) typeOf(e ast.Expr) types.Type {
	t := c.info.Types[e].Type
	if tuple, ok := t.(*types.Tuple); ok {
		if tuple.Len() == 0 {
			return nil
		}
		return tuple.At(0).Type()
	}
	return t
}

// object returns the variable or field e names.
func (c *offsetCheck) object(e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if obj := c.info.Defs[e]; obj != nil {
			return obj
		}
		return c.info.Uses[e]
	case *ast.SelectorExpr:
		if s := c.info.Selections[e]; s != nil && s.Kind() == types.FieldVal {
			return s.Obj()
		}
	}
	return nil
}

// mark records that e may hold bare row values: assigned them, or
// holding what is encoded. A call of the package's function returns them,
// unless its result is of its type parameters: what it returns then
// depends on the call.
func (c *offsetCheck) mark(e ast.Expr) {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident, *ast.SelectorExpr:
		if obj := c.object(e); obj != nil {
			if _, ok := obj.(*types.Var); ok {
				c.add(obj)
			}
		}
	case *ast.IndexExpr:
		c.mark(e.X)
	case *ast.SliceExpr:
		c.mark(e.X)
	case *ast.StarExpr:
		c.mark(e.X)
	case *ast.UnaryExpr:
		c.mark(e.X)
	case *ast.CallExpr:
		if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok && id.Name == "append" {
			for _, a := range appended(e) {
				c.mark(a)
			}
			return
		}
		if f, ok := c.callee(e).(*types.Func); ok && !c.inLayout(f) {
			if sig := f.Type().(*types.Signature); sig.Results().Len() > 0 && !ofTypeParams(sig.Results().At(0).Type()) {
				c.add(f)
			}
		}
	}
}

// add records obj, a variable or a function (its result), as holding
// bare row values, unless its type cannot.
func (c *offsetCheck) add(obj types.Object) {
	if obj == nil || c.traced[obj] {
		return
	}
	t := obj.Type()
	if sig, ok := t.(*types.Signature); ok {
		if sig.Results().Len() == 0 {
			return
		}
		t = sig.Results().At(0).Type()
	}
	if carries(t) {
		c.traced[obj] = true
		c.changed = true
	}
}

// carries reports whether a value of type t can hold row values: a
// slice or an array of int64 or float64, of such slices …, or a pointer
// to one. Tracing stops at anything else (a value read out of a row, an
// index), so that it does not spread through the scalars.
func carries(t types.Type) bool {
	if t == nil {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return isValue(u.Elem()) || carries(u.Elem())
	case *types.Array:
		return isValue(u.Elem()) || carries(u.Elem())
	case *types.Pointer:
		return carries(u.Elem())
	}
	return false
}

// ofTypeParams reports whether t is made of a type parameter.
func ofTypeParams(t types.Type) bool {
	switch u := t.(type) {
	case *types.TypeParam:
		return true
	case *types.Slice:
		return ofTypeParams(u.Elem())
	case *types.Array:
		return ofTypeParams(u.Elem())
	case *types.Pointer:
		return ofTypeParams(u.Elem())
	}
	return false
}

// isValue reports whether t is int64 or float64.
func isValue(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && (b.Kind() == types.Int64 || b.Kind() == types.Float64)
}

// isValues reports whether t is a slice of int64 or float64, or of such
// slices.
func isValues(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	return ok && (isValue(s.Elem()) || isValues(s.Elem()))
}

// offset reports whether e, an index or a bound, holds a position in a
// row: a constant, or a variable stepped by a constant.
func (c *offsetCheck) offset(e ast.Expr) bool {
	if e == nil {
		return false
	}
	found := c.hasConst(e)
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && c.strides[c.info.Uses[id]] {
			found = true
		}
		return !found
	})
	return found
}

// hasConst reports whether e holds a literal number or a named constant.
func (c *offsetCheck) hasConst(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			found = found || n.Kind == token.INT || n.Kind == token.FLOAT || n.Kind == token.CHAR
		case *ast.Ident:
			_, isConst := c.info.Uses[n].(*types.Const)
			found = found || isConst
		}
		return !found
	})
	return found
}

// isLit reports whether e is the literal lit.
func isLit(e ast.Expr, lit string) bool {
	b, ok := e.(*ast.BasicLit)
	return ok && b.Value == lit
}

// text returns the source of n, for messages.
func (c *offsetCheck) text(n ast.Node) string {
	from, to := c.fset.Position(n.Pos()), c.fset.Position(n.End())
	if src := c.sources[from.Filename]; to.Offset <= len(src) {
		return string(src[from.Offset:to.Offset])
	}
	return "?"
}
