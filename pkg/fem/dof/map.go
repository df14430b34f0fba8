package dof

import (
	"fmt"
	"math"

	"github.com/gusset/gusset/pkg/fem/geom"
)

// PerNode is the number of DOFs of every node: ux uy uz rx ry rz.
const PerNode = 6

// Names are the DOF descriptions used in messages, in DOF order.
var Names = [PerNode]string{
	"translation along X", "translation along Y", "translation along Z",
	"rotation about X", "rotation about Y", "rotation about Z",
}

// Support is the resolved support condition of one global DOF.
type Support struct {
	Fixed  bool    // restrained (no equation); prescribed displacements act here
	Spring float64 // support spring stiffness, N/m or N·m/rad
	// OneWay is +1 for a support acting with a positive reaction only, −1
	// for a negative one only, 0 for both ways.
	OneWay int
}

// Constraint ties the DOFs of slave nodes to a master node as a rigid
// body, DOF by DOF: Tied[d] ties component d (along the rows of Axes, or
// global axes when Axes is nil).
type Constraint struct {
	Master int
	Slaves []int
	Tied   [PerNode]bool
	Axes   *geom.Rotation
}

// Term is one term of a DOF's dependence on an independent DOF: the DOF
// moves C times independent DOF DOF.
type Term struct {
	DOF int
	C   float64
}

// Map holds the supports and the constraint dependences of every global
// DOF of a model. It is built once per model and numbered per state.
type Map struct {
	ids      []int64
	supports []Support
	deps     [][]Term // global DOF → independent DOFs it follows
	slave    []bool
	// incl holds, for the slot of a slave's released component along an
	// inclined axis, that axis in global components (nil elsewhere): the
	// slot's unknown is that component, not the global one.
	incl map[int]geom.Vec3
}

// New builds the map of len(pos) nodes (ids for messages) with supports
// sup, one per global DOF (nil: none), and constraints cons. A slave
// cannot be a master, be a slave twice, or carry a support on a tied DOF
// (any DOF, with inclined axes); constraint axes must be orthonormal:
// those errors are *InputError, naming the node.
func New(pos []geom.Vec3, ids []int64, sup []Support, cons []Constraint) (*Map, error) {
	nd := PerNode * len(pos)
	if sup == nil {
		sup = make([]Support, nd)
	}
	if len(sup) != nd || len(ids) != len(pos) {
		return nil, fmt.Errorf("dof map: %d supports and %d ids for %d nodes", len(sup), len(ids), len(pos))
	}
	m := &Map{ids: ids, supports: sup, deps: make([][]Term, nd), slave: make([]bool, nd)}
	own := make([]Term, nd)
	for g := range nd {
		own[g] = Term{g, 1}
		m.deps[g] = own[g : g+1 : g+1]
	}
	isMaster := map[int]bool{}
	constrained := make([]bool, len(pos))
	for ci, c := range cons {
		mn := c.Master
		isMaster[mn] = true
		R := geom.Identity
		if c.Axes != nil {
			R = *c.Axes
			if err := checkOrthonormal(R); err != nil {
				return nil, &InputError{Node: ids[mn], DOF: -1, Msg: fmt.Sprintf("constraint %d (master %d): %v", ci, ids[mn], err)}
			}
		}
		tied := c.Tied
		for _, sn := range c.Slaves {
			if sn == mn {
				return nil, inputError(sn, -1, ids, "constraint %d: node %d is its own master", ci, ids[sn])
			}
			if constrained[sn] {
				return nil, inputError(sn, -1, ids, "constraint %d: node %d is a slave twice", ci, ids[sn])
			}
			constrained[sn] = true
			for d := range PerNode {
				g := PerNode*sn + d
				if tied[d] || (c.Axes != nil && tied != [PerNode]bool{}) {
					if sup[g].Fixed || sup[g].Spring != 0 {
						return nil, inputError(sn, d, ids, "constraint %d: slave node %d %s also has a support", ci, ids[sn], Names[d])
					}
				}
			}
			r := pos[sn].Sub(pos[mn])
			for blk := 0; blk < PerNode; blk += 3 {
				// Unknown w_k along inclined axis k: tied → projection of
				// the master's rigid motion, released → own slot.
				var w [3][]Term
				for k := range 3 {
					if !tied[blk+k] {
						w[k] = []Term{{PerNode*sn + blk + k, 1}}
						if c.Axes != nil {
							if m.incl == nil {
								m.incl = map[int]geom.Vec3{}
							}
							m.incl[PerNode*sn+blk+k] = geom.Vec3(R[k])
						}
						continue
					}
					m.slave[PerNode*sn+blk+k] = true
					for d := range 3 {
						if R[k][d] != 0 {
							w[k] = addTerms(w[k], rigidTerms(mn, blk+d, r), R[k][d])
						}
					}
				}
				// Global component d = Σ_k R[k][d]·w_k.
				for d := range 3 {
					var out []Term
					for k := range 3 {
						if R[k][d] != 0 {
							out = addTerms(out, w[k], R[k][d])
						}
					}
					m.deps[PerNode*sn+blk+d] = out
				}
			}
		}
	}
	for mn := range isMaster {
		if constrained[mn] {
			return nil, inputError(mn, -1, ids, "node %d is both a master and a slave: tie its slaves to its own master instead", ids[mn])
		}
	}
	return m, nil
}

