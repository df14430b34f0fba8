package sparse

// Vertex-separator refinement for nested dissection: a two-sided
// Fiduccia–Mattheyses pass on the separator itself (as in METIS's node
// refinement, Karypis and Kumar 1998). A separator vertex v moves into side
// X; its neighbours on the other side enter the separator. The gain is
// w(v) minus the weight that enters, and the separator weight, not the
// edge cut, is what the passes minimise. Minimising the separator rather
// than the cut matters on 3-D meshes: a separator surface need not be a
// plane, and the sub-domains it leaves often have much smaller separators
// of their own than the boxes a plane would leave.

// idxHeap is a max-heap of vertices keyed by gain, with positions so keys
// can change in place.
type idxHeap struct {
	v   []int32
	key []int
	pos []int32 // position of a vertex in v, −1 when absent
}

func newIdxHeap(n int) *idxHeap {
	h := &idxHeap{pos: make([]int32, n)}
	for i := range h.pos {
		h.pos[i] = -1
	}
	return h
}

func (h *idxHeap) reset() {
	for _, v := range h.v {
		h.pos[v] = -1
	}
	h.v, h.key = h.v[:0], h.key[:0]
}

func (h *idxHeap) swap(i, j int) {
	h.v[i], h.v[j] = h.v[j], h.v[i]
	h.key[i], h.key[j] = h.key[j], h.key[i]
	h.pos[h.v[i]], h.pos[h.v[j]] = int32(i), int32(j)
}

func (h *idxHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if h.key[p] >= h.key[i] {
			return
		}
		h.swap(i, p)
		i = p
	}
}

func (h *idxHeap) down(i int) {
	n := len(h.v)
	for {
		l, m := 2*i+1, i
		if l < n && h.key[l] > h.key[m] {
			m = l
		}
		if l+1 < n && h.key[l+1] > h.key[m] {
			m = l + 1
		}
		if m == i {
			return
		}
		h.swap(i, m)
		i = m
	}
}

func (h *idxHeap) push(v int32, key int) {
	h.pos[v] = int32(len(h.v))
	h.v = append(h.v, v)
	h.key = append(h.key, key)
	h.up(len(h.v) - 1)
}

// update changes the key of v if present.
func (h *idxHeap) update(v int32, key int) {
	i := int(h.pos[v])
	if i < 0 {
		return
	}
	old := h.key[i]
	h.key[i] = key
	if key > old {
		h.up(i)
	} else {
		h.down(i)
	}
}

func (h *idxHeap) remove(v int32) {
	i := int(h.pos[v])
	if i < 0 {
		return
	}
	last := len(h.v) - 1
	h.swap(i, last)
	h.pos[v] = -1
	h.v, h.key = h.v[:last], h.key[:last]
	if i < last {
		h.up(i)
		h.down(i)
	}
}

func (h *idxHeap) top() (int32, int, bool) {
	if len(h.v) == 0 {
		return -1, 0, false
	}
	return h.v[0], h.key[0], true
}

// sepRefiner holds the scratch of nodeRefine for one graph.
type sepRefiner struct {
	h      [2]*idxHeap
	ed     [][2]int // weight of a separator vertex's neighbours on each side
	locked []bool
	log    []sepMove
}

type sepMove struct {
	v    int32
	from int8
}

