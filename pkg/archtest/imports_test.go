package archtest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// moduleRoot returns the root of the module this package lives in.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found at %s", root)
	}
	return root
}

// Every package of the repository, its tests and its build-tagged files
// import only what its rule allows, and every package has a rule.
func TestImportRules(t *testing.T) {
	root := moduleRoot(t)
	pkgs, err := ReadTree(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 10 {
		t.Fatalf("found only %d packages under %s", len(pkgs), root)
	}
	for _, v := range Check(pkgs, Rules) {
		t.Error(v)
	}
}

// The table itself: one rule per pattern, patterns well formed, every rule
// explained, and the engine and model rules inside their subtree's
// envelope (a per-package rule cannot widen what its subtree may import).
func TestRulesWellFormed(t *testing.T) {
	envelopes := []Rule{ruleNamed(t, femTree), ruleNamed(t, modelTree)}
	seen := map[string]bool{}
	for _, r := range Rules {
		t.Run(r.Package, func(t *testing.T) {
			if seen[r.Package] {
				t.Errorf("two rules for %s: ruleFor would use only the first", r.Package)
			}
			seen[r.Package] = true
			if r.Why == "" {
				t.Error("rule has no Why")
			}
			for _, p := range append(append([]string{r.Package}, r.Allow...), r.TestAllow...) {
				if q := strings.TrimSuffix(p, "/..."); strings.HasPrefix(p, Module) || strings.Contains(q, ".") && q != "." {
					t.Errorf("%q: module packages are named relative to the module root, with at most a trailing /...", p)
				}
			}
			for _, p := range r.External {
				if isStd(p) {
					t.Errorf("External names %q: the standard library is always allowed", p)
				}
			}
			for _, p := range r.TestExternal {
				if isStd(p) && !matchAny(r.Deny, strings.TrimSuffix(p, "/...")) {
					t.Errorf("TestExternal names %q, which is allowed anyway: it lifts a Deny or names another module", p)
				}
			}
			for _, env := range envelopes {
				if r.Package == env.Package || !match(env.Package, strings.TrimSuffix(r.Package, "/...")) {
					continue
				}
				within(t, "Allow", r.Allow, env.Allow)
				within(t, "TestAllow", r.TestAllow, env.Allow)
				within(t, "External", r.External, env.External)
				within(t, "TestExternal", r.TestExternal, env.External)
				for _, d := range env.Deny {
					if !slices.Contains(r.Deny, d) {
						t.Errorf("Deny lacks %s, which the envelope %s denies", d, env.Package)
					}
				}
			}
		})
	}
}

func ruleNamed(t *testing.T, pkg string) Rule {
	t.Helper()
	for _, r := range Rules {
		if r.Package == pkg {
			return r
		}
	}
	t.Fatalf("no rule for %s", pkg)
	return Rule{}
}

// within fails for each pattern of got that no pattern of envelope covers.
func within(t *testing.T, field string, got, envelope []string) {
	t.Helper()
	for _, p := range got {
		if !matchAny(envelope, strings.TrimSuffix(p, "/...")) {
			t.Errorf("%s names %s, outside its subtree's envelope %v", field, p, envelope)
		}
	}
}

// allowed reports whether Rules let a file of pkg (a test file if test)
// import imp.
func allowed(pkg, imp string, test bool) bool {
	name := pkg + "/a.go"
	if test {
		name = pkg + "/a_test.go"
	}
	return len(Check(onePackage(pkg, File{Name: name, Test: test, Imports: []string{imp}}), Rules)) == 0
}

// The architecture's statements, asked of the real table.
func TestRulesEncodeArchitecture(t *testing.T) {
	cases := []struct {
		pkg, imp string
		test     bool
		want     bool
	}{
		{"pkg/fem/geom", mod("pkg/fem/transform"), false, false},
		{"pkg/fem/geom", "math", true, true},
		{"pkg/fem/transform", mod("pkg/fem/geom"), false, true},
		{"pkg/fem/transform", mod("pkg/model"), true, false},
		{"pkg/fem/element", mod("pkg/fem/sparse"), false, false},
		{"pkg/fem/sparse/kernel", "golang.org/x/sys/cpu", false, true},
		{"pkg/fem/sparse/kernel", "gonum.org/v1/gonum/mat", false, false},
		{"pkg/fem/sparse", mod("pkg/fem/element"), false, false},
		{"pkg/fem/static", mod("pkg/fem/element"), false, true},
		{"pkg/fem/static", mod("pkg/fem/gridn"), false, false},
		{"pkg/fem/static", mod("pkg/fem/gridn"), true, true},
		{"pkg/fem/static", mod("pkg/fem/static/ccx"), true, false},
		{"pkg/fem/newpkg", mod("pkg/model"), false, false},
		{"pkg/fem/newpkg", "net/http", true, false},
		{"pkg/model", mod("pkg/fem/static"), false, true},
		{"pkg/model/library", "net/http/httptest", true, false},
		{"pkg/model", "github.com/redis/go-redis/v9", true, false},
		{"pkg/model", mod("pkg/store"), false, false},
		{"pkg/editor", "net/http", false, false},
		{"pkg/editor", "github.com/valyala/fasthttp", true, false},
		{"pkg/analysis", "net/http", false, false},
		{"pkg/analysis", "github.com/hibiken/asynq", false, false},
		{"pkg/store", "github.com/gofiber/fiber/v2", true, false},
		{"pkg/store/redisstore", "github.com/redis/go-redis/v9", false, true},
		{"pkg/store/redisstore", "github.com/valyala/fasthttp", false, false},
		{"pkg/store", mod("pkg/server"), false, false},
		{"pkg/session", mod("pkg/testutil/redistest"), false, false},
		{"pkg/session", mod("pkg/testutil/redistest"), true, true},
		{"services/standalone", mod("pkg/server"), false, true},
		{"services/standalone", mod("pkg/model"), false, false},
		{"services/newsvc", mod("pkg/testutil/proctest"), true, true},
		{"services/newsvc", mod("pkg/httpapi"), false, false},
	}
	for _, c := range cases {
		kind := "code"
		if c.test {
			kind = "test"
		}
		t.Run(c.pkg+" "+kind+" "+strings.TrimPrefix(c.imp, Module+"/"), func(t *testing.T) {
			if got := allowed(c.pkg, c.imp, c.test); got != c.want {
				t.Errorf("allowed = %v, want %v", got, c.want)
			}
		})
	}
}

// Some imports belong to a few packages only. Every rule is probed (a
// subtree rule with a made-up package below it), in code and in tests, so
// widening any rule past these owners fails here.
func TestImportsWithFewOwners(t *testing.T) {
	cases := []struct {
		imp    string
		owners []string // package patterns that may import imp
		test   bool     // probe test files (true) or code (false)
	}{
		{"github.com/hibiken/asynq", []string{"pkg/server", "pkg/queue", "services/..."}, true},
		{"github.com/gofiber/fiber/v2", []string{"pkg/httpapi", "pkg/server"}, true},
		{"github.com/valyala/fasthttp", []string{"pkg/httpapi", "pkg/server"}, true},
		{"github.com/alicebob/miniredis/v2", []string{"pkg/server"}, true},
		{mod("pkg/testutil/redistest"), []string{"pkg/testutil/..."}, false},
	}
	for _, c := range cases {
		t.Run(strings.TrimPrefix(c.imp, Module+"/"), func(t *testing.T) {
			for _, r := range Rules {
				pkg := r.Package
				if prefix, ok := strings.CutSuffix(pkg, "/..."); ok {
					pkg = prefix + "/archtestprobe"
				}
				if matchAny(c.owners, pkg) {
					continue
				}
				if allowed(pkg, c.imp, false) || c.test && allowed(pkg, c.imp, true) {
					t.Errorf("rule %s lets %s import %s; only %v may", r.Package, pkg, c.imp, c.owners)
				}
			}
		})
	}
}
