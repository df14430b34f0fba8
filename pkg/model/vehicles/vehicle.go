package vehicles

import "math"

// PointLoad is one load of a vehicle, at (X, Y) in the vehicle's plan frame
// (m), with forces in N and moments in N·m about the vehicle's axes. See the
// package documentation for the frame and the sign convention (Fz < 0 is
// down).
type PointLoad struct {
	X, Y       float64
	Fx, Fy, Fz float64
	Mx, My, Mz float64
}

// LaneLoad is a uniformly distributed load that accompanies a design vehicle
// along its lane, such as the 6 kN/m of the AS 5100 M1600 moving traffic
// load or the AASHTO design lane load. It is a line load per metre of lane,
// spread uniformly across Width; the standards let it be placed (and broken)
// along the lane wherever it is adverse, so its extent is left to the
// moving-load generator rather than fixed here.
type LaneLoad struct {
	// Fz is the load per unit length of lane, N/m; negative is down, as for
	// PointLoad.Fz.
	Fz float64
	// Width is the transverse width over which Fz is spread, m, centred on
	// the vehicle's centreline (y = 0).
	Width float64
}

// Vehicle is a library design vehicle in SI units.
type Vehicle struct {
	// Name is the vehicle's name within its library, e.g. "M1600".
	Name string
	// Library is the canonical name of the library, e.g. "AS5100".
	Library string
	// Description says what the vehicle is, with its published loads and
	// spacings, for display.
	Description string
	// Source cites the standard, clause and figure the numbers come from.
	Source string
	// Loads are the wheel loads; empty for a lane load alone.
	Loads []PointLoad
	// LaneLoad is the accompanying uniformly distributed lane load, or nil
	// when the design vehicle has none.
	LaneLoad *LaneLoad
}

// TotalFz returns the sum of the point loads' Fz, N (negative for gravity
// loads). The lane load is excluded because its total depends on the loaded
// length.
func (v Vehicle) TotalFz() float64 {
	var s float64
	for _, l := range v.Loads {
		s += l.Fz
	}
	return s
}

// Length returns the x distance between the leading and trailing loads, m;
// zero for a single axle or a lane load alone.
func (v Vehicle) Length() float64 {
	if len(v.Loads) == 0 {
		return 0
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, l := range v.Loads {
		lo = math.Min(lo, l.X)
		hi = math.Max(hi, l.X)
	}
	return hi - lo
}

// axle is one axle of a vehicle before it is split into wheel lines: its x
// and its total (positive, downward) load in N.
type axle struct {
	x, load float64
}

// axlesFromSpacings places axles of the given loads behind a leading axle at
// x = 0; spacings[i] is the distance between axle i and axle i+1. Building
// positions from published spacings, rather than typing coordinates, keeps
// each vehicle's code a transcription of its figure.
func axlesFromSpacings(loads, spacings []float64) []axle {
	out := make([]axle, len(loads))
	x := 0.0
	for i, w := range loads {
		if i > 0 {
			x -= spacings[i-1]
		}
		out[i] = axle{x: x, load: w}
	}
	return out
}

// wheelLines splits each axle into two equal downward wheel loads at
// y = ±gauge/2, left wheel first.
func wheelLines(axles []axle, gauge float64) []PointLoad {
	out := make([]PointLoad, 0, 2*len(axles))
	for _, a := range axles {
		out = append(out,
			PointLoad{X: a.x, Y: gauge / 2, Fz: -a.load / 2},
			PointLoad{X: a.x, Y: -gauge / 2, Fz: -a.load / 2})
	}
	return out
}

// repeat returns n copies of v.
func repeat(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}
