package sparse

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
)

// Nested dissection (George 1973) on the node graph. Every part above
// ndLeaf vertices is split by the lightest of several vertex separators,
// the two sides are dissected recursively and the separator is numbered
// after them. Candidate separators come from two sources:
//
//   - multilevel node bisection in the style of Karypis and Kumar (METIS):
//     coarsen by heavy-edge matching, separate the coarsest graph (greedy
//     growing, with and without an edge Fiduccia–Mattheyses pass, minimum
//     vertex cover of the cut), then project and refine the separator
//     itself by node Fiduccia–Mattheyses on every finer level
//     (order_ndsep.go);
//   - level structures from pseudo-peripheral vertices (George and Liu),
//     also refined by node FM: on regular meshes these are the diagonal
//     planes that are the smallest balanced separators.
//
// The leaves and separators then form the constraint sets, in dissection
// order, of a constrained AMD (camdOrder) that orders each leaf knowing the
// separators around it and each separator by minimum degree, without
// changing the dissection. ndOrder keeps the order with the fewest flops
// of a few dissections (different random coarsenings) and of plain AMD,
// which wins on slender structures (towers, long frames), where
// separators are as large as a minimum degree order's fronts.

// The effort is spent where the flops are: the large parts near the top
// of the dissection, whose separators become the largest fronts, get
// ndTrials multilevel bisections; the many parts below ndBigPart get one,
// with ndInitial greedy starts on its coarsest graph. On grid-30 this
// orders in a fifth of the time of three trials everywhere for about the
// same flops (3.85e11 against 3.80e11, within the spread of the seeds).
const (
	ndLeaf           = 200  // parts up to this many vertices are leaves
	ndCoarse         = 100  // stop coarsening at this many vertices
	ndTrials         = 2    // multilevel bisections per separator of a large part
	ndBigPart        = 6000 // parts from this many vertices are large
	ndInitial        = 2    // greedy-growing starts on the coarsest graph
	ndLevelRoots     = 4    // level-structure roots per separator
	ndImbal          = 0.04 // edge FM: allowed deviation of a side from half the weight
	ndMaxSide        = 0.6  // node FM: largest share of the weight on one side
	ndNodePasses     = 8    // node FM passes per level
	ndBalancePenalty = 1.0  // weight of the imbalance in the separator score
	ndSeeds          = 2    // independent dissections ndOrder tries, side by side
)

// wgraph is a graph with vertex and edge weights used during coarsening.
type wgraph struct {
	n    int
	xadj []int
	adj  []int32
	ew   []int32
	vw   []int32
}

// ndOrder returns the nested dissection order of g: the one with the
// fewest flops of ndSeeds dissections (run concurrently) and plain AMD.
func ndOrder(ctx context.Context, g *graph) []int32 {
	if g.n <= ndLeaf { // a single leaf
		return amdOrder(ctx, g)
	}
	cand := make([][]int32, ndSeeds+1)
	fl := make([]float64, ndSeeds+1)
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for k := range cand {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if k == ndSeeds {
				cand[k] = amdOrder(ctx, g)
			} else {
				cand[k] = ndOrderSeed(ctx, g, uint64(k))
			}
			if ctx.Err() != nil {
				return // the order may be incomplete; the caller checks ctx
			}
			_, fl[k] = nodeFill(g, cand[k])
		}()
	}
	wg.Wait()
	best := 0
	for k := range cand {
		if fl[k] < fl[best] {
			best = k
		}
	}
	return cand[best]
}

// ndOrderSeed is one dissection with its own random stream, ordered by
// constrained AMD on the leaves and separators.
func ndOrderSeed(ctx context.Context, g *graph, seed uint64) []int32 {
	scratch := make([]int32, g.n)
	for i := range scratch {
		scratch[i] = -1
	}
	all := make([]int32, g.n)
	for i := range all {
		all[i] = int32(i)
	}
	rng := rand.New(rand.NewPCG(0x5eed+seed, uint64(g.n)))
	nd := &ndState{ctx: ctx, glob2loc: scratch, rng: rng, cset: make([]int32, g.n)}
	nd.recurse(g, all)
	return camdOrder(ctx, g, nd.cset)
}

// ndState is the state of one dissection.
type ndState struct {
	ctx      context.Context // a dissection stops early when it ends
	glob2loc []int32         // scratch for subgraph extraction, all −1
	rng      *rand.Rand
	cset     []int32 // constraint set of each vertex, in dissection order
	nset     int32
}

