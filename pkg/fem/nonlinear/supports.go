package nonlinear

import (
	"math"

	"github.com/gusset/gusset/pkg/fem/dof"
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/sparse"
)

// The supports of the Small theory whose action depends on the state
// (package doc, "Support laws"). Two families:
//
//   - spring laws act on free DOFs with a force and a tangent that are
//     functions of the DOF's displacement: variable springs (code V) and
//     one-way springs (code S with an active direction);
//   - restraint laws switch a DOF between restrained (no equation, its
//     value held) and free (an equation, with a known support force):
//     one-way fixed DOFs (code F with an active direction: contact or
//     open), plastic DOFs (P: stuck or yielding at the limit) and friction
//     DOFs (N: stuck or sliding at μ times the normal reaction). This is
//     the exact active-set iteration of the linear analysis's reversal
//     loop, done within the Newton iterations: each switch renumbers the
//     equations.

// springLaw is the law of one spring-law DOF.
type springLaw struct {
	g int
	// table is a variable spring's segments (nil: linear, stiffness k).
	table []domain.SpringSegment
	k     float64
	// dir is +1 for a spring that may only push the node in +axis, −1
	// for −axis, 0 both ways.
	dir int
}

// eval returns the force f the spring takes from the node at displacement
// u (the reaction is −f) and its tangent df/du. A variable spring's law is
// odd: f(−u) = −f(u), f(|u|) the integral of the table's stiffness from 0
// (each segment's stiffness up to its Limit, the last one's beyond). A
// one-way spring acts while it pushes the right way (dir·u ≤ 0).
func (sl *springLaw) eval(u float64) (f, k float64) {
	if sl.dir != 0 && float64(sl.dir)*u > 0 {
		return 0, 0
	}
	if sl.table == nil {
		return sl.k * u, sl.k
	}
	a := math.Abs(u)
	x0 := 0.0
	for i, seg := range sl.table {
		if a <= seg.Limit || i == len(sl.table)-1 {
			f += seg.Stiffness * (a - x0)
			k = seg.Stiffness
			break
		}
		f += seg.Stiffness * (seg.Limit - x0)
		x0 = seg.Limit
	}
	return math.Copysign(f, u), k
}

// restraintKind is the kind of a restraint-law DOF.
type restraintKind int

const (
	restrContact  restraintKind = iota + 1 // one-way fixed: contact or open
	restrPlastic                           // P: stuck or yielding
	restrFriction                          // N: stuck or sliding
)

// restraintLaw is the law of one restraint-law DOF and its state: free or
// restrained, committed (last converged step) and trial (the current
// iteration).
type restraintLaw struct {
	g    int
	kind restraintKind
	// dir is the direction a contact may push the node (+1: +axis).
	dir int
	// limit is a plastic DOF's reaction limit (+Inf: none).
	limit float64
	// normal is a friction DOF's normal DOF (global), nsign the normal
	// reactions that press (0: either; ±1: that sign only) and mu the
	// friction coefficient.
	normal int
	nsign  int
	mu     float64
	// free is set while the DOF is free (open, yielding, sliding); sign
	// is then the sign of the reaction a yielding or sliding DOF keeps
	// (it resists the motion). hold is the value a restrained DOF keeps:
	// 0 for a contact, the slip reached at the last converged step for
	// plastic and friction DOFs.
	free, freeT bool
	sign, signT float64
	hold        float64
}

// capacity returns the reaction a plastic or friction DOF can take in the
// state of the reactions react.
func (rl *restraintLaw) capacity(react []float64) float64 {
	if rl.kind == restrPlastic {
		return rl.limit
	}
	rn := react[rl.normal]
	switch rl.nsign {
	case 1:
		rn = math.Max(rn, 0)
	case -1:
		rn = math.Max(-rn, 0)
	default:
		rn = math.Abs(rn)
	}
	return rl.mu * rn
}

// supportState is the support part of a Small analysis.
type supportState struct {
	springs []springLaw
	restr   []restraintLaw
	// Per global DOF: the linear springs (those without a law), the force
	// the laws take from the nodes and its tangent, the reactions of the
	// current state, and whether the DOF has a support at all.
	linear, fsup, ksup, react []float64
	supported                 []bool
	// numbered caches the numbering and assembler of each set of free
	// restraint-law DOFs.
	numbered map[string]numbered
	// changed is set when an assembly switched a restraint.
	changed bool
}

// numbered is the equation numbering of one state and its assembler.
type numbered struct {
	num *dof.Numbering
	as  *sparse.Assembler
}

