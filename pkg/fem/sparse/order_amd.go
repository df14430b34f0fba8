package sparse

import (
	"context"
	"math"
	"slices"
)

// Approximate minimum degree (Amestoy, Davis and Duff, SIAM J. Matrix Anal.
// Appl. 17(4), 1996; AMD, ACM TOMS 30(3), 2004) on the quotient graph:
// eliminated vertices become elements standing for the cliques they
// created, so memory stays near that of the graph. The implementation
// follows the published algorithm with AMD's default parameters: weighted
// approximate external degrees from |Le \ Lme|, element absorption and
// aggressive absorption, mass elimination, indistinguishable-variable
// (supervariable) detection, and dense rows (degree above max(16, 10·√n))
// removed and ordered last. It also keeps AMD's list orders, which decide
// ties: the new element goes to the front of each element list (the old
// first element to the back of that part, the first variable to the back
// of the variable part), Lme is built from the pivot's elements in list
// order and then its variables, variables re-enter the degree lists at the
// head in Lme order, and of indistinguishable variables the one last in Lme
// stays principal. On gridn's node graph it reproduces SuiteSparse AMD's
// nnz(L) exactly (see TestAMDMatchesSuiteSparse).
//
// Vertex weights are DOFs per node and enter every degree, so the choices
// are those AMD makes on the DOF matrix: a node's DOFs are indistinguishable
// there and are merged at once.

// amdOrder returns an approximate minimum degree order of g: perm[k] is the
// vertex eliminated k-th.
func amdOrder(ctx context.Context, g *graph) []int32 { return camdOrder(ctx, g, nil) }

// camdOrder is amdOrder under constraints (as CAMD): when cset is non-nil,
// every vertex of set cset[v] = c is eliminated before any vertex of set
// c+1. Nested dissection orders its leaves and separators this way, so each
// leaf is ordered knowing the fill it causes in the separators around it.
// Dense-row removal is off under constraints (a separator holds such
// vertices anyway).
func camdOrder(ctx context.Context, g *graph, cset []int32) []int32 {
	a := newAMDState(g, cset)
	a.run(ctx)
	return append(a.perm, a.dense...)
}

const (
	amdVar    = 0 // principal variable
	amdElem   = 1 // live element
	amdDead   = 2 // absorbed element or mass-eliminated variable
	amdMerged = 3 // non-principal variable folded into a supervariable
	amdDense  = 4 // dense row, ordered last
)

// amdState is the quotient graph and the degree lists of one ordering.
type amdState struct {
	n, total int
	cset     []int32
	status   []uint8
	nv       []int     // weight of a principal variable (or of a pivot)
	vlist    [][]int32 // variables adjacent to a variable
	elist    [][]int32 // elements adjacent to a variable
	le       [][]int32 // variables of an element
	degE     []int     // weighted |Le| of an element
	deg      []int     // approximate external degree of a variable
	w        []int64   // |Le \ Lme| + wflg while computing degrees
	member   []int32   // next variable merged into the same supervariable
	lastMem  []int32
	head     []int32 // degree lists
	next     []int32
	prev     []int32
	inList   []bool
	listed   int   // variables in the degree lists
	active   int32 // constraint set being eliminated
	setPtr   []int
	setMem   []int32
	perm     []int32
	dense    []int32
}

func newAMDState(g *graph, cset []int32) *amdState {
	n := g.n
	a := &amdState{n: n, cset: cset, status: make([]uint8, n), nv: make([]int, n),
		vlist: make([][]int32, n), elist: make([][]int32, n), le: make([][]int32, n),
		degE: make([]int, n), deg: make([]int, n), w: make([]int64, n),
		member: make([]int32, n), lastMem: make([]int32, n),
		next: make([]int32, n), prev: make([]int32, n), inList: make([]bool, n),
		perm: make([]int32, 0, n)}
	for i := 0; i < n; i++ {
		a.nv[i] = int(g.vwgt[i])
		a.total += a.nv[i]
		a.member[i], a.lastMem[i] = -1, int32(i)
	}
	// Dense rows by their degree in the DOF matrix: a node's own other DOFs
	// plus the DOFs of its neighbours.
	thresh := max(16, 10*math.Sqrt(float64(a.total)))
	for i := 0; i < n; i++ {
		d := a.nv[i] - 1
		for _, j := range g.adj[g.xadj[i]:g.xadj[i+1]] {
			d += a.nv[j]
		}
		if cset == nil && float64(d) > thresh {
			a.status[i] = amdDense
			a.dense = append(a.dense, int32(i))
		}
	}
	for i := 0; i < n; i++ {
		if a.status[i] == amdDense {
			continue
		}
		// As in AMD, the initial degree still counts dense neighbours.
		vl := make([]int32, 0, g.xadj[i+1]-g.xadj[i])
		d := 0
		for _, j := range g.adj[g.xadj[i]:g.xadj[i+1]] {
			d += a.nv[j]
			if a.status[j] != amdDense {
				vl = append(vl, j)
			}
		}
		a.vlist[i], a.deg[i] = vl, d
	}
	a.head = make([]int32, a.total+1)
	for i := range a.head {
		a.head[i] = -1
	}
	for i := 0; i < n; i++ {
		if a.status[i] == amdVar {
			a.insert(i)
		}
	}
	if cset != nil {
		ns := int32(0)
		for _, c := range cset {
			ns = max(ns, c+1)
		}
		a.setPtr = make([]int, ns+2)
		for _, c := range cset {
			a.setPtr[c+1]++
		}
		for c := int32(0); c <= ns; c++ {
			a.setPtr[c+1] += a.setPtr[c]
		}
		a.setMem = make([]int32, n)
		nxt := slices.Clone(a.setPtr)
		for i, c := range cset {
			a.setMem[nxt[c]] = int32(i)
			nxt[c]++
		}
	}
	return a
}

