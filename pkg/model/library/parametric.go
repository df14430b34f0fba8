package library

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Parametric section names give the shape keyword and its dimensions in mm,
// separated by "x" (case, spaces and "×" do not matter):
//
//	RECT d x b        solid rectangle, depth d along y, width b along z
//	RHS  d x b x t    hollow rectangle with sharp corners, wall t (alias BOX)
//	ROUND D           solid round bar (aliases CIRCLE, ROD)
//	TUBE D x t        circular tube, wall t (aliases CHS, PIPE)
//
// e.g. "RECT 300x200", "RHS 300x200x10", "ROUND 100", "TUBE 100x5". The
// canonical name LookupSection returns uses the first keyword of each line.
// The parametric RHS has sharp corners; catalogue hollow sections with their
// corner radii are in "Aust300".
var parametricName = regexp.MustCompile(`^([A-Z]+)(\d+(?:\.\d+)?(?:X\d+(?:\.\d+)?)*)$`)

// parametricKinds maps each accepted keyword to its canonical keyword and the
// number of dimensions it takes.
var parametricKinds = map[string]struct {
	canonical string
	dims      int
}{
	"RECT": {"RECT", 2}, "RECTANGLE": {"RECT", 2},
	"RHS": {"RHS", 3}, "BOX": {"RHS", 3},
	"ROUND": {"ROUND", 1}, "CIRCLE": {"ROUND", 1}, "ROD": {"ROUND", 1},
	"TUBE": {"TUBE", 2}, "CHS": {"TUBE", 2}, "PIPE": {"TUBE", 2},
}

func lookupParametric(name string) (Section, error) {
	s := strings.ToUpper(strings.Join(strings.Fields(name), ""))
	s = strings.ReplaceAll(s, "×", "X")
	m := parametricName.FindStringSubmatch(s)
	if m == nil {
		return Section{}, &NotFoundError{Kind: "section", Library: LibParametric, Name: name}
	}
	kind, ok := parametricKinds[m[1]]
	parts := strings.Split(m[2], "X")
	if !ok || len(parts) != kind.dims {
		return Section{}, &NotFoundError{Kind: "section", Library: LibParametric, Name: name}
	}
	dims := make([]float64, len(parts))
	for i, p := range parts {
		v, err := strconv.ParseFloat(p, 64)
		if err != nil {
			return Section{}, &NotFoundError{Kind: "section", Library: LibParametric, Name: name}
		}
		dims[i] = v * 1e-3
	}
	switch kind.canonical {
	case "RECT":
		return NewRect(dims[0], dims[1])
	case "RHS":
		return NewHollowRect(dims[0], dims[1], dims[2])
	case "ROUND":
		return NewRound(dims[0])
	default:
		return NewTube(dims[0], dims[1])
	}
}

// mmName formats lengths given in m as the mm numbers of a parametric name,
// rounded to the nanometre so that binary noise does not show.
func mmName(keyword string, dims ...float64) string {
	parts := make([]string, len(dims))
	for i, d := range dims {
		parts[i] = strconv.FormatFloat(math.Round(d*1e9)/1e6, 'f', -1, 64)
	}
	return keyword + " " + strings.Join(parts, "x")
}

func invalid(name, format string, args ...any) error {
	return fmt.Errorf("parametric section %q: %s: %w", name, fmt.Sprintf(format, args...), ErrInvalidDimensions)
}

func positive(name string, dims ...float64) error {
	for _, d := range dims {
		if !(d > 0) || math.IsInf(d, 0) {
			return invalid(name, "dimensions must be positive and finite")
		}
	}
	return nil
}

func parametricSection(name string, p props, sh Shape) Section {
	sh.Yc, sh.Zc = p.Yc, p.Zc
	return Section{
		Name: name, Library: LibParametric,
		A: p.A, J: p.J, Iy: p.Iy, Iz: p.Iz, Ay: p.Ay, Az: p.Az,
		Shape: &sh,
	}
}

// NewRect returns a solid rectangle of depth d (along y) and width b, in m.
// J is the exact St Venant series; shear areas are 5/6·A.
func NewRect(d, b float64) (Section, error) {
	name := mmName("RECT", d, b)
	if err := positive(name, d, b); err != nil {
		return Section{}, err
	}
	return parametricSection(name, solidRectProps(d, b), Shape{Family: FamilySolidRect, D: d, B: b}), nil
}

// NewHollowRect returns a hollow rectangle with sharp corners: depth d,
// width b, wall t, in m. J is Bredt–Batho on the mid-wall line plus the walls'
// St Venant term (as for Aust300 RHS, with zero corner radius); shear areas
// split A in proportion to the walls parallel to the shear.
func NewHollowRect(d, b, t float64) (Section, error) {
	name := mmName("RHS", d, b, t)
	if err := positive(name, d, b, t); err != nil {
		return Section{}, err
	}
	if 2*t >= math.Min(d, b) {
		return Section{}, invalid(name, "wall must be less than half of the smaller side")
	}
	return parametricSection(name, hollowRectProps(d, b, t, 0),
		Shape{Family: FamilyHollowRect, D: d, B: b, T: t}), nil
}

// NewRound returns a solid round bar of diameter dia (m); properties exact,
// shear areas 0.9·A.
func NewRound(dia float64) (Section, error) {
	name := mmName("ROUND", dia)
	if err := positive(name, dia); err != nil {
		return Section{}, err
	}
	return parametricSection(name, solidCircleProps(dia), Shape{Family: FamilySolidCircle, D: dia, B: dia}), nil
}

// NewTube returns a circular tube of outside diameter dia and wall t (m);
// properties exact, shear areas A/2.
func NewTube(dia, t float64) (Section, error) {
	name := mmName("TUBE", dia, t)
	if err := positive(name, dia, t); err != nil {
		return Section{}, err
	}
	if 2*t >= dia {
		return Section{}, invalid(name, "wall must be less than the radius (use ROUND for a solid bar)")
	}
	return parametricSection(name, tubeProps(dia, t), Shape{Family: FamilyHollowCircle, D: dia, B: dia, T: t}), nil
}
