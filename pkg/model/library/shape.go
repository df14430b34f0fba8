package library

// Family names the kind of outline a [Shape] describes. Member stress
// recovery needs it to know which fields of the Shape are meaningful.
type Family string

// The shape families. The comment of each says which [Shape] fields it uses
// besides D, B, Yc and Zc, which every family sets.
const (
	// FamilyI is a doubly symmetric I or H: AISC W, M, S, HP; AS UB, UC.
	// Uses Tf, Tw and R (root radius; 0 where the catalogue gives none).
	FamilyI Family = "I"
	// FamilyChannel is a channel with its web on the -z side and its toes
	// pointing to +z: AISC C, MC; AS PFC. Uses Tf, Tw, R.
	FamilyChannel Family = "Channel"
	// FamilyTee is a tee with its flange on the +y side: AISC WT, MT, ST.
	// Uses Tf, Tw.
	FamilyTee Family = "Tee"
	// FamilyAngle is a single angle with its heel at the -y,-z corner, its
	// vertical leg (length D) along y and its horizontal leg (length B) along
	// z. AISC tabulates single angles with the long leg vertical, so that is
	// the orientation used. Iy and Iz are about the geometric axes parallel to
	// the legs, not the principal axes. Uses T.
	FamilyAngle Family = "Angle"
	// FamilyDoubleAngle is two angles back to back with their vertical legs
	// (length D) along y, the outstanding legs at the -y side, and a gap Gap
	// between the backs; B is the overall width 2·leg + Gap. Uses T, Gap.
	FamilyDoubleAngle Family = "DoubleAngle"
	// FamilyHollowRect is a rectangular or square hollow section of depth D
	// (along y), width B and wall T, with outer corner radius R.
	FamilyHollowRect Family = "HollowRect"
	// FamilyHollowCircle is a circular tube of outside diameter D (= B) and
	// wall T.
	FamilyHollowCircle Family = "HollowCircle"
	// FamilySolidRect is a solid rectangle of depth D and width B.
	FamilySolidRect Family = "SolidRect"
	// FamilySolidCircle is a solid round bar of diameter D (= B).
	FamilySolidCircle Family = "SolidCircle"
)

// Shape is the outline of a section: its family and the dimensions (m) that
// stress recovery and drawing need. D and B are the overall depth (along
// local y) and width (along local z) of the bounding box; Yc and Zc locate the
// centroid from the box's -y and -z edges, so singly symmetric shapes
// (channels, tees, angles) report unequal extreme-fibre distances.
type Shape struct {
	Family Family
	D      float64 // overall depth along local y (m)
	B      float64 // overall width along local z (m)
	Tf     float64 // flange thickness (m), open shapes
	Tw     float64 // web thickness (m), open shapes
	T      float64 // wall or leg thickness (m), hollow shapes and angles
	R      float64 // root radius (open) or outer corner radius (hollow), m
	Gap    float64 // spacing between the backs of a double angle (m)
	Yc     float64 // centroid's distance from the -y edge of the box (m)
	Zc     float64 // centroid's distance from the -z edge of the box (m)
}

// Fibres are the distances (m, all ≥ 0) from the centroid to the extreme
// fibres of a section along its local axes. Bending about z stresses the
// ±y fibres, bending about y the ±z fibres.
type Fibres struct {
	YPos float64 // to the extreme fibre on the +y side ("top")
	YNeg float64 // to the extreme fibre on the -y side ("bottom")
	ZPos float64 // to the extreme fibre on the +z side
	ZNeg float64 // to the extreme fibre on the -z side
}

// ExtremeFibres returns the distances from the centroid to the extreme fibres.
// For circles the fibres are on the axes, so these are exact for bending about
// either axis; for angles they are about the geometric (leg-parallel) axes.
func (s Shape) ExtremeFibres() Fibres {
	return Fibres{
		YPos: s.D - s.Yc,
		YNeg: s.Yc,
		ZPos: s.B - s.Zc,
		ZNeg: s.Zc,
	}
}

// SectionModuli are elastic section moduli (m³): a bending moment divided by
// one of them gives the stress at that extreme fibre.
type SectionModuli struct {
	WzPos float64 // Iz / YPos: bending about z, fibre on +y
	WzNeg float64 // Iz / YNeg: bending about z, fibre on -y
	WyPos float64 // Iy / ZPos: bending about y, fibre on +z
	WyNeg float64 // Iy / ZNeg: bending about y, fibre on -z
}

// ElasticModuli returns the section's elastic moduli at its extreme fibres.
// ok is false when the section has no shape, or a fibre distance is zero,
// since no modulus can be computed then.
func (s Section) ElasticModuli() (m SectionModuli, ok bool) {
	if s.Shape == nil {
		return SectionModuli{}, false
	}
	f := s.Shape.ExtremeFibres()
	if f.YPos <= 0 || f.YNeg <= 0 || f.ZPos <= 0 || f.ZNeg <= 0 {
		return SectionModuli{}, false
	}
	return SectionModuli{
		WzPos: s.Iz / f.YPos,
		WzNeg: s.Iz / f.YNeg,
		WyPos: s.Iy / f.ZPos,
		WyNeg: s.Iy / f.ZNeg,
	}, true
}
