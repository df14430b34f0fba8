package sparse

import "slices"

// amdOrder computes an approximate minimum degree ordering of g (Amestoy,
// Davis and Duff). It works on the quotient graph: eliminated vertices become
// elements that stand for the clique they created, so memory never exceeds
// that of the original graph by much. Degrees are the weighted approximate
// external degrees of the paper (an upper bound of the true degree, computed
// from |Le \ Lp| for every element e next to the new element p), with element
// absorption, mass elimination and indistinguishable-variable
// (supervariable) detection. Vertex weights are DOFs per node, so degrees and
// therefore the choices are those of the DOF graph. Returns perm[k] = vertex
// eliminated k-th.
func amdOrder(g *graph) []int32 { return camdOrderTie(g, nil, false) }

// amdBest runs AMD under four tie-breaking variants (hash or formation
// order of re-inserted variables, natural or reversed vertex labels) and keeps the order with the fewest factor nonzeros. AMD's
// result moves by ±10 % with tie-breaking on regular 3-D meshes, and
// evaluating a node-level order costs far less than the ordering itself.
func amdBest(g *graph) []int32 {
	var best []int32
	var bestNnz int64
	rev := make([]int, g.n)
	for i := range rev {
		rev[i] = g.n - 1 - i
	}
	rg := relabel(g, rev)
	for v := 0; v < 4; v++ {
		var p []int32
		if v < 2 {
			p = camdOrderTie(g, nil, v == 1)
		} else {
			p = camdOrderTie(rg, nil, v == 3)
			for i, x := range p {
				p[i] = int32(rev[x]) // rev is its own inverse
			}
		}
		if nnz, _ := nodeFill(g, p); best == nil || nnz < bestNnz {
			best, bestNnz = p, nnz
		}
	}
	return best
}

// relabel returns g with vertex v renamed lab[v].
func relabel(g *graph, lab []int) *graph {
	r := &graph{n: g.n, xadj: make([]int, g.n+1), adj: make([]int32, 0, len(g.adj)), vwgt: make([]int32, g.n)}
	inv := make([]int, g.n)
	for old, nw := range lab {
		inv[nw] = old
	}
	for nw := 0; nw < g.n; nw++ {
		old := inv[nw]
		r.vwgt[nw] = g.vwgt[old]
		for _, u := range g.adj[g.xadj[old]:g.xadj[old+1]] {
			r.adj = append(r.adj, int32(lab[u]))
		}
		r.xadj[nw+1] = len(r.adj)
	}
	return r
}

// nodeFill returns the DOF-weighted nonzeros and flops of L for the vertex
// order np of g (elimination tree plus row-subtree column counts).
func nodeFill(g *graph, np []int32) (int64, float64) {
	nn := g.n
	pinv := make([]int32, nn)
	for k, v := range np {
		pinv[v] = int32(k)
	}
	parent := make([]int32, nn)
	anc := make([]int32, nn)
	for k := 0; k < nn; k++ {
		parent[k], anc[k] = -1, -1
		v := np[k]
		for _, u := range g.adj[g.xadj[v]:g.xadj[v+1]] {
			for i := pinv[u]; i != -1 && int(i) < k; {
				next := anc[i]
				anc[i] = int32(k)
				if next == -1 {
					parent[i] = int32(k)
				}
				i = next
			}
		}
	}
	cc := make([]int, nn)
	mark := anc
	for k := range mark {
		mark[k] = -1
	}
	for i := 0; i < nn; i++ {
		wi := int(g.vwgt[np[i]])
		cc[i] += wi
		mark[i] = int32(i)
		v := np[i]
		for _, u := range g.adj[g.xadj[v]:g.xadj[v+1]] {
			for k := pinv[u]; int(k) < i && mark[k] != int32(i); k = parent[k] {
				mark[k] = int32(i)
				cc[k] += wi
			}
		}
	}
	var nnz int64
	var fl float64
	for t := 0; t < nn; t++ {
		for i := 0; i < int(g.vwgt[np[t]]); i++ {
			c := cc[t] - i
			nnz += int64(c)
			fl += float64(c) * float64(c)
		}
	}
	return nnz, fl
}

// camdOrder is amdOrder under constraints (as CAMD): when cset is non-nil,
// every vertex of set c is eliminated before any vertex of set c+1. Nested
// dissection uses it to order its parts and separators with the knowledge
// of the whole graph (its leaves then see the fill they cause in the
// separators around them).
func camdOrder(g *graph, cset []int32) []int32 { return camdOrderTie(g, cset, false) }

