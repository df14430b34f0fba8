package eigen

import (
	"github.com/gusset/gusset/pkg/analysis/lifecycle"
	"github.com/gusset/gusset/pkg/analysis/query"
)

// runner is the worker's Runner as this package's kinds use it: their
// solve and store steps are its methods.
type runner struct{ *lifecycle.Runner }

// reader is the results reader as this package's queries use it: each
// query is one of its methods (query.Method).
type reader struct{ *query.Query }

// newReader wraps q.
func newReader(q *query.Query) reader { return reader{q} }