// newSupportState reads the supports of d (checked by checkSupports).
func newSupportState(d *domain.Domain) *supportState {
	nd := d.DOF.DOFs()
	st := &supportState{linear: make([]float64, nd), fsup: make([]float64, nd), ksup: make([]float64, nd),
		react: make([]float64, nd), supported: make([]bool, nd), numbered: map[string]numbered{}}
	for g := range nd {
		sd := d.DOF.Support(g)
		st.linear[g] = sd.Spring
		st.supported[g] = sd.Fixed || sd.Spring != 0
	}
	for _, s := range d.Model.Supports {
		n, _ := d.Node(s.Node)
		for k := range 6 {
			g := 6*n + k
			dir := d.DOF.Support(g).OneWay
			st.supported[g] = st.supported[g] || s.Code[k] != 'R' && s.Code[k] != 'r'
			switch s.Code[k] {
			case 'V', 'v':
				st.linear[g] = 0
				st.springs = append(st.springs, springLaw{g: g, table: s.Tables[k], dir: dir})
			case 'S', 's':
				if dir != 0 {
					st.linear[g] = 0
					st.springs = append(st.springs, springLaw{g: g, k: s.Springs[k], dir: dir})
				}
			case 'F', 'f':
				if dir != 0 {
					st.restr = append(st.restr, restraintLaw{g: g, kind: restrContact, dir: dir})
				}
			case 'P', 'p':
				lim := s.PlasticLimit[k]
				if lim == 0 {
					lim = math.Inf(1)
				}
				st.restr = append(st.restr, restraintLaw{g: g, kind: restrPlastic, limit: lim})
			case 'N', 'n':
				f := s.Friction[k]
				ax := int(f.Normal) - 1 // XAxis … ZAxis: 0 … 2 (checked)
				st.restr = append(st.restr, restraintLaw{g: g, kind: restrFriction, normal: 6*n + ax, nsign: f.Sign, mu: f.Factor})
			}
		}
	}
	return st
}

// active reports whether st has any law.
func (st *supportState) active() bool { return len(st.springs) > 0 || len(st.restr) > 0 }

// springForces evaluates the spring laws at displacements u into fsup and
// ksup, clearing the rest.
func (st *supportState) springForces(u []float64) {
	clear(st.fsup)
	clear(st.ksup)
	for i := range st.springs {
		sl := &st.springs[i]
		st.fsup[sl.g], st.ksup[sl.g] = sl.eval(u[sl.g])
	}
}

// reactions computes the reactions of every supported DOF from the element
// forces fint, the node loads lambda·nodeF and the displacements u under
// numbering num, then the forces of the yielding and sliding DOFs (which
// read the normal reactions) into fsup and react.
func (st *supportState) reactions(num *dof.Numbering, fint, nodeF []float64, lambda float64, u []float64) {
	nd := len(u)
	f := make([]float64, nd)
	for g := range f {
		f[g] = fint[g] + st.linear[g]*u[g] + st.fsup[g] - lambda*nodeF[g]
	}
	clear(st.react)
	num.Distribute(f, make([]float64, num.Equations()), st.react)
	for g := range nd {
		if !num.Fixed[g] && st.supported[g] {
			st.react[g] = -(st.linear[g]*u[g] + st.fsup[g])
		}
	}
	for i := range st.restr {
		rl := &st.restr[i]
		if !rl.freeT || rl.kind == restrContact {
			continue
		}
		r := rl.signT * rl.capacity(st.react)
		st.fsup[rl.g], st.react[rl.g] = -r, r
	}
}

// update switches the restraint laws whose state the current one
// contradicts, and reports whether any did: a restrained DOF whose
// reaction has the wrong sign (contact) or exceeds its capacity (plastic,
// friction) is freed; a free DOF that moved back through its held position
// (an open contact penetrating, a yielding or sliding DOF reversing) is
// restrained again. tolR and tolU are the tolerances on reactions and
// displacements that keep round-off from switching.
func (st *supportState) update(u []float64, tolR, tolU float64) bool {
	changed := false
	for i := range st.restr {
		rl := &st.restr[i]
		r := st.react[rl.g]
		if !rl.freeT {
			switch rl.kind {
			case restrContact:
				if float64(rl.dir)*r < -tolR {
					rl.freeT, changed = true, true
				}
			default:
				if c := rl.capacity(st.react); math.Abs(r) > c+tolR {
					rl.freeT, rl.signT, changed = true, math.Copysign(1, r), true
				}
			}
			continue
		}
		// The node moves against the reaction: a contact that pushes +axis
		// opens as the node moves +axis; a yielding DOF slides the other
		// way from the reaction it keeps.
		d := -float64(rl.dir)
		if rl.kind != restrContact {
			d = rl.signT
		}
		if d*(u[rl.g]-rl.holdT()) > tolU {
			rl.freeT, changed = false, true
		}
	}
	return changed
}

