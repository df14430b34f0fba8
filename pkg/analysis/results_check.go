package analysis

import (
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// CheckResults checks the results a job file carries against the model it
// carries: a hostile or damaged file must be refused when it opens, not
// make a later query read past a column, report a node the model lacks or
// send a number JSON cannot carry. Each result set must state the model's
// size, list exactly its nodes, members (with their end nodes) and, for
// static results, plates (with their corners) in order, hold only its
// load cases, have whole rows in every column, name
// only its nodes, and hold only finite numbers.
//
// A set of a family g does not register is refused: this version cannot
// read it.
func (g *Registry) CheckResults(snap store.Snapshot) error {
	for name, set := range snap.Results {
		f := g.Family(name)
		if f == nil {
			return model.E(model.KindValidation, "the job file holds %s results, which this version cannot read", name)
		}
		if err := f.Check(set, snap.Collections); err != nil {
			return model.Wrap("check the job file's "+string(name)+" results", err)
		}
	}
	return nil
}
