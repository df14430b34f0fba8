package sparse

import "slices"

// schedule is the static two-phase plan of the numeric factorization:
// disjoint subtrees of the supernodal elimination tree are spread over the
// workers (each processes its subtrees in postorder on a private stack), then
// the remaining "top" supernodes are factored in postorder by one goroutine
// whose dense kernels use all workers. Subtrees are split top-down
// (Geist–Ng) until a greedy assignment balances the predicted flops.
type schedule struct {
	workers    int
	bins       [][][2]int // per worker: supernode ranges [first, last] (subtrees in postorder)
	top        []int32    // supernodes factored after the parallel phase, ascending
	heapUpdate []bool     // update matrix lives outside the owner's stack (consumed by a top node)
	binStack   []int64    // stack words each bin needs
	topStack   int64
	stackWords int64 // total stack words
	// heapWords are the words of the update matrices that live outside
	// the stacks (heapUpdate), all alive at once when the parallel phase
	// ends.
	heapWords int64
}

func (s *Symbolic) supDims(S int) (k, m int) {
	return s.SupPtr[S+1] - s.SupPtr[S], s.RowPtr[S+1] - s.RowPtr[S]
}

// supWork estimates the cost of supernode S: its dense flops plus the
// memory traffic of assembling its front.
func (s *Symbolic) supWork(S int) float64 {
	k, m := s.supDims(S)
	r := float64(m - k)
	w := 0.0
	for i := 0; i < k; i++ {
		c := float64(m - i)
		w += c * c
	}
	return w + 4*r*r
}

func buildSchedule(s *Symbolic, workers int) schedule {
	ns := s.NSuper
	sc := schedule{workers: workers, heapUpdate: make([]bool, ns)}
	work := make([]float64, ns)
	for S := range ns {
		work[S] = s.supWork(S)
	}
	sc.bins, sc.top = splitTree(s, workers, work)
	for _, ranges := range sc.bins {
		for _, rg := range ranges {
			if r := rg[1]; s.Parent[r] >= 0 {
				sc.heapUpdate[r] = true
				k, m := s.supDims(r)
				sc.heapWords += int64(m-k) * int64(m-k)
			}
		}
	}
	// Simulate the stacks to size them exactly.
	sc.binStack = make([]int64, workers)
	for w, ranges := range sc.bins {
		var seq []int32
		for _, rg := range ranges {
			for S := rg[0]; S <= rg[1]; S++ {
				seq = append(seq, int32(S))
			}
		}
		sc.binStack[w] = s.simulateStack(seq, sc.heapUpdate)
		sc.stackWords += sc.binStack[w]
	}
	sc.topStack = s.simulateStack(sc.top, sc.heapUpdate)
	sc.stackWords += sc.topStack
	return sc
}

// splitTree spreads disjoint subtrees of the supernodal elimination tree
// over workers, balancing the sum of work (per supernode) of each: it
// splits the heaviest subtree top-down (Geist–Ng) until a greedy
// assignment puts at most 5 % above the mean on any worker. It returns
// each worker's subtrees as supernode ranges [first, root] in postorder,
// and the supernodes split off, which belong to no subtree ("top"),
// ascending.
func splitTree(s *Symbolic, workers int, work []float64) (bins [][][2]int, top []int32) {
	ns := s.NSuper
	work = slices.Clone(work)
	first := make([]int, ns) // first supernode of the subtree (postorder ⇒ contiguous)
	for S := 0; S < ns; S++ {
		first[S] = S
	}
	for S := 0; S < ns; S++ {
		if p := s.Parent[S]; p >= 0 {
			work[p] += work[S]
			first[p] = min(first[p], first[S])
		}
	}
	roots := slices.Clone(s.child[s.childPtr[ns]:s.childPtr[ns+1]])
	isTop := make([]bool, ns)
	list := roots
	var assign [][]int32
	for iter := 0; ; iter++ {
		// Greedy longest-processing-time assignment of the current subtrees.
		slices.SortFunc(list, func(a, b int32) int {
			switch {
			case work[a] > work[b]:
				return -1
			case work[a] < work[b]:
				return 1
			}
			return int(a - b)
		})
		load := make([]float64, workers)
		assign = make([][]int32, workers)
		total := 0.0
		for _, r := range list {
			w := 0
			for i := range load {
				if load[i] < load[w] {
					w = i
				}
			}
			load[w] += work[r]
			assign[w] = append(assign[w], r)
			total += work[r]
		}
		maxLoad := slices.Max(load)
		if workers == 1 || maxLoad <= 1.05*total/float64(workers) || iter > 4*ns || len(list) == 0 {
			break
		}
		// Split the heaviest subtree that has children.
		split := -1
		for i, r := range list {
			if s.childPtr[r+1] > s.childPtr[r] {
				split = i
				break
			}
		}
		if split < 0 {
			break
		}
		r := list[split]
		isTop[r] = true
		list = slices.Delete(list, split, split+1)
		list = append(list, s.child[s.childPtr[r]:s.childPtr[r+1]]...)
	}
	bins = make([][][2]int, workers)
	for w, rs := range assign {
		slices.Sort(rs)
		for _, r := range rs {
			bins[w] = append(bins[w], [2]int{first[r], int(r)})
		}
	}
	for S := 0; S < ns; S++ {
		if isTop[S] {
			top = append(top, int32(S))
		}
	}
	return bins, top
}

// simulateStack returns the peak words of the update-matrix stack when the
// supernodes seq are factored in order, mirroring numeric.go exactly.
func (s *Symbolic) simulateStack(seq []int32, heap []bool) int64 {
	var top, peak int64
	for _, S := range seq {
		k, m := s.supDims(int(S))
		r := int64(m - k)
		base := top
		for _, c := range s.child[s.childPtr[S]:s.childPtr[S+1]] {
			if !heap[c] {
				kc, mc := s.supDims(int(c))
				base -= int64(mc-kc) * int64(mc-kc)
			}
		}
		if heap[S] {
			top = base
			continue
		}
		peak = max(peak, top+r*r)
		top = base + r*r
	}
	return peak
}