// InputError is a support or constraint that New cannot map, at one node:
// the model's to mend, and domain.Build reports it as a model error
// naming the node.
type InputError struct {
	Node int64 // the node's id
	DOF  int   // 0..5 (ux uy uz rx ry rz), −1 when the error names none
	Msg  string
}

// Error is the message a user reads.
func (e *InputError) Error() string { return e.Msg }

// inputError returns the *InputError at node index n.
func inputError(n, dof int, ids []int64, format string, args ...any) *InputError {
	return &InputError{Node: ids[n], DOF: dof, Msg: fmt.Sprintf(format, args...)}
}

// DOFs returns the number of global DOFs.
func (m *Map) DOFs() int { return len(m.deps) }

// Support returns the support of global DOF g.
func (m *Map) Support(g int) Support { return m.supports[g] }

// Deps returns the independent DOFs global DOF g follows; a DOF that is
// not tied follows itself with coefficient 1. The slice must not be
// modified.
func (m *Map) Deps(g int) []Term { return m.deps[g] }

// Tied reports whether global DOF g is a tied slave DOF.
func (m *Map) Tied(g int) bool { return m.slave[g] }

// Describe names global DOF g for a person: its node's id and its
// direction.
func (m *Map) Describe(g int) (node int64, dof string) {
	return m.ids[g/PerNode], Names[g%PerNode]
}

// addTerms returns acc + f·ts, merging terms on the same DOF.
func addTerms(acc, ts []Term, f float64) []Term {
	for _, t := range ts {
		merged := false
		for i := range acc {
			if acc[i].DOF == t.DOF {
				acc[i].C += f * t.C
				merged = true
				break
			}
		}
		if !merged {
			acc = append(acc, Term{t.DOF, f * t.C})
		}
	}
	return acc
}

// checkOrthonormal rejects constraint axes that are not a rotation.
func checkOrthonormal(r geom.Rotation) error {
	for i := range 3 {
		for j := range 3 {
			want := 0.0
			if i == j {
				want = 1
			}
			if math.Abs(geom.Vec3(r[i]).Dot(geom.Vec3(r[j]))-want) > 1e-9 {
				return fmt.Errorf("constraint axes are not orthonormal")
			}
		}
	}
	return nil
}

// rigidTerms returns the dependence of DOF d of a node at offset r from
// master node mn: translation d gains (θ_m × r)_d.
func rigidTerms(mn, d int, r geom.Vec3) []Term {
	out := []Term{{PerNode*mn + d, 1}}
	add := func(k int, c float64) {
		if c != 0 {
			out = append(out, Term{PerNode*mn + 3 + k, c})
		}
	}
	switch d {
	case 0: // θy·rz − θz·ry
		add(1, r[2])
		add(2, -r[1])
	case 1: // θz·rx − θx·rz
		add(2, r[0])
		add(0, -r[2])
	case 2: // θx·ry − θy·rx
		add(0, r[1])
		add(1, -r[0])
	}
	return out
}
