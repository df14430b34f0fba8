package sparse

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"time"
)

// AnalyzeOptions configure the ordering and symbolic analysis.
type AnalyzeOptions struct {
	Method Method
	// NodeOf maps each DOF to its node (any non-negative ids). When nil,
	// BlockSize consecutive DOFs form a node (6 for a 3-D frame with all
	// DOFs free); BlockSize ≤ 1 means one DOF per node. Ordering and
	// symbolic analysis run on the node graph, which is exact for
	// finite-element patterns (a node's DOFs share their couplings) and
	// 36× smaller for frames.
	NodeOf    []int
	BlockSize int
	// Workers bounds the goroutines of the numeric phase and of
	// SolveManyParallel; 0 means GOMAXPROCS.
	Workers int
}

// Symbolic is the result of ordering and symbolic analysis of a Pattern. It
// depends only on the pattern, so one Symbolic serves every numeric
// factorization of matrices on that pattern (new load steps, K − σM for any
// σ). All supernode data are in permuted DOF numbering: position k holds
// original DOF Perm[k].
type Symbolic struct {
	N      int
	Method Method
	Perm   []int // Perm[k] = original DOF eliminated k-th
	IPerm  []int // IPerm[Perm[k]] = k

	// Supernode s owns pivot columns SupPtr[s] … SupPtr[s+1]−1 and has the
	// sorted row structure Rows[RowPtr[s]:RowPtr[s+1]], whose first entries
	// are its own pivot columns. Its factor panel is the dense column-major
	// m×k block Val[ValPtr[s]:ValPtr[s+1]] of Factor, m rows by k columns.
	NSuper int
	SupPtr []int
	RowPtr []int
	Rows   []int32
	ValPtr []int
	Parent []int32 // parent supernode, −1 at roots

	NnzL        int64   // exact nonzeros of L (with diagonal) for the chosen order
	Flops       float64 // Σ_j c_j² over columns of L (c_j = nonzeros in column j): the usual Cholesky flop count
	NnzStored   int64   // lower-trapezoid entries stored, including zeros added by relaxed amalgamation
	FlopsStored float64 // flops actually performed on the stored structure

	OrderTime    time.Duration
	SymbolicTime time.Duration

	childPtr []int
	child    []int32
	// aBySup lists the A value slots by the supernode whose panel they
	// land in (those of S at aBySup[aSupPtr[S]:aSupPtr[S+1]]), so that
	// each worker scatters its own supernodes' entries of A; aOff[t] is
	// where slot aBySup[t] lands within that panel.
	aBySup  []int
	aOff    []int
	aSupPtr []int
	aPat    *Pattern
	sched   schedule
	// solveSched is the plan of the parallel block solve (solvepar.go).
	solveSched solveSchedule
}

// StackBytes returns the workspace the numeric phase needs for update
// matrices, in bytes (the factor itself takes 8·ValPtr[NSuper]).
func (s *Symbolic) StackBytes() int64 { return 8 * s.sched.stackWords }

// NumericBytes returns the most memory a numeric factorization on s
// holds at once, in bytes, so that a caller can tell before it starts
// whether it fits: the factor values (8·ValPtr[NSuper], mapped outside
// the Go heap on Linux), every update-matrix stack and the update
// matrices handed between the two phases (counted as if all were alive
// at once, as they can be until a collection), and the per-column
// scratch of the factor and of each worker.
func (s *Symbolic) NumericBytes() int64 {
	perCol := int64(8 + 4*(s.sched.workers+1)) // Factor.ref, frontWorker.pos
	return 8*int64(s.ValPtr[s.NSuper]) + 8*(s.sched.stackWords+s.sched.heapWords) + perCol*int64(s.N)
}

// Bytes returns the memory the symbolic analysis itself holds, in bytes:
// the permutation, the supernode structure and the map of A's entries
// into the panels.
func (s *Symbolic) Bytes() int64 {
	ns, nnzA := int64(s.NSuper), int64(len(s.aBySup))
	return 16*int64(s.N) + 4*int64(len(s.Rows)) + 49*ns + 16*nnzA
}

// Analyze orders the pattern and performs the symbolic factorization:
// elimination tree (Liu), postorder, column counts by row subtrees, fundamental
// supernodes with relaxed amalgamation, supernode row structures, the exact
// nonzero and flop counts, and the static parallel schedule.
func Analyze(p *Pattern, opt AnalyzeOptions) (*Symbolic, error) {
	return AnalyzeContext(context.Background(), p, opt)
}

