package sparse

import "slices"

// Edge-cut tools for the initial separator of nested dissection: a
// Fiduccia–Mattheyses refinement of an edge bisection and its conversion to
// a vertex separator by a minimum vertex cover of the cut edges.

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