// holdT is the value the DOF keeps when restrained.
func (rl *restraintLaw) holdT() float64 {
	if rl.kind == restrContact {
		return 0
	}
	return rl.hold
}

// commit makes the trial state the committed one; a yielding or sliding
// DOF holds the slip it reached.
func (st *supportState) commit(u []float64) {
	for i := range st.restr {
		rl := &st.restr[i]
		rl.free, rl.sign = rl.freeT, rl.signT
		if rl.free && rl.kind != restrContact {
			rl.hold = u[rl.g]
		}
	}
}

// key names the set of free restraint-law DOFs, for the cache of
// numberings, and off marks them per global DOF.
func (st *supportState) key(nd int) (string, []bool) {
	off := make([]bool, nd)
	b := make([]byte, len(st.restr))
	for i := range st.restr {
		if st.restr[i].freeT {
			off[st.restr[i].g] = true
			b[i] = 1
		}
	}
	return string(b), off
}

// checkSupports refuses the supports the Small theory cannot resolve,
// naming the node: one-way plastic or friction DOFs, friction on
// rotations or without a normal axis, and bad law data.
func checkSupports(m *domain.Model) error {
	for _, s := range m.Supports {
		if len(s.Code) != 6 {
			continue // domain.Build refused it
		}
		for k := range 6 {
			c := s.Code[k]
			oneWay := s.Active[k] == 'P' || s.Active[k] == 'p' || s.Active[k] == 'N' || s.Active[k] == 'n'
			switch c {
			case 'P', 'p', 'N', 'n':
				if oneWay {
					return domain.ModelErrorf(domain.ModelError{Node: s.Node, DOF: dof.Names[k]}, "support at node %d: %s: a plastic or friction support cannot also be one-way (active direction %q) in the non-linear analysis", s.Node, dof.Names[k], s.Active[k])
				}
			}
			switch c {
			case 'V', 'v':
				x0 := 0.0
				for i, seg := range s.Tables[k] {
					if !(seg.Stiffness >= 0) || math.IsInf(seg.Stiffness, 0) || !(seg.Limit > x0) {
						return domain.ModelErrorf(domain.ModelError{Node: s.Node, DOF: dof.Names[k]}, "support at node %d: %s: variable spring segment %d needs a stiffness of zero or more and a limit above %g, got stiffness %g and limit %g", s.Node, dof.Names[k], i+1, x0, seg.Stiffness, seg.Limit)
					}
					x0 = seg.Limit
				}
			case 'P', 'p':
				if v := s.PlasticLimit[k]; !(v >= 0) || math.IsInf(v, 0) {
					return domain.ModelErrorf(domain.ModelError{Node: s.Node, DOF: dof.Names[k]}, "support at node %d: %s: the plastic limit must be zero or more, got %g", s.Node, dof.Names[k], v)
				}
			case 'N', 'n':
				if k >= 3 {
					return domain.ModelErrorf(domain.ModelError{Node: s.Node, DOF: dof.Names[k]}, "support at node %d: %s: friction supports act on translations only", s.Node, dof.Names[k])
				}
				f := s.Friction[k]
				ax := int(f.Normal) - 1
				if ax < 0 || ax > 2 || ax == k {
					return domain.ModelErrorf(domain.ModelError{Node: s.Node, DOF: dof.Names[k]}, "support at node %d: %s: a friction support needs a normal axis (X, Y or Z) other than its own, got %v", s.Node, dof.Names[k], f.Normal)
				}
				switch s.Code[ax] {
				case 'R', 'r', 'N', 'n':
					return domain.ModelErrorf(domain.ModelError{Node: s.Node, DOF: dof.Names[k]}, "support at node %d: %s: the friction's normal %s must be supported (code %q there)", s.Node, dof.Names[k], dof.Names[ax], s.Code[ax])
				}
				if !(f.Factor >= 0) || math.IsInf(f.Factor, 0) || f.Sign < -1 || f.Sign > 1 {
					return domain.ModelErrorf(domain.ModelError{Node: s.Node, DOF: dof.Names[k]}, "support at node %d: %s: friction factor %g and normal sign %d: the factor must be zero or more and the sign −1, 0 or +1", s.Node, dof.Names[k], f.Factor, f.Sign)
				}
			}
		}
	}
	return nil
}
