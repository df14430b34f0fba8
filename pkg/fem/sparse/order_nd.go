package sparse

import (
	"math/rand/v2"
	"slices"
)

// Nested dissection (George) with multilevel bisection in the style of
// Karypis–Kumar: coarsen by heavy-edge matching, bisect the coarsest graph by
// greedy growing, refine the edge cut with Fiduccia–Mattheyses while
// uncoarsening, then turn the cut into a small vertex separator by a minimum
// vertex cover of the cut edges (König). Parts are ordered recursively, the
// separator last; parts below ndLeaf vertices are ordered by AMD.

// ndLeaf is the part size (vertices) below which AMD orders the part.
var ndLeaf = 120

const (
	ndCoarse  = 100  // stop coarsening at this size
	ndTrials  = 3    // independent multilevel bisections per separator
	ndInitial = 6    // greedy-growing starts on the coarsest graph
	ndImbal   = 0.04 // allowed deviation of a side from half the weight
)

// wgraph is a graph with vertex and edge weights used during coarsening.
type wgraph struct {
	n    int
	xadj []int
	adj  []int32
	ew   []int32
	vw   []int32
}

// ndOrder keeps the lowest-flop order of a few dissections with different
// random coarsenings (the separators differ in their fine detail).
func ndOrder(g *graph) []int32 {
	var best []int32
	bestFl := 0.0
	for seed := uint64(0); seed < ndSeeds; seed++ {
		p := ndOrderSeed(g, seed)
		if _, fl := nodeFill(g, p); best == nil || fl < bestFl {
			best, bestFl = p, fl
		}
	}
	return best
}

// ndSeeds is the number of independent dissections ndOrder tries.
const ndSeeds = 3

func ndOrderSeed(g *graph, seed uint64) []int32 {
	perm := make([]int32, 0, g.n)
	scratch := make([]int32, g.n)
	for i := range scratch {
		scratch[i] = -1
	}
	all := make([]int32, g.n)
	for i := range all {
		all[i] = int32(i)
	}
	rng := rand.New(rand.NewPCG(0x5eed+seed, uint64(g.n)))
	nd := &ndState{g: g, glob2loc: scratch, rng: rng, cset: make([]int32, g.n)}
	nd.recurse(g, all, &perm)
	// Reorder with constrained AMD: each leaf and each separator is one
	// constraint set, in the dissection order.
	return camdOrder(g, nd.cset)
}

type ndState struct {
	g        *graph
	glob2loc []int32
	rng      *rand.Rand
	cset     []int32 // constraint set of each vertex, in dissection order
	nset     int32
}

// emit appends a leaf or separator (global ids) as the next constraint set.
func (nd *ndState) emit(perm *[]int32, vs []int32) {
	for _, v := range vs {
		*perm = append(*perm, v)
		nd.cset[v] = nd.nset
	}
	nd.nset++
}

