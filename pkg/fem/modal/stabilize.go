package modal

import (
	"fmt"
	"math"
	"strings"

	"github.com/gusset/gusset/pkg/fem/dof"
)

// Stabilizing gives freedoms without stiffness a spring instead of failing
// on them, as static analysis does with StabilizeUnrestrainedNodes: a
// spring of 1e-8 of the largest translational (or rotational) diagonal of
// K. The mode such a freedom then has (a frequency or load factor near
// zero, if it has mass or geometric stiffness) is the user's to judge; the
// analyses warn, naming the freedoms.

// stabilizer is what a System knows about its stabilization.
type stabilizer struct {
	on         bool
	maxT, maxR float64
	done       []string // freedoms given a spring, as the user reads them
}

// Stabilize gives every equation of K whose diagonal is zero (below 1e-14
// of the largest of its kind) a spring, and makes Factor do the same at a
// zero pivot of K instead of reporting a mechanism.
func (s *System) Stabilize() {
	s.stab.on = true
	for e := range s.Equations() {
		v := s.K.Val[s.K.Pat.Diagonal(e)]
		if s.Num.EqDOF[e]%dof.PerNode < 3 {
			s.stab.maxT = math.Max(s.stab.maxT, v)
		} else {
			s.stab.maxR = math.Max(s.stab.maxR, v)
		}
	}
	for e := range s.Equations() {
		scale := s.stab.maxT
		if s.Num.EqDOF[e]%dof.PerNode >= 3 {
			scale = s.stab.maxR
		}
		if !(s.K.Val[s.K.Pat.Diagonal(e)] > 1e-14*scale) {
			s.addSpring(e)
		}
	}
}

// Stabilized lists the freedoms given a spring ("node 3 rotation about X",
// "inside member 7, rotation about X"), in the order they were found.
func (s *System) Stabilized() []string { return s.stab.done }

// StabilizedWarning is the warning an analysis gives for the freedoms
// stabilized; "" when there are none.
func (s *System) StabilizedWarning() string {
	if len(s.stab.done) == 0 {
		return ""
	}
	return "stabilizeUnrestrainedNodes: springs were added where there is no stiffness: " + strings.Join(s.stab.done, "; ") +
		" (a mode of such a freedom is an artefact of the model)"
}

// addSpring adds the stabilizing spring to equation e of K.
func (s *System) addSpring(e int) {
	scale := s.stab.maxT
	if s.Num.EqDOF[e]%dof.PerNode >= 3 {
		scale = s.stab.maxR
	}
	if scale == 0 {
		scale = math.Max(s.stab.maxT, s.stab.maxR)
	}
	if scale == 0 {
		scale = 1
	}
	s.K.Val[s.K.Pat.Diagonal(e)] += 1e-8 * scale
	s.stab.done = append(s.stab.done, s.where(e))
}

// where names the freedom of equation e as the user reads it: a node
// that Subdivide made is inside one of the user's members.
func (s *System) where(e int) string {
	g := s.Num.EqDOF[e]
	node, name := s.D.DOF.Describe(g)
	if i, ok := s.Sub.InteriorOf(g / dof.PerNode); ok {
		return fmt.Sprintf("inside member %d, %s", s.Model.Members[i].ID, name)
	}
	return fmt.Sprintf("node %d %s", node, name)
}
