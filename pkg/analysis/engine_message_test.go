package analysis

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/static"
)

// TestEngineMessage: a model error reads as the engine words it, whatever
// wraps it ("analyze: " included, as before); one of the service's own
// checks passed back through the engine reads as its whole error; any
// other error is an internal fault, said to be one and logged as an
// error.
func TestEngineMessage(t *testing.T) {
	var logged bytes.Buffer
	r := &Runner{Log: slog.New(slog.NewTextHandler(&logged, nil))}
	task := Task{Workspace: "ws", RunID: "run-1"}
	_, mechanism := static.Analyze(context.Background(), &domain.Model{
		Nodes:     []domain.Node{{ID: 1}},
		LoadCases: []domain.LoadCase{{ID: 1, NodeLoads: []domain.NodeLoad{{Node: 1}}}},
	}, static.Options{}) // a node without support or element: "analyze: mechanism at node 1, …"
	for _, tc := range []struct {
		name     string
		err      error
		want     string
		internal bool
	}{
		{"model error through Analyze", mechanism,
			"mechanism at node 1, translation along X (restrain it, or set stabilizeUnrestrainedNodes)", false},
		{"model error wrapped by the engine", domain.Wrapf("frequencies: load case %d: %w", 3,
			domain.ModelErrorf(domain.ModelError{Case: 3}, "it has no mass")), "frequencies: load case 3: it has no mass", false},
		{"the service's check through the engine", fmt.Errorf("non-linear analysis of case 2: step 1: %w",
			ModelError("the results at node 4 are not finite numbers")), "non-linear analysis of case 2: step 1: the results at node 4 are not finite numbers", false},
		{"internal fault", fmt.Errorf("analyze: factor stiffness: %w", errors.New("out of workspace")),
			"internal solver fault (please report it): analyze: factor stiffness: out of workspace", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logged.Reset()
			if got := r.engineMessage(task, tc.err); got != tc.want {
				t.Errorf("message %q, want %q", got, tc.want)
			}
			if log := logged.String(); tc.internal != strings.Contains(log, "level=ERROR") {
				t.Errorf("logged %q; internal fault %v", log, tc.internal)
			}
		})
	}
}
