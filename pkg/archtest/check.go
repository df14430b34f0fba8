package archtest

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Module is the import path of the module the rules describe. Rules name
// the module's own packages by their path relative to the module root
// ("pkg/editor"), so the table reads like the directory tree.
const Module = "github.com/gusset/gusset"

// File holds the imports of one Go source file.
type File struct {
	// Name is the file's path relative to the module root, with forward
	// slashes, so a violation points straight at the file to edit.
	Name string
	// Test is true for a _test.go file, whether it belongs to the package
	// or to its external foo_test package: rules may give test files more
	// (fixtures, test helpers) than the code they test.
	Test bool
	// Imports are the import paths exactly as the file writes them.
	Imports []string
}

// PackageImports holds the imports of every .go file of one package
// directory: test files and files behind build tags included, because an
// import that only a tagged or test build compiles is still an edge of the
// design.
type PackageImports struct {
	// Files lists the directory's .go files in the order they were read.
	Files []File
}

// Violation is one import that the package's rule does not allow, or a
// package that no rule covers.
type Violation struct {
	// Package is the module-relative directory of the package.
	Package string
	// File is the module-relative path of the importing file; empty when
	// the package matches no rule.
	File string
	// Import is the offending import path; empty when the package matches
	// no rule.
	Import string
	// Reason says which rule refused the import and why the rule exists,
	// or how to add a rule for an unmatched package.
	Reason string
}

// String formats the violation as a test failure message.
func (v Violation) String() string {
	if v.File == "" {
		return v.Reason
	}
	return fmt.Sprintf("%s imports %s: %s", v.File, v.Import, v.Reason)
}

// Check returns every import in pkgs that its package's rule does not
// allow, and every package that matches no rule, sorted by package. It
// reads nothing from disk, so tests can feed it made-up trees. pkgs is
// keyed by module-relative directory, as ReadTree returns it.
func Check(pkgs map[string]PackageImports, rules []Rule) []Violation {
	names := make([]string, 0, len(pkgs))
	for name := range pkgs {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []Violation
	for _, pkg := range names {
		r, ok := ruleFor(pkg, rules)
		if !ok {
			out = append(out, Violation{Package: pkg, Reason: fmt.Sprintf(
				"package %s matches no rule: add one to Rules in pkg/archtest/rules.go stating which packages it and its tests may import", pkg)})
			continue
		}
		for _, f := range pkgs[pkg].Files {
			for _, imp := range f.Imports {
				if reason := r.refuse(pkg, imp, f.Test); reason != "" {
					out = append(out, Violation{Package: pkg, File: f.Name, Import: imp, Reason: reason})
				}
			}
		}
	}
	return out
}

// ruleFor returns the rule that governs pkg: a rule naming pkg exactly,
// else the subtree rule with the longest prefix, so a package-level rule
// always overrides the envelope of its subtree.
func ruleFor(pkg string, rules []Rule) (Rule, bool) {
	best, bestLen := -1, -1
	for i, r := range rules {
		if r.Package == pkg {
			return r, true
		}
		if prefix, ok := strings.CutSuffix(r.Package, "/..."); ok && match(r.Package, pkg) && len(prefix) > bestLen {
			best, bestLen = i, len(prefix)
		}
	}
	if best < 0 {
		return Rule{}, false
	}
	return rules[best], true
}

// refuse returns why r does not let a file of pkg import imp, or "" if it
// may. Order matters: a test allowance is explicit, so it lifts a Deny for
// test files (pkg/fem/static denies pkg/fem/gridn to its code but gives it
// to its tests); Deny then restricts what Allow, External and the standard
// library would admit.
func (r Rule) refuse(pkg, imp string, test bool) string {
	key, inModule := relative(imp)
	if inModule && key == pkg {
		return "" // the external foo_test package imports the package under test
	}
	testOnly := inModule && matchAny(r.TestAllow, key) || !inModule && matchAny(r.TestExternal, key)
	if test && testOnly {
		return ""
	}
	why := ""
	if r.Why != "" {
		why = " (" + r.Why + ")"
	}
	if matchAny(r.Deny, key) {
		return fmt.Sprintf("rule %s denies it%s", r.Package, why)
	}
	if !inModule && isStd(imp) || inModule && matchAny(r.Allow, key) || !inModule && matchAny(r.External, key) {
		return ""
	}
	if testOnly {
		return fmt.Sprintf("rule %s allows it to test files only%s", r.Package, why)
	}
	return fmt.Sprintf("rule %s does not allow it%s; if the edge is right, add it to the rule", r.Package, why)
}

// relative returns a module import path relative to the module root, and
// any other path unchanged; inModule tells which it was.
func relative(imp string) (key string, inModule bool) {
	if imp == Module {
		return ".", true
	}
	if rest, ok := strings.CutPrefix(imp, Module+"/"); ok {
		return rest, true
	}
	return imp, false
}

// isStd reports whether a path outside the module is a standard library
// package: module paths start with a domain name, which has a dot.
func isStd(imp string) bool {
	first, _, _ := strings.Cut(imp, "/")
	return !strings.Contains(first, ".")
}

// match reports whether path matches pattern: an exact path, or a subtree
// "a/b/..." that matches a/b and everything below it, as go list does.
func match(pattern, path string) bool {
	if prefix, ok := strings.CutSuffix(pattern, "/..."); ok {
		return path == prefix || strings.HasPrefix(path, prefix+"/")
	}
	return pattern == path
}

func matchAny(patterns []string, path string) bool {
	for _, p := range patterns {
		if match(p, path) {
			return true
		}
	}
	return false
}

// WalkGoFiles calls fn with the path and the module-relative,
// slash-separated name of every regular .go file under root, test files
// and files behind build tags included. It skips testdata, directories
// the go tool ignores (names starting with "." or "_"), vendor (other
// modules' code) and bin (build output).
func WalkGoFiles(root string, fn func(path, rel string) error) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") ||
				name == "testdata" || name == "vendor" || name == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		return fn(path, filepath.ToSlash(rel))
	})
}

// ReadTree parses the imports of every .go file under root and groups them
// by module-relative directory, over the files WalkGoFiles visits. Build
// constraints are ignored: files behind tags (ccx, fault, load, GOARCH)
// import things too.
func ReadTree(root string) (map[string]PackageImports, error) {
	out := map[string]PackageImports{}
	fset := token.NewFileSet()
	err := WalkGoFiles(root, func(path, rel string) error {
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		file := File{Name: rel, Test: strings.HasSuffix(rel, "_test.go")}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return fmt.Errorf("%s: import %s: %w", rel, imp.Path.Value, err)
			}
			file.Imports = append(file.Imports, p)
		}
		dir := filepath.ToSlash(filepath.Dir(rel))
		pkg := out[dir]
		pkg.Files = append(pkg.Files, file)
		out[dir] = pkg
		return nil
	})
	return out, err
}
