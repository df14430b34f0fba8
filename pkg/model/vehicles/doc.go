// Package vehicles holds gusset's built-in moving-load vehicle libraries:
// the design vehicles of AS 5100.2:2017 ("AS5100") and of the AASHTO LRFD
// Bridge Design Specifications ("AASHTO"). It is a pure domain package.
//
// # Units
//
// Everything is SI: coordinates in m, forces in N, moments in N·m, lane
// loads in N/m. AASHTO vehicles are converted from US customary units with
// the exact factors 1 kip = 4448.2216152605 N and 1 ft = 0.3048 m, so that a
// round trip through the job units (which use the same factors) gives back
// the published numbers. A vehicle crosses the HTTP edge with its
// loadUnits set to {m, N, Nm}; conversion to other units happens there.
//
// # Vehicle coordinates and sign convention
//
// A vehicle is described in its own right-handed plan frame:
//
//   - x points in the direction of travel. The leading axle is at x = 0, so
//     every other axle has a negative x; the vehicle's length is the x
//     distance from the leading to the trailing axle.
//   - y is transverse, positive to the left of a driver facing +x. The
//     vehicle's centreline is y = 0, so the two wheel lines of an axle are at
//     y = ±gauge/2.
//   - z = x × y points up.
//
// Gravity acts down, so wheel loads have Fz < 0: a 120 kN axle is two point
// loads with Fz = -60 000 N. A [LaneLoad] follows the same convention (its Fz
// is in N/m and negative). The moving-load generator maps the frame onto a
// travel path; nothing here knows about the structure.
//
// # Wheel loads
//
// The standards give axle loads; every vehicle here splits each axle into
// two equal wheel (or wheel-group) loads on two wheel lines, because a plate
// deck or grillage feels the transverse position of the wheels. The gauge is
// 2.0 m for the AS 5100 loads and 6 ft (1.8288 m) for the AASHTO loads.
// Tyre contact areas are not modelled: the loads are points at the centres
// of the contact areas.
//
// # Libraries
//
//   - "AS5100": "M1600 Tri-Axle Group", "M1600" (moving traffic load: four
//     tri-axle groups plus a 6 kN/m lane load) and "S1600" (stationary
//     traffic load: four lighter tri-axle groups plus a 24 kN/m lane load).
//     The library entries use the minimum variable group spacing, 6.25 m;
//     [M1600] and [S1600] build other spacings.
//   - "AASHTO": "HL-93 Design Truck" (variable rear axle spacing at its
//     14 ft minimum; [HL93Truck] builds others), "HL-93 Design Tandem" and
//     "HL-93 Design Lane Load" (a lane load with no point loads).
//
// Each vehicle's Source field cites the clause or figure its numbers come
// from. A miss is a [*NotFoundError] (matching [ErrNotFound]); an unknown
// library is an [*UnknownLibraryError] (matching [ErrUnknownLibrary]); a
// constructor argument out of the standard's range wraps [ErrInvalidParameter].
package vehicles