// emit makes vs (global ids), a leaf or a separator, the next constraint
// set.
func (nd *ndState) emit(vs []int32) {
	for _, v := range vs {
		nd.cset[v] = nd.nset
	}
	nd.nset++
}

// recurse dissects sub, whose vertices are the global ids verts.
func (nd *ndState) recurse(sub *graph, verts []int32) {
	if nd.ctx.Err() != nil {
		return
	}
	if sub.n <= ndLeaf {
		nd.emit(verts)
		return
	}
	global := func(local []int32) []int32 {
		gl := make([]int32, len(local))
		for i, v := range local {
			gl[i] = verts[v]
		}
		return gl
	}
	if comps := components(sub); len(comps) > 1 {
		for _, c := range comps {
			nd.recurse(sub.subgraph(c, nd.glob2loc), global(c))
		}
		return
	}
	part := nd.separator(sub) // 0, 1 sides, 2 separator
	var sides [3][]int32
	for v, p := range part {
		sides[p] = append(sides[p], int32(v))
	}
	if len(sides[0]) == 0 || len(sides[1]) == 0 {
		// No useful split (e.g. a clique): minimum degree does best.
		nd.emit(verts)
		return
	}
	for _, side := range sides[:2] {
		nd.recurse(sub.subgraph(side, nd.glob2loc), global(side))
	}
	nd.emit(global(sides[2]))
}

// components returns the connected components of g (vertex lists).
func components(g *graph) [][]int32 {
	seen := make([]bool, g.n)
	var out [][]int32
	for s := 0; s < g.n; s++ {
		if seen[s] {
			continue
		}
		c := []int32{int32(s)}
		seen[s] = true
		for q := 0; q < len(c); q++ {
			v := c[q]
			for _, u := range g.adj[g.xadj[v]:g.xadj[v+1]] {
				if !seen[u] {
					seen[u] = true
					c = append(c, u)
				}
			}
		}
		out = append(out, c)
	}
	return out
}

// separator returns a vertex partition of g: 0 and 1 for the two sides, 2
// for the separator. The best of ndTrials multilevel node bisections wins
// by separator weight, penalised by imbalance.
func (nd *ndState) separator(g *graph) []int8 {
	wg := &wgraph{n: g.n, xadj: g.xadj, adj: g.adj, vw: g.vwgt, ew: make([]int32, len(g.adj))}
	for i := range wg.ew {
		wg.ew[i] = 1
	}
	var best []int8
	bestScore := 0.0
	trials := 1
	if g.n >= ndBigPart {
		trials = ndTrials
	}
	for t := 0; t < trials; t++ {
		sep := nd.nodeBisect(wg)
		score := sepScore(wg, sep)
		if best == nil || score < bestScore {
			best, bestScore = sep, score
		}
	}
	for _, sep := range levelSeparators(wg, maxSideWeight(wg), ndLevelRoots) {
		if score := sepScore(wg, sep); score < bestScore {
			best, bestScore = sep, score
		}
	}
	return best
}

// sepScore is the separator weight, penalised by imbalance; a partition
// with an empty side separates nothing and scores +Inf.
func sepScore(g *wgraph, sep []int8) float64 {
	var w [3]int
	for v, p := range sep {
		w[p] += int(g.vw[v])
	}
	return partScore(w[0], w[1], w[2])
}

// partScore scores sides of weights w0 and w1 split by a separator of
// weight ws.
func partScore(w0, w1, ws int) float64 {
	if w0 == 0 || w1 == 0 {
		return math.Inf(1)
	}
	big, small := max(w0, w1), min(w0, w1)
	return float64(ws) * (1 + ndBalancePenalty*float64(big-small)/float64(big+small))
}

// maxSideWeight is the balance bound of a side during refinement.
func maxSideWeight(g *wgraph) int {
	t := 0
	for _, w := range g.vw {
		t += int(w)
	}
	return int(ndMaxSide * float64(t))
}