// camdOrderTie is camdOrder with a choice of tie-breaking: with byHashTie
// the variables of a new element re-enter the degree lists in hash order
// rather than in the order the element was formed.
func camdOrderTie(g *graph, cset []int32, byHashTie bool) []int32 {
	n := g.n
	const (
		stVar     = 0 // principal variable
		stElem    = 1 // live element
		stDead    = 2 // absorbed element or mass-eliminated variable
		stMerged  = 3 // non-principal variable folded into a supervariable
		noneIndex = -1
	)
	status := make([]uint8, n)
	nv := make([]int, n)
	varAdj := make([][]int32, n)
	elAdj := make([][]int32, n)
	le := make([][]int32, n)
	degE := make([]int, n) // weighted |Le| of live elements
	deg := make([]int, n)  // approximate external degree of variables
	w := make([]int64, n)  // |Le \ Lp| + wflg while computing degrees
	member := make([]int32, n)
	for i := range member {
		member[i] = noneIndex
	}
	lastMember := make([]int32, n)
	total := 0
	for i := 0; i < n; i++ {
		nv[i] = int(g.vwgt[i])
		total += nv[i]
		varAdj[i] = slices.Clone(g.adj[g.xadj[i]:g.xadj[i+1]])
		lastMember[i] = int32(i)
	}
	for i := 0; i < n; i++ {
		d := 0
		for _, j := range varAdj[i] {
			d += nv[j]
		}
		deg[i] = d
	}
	// Degree buckets as doubly linked lists.
	head := make([]int32, total+1)
	for i := range head {
		head[i] = noneIndex
	}
	next := make([]int32, n)
	prev := make([]int32, n)
	active := int32(0)
	inList := make([]bool, n)
	insert := func(i int) {
		if cset != nil && cset[i] != active {
			return
		}
		inList[i] = true
		d := deg[i]
		next[i] = head[d]
		prev[i] = noneIndex
		if head[d] >= 0 {
			prev[head[d]] = int32(i)
		}
		head[d] = int32(i)
	}
	remove := func(i int) {
		if !inList[i] {
			return
		}
		inList[i] = false
		if prev[i] >= 0 {
			next[prev[i]] = next[i]
		} else {
			head[deg[i]] = next[i]
		}
		if next[i] >= 0 {
			prev[next[i]] = prev[i]
		}
	}
	for i := 0; i < n; i++ {
		insert(i)
	}
	perm := make([]int32, 0, n)
	emit := func(i int) { // i and every variable folded into it
		for v := int32(i); v >= 0; v = member[v] {
			perm = append(perm, v)
		}
	}
	mark := make([]int32, n) // Lp membership, stamped with the pivot
	for i := range mark {
		mark[i] = noneIndex
	}
	var wflg int64 = 1
	eliminated := 0
	mindeg := 0
	var lp []int32
	hashOf := make([]uint64, n)
	var byHash []int32
	var setPtr []int
	var setMem []int32
	if cset != nil {
		ns := int32(0)
		for _, c := range cset {
			ns = max(ns, c+1)
		}
		setPtr = make([]int, ns+2)
		for _, c := range cset {
			setPtr[c+1]++
		}
		for c := int32(0); c <= ns; c++ {
			setPtr[c+1] += setPtr[c]
		}
		setMem = make([]int32, n)
		nxt := slices.Clone(setPtr)
		for i, c := range cset {
			setMem[nxt[c]] = int32(i)
			nxt[c]++
		}
	}
	for eliminated < total {
		for mindeg <= total && head[mindeg] < 0 {
			mindeg++
		}
		if mindeg > total { // current constraint set exhausted
			active++
			for _, i := range setMem[setPtr[active]:setPtr[active+1]] {
				if status[i] == stVar {
					insert(int(i))
				}
			}
			mindeg = 0
			continue
		}
		p := int(head[mindeg])
		remove(p)
		status[p] = stElem
		eliminated += nv[p]
		emit(p)
		// Form Lp = (adjacent variables) ∪ (variables of adjacent elements).
		lp = lp[:0]
		mark[p] = int32(p)
		addVar := func(j int32) {
			if status[j] == stVar && mark[j] != int32(p) {
				mark[j] = int32(p)
				lp = append(lp, j)
			}
		}
		for _, j := range varAdj[p] {
			addVar(j)
		}
		for _, e := range elAdj[p] {
			if status[e] != stElem {
				continue
			}
			for _, j := range le[e] {
				addVar(j)
			}
			status[e] = stDead // absorbed into p
			le[e] = nil
		}
		varAdj[p], elAdj[p] = nil, nil
		dp := 0
		for _, i := range lp {
			dp += nv[i]
			remove(int(i))
		}
		degE[p] = dp
		// Prune the adjacency of every i in Lp: p replaces the elements it
		// absorbed and covers all edges among Lp members.
		for _, i := range lp {
			ea := elAdj[i][:0]
			for _, e := range elAdj[i] {
				if status[e] == stElem && int(e) != p {
					ea = append(ea, e)
				}
			}
			elAdj[i] = append(ea, int32(p))
			va := varAdj[i][:0]
			for _, j := range varAdj[i] {
				if status[j] == stVar && mark[j] != int32(p) {
					va = append(va, j)
				}
			}
			varAdj[i] = va
		}
		// |Le \ Lp| for every element next to Lp, kept as w[e] − wflg.
		for _, i := range lp {
			for _, e := range elAdj[i] {
				if int(e) == p {
					continue
				}
				if w[e] < wflg {
					w[e] = int64(degE[e]) + wflg
				}
				w[e] -= int64(nv[i])
			}
		}
		// Approximate degrees, element absorption, mass elimination.
		bound := total - eliminated
		kept := lp[:0]
		for _, i := range lp {
			ext := 0
			ea := elAdj[i][:0]
			for _, e := range elAdj[i] {
				if int(e) == p {
					ea = append(ea, e)
					continue
				}
				if status[e] != stElem {
					continue
				}
				d := int(w[e] - wflg)
				if d == 0 {
					// Le ⊆ Lp: e carries no information beyond p.
					status[e] = stDead
					le[e] = nil
					continue
				}
				ext += d
				ea = append(ea, e)
			}
			elAdj[i] = ea
			for _, j := range varAdj[i] {
				ext += nv[j]
			}
			if ext == 0 && len(ea) == 1 && len(varAdj[i]) == 0 && (cset == nil || cset[i] == active) {
				// Only p touches i: eliminating i now creates no fill.
				status[i] = stDead
				eliminated += nv[i]
				degE[p] -= nv[i]
				emit(int(i))
				elAdj[i], varAdj[i] = nil, nil
				continue
			}
			kept = append(kept, i)
			w[i] = int64(ext) // stash ext for the degree update below
		}
		lp = kept
		for _, i := range lp {
			own := degE[p] - nv[i]
			d := min(deg[i]+own, int(w[i])+own, bound-nv[i])
			if d < 0 {
				d = 0
			}
			deg[i] = d
		}
		// Supervariables: i and j in Lp with identical element and variable
		// lists are indistinguishable and are merged.
		for _, i := range lp {
			slices.Sort(elAdj[i])
			slices.Sort(varAdj[i])
			var h uint64 = 1469598103934665603
			for _, e := range elAdj[i] {
				h = (h ^ uint64(e)) * 1099511628211
			}
			h ^= 0x9e3779b97f4a7c15
			for _, j := range varAdj[i] {
				h = (h ^ uint64(j)) * 1099511628211
			}
			hashOf[i] = h
		}
		if len(lp) > 1 {
			byHash = append(byHash[:0], lp...)
			slices.SortFunc(byHash, func(a, b int32) int {
				if hashOf[a] != hashOf[b] {
					if hashOf[a] < hashOf[b] {
						return -1
					}
					return 1
				}
				return int(a - b)
			})
			for s := 0; s < len(byHash); {
				t := s + 1
				for t < len(byHash) && hashOf[byHash[t]] == hashOf[byHash[s]] {
					t++
				}
				for a := s; a < t; a++ {
					i := byHash[a]
					if status[i] != stVar {
						continue
					}
					for b := a + 1; b < t; b++ {
						j := byHash[b]
						if status[j] != stVar || (cset != nil && cset[i] != cset[j]) || !slices.Equal(elAdj[i], elAdj[j]) || !slices.Equal(varAdj[i], varAdj[j]) {
							continue
						}
						nv[i] += nv[j]
						deg[i] -= nv[j] // j's weight is now internal to i
						if deg[i] < 0 {
							deg[i] = 0
						}
						nv[j] = 0
						status[j] = stMerged
						member[lastMember[i]] = j
						lastMember[i] = lastMember[j]
						elAdj[j], varAdj[j] = nil, nil
					}
				}
				s = t
			}
			if byHashTie {
				copy(lp, byHash)
			}
		}
		kept = lp[:0]
		for _, i := range lp {
			if status[i] == stVar {
				kept = append(kept, i)
				insert(int(i))
				if inList[i] && deg[i] < mindeg {
					mindeg = deg[i]
				}
			}
		}
		le[p] = slices.Clone(kept)
		wflg += int64(total) + 1
	}
	return perm
}
