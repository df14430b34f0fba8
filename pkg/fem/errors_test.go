package fem_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/fem/buckling"
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/dynamic"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/linsys"
	"github.com/gusset/gusset/pkg/fem/nonlinear"
	"github.com/gusset/gusset/pkg/fem/sparse"
	"github.com/gusset/gusset/pkg/fem/static"
)

// cantilever is member 1 along X from node 1 (clamped) to node 2, 3 m,
// steel, with load case 1: a downward tip force P, N.
func cantilever(p float64) *domain.Model {
	return &domain.Model{
		Nodes:     []domain.Node{{ID: 1}, {ID: 2, X: 3}},
		Materials: []domain.Material{{ID: 1, E: 200e9, G: 80e9, Density: 7850}},
		Sections:  []domain.Section{{ID: 1, A: 0.01, J: 2e-5, Iy: 1e-5, Iz: 1e-5}},
		Members:   []domain.Member{{ID: 1, NodeA: 1, NodeB: 2, Section: 1, Material: 1}},
		Supports:  []domain.Support{{Node: 1, Code: "FFFFFF"}},
		LoadCases: []domain.LoadCase{{ID: 1, NodeLoads: []domain.NodeLoad{{Node: 2, F: [6]float64{1: -p}}}}},
	}
}

// staticRun analyses m with the dense factorizer, whose zero pivots come
// in equation order, so that the DOF a mechanism names is known.
func staticRun(m *domain.Model) error {
	_, err := static.Analyze(context.Background(), m, static.Options{Factorizer: linsys.DenseFactorizer{}})
	return err
}

// TestModelErrors: each failure the user must fix is a *domain.ModelError
// that errors.As finds however the engine wrapped it, naming what is at
// fault, and its message is the whole error the user reads: all of it but
// the "analyze: " of the static entry point.
func TestModelErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func() error
		want domain.ModelError // the ids and DOF named; Msg a part of the message
	}{
		{"unknown node of a member", func() error {
			m := cantilever(1e3)
			m.Members[0].NodeB = 99
			_, err := domain.Build(context.Background(), m, domain.BuildOptions{})
			return err
		}, domain.ModelError{Member: 1, Node: 99, Msg: `member 1: node "99" does not exist`}},
		{"unknown node of a member, through Analyze", func() error {
			m := cantilever(1e3)
			m.Members[0].NodeB = 99
			return staticRun(m)
		}, domain.ModelError{Member: 1, Node: 99, Msg: `member 1: node "99" does not exist`}},
		{"unknown node of a node load", func() error {
			m := cantilever(1e3)
			m.LoadCases[0].NodeLoads[0].Node = 7
			return staticRun(m)
		}, domain.ModelError{Case: 1, Node: 7, Msg: `load case 1: node load on node "7", which does not exist`}},
		{"unknown case in a combination", func() error {
			m := cantilever(1e3)
			m.Combinations = []domain.Combination{{ID: 5, Terms: []domain.Term{{Case: 4, Factor: 1}}}}
			return staticRun(m)
		}, domain.ModelError{Case: 4, Msg: `combination 5: load case or combination "4" does not exist`}},
		{"mechanism of an unrestrained model", func() error {
			// Free in space: once node 1 is eliminated, node 2 moves with
			// it, and its first DOF is the first zero pivot.
			m := cantilever(1e3)
			m.Supports = nil
			return staticRun(m)
		}, domain.ModelError{Node: 2, DOF: "translation along X", Msg: "mechanism at node 2, translation along X"}},
		{"mechanism found before factoring", func() error {
			// A bar cannot turn its free end: a zero diagonal.
			m := cantilever(1e3)
			m.Members[0].Type = domain.Truss
			m.Supports = append(m.Supports, domain.Support{Node: 2, Code: "RFFRRR"})
			return staticRun(m)
		}, domain.ModelError{Node: 2, DOF: "rotation about X", Msg: "mechanism at node 2, rotation about X"}},
		{"non-converging non-linear step", func() error {
			d, err := domain.Build(context.Background(), cantilever(2e6), domain.BuildOptions{})
			if err != nil {
				return err
			}
			_, err = nonlinear.Analyze(context.Background(), d, 1, nonlinear.Options{Theory: nonlinear.Finite,
				Steps: 1, MaxIterations: 1, Tolerance: 1e-12})
			return err
		}, domain.ModelError{Case: 1, Msg: "non-linear analysis of case 1: step 1 (load factor 1) did not converge in 1 iterations"}},
		{"eigen case without mass", func() error {
			m := cantilever(0) // no self-weight, no lumped masses, no load along gravity
			_, err := dynamic.Analyze(context.Background(), m, dynamic.Options{})
			return err
		}, domain.ModelError{Case: 1, Msg: "frequencies: load case 1: it has no mass"}},
		{"buckling case without compression", func() error {
			_, err := buckling.Analyze(context.Background(), cantilever(1e3), buckling.Options{})
			return err
		}, domain.ModelError{Case: 1, Msg: "buckling: load case 1: no member or plate is in compression"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run()
			var me *domain.ModelError
			if !errors.As(err, &me) {
				t.Fatalf("error %v (%T), want a *domain.ModelError", err, err)
			}
			w := tc.want
			if me.Node != w.Node || me.Member != w.Member || me.Plate != w.Plate || me.Case != w.Case || me.DOF != w.DOF {
				t.Errorf("names node %d, member %d, plate %d, case %d, DOF %q; want %d, %d, %d, %d, %q",
					me.Node, me.Member, me.Plate, me.Case, me.DOF, w.Node, w.Member, w.Plate, w.Case, w.DOF)
			}
			if me.Error() != strings.TrimPrefix(err.Error(), "analyze: ") {
				t.Errorf("message %q; the error reads %q", me.Error(), err.Error())
			}
			if !strings.Contains(me.Error(), w.Msg) {
				t.Errorf("message %q, want it to contain %q", me.Error(), w.Msg)
			}
		})
	}
}