// AnalyzeContext is Analyze that stops when ctx ends: ordering a large
// model takes seconds, and a cancelled analysis must not wait for it.
func AnalyzeContext(ctx context.Context, p *Pattern, opt AnalyzeOptions) (*Symbolic, error) {
	t0 := time.Now()
	nm, err := newNodeMap(p.N, opt.NodeOf, opt.BlockSize)
	if err != nil {
		return nil, fmt.Errorf("sparse: analyze: %w", err)
	}
	g := buildNodeGraph(p, nm)
	np, err := orderGraph(ctx, g, opt.Method)
	if err != nil {
		return nil, fmt.Errorf("sparse: analyze: %w", err)
	}
	t1 := time.Now()
	s := symbolicFromNodeOrder(p, nm, g, np)
	s.Method = opt.Method
	w := opt.Workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	s.sched = buildSchedule(s, w)
	s.solveSched = buildSolveSchedule(s, w)
	s.OrderTime = t1.Sub(t0)
	s.SymbolicTime = time.Since(t1)
	return s, nil
}

func symbolicFromNodeOrder(p *Pattern, nm *nodeMap, g *graph, np []int32) *Symbolic {
	nn := g.n
	pinv, parent, anc := nodeEtree(g, np)
	wt := make([]int, nn) // DOFs of the node at position k
	for k, v := range np {
		wt[k] = int(g.vwgt[v])
	}
	// Weighted column counts by row subtrees: row i of L touches exactly the
	// nodes on the etree paths from each k < i adjacent to i up to i.
	cc := make([]int, nn)
	mark := anc // reuse
	for k := range mark {
		mark[k] = -1
	}
	for i := 0; i < nn; i++ {
		cc[i] += wt[i]
		mark[i] = int32(i)
		v := np[i]
		for _, u := range g.adj[g.xadj[v]:g.xadj[v+1]] {
			for k := pinv[u]; int(k) < i && mark[k] != int32(i); k = parent[k] {
				mark[k] = int32(i)
				cc[k] += wt[i]
			}
		}
	}
	// Postorder, largest-count child last so it can merge with its parent.
	post := postorder(parent, cc)
	newOf := make([]int32, nn)
	for t, k := range post {
		newOf[k] = int32(t)
	}
	np2 := make([]int32, nn)
	par2 := make([]int32, nn)
	cc2 := make([]int, nn)
	wt2 := make([]int, nn)
	for t, k := range post {
		np2[t] = np[k]
		cc2[t], wt2[t] = cc[k], wt[k]
		if parent[k] >= 0 {
			par2[t] = newOf[parent[k]]
		} else {
			par2[t] = -1
		}
	}
	s := &Symbolic{N: p.N, aPat: p}
	s.Perm = nm.expand(np2)
	s.IPerm = make([]int, p.N)
	for k, d := range s.Perm {
		s.IPerm[d] = k
	}
	for t := 0; t < nn; t++ {
		for i := 0; i < wt2[t]; i++ {
			c := float64(cc2[t] - i)
			s.NnzL += int64(cc2[t] - i)
			s.Flops += c * c
		}
	}
	// Fundamental supernodes: t joins t−1 when t−1's only parent is t, t has
	// that single child, and the structures nest exactly.
	nchild := make([]int, nn)
	for _, q := range par2 {
		if q >= 0 {
			nchild[q]++
		}
	}
	var fstart []int
	for t := 0; t < nn; t++ {
		if t == 0 || !(int(par2[t-1]) == t && nchild[t] == 1 && cc2[t-1] == cc2[t]+wt2[t-1]) {
			fstart = append(fstart, t)
		}
	}
	nf := len(fstart)
	fstart = append(fstart, nn)
	fsup := make([]int32, nn) // node → fundamental supernode
	for f := 0; f < nf; f++ {
		for t := fstart[f]; t < fstart[f+1]; t++ {
			fsup[t] = int32(f)
		}
	}
	fpar := make([]int32, nf)
	fcols := make([]int, nf)
	frows := make([]int, nf)
	for f := 0; f < nf; f++ {
		last := fstart[f+1] - 1
		fpar[f] = -1
		if par2[last] >= 0 {
			fpar[f] = fsup[par2[last]]
		}
		for t := fstart[f]; t < fstart[f+1]; t++ {
			fcols[f] += wt2[t]
		}
		frows[f] = cc2[fstart[f]]
	}
	// Relaxed amalgamation, scanning down from the root as CHOLMOD does: f
	// merges into the contiguous group above it when the explicit zeros it
	// adds stay within the usual size-dependent fractions.
	gcols := slices.Clone(fcols)
	grows := slices.Clone(frows)
	gzeros := make([]float64, nf)
	mergedUp := make([]bool, nf)
	trap := func(k, m int) float64 { return float64(k)*float64(k+1)/2 + float64(k)*float64(m-k) }
	for f := nf - 2; f >= 0; f-- {
		if int(fpar[f]) != f+1 {
			continue
		}
		q := f + 1
		k := fcols[f] + gcols[q]
		m := fcols[f] + grows[q]
		nz := trap(k, m)
		z := gzeros[q] + nz - trap(fcols[f], frows[f]) - trap(gcols[q], grows[q])
		fr := z / nz
		if k <= 4 || (k <= 16 && fr < 0.8) || (k <= 48 && fr < 0.1) || fr < 0.05 {
			mergedUp[f] = true
			gcols[f], grows[f], gzeros[f] = k, m, z
		}
	}
	// Relaxed supernodes as node ranges.
	var sstart []int
	for f := 0; f < nf; f++ {
		if f == 0 || !mergedUp[f-1] {
			sstart = append(sstart, fstart[f])
		}
	}
	ns := len(sstart)
	sstart = append(sstart, nn)
	snode := make([]int32, nn)
	for S := 0; S < ns; S++ {
		for t := sstart[S]; t < sstart[S+1]; t++ {
			snode[t] = int32(S)
		}
	}
	s.NSuper = ns
	s.Parent = make([]int32, ns)
	for S := 0; S < ns; S++ {
		last := sstart[S+1] - 1
		s.Parent[S] = -1
		if par2[last] >= 0 {
			s.Parent[S] = snode[par2[last]]
		}
	}
	s.childPtr, s.child = childLists(s.Parent)
	// Node-level row structures by merging children and the node graph.
	pinv2 := make([]int32, nn)
	for t, v := range np2 {
		pinv2[v] = int32(t)
	}
	nrPtr := make([]int, ns+1)
	var nrows []int32
	for i := range mark {
		mark[i] = -1
	}
	for S := 0; S < ns; S++ {
		f, l := sstart[S], sstart[S+1]-1
		start := len(nrows)
		for t := f; t <= l; t++ {
			nrows = append(nrows, int32(t))
			mark[t] = int32(S)
		}
		add := func(t int32) {
			if int(t) > l && mark[t] != int32(S) {
				mark[t] = int32(S)
				nrows = append(nrows, t)
			}
		}
		for t := f; t <= l; t++ {
			v := np2[t]
			for _, u := range g.adj[g.xadj[v]:g.xadj[v+1]] {
				add(pinv2[u])
			}
		}
		for _, c := range s.child[s.childPtr[S]:s.childPtr[S+1]] {
			for _, t := range nrows[nrPtr[c]:nrPtr[c+1]] {
				add(t)
			}
		}
		slices.Sort(nrows[start+(l-f+1):])
		nrPtr[S+1] = len(nrows)
	}
	// Expand to DOFs.
	dofStart := make([]int, nn+1)
	for t := 0; t < nn; t++ {
		dofStart[t+1] = dofStart[t] + wt2[t]
	}
	s.SupPtr = make([]int, ns+1)
	s.RowPtr = make([]int, ns+1)
	s.ValPtr = make([]int, ns+1)
	for S := 0; S < ns; S++ {
		s.SupPtr[S] = dofStart[sstart[S]]
		for _, t := range nrows[nrPtr[S]:nrPtr[S+1]] {
			for d := dofStart[t]; d < dofStart[t+1]; d++ {
				s.Rows = append(s.Rows, int32(d))
			}
		}
		s.RowPtr[S+1] = len(s.Rows)
		k := dofStart[sstart[S+1]] - dofStart[sstart[S]]
		m := s.RowPtr[S+1] - s.RowPtr[S]
		s.ValPtr[S+1] = s.ValPtr[S] + k*m
		s.NnzStored += int64(trap(k, m))
		for i := 0; i < k; i++ {
			c := float64(m - i)
			s.FlopsStored += c * c
		}
	}
	s.SupPtr[ns] = p.N
	s.buildAMap(p)
	return s
}

