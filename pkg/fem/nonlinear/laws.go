package nonlinear

import (
	"math"

	"github.com/gusset/gusset/pkg/fem/domain"
)

// The axial laws of members (package doc, "Member laws"): one-way members,
// cables, gaps and fuses. A law gives the axial force N of a member and
// its tangent dN/de from the elongation e of its chord; the theories put
// it in place of the element's linear EA/L·e (Small: by correcting the
// linear element along its chord; Finite and Large: as the basic axial
// force of the co-rotational element).

// lawKind is the kind of an axial law.
type lawKind int

const (
	lawTension     lawKind = iota + 1 // TensionOnly: N = max(ka·e, 0)
	lawCompression                    // CompressionOnly: N = min(ka·e, 0)
	lawCable                          // Cable: tension only, from its unstressed length
	lawGap                            // Gap: acts beyond its openings
	lawPlastic                        // PlasticFuse: elastic-perfectly-plastic
	lawBrittle                        // BrittleFuse: breaks at its limit
)

// axialLaw is the axial law of one member and its history. The history
// (plastic elongation, broken) has a committed value, that of the last
// converged step, and the trial value of the current iteration, which
// every evaluation derives from the committed one and the current
// elongation alone: iterations that overshoot leave no trace.
type axialLaw struct {
	kind lawKind
	// ka is the member's elastic axial stiffness EA/L over its flexible
	// length L; kc is the stiffness of the law when it acts (EA/L0 for a
	// cable, ka otherwise).
	ka, kc float64
	// slack is the elongation at which a cable becomes taut, L0 − L
	// (negative: pretensioned).
	slack float64
	// gt and gc are a gap's openings (gt: +Inf when it never acts in
	// tension); nt and nc a fuse's limits (+Inf: none).
	gt, gc float64
	nt, nc float64
	// Committed history, and the trial one of the last evaluation.
	ep, epTrial         float64
	broken, brokenTrial bool
	// kAsm is the tangent the law put in the last assembled matrix.
	kAsm float64
}

// newLaw returns the law of member fe (nil: the member is linear) or an
// error naming it when its data cannot make one.
func newLaw(fe *domain.FrameElement, mm *domain.Member) (*axialLaw, error) {
	p := fe.Props
	l := &axialLaw{ka: p.E * p.A / p.L}
	l.kc = l.ka
	bad := func(name string, v float64) error {
		if !(v >= 0) || math.IsInf(v, 0) {
			return domain.ModelErrorf(domain.ModelError{Member: mm.ID}, "member %d: %s must be zero or more, got %g", mm.ID, name, v)
		}
		return nil
	}
	noLimit := func(v float64) float64 {
		if v == 0 {
			return math.Inf(1)
		}
		return v
	}
	switch mm.Type {
	case domain.TensionOnly:
		l.kind = lawTension
	case domain.CompressionOnly:
		l.kind = lawCompression
	case domain.Cable:
		if err := bad("the cable length", mm.CableLength); err != nil {
			return nil, err
		}
		l.kind = lawCable
		if l0 := mm.CableLength; l0 > 0 {
			l.kc = p.E * p.A / l0
			l.slack = l0 - p.L
		}
	case domain.Gap:
		if err := bad("the gap tension opening", mm.GapTension); err != nil {
			return nil, err
		}
		if err := bad("the gap compression opening", mm.GapCompression); err != nil {
			return nil, err
		}
		l.kind, l.gt, l.gc = lawGap, noLimit(mm.GapTension), mm.GapCompression
	}
	if mm.Fuse != domain.NoFuse {
		if l.kind != 0 {
			return nil, domain.ModelErrorf(domain.ModelError{Member: mm.ID}, "member %d: a fuse must be a frame or truss member, not a one-way member", mm.ID)
		}
		if err := bad("the fuse tension limit", mm.FuseTension); err != nil {
			return nil, err
		}
		if err := bad("the fuse compression limit", mm.FuseCompression); err != nil {
			return nil, err
		}
		switch mm.Fuse {
		case domain.PlasticFuse:
			l.kind = lawPlastic
		case domain.BrittleFuse:
			l.kind = lawBrittle
		default:
			return nil, domain.ModelErrorf(domain.ModelError{Member: mm.ID}, "member %d: unknown fuse kind %d", mm.ID, mm.Fuse)
		}
		l.nt, l.nc = noLimit(mm.FuseTension), noLimit(mm.FuseCompression)
	}
	if l.kind == 0 {
		return nil, nil
	}
	return l, nil
}

// newLaws returns the law of every frame of d (nil entries: linear), or
// nil when no member has one.
func newLaws(d *domain.Domain) ([]*axialLaw, error) {
	var out []*axialLaw
	for i, fe := range d.Frames {
		l, err := newLaw(fe, &d.Model.Members[i])
		if err != nil {
			return nil, err
		}
		if l == nil {
			continue
		}
		if out == nil {
			out = make([]*axialLaw, len(d.Frames))
		}
		out[i] = l
	}
	return out, nil
}

// eval returns the axial force n (tension positive) and the tangent kt of
// chord elongation e, and gone when a brittle fuse is broken (the member
// takes no part at all). initial selects the elastic tangent kc for the
// first tangent of the analysis, so that one-way members that start slack
// (or gaps that start open) take part in the first, linear, solution.
func (l *axialLaw) eval(e float64, initial bool) (n, kt float64, gone bool) {
	l.epTrial, l.brokenTrial = l.ep, l.broken
	switch l.kind {
	case lawTension:
		n, kt = math.Max(l.ka*e, 0), active(e >= 0, l.ka)
	case lawCompression:
		n, kt = math.Min(l.ka*e, 0), active(e <= 0, l.ka)
	case lawCable:
		n, kt = math.Max(l.kc*(e-l.slack), 0), active(e >= l.slack, l.kc)
	case lawGap:
		switch {
		case e > l.gt:
			n, kt = l.ka*(e-l.gt), l.ka
		case e <= -l.gc:
			n, kt = l.ka*(e+l.gc), l.ka
		}
	case lawPlastic:
		n, kt = l.ka*(e-l.ep), l.ka
		switch {
		case n > l.nt:
			n, kt = l.nt, 0
			l.epTrial = e - l.nt/l.ka
		case n < -l.nc:
			n, kt = -l.nc, 0
			l.epTrial = e + l.nc/l.ka
		}
	case lawBrittle:
		n, kt = l.ka*e, l.ka
		if l.broken || n > l.nt || n < -l.nc {
			l.brokenTrial = true
			return 0, 0, true
		}
	}
	if initial {
		kt = l.kc
	}
	return n, kt, false
}

// differs records kt, the tangent of an evaluation (0 for a broken fuse),
// as that of the assembled matrix when assembled is set, and otherwise
// reports whether it differs from it: a secant matrix is then out of date
// (a gap that closed, a member that went slack, a fuse that yielded or
// broke), and modified Newton iterations on it may diverge.
func (l *axialLaw) differs(kt float64, assembled bool) bool {
	if assembled {
		l.kAsm = kt
		return false
	}
	return kt != l.kAsm
}

// active returns k when on, else 0.
func active(on bool, k float64) float64 {
	if on {
		return k
	}
	return 0
}

// commit makes the trial history of the last evaluation (that of the
// converged state) the committed one.
func (l *axialLaw) commit() { l.ep, l.broken = l.epTrial, l.brokenTrial }

// commitLaws commits every law of laws.
func commitLaws(laws []*axialLaw) {
	for _, l := range laws {
		if l != nil {
			l.commit()
		}
	}
}
