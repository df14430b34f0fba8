package static

import "github.com/gusset/gusset/pkg/fem/domain"

// caseLoads is a case's resolved loads (domain.Loads) with what the
// static analysis caches on them once they are final (totalNodeLoads):
// the total node loads and the fixed-end actions of the loaded members
// (fe, indexed through feIdx by member, −1 when unloaded), which recovery
// reuses. Cases are identified by their *caseLoads.
type caseLoads struct {
	*domain.Loads
	total []float64
	fe    []memberFE
	feIdx []int32
}

// memberFE holds the condensed (qc) and uncondensed (q0) local fixed-end
// actions of a loaded member.
type memberFE struct {
	qc, q0 [12]float64
}

// fixedEndOf returns the cached fixed-end actions of member m, or nil when
// m is unloaded or totalNodeLoads has not run on c.
func (c *caseLoads) fixedEndOf(m int) *memberFE {
	if c == nil || c.feIdx == nil || c.feIdx[m] < 0 {
		return nil
	}
	return &c.fe[c.feIdx[m]]
}

// loads returns c's domain loads, nil for a nil c.
func (c *caseLoads) loads() *domain.Loads {
	if c == nil {
		return nil
	}
	return c.Loads
}