// postorder returns a postorder of the forest given by parent, visiting the
// children of each vertex in increasing key so the largest comes last.
func postorder(parent []int32, key []int) []int32 {
	n := len(parent)
	ptr, ch := childLists(parent)
	for v := 0; v <= n; v++ {
		c := ch[ptr[v]:ptr[v+1]]
		slices.SortStableFunc(c, func(a, b int32) int { return key[a] - key[b] })
	}
	post := make([]int32, 0, n)
	type frame struct{ v, next int32 }
	var stack []frame
	for _, r := range ch[ptr[n]:ptr[n+1]] { // roots
		stack = append(stack, frame{r, int32(ptr[r])})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if int(top.next) < ptr[top.v+1] {
				c := ch[top.next]
				top.next++
				stack = append(stack, frame{c, int32(ptr[c])})
				continue
			}
			post = append(post, top.v)
			stack = stack[:len(stack)-1]
		}
	}
	return post
}

// childLists returns the children of every vertex in CSR form, with the
// roots listed as children of the virtual vertex n.
func childLists(parent []int32) ([]int, []int32) {
	n := len(parent)
	ptr := make([]int, n+2)
	for _, p := range parent {
		if p < 0 {
			ptr[n+1]++
		} else {
			ptr[p+1]++
		}
	}
	for v := 0; v <= n; v++ {
		ptr[v+1] += ptr[v]
	}
	ch := make([]int32, n)
	next := slices.Clone(ptr[:n+1])
	for v, p := range parent {
		if p < 0 {
			p = int32(n)
		}
		ch[next[p]] = int32(v)
		next[p]++
	}
	return ptr, ch
}