// nodeRefine improves the vertex separator part (0, 1 sides, 2 separator)
// of g in place: at most passes FM passes, sides kept at most maxSide in
// weight. Each pass moves separator vertices greedily, even uphill, and
// rolls back to the lightest separator seen (ties to the better balance).
func nodeRefine(g *wgraph, part []int8, maxSide int, passes int) {
	r := &sepRefiner{ed: make([][2]int, g.n), locked: make([]bool, g.n)}
	r.h[0], r.h[1] = newIdxHeap(g.n), newIdxHeap(g.n)
	var pw [3]int
	for v, p := range part {
		pw[p] += int(g.vw[v])
	}
	limit := min(max(g.n/100, 25), 150)
	gain := func(v int32, to int) int { return int(g.vw[v]) - r.ed[v][1-to] }
	setED := func(v int32) {
		r.ed[v] = [2]int{}
		for _, u := range g.adj[g.xadj[v]:g.xadj[v+1]] {
			if p := part[u]; p < 2 {
				r.ed[v][p] += int(g.vw[u])
			}
		}
	}
	for pass := 0; pass < passes; pass++ {
		r.h[0].reset()
		r.h[1].reset()
		clear(r.locked)
		r.log = r.log[:0]
		for v := 0; v < g.n; v++ {
			if part[v] == 2 {
				setED(int32(v))
				r.h[0].push(int32(v), gain(int32(v), 0))
				r.h[1].push(int32(v), gain(int32(v), 1))
			}
		}
		best, bestDiff, bestLog, bestStep := pw[2], max(pw[0]-pw[1], pw[1]-pw[0]), 0, 0
		bestPW := pw
		for step := 0; ; step++ {
			v0, g0, ok0 := r.h[0].top()
			v1, g1, ok1 := r.h[1].top()
			to := -1
			switch {
			case ok0 && ok1:
				switch {
				case g0 > g1:
					to = 0
				case g1 > g0:
					to = 1
				default:
					to = step & 1
					if pw[0] != pw[1] {
						to = 0
						if pw[1] < pw[0] {
							to = 1
						}
					}
				}
				vt := [2]int32{v0, v1}[to]
				if pw[to]+int(g.vw[vt]) > maxSide {
					to = 1 - to
					if pw[to]+int(g.vw[[2]int32{v0, v1}[to]]) > maxSide {
						to = -1
					}
				}
			case ok0 && pw[0]+int(g.vw[v0]) <= maxSide:
				to = 0
			case ok1 && pw[1]+int(g.vw[v1]) <= maxSide:
				to = 1
			}
			if to < 0 {
				break
			}
			other := 1 - to
			v, _, _ := r.h[to].top()
			r.h[0].remove(v)
			r.h[1].remove(v)
			r.locked[v] = true
			r.log = append(r.log, sepMove{v, 2})
			part[v] = int8(to)
			pw[2] -= int(g.vw[v])
			pw[to] += int(g.vw[v])
			for _, u := range g.adj[g.xadj[v]:g.xadj[v+1]] {
				switch part[u] {
				case 2:
					r.ed[u][to] += int(g.vw[v])
					r.h[other].update(u, gain(u, other))
				case int8(other):
					r.log = append(r.log, sepMove{u, int8(other)})
					part[u] = 2
					pw[other] -= int(g.vw[u])
					pw[2] += int(g.vw[u])
					setED(u)
					for _, x := range g.adj[g.xadj[u]:g.xadj[u+1]] {
						if part[x] == 2 && x != v {
							r.ed[x][other] -= int(g.vw[u])
							r.h[to].update(x, gain(x, to))
						}
					}
					if !r.locked[u] {
						r.h[0].push(u, gain(u, 0))
						r.h[1].push(u, gain(u, 1))
					}
				}
			}
			diff := max(pw[0]-pw[1], pw[1]-pw[0])
			if pw[2] < best || (pw[2] == best && diff < bestDiff) {
				best, bestDiff, bestLog, bestStep, bestPW = pw[2], diff, len(r.log), step+1, pw
			} else if step+1-bestStep > limit {
				break
			}
		}
		improved := bestLog > 0
		for i := len(r.log) - 1; i >= bestLog; i-- {
			part[r.log[i].v] = r.log[i].from
		}
		pw = bestPW
		if !improved {
			break
		}
	}
}

// levelSeparators returns vertex separators of g taken from breadth-first
// level structures (George and Liu's automatic nested dissection): from a
// pseudo-peripheral root, the level that best splits the weight separates
// the levels before it from those after it. On meshes whose edges join
// only axis neighbours (7-point grids, frames) these levels are diagonal
// planes x+y+z = c, about a quarter lighter than any axis plane through a
// box, a separator that edge-cut bisection never finds. Each root visited
// by the pseudo-peripheral search yields one candidate, refined by node FM.
func levelSeparators(g *wgraph, maxSide int, roots int) [][]int8 {
	level := make([]int32, g.n)
	queue := make([]int32, 0, g.n)
	bfs := func(r int32) int32 { // returns the number of levels
		for i := range level {
			level[i] = -1
		}
		queue = append(queue[:0], r)
		level[r] = 0
		for q := 0; q < len(queue); q++ {
			v := queue[q]
			for _, u := range g.adj[g.xadj[v]:g.xadj[v+1]] {
				if level[u] < 0 {
					level[u] = level[v] + 1
					queue = append(queue, u)
				}
			}
		}
		return level[queue[len(queue)-1]] + 1
	}
	var out [][]int8
	root := int32(0)
	for v := 1; v < g.n; v++ {
		if g.xadj[v+1]-g.xadj[v] < g.xadj[root+1]-g.xadj[root] {
			root = int32(v)
		}
	}
	seen := map[int32]bool{}
	for it := 0; it < roots && !seen[root]; it++ {
		seen[root] = true
		nl := bfs(root)
		if len(queue) < g.n { // disconnected: not for this method
			return out
		}
		lw := make([]int, nl)
		for v := 0; v < g.n; v++ {
			lw[level[v]] += int(g.vw[v])
		}
		total := 0
		for _, w := range lw {
			total += w
		}
		bestL, bestScore := -1, 0.0
		before := 0
		for l := 0; l < int(nl); l++ {
			after := total - before - lw[l]
			if l > 0 && after > 0 && max(before, after) <= maxSide {
				if sc := partScore(before, after, lw[l]); bestL < 0 || sc < bestScore {
					bestL, bestScore = l, sc
				}
			}
			before += lw[l]
		}
		if bestL >= 0 {
			part := make([]int8, g.n)
			for v := range part {
				switch {
				case int(level[v]) < bestL:
					part[v] = 0
				case int(level[v]) > bestL:
					part[v] = 1
				default:
					part[v] = 2
				}
			}
			nodeRefine(g, part, maxSide, ndNodePasses)
			out = append(out, part)
		}
		// Next root: a vertex of least degree on the last level.
		last := queue[len(queue)-1]
		next := last
		for q := len(queue) - 1; q >= 0 && level[queue[q]] == level[last]; q-- {
			v := queue[q]
			if g.xadj[v+1]-g.xadj[v] < g.xadj[next+1]-g.xadj[next] {
				next = v
			}
		}
		root = next
	}
	return out
}
