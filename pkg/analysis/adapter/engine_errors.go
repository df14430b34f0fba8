package adapter

import (
	"errors"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/model"
)

// SolverFault is an error of the engine that is no fault of the model: a
// broken invariant of the solver. A run that meets one fails (the engine
// is deterministic: another attempt would fail alike), its message says
// that the fault is the service's to fix, and the fault is logged as an
// error (package lifecycle).
type SolverFault struct {
	// Err is the engine's error.
	Err error
}

// Error is the message the run's failure reads.
func (f *SolverFault) Error() string {
	return "internal solver fault (please report it): " + f.Err.Error()
}

// Unwrap returns the engine's error.
func (f *SolverFault) Unwrap() error { return f.Err }

// EngineError classifies an error the engine returned, by its type, never
// its text: a model error (*domain.ModelError) becomes a
// model.KindValidation error worded as the engine words it, without the
// operations that wrapped it; one of the service's own checks that the
// engine passed back (model.KindValidation: a load step's results, read
// by a callback) stays as it is; anything else is a *SolverFault.
func EngineError(err error) error {
	var me *domain.ModelError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &me):
		return model.E(model.KindValidation, "%s", me.Error())
	case model.KindOf(err) == model.KindValidation:
		return err
	}
	return &SolverFault{Err: err}
}
