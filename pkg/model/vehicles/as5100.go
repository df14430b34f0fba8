package vehicles

import (
	"fmt"
	"math"
)

// LibraryAS5100 is the canonical name of the AS 5100.2:2017 library.
const LibraryAS5100 = "AS5100"

// Vehicle names of the AS5100 library.
const (
	NameM1600TriAxle = "M1600 Tri-Axle Group"
	NameM1600        = "M1600"
	NameS1600        = "S1600"
)

// AS 5100.2:2017 road traffic design loads. All four tri-axle groups of the
// M1600 and S1600 loads share one geometry; only the axle load differs.
const (
	// AS5100Gauge is the transverse distance between the two wheel groups of
	// an M1600 or S1600 axle, m.
	AS5100Gauge = 2.0
	// AS5100AxleSpacing is the spacing of the axles within a tri-axle group, m.
	AS5100AxleSpacing = 1.25
	// AS5100MinVariableSpacing is the smallest variable spacing between the
	// second and third tri-axle groups of the M1600 and S1600 loads, m.
	AS5100MinVariableSpacing = 6.25
	// AS5100LaneWidth is the width over which the M1600 and S1600 lane loads
	// are spread, m.
	AS5100LaneWidth = 3.2

	m1600Axle = 120e3 // N, so 360 kN per tri-axle group
	s1600Axle = 80e3  // N, so 240 kN per tri-axle group
	m1600UDL  = 6e3   // N/m
	s1600UDL  = 24e3  // N/m

	// Axle-to-axle gaps between the first and second, and the third and
	// fourth, tri-axle groups, read from the leading group back.
	as5100FrontGap = 3.75
	as5100RearGap  = 5.0

	as5100Source = "AS 5100.2:2017 Bridge design - Design loads"
)

// M1600TriAxle returns one M1600 tri-axle group on its own: three 120 kN
// axles at 1.25 m (360 kN), each split into two 60 kN wheel groups 2.0 m
// apart.
func M1600TriAxle() Vehicle {
	axles := axlesFromSpacings(repeat(m1600Axle, 3), repeat(AS5100AxleSpacing, 2))
	return Vehicle{
		Name:    NameM1600TriAxle,
		Library: LibraryAS5100,
		Description: "M1600 tri-axle group: three 120 kN axles at 1.25 m (360 kN), " +
			"wheel groups 2.0 m apart",
		Source: as5100Source + ", Cl. 7.2.4, Fig. 7.2.4(A) (M1600 tri-axle group)",
		Loads:  wheelLines(axles, AS5100Gauge),
	}
}

// M1600 returns the M1600 moving traffic load with the given variable
// spacing, m: four tri-axle groups of three 120 kN axles (1440 kN in all)
// plus a 6 kN/m lane load over 3.2 m. Axle-to-axle gaps between the groups,
// from the leading group back, are 3.75 m, variableSpacing and 5.0 m.
//
// The standard lets the variable spacing take any value from 6.25 m up,
// whichever is most adverse. The minimum gathers the most load on the
// shortest length and so governs positive moments and shears on most spans;
// longer spacings can govern where the groups must straddle a region, such
// as hogging over a pier of a continuous bridge, which is why the spacing is
// a parameter. An argument below 6.25 m (or not finite) wraps
// [ErrInvalidParameter].
func M1600(variableSpacing float64) (Vehicle, error) {
	if err := checkVariableSpacing(NameM1600, variableSpacing); err != nil {
		return Vehicle{}, err
	}
	return Vehicle{
		Name:    NameM1600,
		Library: LibraryAS5100,
		Description: fmt.Sprintf("M1600 moving traffic load: four tri-axle groups of three 120 kN axles "+
			"at 1.25 m, group gaps 3.75 m, %g m (variable, min 6.25 m) and 5.0 m, wheel groups 2.0 m apart; "+
			"with a 6 kN/m lane load over 3.2 m", variableSpacing),
		Source:   as5100Source + ", Cl. 7.2.4, Fig. 7.2.4(B) (M1600 moving traffic load)",
		Loads:    wheelLines(as5100Axles(m1600Axle, variableSpacing), AS5100Gauge),
		LaneLoad: &LaneLoad{Fz: -m1600UDL, Width: AS5100LaneWidth},
	}, nil
}

// S1600 returns the S1600 stationary traffic load with the given variable
// spacing, m: the M1600 geometry with 80 kN axles (240 kN per group, 960 kN
// in all) plus a 24 kN/m lane load over 3.2 m. The spacing rules are those
// of [M1600].
func S1600(variableSpacing float64) (Vehicle, error) {
	if err := checkVariableSpacing(NameS1600, variableSpacing); err != nil {
		return Vehicle{}, err
	}
	return Vehicle{
		Name:    NameS1600,
		Library: LibraryAS5100,
		Description: fmt.Sprintf("S1600 stationary traffic load: four tri-axle groups of three 80 kN axles "+
			"at 1.25 m, group gaps 3.75 m, %g m (variable, min 6.25 m) and 5.0 m, wheel groups 2.0 m apart; "+
			"with a 24 kN/m lane load over 3.2 m", variableSpacing),
		Source:   as5100Source + ", Cl. 7.2.5, Fig. 7.2.5 (S1600 stationary traffic load)",
		Loads:    wheelLines(as5100Axles(s1600Axle, variableSpacing), AS5100Gauge),
		LaneLoad: &LaneLoad{Fz: -s1600UDL, Width: AS5100LaneWidth},
	}, nil
}

// as5100Axles lays out the twelve axles of the M1600/S1600 loads.
func as5100Axles(axleLoad, variableSpacing float64) []axle {
	s := AS5100AxleSpacing
	spacings := []float64{s, s, as5100FrontGap, s, s, variableSpacing, s, s, as5100RearGap, s, s}
	return axlesFromSpacings(repeat(axleLoad, 12), spacings)
}

// spacingTolerance absorbs the rounding of a spacing computed in other units
// (e.g. 14 ft typed as 14 × 0.3048), so that the published minimum itself is
// never rejected.
const spacingTolerance = 1e-9

func checkVariableSpacing(name string, s float64) error {
	if math.IsNaN(s) || math.IsInf(s, 0) || s < AS5100MinVariableSpacing-spacingTolerance {
		return fmt.Errorf("%s variable spacing %g m: must be at least %g m: %w",
			name, s, AS5100MinVariableSpacing, ErrInvalidParameter)
	}
	return nil
}