// insert puts variable i at the head of its degree list (if its constraint
// set is the active one).
func (a *amdState) insert(i int) {
	if a.cset != nil && a.cset[i] != a.active {
		return
	}
	a.inList[i] = true
	a.listed++
	d := a.deg[i]
	a.next[i], a.prev[i] = a.head[d], -1
	if a.head[d] >= 0 {
		a.prev[a.head[d]] = int32(i)
	}
	a.head[d] = int32(i)
}

func (a *amdState) remove(i int) {
	if !a.inList[i] {
		return
	}
	a.inList[i] = false
	a.listed--
	if a.prev[i] >= 0 {
		a.next[a.prev[i]] = a.next[i]
	} else {
		a.head[a.deg[i]] = a.next[i]
	}
	if a.next[i] >= 0 {
		a.prev[a.next[i]] = a.prev[i]
	}
}

// emit appends variable i and every variable merged into it to the order.
func (a *amdState) emit(i int) {
	for v := int32(i); v >= 0; v = a.member[v] {
		a.perm = append(a.perm, v)
	}
}

// run eliminates every variable; when ctx ends it stops early and leaves
// the order incomplete (the caller checks ctx).
func (a *amdState) run(ctx context.Context) {
	inLme := make([]int32, a.n) // stamped with the pivot while in Lme
	for i := range inLme {
		inLme[i] = -1
	}
	flag := make([]int64, a.n) // marks for the supervariable comparison
	var flg int64
	hash := make([]uint64, a.n)
	var wflg int64 = 1
	var lme, kept, ek, vk []int32
	var byHash []int
	remaining := a.total
	for _, d := range a.dense {
		remaining -= a.nv[d]
	}
	eliminated, mindeg := 0, 0
	for step := 0; eliminated < remaining; step++ {
		if step&1023 == 0 && ctx.Err() != nil {
			return
		}
		if a.listed == 0 { // constraint set exhausted
			a.active++
			for _, i := range a.setMem[a.setPtr[a.active]:a.setPtr[a.active+1]] {
				if a.status[i] == amdVar {
					a.insert(int(i))
				}
			}
			mindeg = 0
			continue
		}
		for a.head[mindeg] < 0 {
			mindeg++
		}
		me := int(a.head[mindeg])
		a.remove(me)
		a.status[me] = amdElem
		eliminated += a.nv[me]
		a.emit(me)
		// Lme: the variables of me's elements (which me absorbs), then
		// me's own variables.
		lme = lme[:0]
		inLme[me] = int32(me)
		add := func(j int32) {
			if a.status[j] == amdVar && inLme[j] != int32(me) {
				inLme[j] = int32(me)
				lme = append(lme, j)
			}
		}
		for _, e := range a.elist[me] {
			if a.status[e] != amdElem {
				continue
			}
			for _, j := range a.le[e] {
				add(j)
			}
			a.status[e], a.le[e] = amdDead, nil
		}
		for _, j := range a.vlist[me] {
			add(j)
		}
		a.elist[me], a.vlist[me] = nil, nil
		degme := 0
		for _, i := range lme {
			degme += a.nv[i]
			a.remove(int(i))
		}
		// w[e] − wflg = |Le \ Lme| for every element next to Lme.
		for _, i := range lme {
			for _, e := range a.elist[i] {
				if a.status[e] != amdElem {
					continue
				}
				if a.w[e] < wflg {
					a.w[e] = int64(a.degE[e]) + wflg
				}
				a.w[e] -= int64(a.nv[i])
			}
		}
		// Degree update, aggressive absorption, mass elimination.
		kept = kept[:0]
		for _, i := range lme {
			ek, vk = ek[:0], vk[:0]
			d := 0
			var h uint64
			for _, e := range a.elist[i] {
				if a.status[e] != amdElem {
					continue
				}
				if dext := int(a.w[e] - wflg); dext > 0 {
					d += dext
					ek = append(ek, e)
					h += uint64(e)
				} else { // Le ⊆ Lme: absorbed into me
					a.status[e], a.le[e] = amdDead, nil
				}
			}
			for _, j := range a.vlist[i] {
				if a.status[j] == amdVar && inLme[j] != int32(me) {
					d += a.nv[j]
					vk = append(vk, j)
					h += uint64(j)
				}
			}
			if len(ek) == 0 && len(vk) == 0 && (a.cset == nil || a.cset[i] == a.cset[me]) {
				// Only me touches i: eliminate it with me.
				a.status[i] = amdDead
				degme -= a.nv[i]
				eliminated += a.nv[i]
				a.emit(int(i))
				a.elist[i], a.vlist[i] = nil, nil
				continue
			}
			a.deg[i] = min(a.deg[i], d)
			el := append(a.elist[i][:0], int32(me))
			if len(ek) > 0 {
				el = append(append(el, ek[1:]...), ek[0])
			}
			a.elist[i] = el
			vl := a.vlist[i][:0]
			if len(vk) > 0 {
				vl = append(append(vl, vk[1:]...), vk[0])
			}
			a.vlist[i] = vl
			hash[i] = h
			kept = append(kept, i)
		}
		// Supervariables: group Lme by hash, latest in Lme first, and fold
		// every later-compared variable with the same lists into the first.
		byHash = byHash[:0]
		for k := range kept {
			byHash = append(byHash, k)
		}
		slices.SortFunc(byHash, func(x, y int) int {
			hx, hy := hash[kept[x]], hash[kept[y]]
			switch {
			case hx < hy:
				return -1
			case hx > hy:
				return 1
			}
			return y - x
		})
		for s := 0; s < len(byHash); {
			t := s + 1
			for t < len(byHash) && hash[kept[byHash[t]]] == hash[kept[byHash[s]]] {
				t++
			}
			for x := s; x < t-1; x++ {
				i := kept[byHash[x]]
				if a.status[i] != amdVar {
					continue
				}
				flg++
				for _, e := range a.elist[i][1:] {
					flag[e] = flg
				}
				for _, j := range a.vlist[i] {
					flag[j] = flg
				}
				for y := x + 1; y < t; y++ {
					j := kept[byHash[y]]
					if a.status[j] != amdVar || len(a.elist[j]) != len(a.elist[i]) || len(a.vlist[j]) != len(a.vlist[i]) ||
						(a.cset != nil && a.cset[i] != a.cset[j]) || !allFlagged(flag, flg, a.elist[j][1:]) || !allFlagged(flag, flg, a.vlist[j]) {
						continue
					}
					a.nv[i] += a.nv[j]
					a.nv[j] = 0
					a.status[j] = amdMerged
					a.member[a.lastMem[i]] = j
					a.lastMem[i] = a.lastMem[j]
					a.elist[j], a.vlist[j] = nil, nil
				}
			}
			s = t
		}
		// Final degrees; the principal variables of Lme form the element.
		nleft := remaining - eliminated
		le := make([]int32, 0, len(kept))
		for _, i := range kept {
			if a.status[i] != amdVar {
				continue
			}
			a.deg[i] = max(0, min(a.deg[i]+degme-a.nv[i], nleft-a.nv[i]))
			a.insert(int(i))
			if a.inList[i] && a.deg[i] < mindeg {
				mindeg = a.deg[i]
			}
			le = append(le, i)
		}
		a.le[me], a.degE[me] = le, degme
		wflg += int64(a.total) + 1
	}
}

func allFlagged(flag []int64, flg int64, xs []int32) bool {
	for _, x := range xs {
		if flag[x] != flg {
			return false
		}
	}
	return true
}

// nodeFill returns the DOF-weighted nonzeros and flops of L for the vertex
// order np of g (elimination tree plus row-subtree column counts).
func nodeFill(g *graph, np []int32) (int64, float64) {
	nn := g.n
	pinv, parent, anc := nodeEtree(g, np)
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
