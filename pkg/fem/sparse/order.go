package sparse

import (
	"context"
	"fmt"
)

// Method selects the fill-reducing (or profile) ordering.
type Method int

// Orderings. The service maps its settings as: optimizationMethod None →
// Natural; solverType Paradise → AMD or NestedDissection (nested dissection
// is the better choice for large 3-D models); solverType Wavefront → RCM.
const (
	Natural          Method = iota // the given DOF order
	AMD                            // approximate minimum degree (Amestoy–Davis–Duff)
	NestedDissection               // nested dissection, constrained AMD on leaves and separators
	RCM                            // reverse Cuthill–McKee (profile reduction)
)

func (m Method) String() string {
	switch m {
	case Natural:
		return "natural"
	case AMD:
		return "amd"
	case NestedDissection:
		return "nd"
	case RCM:
		return "rcm"
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// orderGraph returns a vertex elimination order of g for the method. The
// fill-reducing orderings of a large model take seconds, so they stop
// early when ctx ends; the order is then unusable and ctx's error is
// returned.
func orderGraph(ctx context.Context, g *graph, m Method) ([]int32, error) {
	np, err := orderGraphUnchecked(ctx, g, m)
	if err == nil {
		if cerr := ctx.Err(); cerr != nil {
			return nil, fmt.Errorf("sparse: ordering stopped: %w", cerr)
		}
	}
	return np, err
}

func orderGraphUnchecked(ctx context.Context, g *graph, m Method) ([]int32, error) {
	switch m {
	case Natural:
		p := make([]int32, g.n)
		for i := range p {
			p[i] = int32(i)
		}
		return p, nil
	case AMD:
		return amdOrder(ctx, g), nil
	case NestedDissection:
		return ndOrder(ctx, g), nil
	case RCM:
		return rcmOrder(g), nil
	}
	return nil, fmt.Errorf("sparse: unknown ordering method %d", int(m))
}

// Order computes a DOF permutation of the pattern's graph: perm[k] is the
// original DOF eliminated k-th. The ordering runs on the node graph given by
// nodeOf (DOF → node) or, when nodeOf is nil, by blocks of blockSize
// consecutive DOFs, and is expanded to DOFs node by node.
func Order(p *Pattern, m Method, nodeOf []int, blockSize int) ([]int, error) {
	nm, err := newNodeMap(p.N, nodeOf, blockSize)
	if err != nil {
		return nil, fmt.Errorf("sparse: order: %w", err)
	}
	g := buildNodeGraph(p, nm)
	np, err := orderGraph(context.Background(), g, m)
	if err != nil {
		return nil, fmt.Errorf("sparse: order: %w", err)
	}
	return nm.expand(np), nil
}
