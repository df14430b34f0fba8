package analysis

// StandardKinds returns a registry of the analyses the service runs:
// linear and non-linear static, buckling and dynamic frequency.
func StandardKinds() *Registry {
	g := &Registry{}
	for _, k := range []Kind{linearStatic{}, nonLinearStatic{}, bucklingKind{}, dynamicKind{}} {
		g.Register(k)
	}
	return g
}
