package adapter_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/gusset/gusset/pkg/analysis/adapter"
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/static"
	"github.com/gusset/gusset/pkg/model"
)

// TestEngineError: a model error reads as the engine words it, whatever
// wraps it ("analyze: " included); one of the service's own checks passed
// back through the engine stays as it is; any other error is a solver
// fault, said to be one. The classification is by type: the texts of the
// cases do not decide it.
func TestEngineError(t *testing.T) {
	_, mechanism := static.Analyze(context.Background(), &domain.Model{
		Nodes:     []domain.Node{{ID: 1}},
		LoadCases: []domain.LoadCase{{ID: 1, NodeLoads: []domain.NodeLoad{{Node: 1}}}},
	}, static.Options{}) // a node without support or element
	for _, tc := range []struct {
		name  string
		err   error
		want  string
		fault bool
	}{
		{"model error through Analyze", mechanism,
			"mechanism at node 1, translation along X (restrain it, or set stabilizeUnrestrainedNodes)", false},
		{"model error wrapped by the engine", domain.Wrapf("frequencies: load case %d: %w", 3,
			domain.ModelErrorf(domain.ModelError{Case: 3}, "it has no mass")), "frequencies: load case 3: it has no mass", false},
		{"the service's check through the engine", fmt.Errorf("non-linear analysis of case 2: step 1: %w",
			model.E(model.KindValidation, "the results at node 4 are not finite numbers")),
			"non-linear analysis of case 2: step 1: the results at node 4 are not finite numbers", false},
		{"internal fault", fmt.Errorf("analyze: factor stiffness: %w", errors.New("mechanism at node 1")),
			"internal solver fault (please report it): analyze: factor stiffness: mechanism at node 1", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := adapter.EngineError(tc.err)
			if err.Error() != tc.want {
				t.Errorf("message %q, want %q", err, tc.want)
			}
			var fault *adapter.SolverFault
			if errors.As(err, &fault) != tc.fault {
				t.Errorf("solver fault %v, want %v", !tc.fault, tc.fault)
			}
			if !tc.fault && model.KindOf(err) != model.KindValidation {
				t.Errorf("kind %v, want a validation error (the model's to fix)", model.KindOf(err))
			}
		})
	}
	if adapter.EngineError(nil) != nil {
		t.Error("EngineError(nil) is not nil")
	}
}
