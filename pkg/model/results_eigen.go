package model

// The rows of the buckling and dynamic-frequency result queries, in SI.
// Load factors, frequencies (Hz), periods (s) and mass participation
// (percent) have no unit in the job unit systems and are shown as they
// are. Mode shapes are relative: their scale is the normalization's (see
// ModeShapeRow), so they are never converted either.

// Axes of the largest translation and rotation of a buckling mode.
const (
	AxisX = "X"
	AxisY = "Y"
	AxisZ = "Z"
)

// Normalizations of mode shapes.
const (
	NormalizeMass = "Mass"
	NormalizeUnit = "Unit"
	NormalizeNone = "None"
)

// BucklingLoadFactorRow is one row of buckling/load-factors: one mode of
// one load case.
type BucklingLoadFactorRow struct {
	LoadCase       int64   `json:"loadCase"`
	Mode           int     `json:"mode" doc:"1 for the smallest load factor"`
	Warning        string  `json:"warning" doc:"empty, or why the mode should not be trusted (not converged to the tolerance)"`
	LoadFactor     float64 `json:"loadFactor" doc:"multiplier of the case's loads at which the structure buckles in this mode"`
	Tolerance      float64 `json:"tolerance" doc:"relative residual the mode converged to"`
	Iterations     int     `json:"iterations" doc:"Lanczos steps of the case"`
	NodeAtMaxTrans int64   `json:"nodeAtMaxTrans" doc:"node with the largest translation of the mode shape; 0 when no node translates (the shape bends members between nodes that stay put)"`
	TransAxis      string  `json:"transAxis" enum:"X|Y|Z|" doc:"global axis of that translation; empty with node 0"`
	NodeAtMaxRotn  int64   `json:"nodeAtMaxRotn" doc:"node with the largest rotation of the mode shape; 0 when no node rotates"`
	RotnAxis       string  `json:"rotnAxis" enum:"X|Y|Z|" doc:"global axis of that rotation; empty with node 0"`
}

// EffectiveLengthRow is one row of buckling/member-effective-lengths: one
// member in one mode of one load case. For a member in compression Pcr is
// the load factor times its axial force, and ly, lz are π·√(E·I/Pcr) about
// the section's principal axes y and z. Other members carry an
// exclusionReason and zeros.
type EffectiveLengthRow struct {
	LoadCase        int64   `json:"loadCase"`
	Mode            int     `json:"mode"`
	Member          int64   `json:"member"`
	Pcr             float64 `json:"pcr" unit:"force" doc:"critical axial force: load factor × the member's most compressive axial force"`
	Length          float64 `json:"length" unit:"length" doc:"member length between its rigid offsets"`
	Ly              float64 `json:"ly" unit:"length" doc:"effective length for buckling about the principal axis y"`
	Lz              float64 `json:"lz" unit:"length" doc:"effective length for buckling about the principal axis z"`
	ExclusionReason string  `json:"exclusionReason" doc:"empty for a member in compression; otherwise why it has no effective length (in tension, no axial force)"`
}

// NaturalFrequencyRow is one row of dynamic/natural-frequencies: one mode
// of one load case. Mass participation is the percentage of the
// structure's whole mass along a global axis (supported nodes included)
// that the mode moves; the sums run over modes 1 to this one.
type NaturalFrequencyRow struct {
	LoadCase           int64   `json:"loadCase"`
	Mode               int     `json:"mode" doc:"1 for the lowest frequency"`
	Warning            string  `json:"warning" doc:"empty, or why the mode should not be trusted (not converged to the tolerance)"`
	NaturalFrequency   float64 `json:"naturalFrequency" doc:"Hz"`
	NaturalPeriod      float64 `json:"naturalPeriod" doc:"s; 0 for a zero frequency"`
	FrequencyTolerance float64 `json:"frequencyTolerance" doc:"relative residual the mode converged to"`
	Iterations         int     `json:"iterations" doc:"Lanczos steps of the case"`
	MassPartX          float64 `json:"massPartX" doc:"percent of the mass along global X"`
	MassPartY          float64 `json:"massPartY" doc:"percent of the mass along global Y"`
	MassPartZ          float64 `json:"massPartZ" doc:"percent of the mass along global Z"`
	MassPartSumX       float64 `json:"massPartSumX" doc:"massPartX summed over modes 1 to this one, percent"`
	MassPartSumY       float64 `json:"massPartSumY" doc:"massPartY summed over modes 1 to this one, percent"`
	MassPartSumZ       float64 `json:"massPartSumZ" doc:"massPartZ summed over modes 1 to this one, percent"`
}

// ModeShapeRow is one row of dynamic/mode-shapes (and buckling/mode-shapes):
// the shape of one mode of one load case at the selected nodes, arrays
// over the nodes, global axes. Mass: φᵀ·M·φ = 1, so translations are in
// m/√kg and rotations in rad/√kg whatever the job units; Unit: the largest
// translation is +1 (the largest rotation when no node translates beyond
// round-off); None: as the eigensolver returns them (frequencies:
// mass-normalized, with an arbitrary sign). Buckling shapes are Unit.
type ModeShapeRow struct {
	LoadCase      int64     `json:"loadCase"`
	Mode          int       `json:"mode"`
	Node          []int64   `json:"node"`
	Tx            []float64 `json:"tx"`
	Ty            []float64 `json:"ty"`
	Tz            []float64 `json:"tz"`
	Rx            []float64 `json:"rx"`
	Ry            []float64 `json:"ry"`
	Rz            []float64 `json:"rz"`
	Normalization string    `json:"normalization" enum:"Mass|Unit|None"`
}