// buildAMap lists the stored entries of A by the supernode whose panel
// they land in (aBySup) with their place in it (aOff), so that each worker
// scatters its own supernodes' entries with one indexed add each. Entries are bucketed by supernode first; within a supernode a
// row→position map then places each one without a search.
func (s *Symbolic) buildAMap(p *Pattern) {
	supOf := make([]int32, s.N)
	for S := 0; S < s.NSuper; S++ {
		for c := s.SupPtr[S]; c < s.SupPtr[S+1]; c++ {
			supOf[c] = int32(S)
		}
	}
	s.aSupPtr = make([]int, s.NSuper+1)
	for j := 0; j < p.N; j++ {
		pj := s.IPerm[j]
		for q := p.ColPtr[j]; q < p.ColPtr[j+1]; q++ {
			s.aSupPtr[supOf[min(pj, s.IPerm[p.RowIdx[q]])]+1]++
		}
	}
	for S := 0; S < s.NSuper; S++ {
		s.aSupPtr[S+1] += s.aSupPtr[S]
	}
	next := slices.Clone(s.aSupPtr[:s.NSuper])
	s.aBySup = make([]int, p.Nnz())
	colOf := make([]int32, p.Nnz()) // permuted column of each bucketed entry
	for j := 0; j < p.N; j++ {
		pj := s.IPerm[j]
		for q := p.ColPtr[j]; q < p.ColPtr[j+1]; q++ {
			S := supOf[min(pj, s.IPerm[p.RowIdx[q]])]
			s.aBySup[next[S]] = q
			colOf[next[S]] = int32(pj)
			next[S]++
		}
	}
	s.aOff = make([]int, p.Nnz())
	pos := make([]int32, s.N)
	for S := 0; S < s.NSuper; S++ {
		rows := s.Rows[s.RowPtr[S]:s.RowPtr[S+1]]
		for t, r := range rows {
			pos[r] = int32(t)
		}
		m := len(rows)
		for t := s.aSupPtr[S]; t < s.aSupPtr[S+1]; t++ {
			q := s.aBySup[t]
			pi, pj := s.IPerm[p.RowIdx[q]], int(colOf[t])
			c, r := min(pi, pj), max(pi, pj)
			s.aOff[t] = (c-s.SupPtr[S])*m + int(pos[r])
		}
	}
}

// nodeEtree returns the inverse of the node order np, the elimination tree
// of the permuted node graph (parent, -1 at roots; Liu's algorithm with
// path compression) and the ancestor scratch array it used, which callers
// reuse as workspace.
func nodeEtree(g *graph, np []int32) (pinv, parent, anc []int32) {
	nn := g.n
	pinv = make([]int32, nn)
	for k, v := range np {
		pinv[v] = int32(k)
	}
	parent = make([]int32, nn)
	anc = make([]int32, nn)
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
	return pinv, parent, anc
}
