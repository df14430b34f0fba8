package sparse

import (
	"errors"
	"fmt"
)

// graph is an undirected graph in compressed adjacency form without self
// loops. Vertices carry a weight: the number of DOFs a node stands for, so
// that degrees, separator sizes and fill are measured in DOFs although the
// orderings work on the much smaller node graph.
type graph struct {
	n    int
	xadj []int   // length n+1
	adj  []int32 // neighbours of v: adj[xadj[v]:xadj[v+1]]
	vwgt []int32 // vertex weights (DOFs per node), all ≥ 1
}

func (g *graph) deg(v int) int { return g.xadj[v+1] - g.xadj[v] }

// nodeMap groups DOFs into nodes. dofs of node u are dof[ptr[u]:ptr[u+1]],
// ascending, so that expanding a node order to DOFs keeps each node's DOFs in
// their natural relative order.
type nodeMap struct {
	nn   int
	ptr  []int
	dof  []int32
	node []int32 // DOF → node
}

// newNodeMap validates nodeOf (DOF → node) or, when nodeOf is nil, builds
// blocks of blockSize consecutive DOFs (the last block may be shorter).
func newNodeMap(n int, nodeOf []int, blockSize int) (*nodeMap, error) {
	m := &nodeMap{node: make([]int32, n)}
	if nodeOf == nil {
		if blockSize < 1 {
			blockSize = 1
		}
		for i := 0; i < n; i++ {
			m.node[i] = int32(i / blockSize)
		}
		m.nn = (n + blockSize - 1) / blockSize
	} else {
		if len(nodeOf) != n {
			return nil, fmt.Errorf("sparse: node map has %d entries for %d DOFs", len(nodeOf), n)
		}
		for i, u := range nodeOf {
			if u < 0 {
				return nil, errors.New("sparse: node map has a negative node")
			}
			m.node[i] = int32(u)
			if u+1 > m.nn {
				m.nn = u + 1
			}
		}
	}
	m.ptr = make([]int, m.nn+1)
	for _, u := range m.node {
		m.ptr[u+1]++
	}
	for u := 0; u < m.nn; u++ {
		m.ptr[u+1] += m.ptr[u]
	}
	m.dof = make([]int32, n)
	next := append([]int(nil), m.ptr[:m.nn]...)
	for i, u := range m.node {
		m.dof[next[u]] = int32(i)
		next[u]++
	}
	// Drop node numbers that have no DOF (e.g. fully constrained nodes) so
	// every graph vertex has positive weight.
	if m.hasEmpty() {
		remap := make([]int32, m.nn)
		k := int32(0)
		for u := 0; u < m.nn; u++ {
			remap[u] = k
			if m.ptr[u+1] > m.ptr[u] {
				k++
			}
		}
		for i := range m.node {
			m.node[i] = remap[m.node[i]]
		}
		return newNodeMap(n, toInts(m.node), 1)
	}
	return m, nil
}

func (m *nodeMap) hasEmpty() bool {
	for u := 0; u < m.nn; u++ {
		if m.ptr[u+1] == m.ptr[u] {
			return true
		}
	}
	return false
}

func toInts(a []int32) []int {
	out := make([]int, len(a))
	for i, v := range a {
		out[i] = int(v)
	}
	return out
}

// buildNodeGraph compresses the DOF pattern to the node graph: nodes u ≠ v
// are adjacent when any DOF of u couples to any DOF of v.
func buildNodeGraph(p *Pattern, m *nodeMap) *graph {
	nn := m.nn
	cnt := make([]int, nn+1)
	// First pass with duplicates, then deduplicate per node.
	for j := 0; j < p.N; j++ {
		b := m.node[j]
		for q := p.ColPtr[j] + 1; q < p.ColPtr[j+1]; q++ {
			a := m.node[p.RowIdx[q]]
			if a != b {
				cnt[a+1]++
				cnt[b+1]++
			}
		}
	}
	for u := 0; u < nn; u++ {
		cnt[u+1] += cnt[u]
	}
	raw := make([]int32, cnt[nn])
	next := append([]int(nil), cnt[:nn]...)
	for j := 0; j < p.N; j++ {
		b := m.node[j]
		for q := p.ColPtr[j] + 1; q < p.ColPtr[j+1]; q++ {
			a := m.node[p.RowIdx[q]]
			if a != b {
				raw[next[a]] = b
				next[a]++
				raw[next[b]] = a
				next[b]++
			}
		}
	}
	g := &graph{n: nn, xadj: make([]int, nn+1), vwgt: make([]int32, nn)}
	mark := make([]int32, nn)
	for i := range mark {
		mark[i] = -1
	}
	adj := raw[:0] // compaction never overtakes the read position
	for u := 0; u < nn; u++ {
		g.vwgt[u] = int32(m.ptr[u+1] - m.ptr[u])
		for _, v := range raw[cnt[u]:cnt[u+1]] {
			if mark[v] != int32(u) {
				mark[v] = int32(u)
				adj = append(adj, v)
			}
		}
		g.xadj[u+1] = len(adj)
	}
	g.adj = adj
	return g
}

// expand turns a node order into a DOF permutation perm (perm[k] = original
// DOF eliminated k-th).
func (m *nodeMap) expand(nodePerm []int32) []int {
	perm := make([]int, 0, len(m.node))
	for _, u := range nodePerm {
		for _, d := range m.dof[m.ptr[u]:m.ptr[u+1]] {
			perm = append(perm, int(d))
		}
	}
	return perm
}

// subgraph extracts the graph induced by verts (global ids) and returns it
// with the local→global map; glob2loc is scratch of length ≥ g.n holding −1.
func (g *graph) subgraph(verts []int32, glob2loc []int32) *graph {
	for i, v := range verts {
		glob2loc[v] = int32(i)
	}
	s := &graph{n: len(verts), xadj: make([]int, len(verts)+1), vwgt: make([]int32, len(verts))}
	for i, v := range verts {
		s.vwgt[i] = g.vwgt[v]
		for _, u := range g.adj[g.xadj[v]:g.xadj[v+1]] {
			if l := glob2loc[u]; l >= 0 {
				s.adj = append(s.adj, l)
			}
		}
		s.xadj[i+1] = len(s.adj)
	}
	for _, v := range verts {
		glob2loc[v] = -1
	}
	return s
}
