// Package movingload turns the moving-load data of a job (vehicles,
// pressures, travel paths and scenarios) into the loads of one load case
// per time step. It is pure domain code: the caller reads the model, hands
// it over as an [Input] and writes the [Step] loads it gets back as load
// cases; nothing here knows about storage or transport.
//
// # Units and frames
//
// Everything is SI: lengths in m, forces in N, moments in N·m, pressures in
// Pa, speeds in m/s and times in s. Forces and moments come back in global
// components.
//
// "Up" is the job's vertical axis (global +Y or +Z). The plan is the plane
// normal to it, and plan coordinates are (X, Z) when Y is up and (X, Y) when
// Z is up; the loaded-area polygon is given in them. Vertical distances
// (verticalProximity) are measured along up.
//
// # Travel paths
//
// A path is the polyline through its stations, in 3-D. A station with a
// radius R > 0 that is not the first or last one rounds its corner with a
// circular arc of radius R tangent to both adjacent segments, in their
// plane; the arc starts and ends R·tan(φ/2) from the station, where φ is
// the turn angle. Distances s along a path are arc lengths from the first
// station. Beyond its ends a path continues along its end tangents, so a
// vehicle can approach a path and leave it.
//
// # Placing a load
//
// A vehicle's frame is mapped onto the path at each wheel: the wheel at
// vehicle (x, y) sits at distance s + x along the path, offset y along the
// path's left normal there (up × tangent), where s is the position of the
// vehicle's leading axle (x = 0). Wheel forces map the same way: x along the
// horizontal part of the tangent, y along the left normal, z along up, so a
// wheel load with fz < 0 pushes down whatever the vertical axis. A pressure
// is a patch width wide (centred on the path) and length long, its leading
// edge at s. On plates it is drawn as straight-sided strips that follow the
// path (one per straight piece, pieces no longer than loadSpacing round a
// bend). On members it is split into cells no longer and no wider than
// loadSpacing, and each cell becomes a point load p·area at its centre.
// Pressures are per plan area.
//
// # Stepping
//
// Time runs t = k·timeInterval, k = 0, 1, .... A load's leading point sits
// at startPosition until its delay has passed, then moves at speed:
// s(t) = startPosition + speed·max(0, t − delay). A load with speed 0 is
// stationary: generateStationaryLc StartingLoadCase puts it in the
// scenario's first case only, AllLoadCases in every case. Stepping stops
// once every moving load has passed the end of its path. A case is made for
// each step at which at least one of the step's loads lies (at least
// partly) on its path; a load off its path at a step is not placed. A
// scenario of stationary loads alone makes one case.
//
// # Applying loads to the elements to load
//
// A point load is kept only when it passes the settings' filters:
// keepLoadsWithinTravelPath drops a load whose distance along its path is
// outside [0, length]; ignoreOutsideLoadedArea drops a load whose plan
// position is outside the loaded-area polygon (an empty polygon drops
// nothing). checkVerticalProximity ignores elements more than
// verticalProximity above or below the load.
//
//   - Plates first: a load inside a selected plate's plan outline is shared
//     among the plate's corner nodes by the plate's shape functions at that
//     point (its consistent nodal loads, as node loads). Where plates are
//     stacked the vertically nearest one takes it.
//   - Otherwise members. With applyToClosestMember the member nearest in
//     plan takes the whole load as a concentrated load at the nearest point.
//     Otherwise the load is shared by the lever rule between the nearest
//     member and the nearest member on the other side of the load (sides
//     measured across the nearest member): each takes the share of the load
//     in proportion to its distance from the other. A load with a member on
//     one side only goes to that member, unless ignoreLoadsOnOneMember is
//     set, when it is dropped. Either way the load is moved sideways onto
//     the members without the moment of that shift.
//   - A member takes only loads beside it (their plan projection on its
//     line within its ends); a load that finds no element is dropped.
//
// A pressure on plates is not discretised into points: each strip is
// clipped by the loaded area (when ignoreOutsideLoadedArea) and by every
// selected plate. A plate the pressure covers whole gets a plate pressure
// load (global components per true area, scaled so that the force equals
// the pressure times the plan area); a plate it covers in part gets the
// consistent nodal loads of the covered part, integrated over it. Either
// way the total force is the pressure times the covered plan area.
//
// Every load is scaled by the scenario load's loadFactor × laneFactor ×
// dynamicFactor.
package movingload
