package domain

import (
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/shell"
)

// Plate is a flat shell element of three or four corner nodes, A, B, C[, D]
// in order around it; its normal and local axes follow package geom.
type Plate struct {
	ID       int64
	Nodes    []int64
	Material int64
	Theory   shell.Theory
	// Thickness is the actual thickness, m, which mass, self-weight and
	// the stress faces follow. Membrane, Bending and Shear are the
	// thicknesses of the three rigidities; 0 means Thickness.
	Thickness                float64
	Membrane, Bending, Shear float64
	// Offset moves the reference surface along the normal from the
	// nodes, m; it couples membrane and bending.
	Offset float64
	// Direction orients local x: by default the angle (degrees, about the
	// normal from the A→B edge); or toward a node (DirectionNode, when not 0) or along
	// a global axis (DirectionAxis, when not zero).
	DirectionAngle float64
	DirectionNode  int64
	DirectionAxis  geom.Axis
}

// PlatePressure is a uniform load per unit area on a plate, N/m². Local
// loads act along the plate's local axes; GlobalInclined ones along the
// global axes per unit area of the plate; GlobalProjected ones along the
// global axes per unit of the plate's area projected on the plane normal
// to each axis, so a component along an axis in the plate's plane has no
// effect.
type PlatePressure struct {
	Plate int64
	Axes  LoadAxes
	P     [3]float64
}

// PlateThermalLoad is a temperature change of a plate: uniform DT (K) and
// a gradient DTz through the thickness (K/m, the increase per metre along
// local +z).
type PlateThermalLoad struct {
	Plate   int64
	DT, DTz float64
}