// failing is a factorizer that fails without a zero pivot: a fault of the
// solver, not of the model.
type failing struct{}

func (failing) Factor(context.Context, *sparse.SymMatrix, []int) (linsys.Factorization, error) {
	return nil, errors.New("out of workspace")
}

// TestInternalFaults: errors that no change to the model mends are not
// model errors: a factorizer failing otherwise than on a zero pivot, and
// an analysis given a domain prepared for stations only.
func TestInternalFaults(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func() error
	}{
		{"factorizer failure", func() error {
			_, err := static.Analyze(context.Background(), cantilever(1e3), static.Options{Factorizer: failing{}})
			return err
		}},
		{"domain for stations only", func() error {
			d, err := domain.Build(context.Background(), cantilever(1e3), domain.BuildOptions{MembersOnly: true})
			if err != nil {
				return err
			}
			_, err = static.Run(context.Background(), d, static.Options{})
			return err
		}},
		{"non-linear analysis of a domain for stations only", func() error {
			d, err := domain.Build(context.Background(), cantilever(1e3), domain.BuildOptions{MembersOnly: true})
			if err != nil {
				return err
			}
			_, err = nonlinear.Analyze(context.Background(), d, 1, nonlinear.Options{Theory: nonlinear.Finite})
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run()
			var me *domain.ModelError
			if err == nil || errors.As(err, &me) {
				t.Fatalf("error %v, want an internal fault (no *domain.ModelError)", err)
			}
		})
	}
}

// TestWrapfKeepsContext: Wrapf makes the context part of a model error's
// message and keeps what it names, and leaves other errors plain.
func TestWrapfKeepsContext(t *testing.T) {
	inner := domain.ModelErrorf(domain.ModelError{Node: 3, DOF: "rotation about Z"}, "mechanism at node %d", 3)
	err := domain.Wrapf("buckling: load case %d: %w", 2, inner)
	var me *domain.ModelError
	if !errors.As(err, &me) || me.Error() != "buckling: load case 2: mechanism at node 3" || me.Node != 3 || me.DOFIndex() != 5 {
		t.Fatalf("wrapped: %+v", me)
	}
	if !errors.Is(err, inner) {
		t.Errorf("the wrapped error is lost")
	}
	plain := domain.Wrapf("solve: %w", geom.ErrZeroLength)
	if errors.As(plain, &me) || !errors.Is(plain, geom.ErrZeroLength) {
		t.Errorf("a plain error became a model error: %v", plain)
	}
}