// recurse appends an order of sub (whose vertices are the global ids verts).
func (nd *ndState) recurse(sub *graph, verts []int32, perm *[]int32) {
	if sub.n <= ndLeaf {
		nd.emit(perm, verts)
		return
	}
	comps := components(sub)
	if len(comps) > 1 {
		for _, c := range comps {
			gl := make([]int32, len(c))
			for i, v := range c {
				gl[i] = verts[v]
			}
			nd.recurse(sub.subgraph(c, nd.glob2loc), gl, perm)
		}
		return
	}
	part := nd.separator(sub) // 0, 1 sides, 2 separator
	var a, b, s []int32
	for v, p := range part {
		switch p {
		case 0:
			a = append(a, int32(v))
		case 1:
			b = append(b, int32(v))
		default:
			s = append(s, int32(v))
		}
	}
	if len(a) == 0 || len(b) == 0 {
		// No useful split (e.g. a clique): minimum degree does best.
		nd.emit(perm, verts)
		return
	}
	for _, side := range [][]int32{a, b} {
		gl := make([]int32, len(side))
		for i, v := range side {
			gl[i] = verts[v]
		}
		nd.recurse(sub.subgraph(side, nd.glob2loc), gl, perm)
	}
	gs := make([]int32, len(s))
	for i, v := range s {
		gs[i] = verts[v]
	}
	nd.emit(perm, gs)
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
// for the separator. The best of ndTrials multilevel bisections wins by
// separator weight, penalised by imbalance.
func (nd *ndState) separator(g *graph) []int8 {
	wg := &wgraph{n: g.n, xadj: g.xadj, adj: g.adj, vw: g.vwgt, ew: make([]int32, len(g.adj))}
	for i := range wg.ew {
		wg.ew[i] = 1
	}
	var best []int8
	bestScore := 0.0
	for t := 0; t < ndTrials; t++ {
		part := nd.bisect(wg)
		sep := vertexCover(wg, part)
		var w [3]int
		for v, p := range sep {
			w[p] += int(wg.vw[v])
		}
		big, small := max(w[0], w[1]), min(w[0], w[1])
		score := float64(w[2]) * (1 + float64(big-small)/float64(big+small+1))
		if best == nil || score < bestScore {
			best, bestScore = sep, score
		}
	}
	return best
}

// bisect computes an edge bisection of g by the multilevel scheme.
func (nd *ndState) bisect(g *wgraph) []int8 {
	if g.n <= ndCoarse {
		return nd.initialBisection(g)
	}
	cg, cmap := coarsen(g, nd.rng)
	if cg.n > g.n*9/10 { // matching stalled (e.g. star-like graph)
		return nd.initialBisection(g)
	}
	cpart := nd.bisect(cg)
	part := make([]int8, g.n)
	for v := range part {
		part[v] = cpart[cmap[v]]
	}
	fmRefine(g, part, 6)
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
	cg := &wgraph{n: int(nc), xadj: make([]int, nc+1), vw: make([]int32, nc)}
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
		for _, x := range []int{v, int(match[v])} {
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

// initialBisection grows side 0 breadth-first from random vertices until
// it holds half the weight, refines each try and keeps the smallest cut.
func (nd *ndState) initialBisection(g *wgraph) []int8 {
	total := 0
	for _, w := range g.vw {
		total += int(w)
	}
	var best []int8
	bestCut := -1
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
		fmRefine(g, part, 8)
		if c := edgeCut(g, part); bestCut < 0 || c < bestCut {
			best, bestCut = part, c
		}
	}
	return best
}

func edgeCut(g *wgraph, part []int8) int {
	c := 0
	for v := 0; v < g.n; v++ {
		for q := g.xadj[v]; q < g.xadj[v+1]; q++ {
			if part[g.adj[q]] != part[v] {
				c += int(g.ew[q])
			}
		}
	}
	return c / 2
}

// fmRefine improves an edge bisection by Fiduccia–Mattheyses passes:
// move the highest-gain unlocked vertex that keeps both sides within the
// balance bound, then roll back to the best prefix of the pass.
func fmRefine(g *wgraph, part []int8, passes int) {
	total := 0
	var pw [2]int
	for v, w := range g.vw {
		total += int(w)
		pw[part[v]] += int(w)
	}
	maxSide := int(float64(total)*(0.5+ndImbal)) + 1
	gain := make([]int, g.n)
	locked := make([]bool, g.n)
	h := &gainHeap{}
	for pass := 0; pass < passes; pass++ {
		h.items = h.items[:0]
		for v := 0; v < g.n; v++ {
			gv, boundary := 0, false
			for q := g.xadj[v]; q < g.xadj[v+1]; q++ {
				if part[g.adj[q]] != part[v] {
					gv += int(g.ew[q])
					boundary = true
				} else {
					gv -= int(g.ew[q])
				}
			}
			gain[v] = gv
			locked[v] = false
			if boundary {
				h.push(int32(v), gv)
			}
		}
		imb := func() int { return max(pw[0], pw[1]) }
		var moves []int32
		cut, bestCut, bestIdx, bestImb := 0, 0, 0, imb()
		for h.len() > 0 {
			v, gv := h.pop()
			if locked[v] || gv != gain[v] {
				continue
			}
			from := part[v]
			to := 1 - from
			if pw[to]+int(g.vw[v]) > maxSide && pw[to]+int(g.vw[v]) > pw[from] {
				continue
			}
			part[v] = to
			pw[from] -= int(g.vw[v])
			pw[to] += int(g.vw[v])
			cut -= gv
			locked[v] = true
			moves = append(moves, v)
			for q := g.xadj[v]; q < g.xadj[v+1]; q++ {
				u := g.adj[q]
				if locked[u] {
					continue
				}
				if part[u] == to {
					gain[u] -= 2 * int(g.ew[q])
				} else {
					gain[u] += 2 * int(g.ew[q])
				}
				h.push(u, gain[u])
			}
			if cut < bestCut || (cut == bestCut && imb() < bestImb) {
				bestCut, bestIdx, bestImb = cut, len(moves), imb()
			}
			if len(moves)-bestIdx > 64 {
				break
			}
		}
		for i := len(moves) - 1; i >= bestIdx; i-- {
			v := moves[i]
			from := part[v]
			part[v] = 1 - from
			pw[from] -= int(g.vw[v])
			pw[1-from] += int(g.vw[v])
		}
		if bestIdx == 0 {
			break
		}
	}
}

// gainHeap is a max-heap of (vertex, gain) with lazy deletion.
type gainHeap struct {
	items []gainItem
}

type gainItem struct {
	v int32
	g int
}

func (h *gainHeap) len() int { return len(h.items) }

func (h *gainHeap) push(v int32, g int) {
	h.items = append(h.items, gainItem{v, g})
	i := len(h.items) - 1
	for i > 0 {
		p := (i - 1) / 2
		if h.items[p].g >= h.items[i].g {
			break
		}
		h.items[p], h.items[i] = h.items[i], h.items[p]
		i = p
	}
}

func (h *gainHeap) pop() (int32, int) {
	top := h.items[0]
	last := len(h.items) - 1
	h.items[0] = h.items[last]
	h.items = h.items[:last]
	i := 0
	for {
		l, r, m := 2*i+1, 2*i+2, i
		if l < last && h.items[l].g > h.items[m].g {
			m = l
		}
		if r < last && h.items[r].g > h.items[m].g {
			m = r
		}
		if m == i {
			break
		}
		h.items[m], h.items[i] = h.items[i], h.items[m]
		i = m
	}
	return top.v, top.g
}

// vertexCover turns an edge bisection into a vertex separator: a minimum
// vertex cover of the cut edges (maximum matching plus König's theorem),
// then drops separator vertices that touch only one side.
func vertexCover(g *wgraph, part []int8) []int8 {
	out := slices.Clone(part)
	var left []int32 // side-0 vertices on the cut
	isRight := make([]bool, g.n)
	for v := 0; v < g.n; v++ {
		for _, u := range g.adj[g.xadj[v]:g.xadj[v+1]] {
			if part[u] != part[v] {
				if part[v] == 0 {
					left = append(left, int32(v))
				} else {
					isRight[v] = true
				}
				break
			}
		}
	}
	mate := make([]int32, g.n)
	for i := range mate {
		mate[i] = -1
	}
	visited := make([]int32, g.n)
	for i := range visited {
		visited[i] = -1
	}
	// Kuhn's augmenting paths, iterative DFS.
	var try func(v int32, stamp int32) bool
	try = func(v int32, stamp int32) bool {
		for _, u := range g.adj[g.xadj[v]:g.xadj[v+1]] {
			if part[u] != 1 || visited[u] == stamp {
				continue
			}
			visited[u] = stamp
			if mate[u] < 0 || try(mate[u], stamp) {
				mate[u], mate[v] = v, u
				return true
			}
		}
		return false
	}
	for i, v := range left {
		try(v, int32(i))
	}
	// König: Z = vertices reachable from unmatched left vertices by
	// alternating paths; cover = (left \ Z) ∪ (right ∩ Z).
	inZ := make([]bool, g.n)
	var queue []int32
	for _, v := range left {
		if mate[v] < 0 {
			inZ[v] = true
			queue = append(queue, v)
		}
	}
	for q := 0; q < len(queue); q++ {
		v := queue[q]
		for _, u := range g.adj[g.xadj[v]:g.xadj[v+1]] {
			if part[u] != 1 || inZ[u] || mate[v] == u {
				continue
			}
			inZ[u] = true
			if m := mate[u]; m >= 0 && !inZ[m] {
				inZ[m] = true
				queue = append(queue, m)
			}
		}
	}
	for _, v := range left {
		if !inZ[v] {
			out[v] = 2
		}
	}
	for v := 0; v < g.n; v++ {
		if isRight[v] && inZ[v] {
			out[v] = 2
		}
	}
	// A separator vertex with no neighbour on one side can join the other.
	for v := 0; v < g.n; v++ {
		if out[v] != 2 {
			continue
		}
		var touch [3]bool
		for _, u := range g.adj[g.xadj[v]:g.xadj[v+1]] {
			touch[out[u]] = true
		}
		switch {
		case !touch[1]:
			out[v] = 0
		case !touch[0]:
			out[v] = 1
		}
	}
	return out
}