// nodeBisect computes a vertex separator of g by the multilevel scheme:
// coarsen, separate the coarsest graph, then project and refine the
// separator on every finer level.
func (nd *ndState) nodeBisect(g *wgraph) []int8 {
	if g.n <= ndCoarse {
		return nd.initialSeparator(g)
	}
	cg, cmap := coarsen(g, nd.rng)
	if cg.n > g.n*9/10 { // matching stalled (e.g. star-like graph)
		return nd.initialSeparator(g)
	}
	cpart := nd.nodeBisect(cg)
	part := make([]int8, g.n)
	for v := range part {
		part[v] = cpart[cmap[v]]
	}
	nodeRefine(g, part, maxSideWeight(g), ndNodePasses)
	return part
}

// coarsen contracts a heavy-edge matching of g.
func coarsen(g *wgraph, rng *rand.Rand) (*wgraph, []int32) {
	match := make([]int32, g.n)
	for i := range match {
		match[i] = -1
	}
	order := rng.Perm(g.n)
	for _, v := range order {
		if match[v] >= 0 {
			continue
		}
		best, bw := int32(-1), int32(-1)
		for q := g.xadj[v]; q < g.xadj[v+1]; q++ {
			u := g.adj[q]
			if match[u] < 0 && int(u) != v && (g.ew[q] > bw || (g.ew[q] == bw && g.vw[u] < g.vw[best])) {
				best, bw = u, g.ew[q]
			}
		}
		if best >= 0 {
			match[v], match[best] = best, int32(v)
		} else {
			match[v] = int32(v)
		}
	}
	cmap := make([]int32, g.n)
	nc := int32(0)
	for v := 0; v < g.n; v++ {
		if int(match[v]) >= v {
			cmap[v] = nc
			if int(match[v]) != v {
				cmap[match[v]] = nc
			}
			nc++
		}
	}
	// The coarse graph has at most as many edges as g: size it once.
	cg := &wgraph{n: int(nc), xadj: make([]int, nc+1), vw: make([]int32, nc),
		adj: make([]int32, 0, len(g.adj)), ew: make([]int32, 0, len(g.adj))}
	mark := make([]int32, nc)
	for i := range mark {
		mark[i] = -1
	}
	pos := make([]int, nc)
	for v := 0; v < g.n; v++ {
		if int(match[v]) < v {
			continue
		}
		c := cmap[v]
		for _, x := range [2]int{v, int(match[v])} {
			cg.vw[c] += g.vw[x]
			for q := g.xadj[x]; q < g.xadj[x+1]; q++ {
				cu := cmap[g.adj[q]]
				if cu == c {
					continue
				}
				if mark[cu] == c {
					cg.ew[pos[cu]] += g.ew[q]
					continue
				}
				mark[cu] = c
				pos[cu] = len(cg.adj)
				cg.adj = append(cg.adj, cu)
				cg.ew = append(cg.ew, g.ew[q])
			}
			if int(match[v]) == v {
				break
			}
		}
		cg.xadj[c+1] = len(cg.adj)
	}
	return cg, cmap
}

// initialSeparator grows side 0 breadth-first from random vertices until
// it holds half the weight, refines the edge cut, turns it into a vertex
// separator and refines that; the lightest of ndInitial tries wins.
func (nd *ndState) initialSeparator(g *wgraph) []int8 {
	total := 0
	for _, w := range g.vw {
		total += int(w)
	}
	maxSide := maxSideWeight(g)
	var best []int8
	bestScore := 0.0
	for t := 0; t < ndInitial; t++ {
		part := make([]int8, g.n)
		for i := range part {
			part[i] = 1
		}
		seen := make([]bool, g.n)
		w0 := 0
		var queue []int32
		for w0 < total/2 {
			if len(queue) == 0 { // next component or first seed
				s := int32(nd.rng.IntN(g.n))
				for seen[s] {
					s = (s + 1) % int32(g.n)
				}
				seen[s] = true
				queue = append(queue, s)
			}
			v := queue[0]
			queue = queue[1:]
			part[v] = 0
			w0 += int(g.vw[v])
			for _, u := range g.adj[g.xadj[v]:g.xadj[v+1]] {
				if !seen[u] {
					seen[u] = true
					queue = append(queue, u)
				}
			}
		}
		for k := 0; k < 2; k++ {
			pk := part
			if k == 1 {
				pk = slices.Clone(part)
				fmRefine(g, pk, 8)
			}
			sep := vertexCover(g, pk)
			nodeRefine(g, sep, maxSide, ndNodePasses)
			if sc := sepScore(g, sep); best == nil || sc < bestScore {
				best, bestScore = sep, sc
			}
		}
	}
	return best
}
