// Package kinds assembles the analysis kinds the service runs into one
// registry: the static family (package statics: linear and non-linear
// static) and the eigen families (package eigen: buckling and dynamic
// frequency). A service that runs other kinds builds its own registry
// instead (analysis.Registry).
package kinds

import (
	"github.com/gusset/gusset/pkg/analysis"
	"github.com/gusset/gusset/pkg/analysis/eigen"
	"github.com/gusset/gusset/pkg/analysis/statics"
)

// StandardKinds returns a registry of the analyses the service runs:
// linear and non-linear static, buckling and dynamic frequency, in the
// order their results are shown.
func StandardKinds() *analysis.Registry {
	g := &analysis.Registry{}
	for _, k := range []analysis.Kind{statics.Linear, statics.NonLinear, eigen.Buckling, eigen.Dynamic} {
		g.Register(k)
	}
	return g
}
