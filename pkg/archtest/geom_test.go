package archtest

import (
	"path"
	"testing"
)

// Geometry has one home, pkg/fem/geom, which the model and the editor
// import: a second geom package (pkg/model/geom was one) splits the
// helpers and invites copies of them and of the tolerance.
func TestOneGeom(t *testing.T) {
	pkgs, err := ReadTree(moduleRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	for pkg := range pkgs {
		if path.Base(pkg) == "geom" && pkg != "pkg/fem/geom" {
			t.Errorf("%s: geometry belongs in pkg/fem/geom, the one geom package the engine and the model share", pkg)
		}
	}
}
