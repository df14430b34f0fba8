package sparse

import "slices"

// rcmOrder computes a reverse Cuthill–McKee ordering of g: a breadth-first
// numbering from a pseudo-peripheral vertex (George–Liu), neighbours visited
// by increasing degree, then reversed. It minimises the profile, which is what
// a wavefront/profile solver wants; it is not a fill-reducing ordering for
// large 3-D models. Disconnected components are numbered one after another.
func rcmOrder(g *graph) []int32 {
	n := g.n
	perm := make([]int32, 0, n)
	visited := make([]bool, n)
	level := make([]int32, n)
	for i := range level {
		level[i] = -1
	}
	var nbr []int32
	for s := 0; s < n; s++ {
		if visited[s] {
			continue
		}
		root := pseudoPeripheral(g, int32(s), level)
		start := len(perm)
		perm = append(perm, root)
		visited[root] = true
		for q := start; q < len(perm); q++ {
			v := perm[q]
			nbr = nbr[:0]
			for _, u := range g.adj[g.xadj[v]:g.xadj[v+1]] {
				if !visited[u] {
					visited[u] = true
					nbr = append(nbr, u)
				}
			}
			slices.SortFunc(nbr, func(a, b int32) int { return g.deg(int(a)) - g.deg(int(b)) })
			perm = append(perm, nbr...)
		}
	}
	slices.Reverse(perm)
	return perm
}

// pseudoPeripheral finds a vertex of (nearly) maximal eccentricity in the
// component of s by repeated BFS from the last level's minimum-degree vertex.
// level is scratch of length g.n.
func pseudoPeripheral(g *graph, s int32, level []int32) int32 {
	root := s
	ecc := int32(-1)
	for iter := 0; iter < 8; iter++ {
		order, depth := bfsLevels(g, root, level, nil)
		best := int32(-1)
		for _, v := range order {
			if level[v] == depth && (best < 0 || g.deg(int(v)) < g.deg(int(best))) {
				best = v
			}
		}
		for _, v := range order {
			level[v] = -1
		}
		if depth <= ecc {
			break
		}
		ecc = depth
		root = best
	}
	return root
}

// bfsLevels numbers the component of root by BFS distance into level (which
// must be −1 on entry for that component; reset by the caller) and returns
// the visit order and the largest level. inSet, if non-nil, restricts the
// search to vertices with inSet[v] true.
func bfsLevels(g *graph, root int32, level []int32, inSet []bool) ([]int32, int32) {
	order := []int32{root}
	level[root] = 0
	for q := 0; q < len(order); q++ {
		v := order[q]
		for _, u := range g.adj[g.xadj[v]:g.xadj[v+1]] {
			if level[u] < 0 && (inSet == nil || inSet[u]) {
				level[u] = level[v] + 1
				order = append(order, u)
			}
		}
	}
	return order, level[order[len(order)-1]]
}
