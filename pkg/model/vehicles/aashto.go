package vehicles

import (
	"fmt"
	"math"
)

// LibraryAASHTO is the canonical name of the AASHTO LRFD library.
const LibraryAASHTO = "AASHTO"

// Vehicle names of the AASHTO library.
const (
	NameHL93Truck  = "HL-93 Design Truck"
	NameHL93Tandem = "HL-93 Design Tandem"
	NameHL93Lane   = "HL-93 Design Lane Load"
)

// Exact US customary conversions (NIST SP 811, Appendix B): the pound-force
// is defined from the avoirdupois pound and standard gravity, hence the
// 13 significant digits.
const (
	kip  = 4448.2216152605 // N
	foot = 0.3048          // m
)

// AASHTO LRFD design vehicular live load (HL-93), in SI.
const (
	// AASHTOGauge is the transverse spacing of the wheels of the design truck
	// and design tandem, 6 ft, in m.
	AASHTOGauge = 6 * foot
	// HL93MinRearSpacing and HL93MaxRearSpacing bound the design truck's
	// variable spacing between the two 32 kip axles, 14 ft and 30 ft, in m.
	HL93MinRearSpacing = 14 * foot
	HL93MaxRearSpacing = 30 * foot

	hl93FrontSpacing  = 14 * foot
	hl93TandemAxle    = 25 * kip
	hl93TandemSpacing = 4 * foot
	hl93LaneLoad      = 0.64 * kip / foot // N/m
	hl93LaneWidth     = 10 * foot

	aashtoSource = "AASHTO LRFD Bridge Design Specifications"
)

// HL93Truck returns the AASHTO HL-93 design truck with the given spacing
// between its two 32 kip axles, m: axles of 8, 32 and 32 kip (72 kip in
// all), 14 ft then rearSpacing apart, wheels 6 ft apart. The specification
// varies that spacing between 14 ft and 30 ft to produce extreme force
// effects; 14 ft governs simple spans, longer spacings the hogging over
// interior supports. An argument outside [14 ft, 30 ft] (or not finite)
// wraps [ErrInvalidParameter]. The design lane load is a separate vehicle,
// [HL93Lane], because the specification combines it with either the truck
// or the tandem.
func HL93Truck(rearSpacing float64) (Vehicle, error) {
	if math.IsNaN(rearSpacing) || rearSpacing < HL93MinRearSpacing-spacingTolerance ||
		rearSpacing > HL93MaxRearSpacing+spacingTolerance {
		return Vehicle{}, fmt.Errorf("%s rear axle spacing %g m: must lie between %g m (14 ft) and %g m (30 ft): %w",
			NameHL93Truck, rearSpacing, HL93MinRearSpacing, HL93MaxRearSpacing, ErrInvalidParameter)
	}
	axles := axlesFromSpacings([]float64{8 * kip, 32 * kip, 32 * kip}, []float64{hl93FrontSpacing, rearSpacing})
	return Vehicle{
		Name:    NameHL93Truck,
		Library: LibraryAASHTO,
		Description: fmt.Sprintf("HL-93 design truck: axles of 8, 32 and 32 kip at 14 ft and %.4g ft "+
			"(variable, 14 to 30 ft), wheels 6 ft apart", rearSpacing/foot),
		Source: aashtoSource + ", Art. 3.6.1.2.2, Fig. 3.6.1.2.2-1 (design truck)",
		Loads:  wheelLines(axles, AASHTOGauge),
	}, nil
}

// HL93Tandem returns the AASHTO HL-93 design tandem: two 25 kip axles 4 ft
// apart, wheels 6 ft apart.
func HL93Tandem() Vehicle {
	axles := axlesFromSpacings([]float64{hl93TandemAxle, hl93TandemAxle}, []float64{hl93TandemSpacing})
	return Vehicle{
		Name:        NameHL93Tandem,
		Library:     LibraryAASHTO,
		Description: "HL-93 design tandem: two 25 kip axles 4 ft apart, wheels 6 ft apart",
		Source:      aashtoSource + ", Art. 3.6.1.2.3 (design tandem)",
		Loads:       wheelLines(axles, AASHTOGauge),
	}
}

// HL93Lane returns the AASHTO HL-93 design lane load on its own: 0.64 kip/ft
// spread over a 10 ft width, with no point loads.
func HL93Lane() Vehicle {
	return Vehicle{
		Name:        NameHL93Lane,
		Library:     LibraryAASHTO,
		Description: "HL-93 design lane load: 0.64 kip/ft uniformly distributed over a 10 ft width",
		Source:      aashtoSource + ", Art. 3.6.1.2.4 (design lane load)",
		LaneLoad:    &LaneLoad{Fz: -hl93LaneLoad, Width: hl93LaneWidth},
	}
}
