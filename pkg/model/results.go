package model

// The rows of the static result queries (as the interface names it), in SI. Their
// `unit` tags name each quantity, so that the HTTP edge shows them in the
// job units and describes them in the query metadata. Rotations are
// radians, and stay radians in every unit system.
//
// Sign conventions (package fem/static): displacements and reactions in
// global axes, positive along the axes; a reaction is the force the support
// exerts on the node. Member end forces are in member local axes: the
// forces the nodes exert on the member ends. Intermediate forces are the
// actions of the part of the member beyond the station on the part before
// it: N (fx) > 0 is tension; Mz is positive for tension at local −y.

// NodeDisplacementRow is one row of node-displacements.
type NodeDisplacementRow struct {
	LoadCase int64   `json:"loadCase"`
	Node     int64   `json:"node"`
	Tx       float64 `json:"tx" unit:"translation"`
	Ty       float64 `json:"ty" unit:"translation"`
	Tz       float64 `json:"tz" unit:"translation"`
	Rx       float64 `json:"rx" doc:"radians"`
	Ry       float64 `json:"ry" doc:"radians"`
	Rz       float64 `json:"rz" doc:"radians"`
}

// NodeReactionRow is one row of node-reactions.
type NodeReactionRow struct {
	LoadCase int64   `json:"loadCase"`
	Node     int64   `json:"node"`
	Fx       float64 `json:"fx" unit:"force"`
	Fy       float64 `json:"fy" unit:"force"`
	Fz       float64 `json:"fz" unit:"force"`
	Mx       float64 `json:"mx" unit:"moment"`
	My       float64 `json:"my" unit:"moment"`
	Mz       float64 `json:"mz" unit:"moment"`
}

// Summary types of reaction-summary rows.
const (
	SummaryLoad     = "Load"
	SummaryReaction = "Reaction"
	SummaryResidual = "Residual"
)

// ReactionSummaryRow is one row of reaction-summary: per load case the
// resultant of the applied loads (Load), of the reactions (Reaction) and
// their sum, the out-of-balance (Residual), each about the global origin.
type ReactionSummaryRow struct {
	LoadCase    int64   `json:"loadCase"`
	SummaryType string  `json:"summaryType" enum:"Load|Reaction|Residual"`
	Fx          float64 `json:"fx" unit:"force"`
	Fy          float64 `json:"fy" unit:"force"`
	Fz          float64 `json:"fz" unit:"force"`
	Mx          float64 `json:"mx" unit:"moment"`
	My          float64 `json:"my" unit:"moment"`
	Mz          float64 `json:"mz" unit:"moment"`
}

// MemberEndForcesRow is one row of member-end-forces: arrays over ends A
// and B.
type MemberEndForcesRow struct {
	LoadCase         int64     `json:"loadCase"`
	Member           int64     `json:"member"`
	Node             []int64   `json:"node"`
	Fx               []float64 `json:"fx" unit:"force"`
	Fy               []float64 `json:"fy" unit:"force"`
	Fz               []float64 `json:"fz" unit:"force"`
	Mx               []float64 `json:"mx" unit:"moment"`
	My               []float64 `json:"my" unit:"moment"`
	Mz               []float64 `json:"mz" unit:"moment"`
	FinalCableLength []float64 `json:"finalCableLength" unit:"length" doc:"Cable members of non-linear results: one value, the stretched length L0·(1 + N/EA) (the chord when taut; L0, the unstressed cableLength or the initial length when it is 0, when slack); empty for other members and linear results"`
}

// MemberForcesRow is one row of member-intermediate-forces: arrays over
// the stations of the member.
type MemberForcesRow struct {
	LoadCase int64     `json:"loadCase"`
	Member   int64     `json:"member"`
	Station  []int     `json:"station" doc:"station number, 1 at end A"`
	Location []float64 `json:"location" unit:"length" doc:"distance from end A along the flexible length"`
	Fx       []float64 `json:"fx" unit:"force" doc:"axial force N, tension positive"`
	Fy       []float64 `json:"fy" unit:"force"`
	Fz       []float64 `json:"fz" unit:"force"`
	Mx       []float64 `json:"mx" unit:"moment"`
	My       []float64 `json:"my" unit:"moment"`
	Mz       []float64 `json:"mz" unit:"moment"`
}

// MemberDisplacementsRow is one row of member-intermediate-displacements.
type MemberDisplacementsRow struct {
	LoadCase int64     `json:"loadCase"`
	Member   int64     `json:"member"`
	Station  []int     `json:"station"`
	Location []float64 `json:"location" unit:"length"`
	TxGlobal []float64 `json:"txGlobal" unit:"translation"`
	TyGlobal []float64 `json:"tyGlobal" unit:"translation"`
	TzGlobal []float64 `json:"tzGlobal" unit:"translation"`
	TxLocal  []float64 `json:"txLocal" unit:"translation"`
	TyLocal  []float64 `json:"tyLocal" unit:"translation"`
	TzLocal  []float64 `json:"tzLocal" unit:"translation"`
}

// MemberStressesRow is one row of member-stresses. Top and bottom are the
// extreme fibres at +y/−y (Mz) and +z/−z (My) of the section; without
// fibre distances the bending stresses are zero.
type MemberStressesRow struct {
	LoadCase int64     `json:"loadCase"`
	Member   int64     `json:"member"`
	Station  []int     `json:"station"`
	Position []float64 `json:"position" unit:"length"`
	N        []float64 `json:"n" unit:"stress" doc:"N/A"`
	Vy       []float64 `json:"vy" unit:"stress" doc:"Vy/Ay (A when Ay is 0)"`
	Vz       []float64 `json:"vz" unit:"stress"`
	Mx       []float64 `json:"mx" unit:"stress" doc:"not computed: the sections carry no torsion modulus, so this is 0"`
	MyTop    []float64 `json:"myTop" unit:"stress"`
	MyBtm    []float64 `json:"myBtm" unit:"stress"`
	MzTop    []float64 `json:"mzTop" unit:"stress"`
	MzBtm    []float64 `json:"mzBtm" unit:"stress"`
	NMyTop   []float64 `json:"nMyTop" unit:"stress"`
	NMyBtm   []float64 `json:"nMyBtm" unit:"stress"`
	NMzTop   []float64 `json:"nMzTop" unit:"stress"`
	NMzBtm   []float64 `json:"nMzBtm" unit:"stress"`
}

// ResultsWarnings is the warnings object of the query envelope.
type ResultsWarnings struct {
	LoadCasesNotAnalyzed string          `json:"loadCasesNotAnalyzed"`
	ModesNotAnalyzed     []ModesNotFound `json:"modesNotAnalyzed"`
}

// ModesNotFound lists the modes of one case without results.
type ModesNotFound struct {
	LoadCase int64  `json:"loadCase"`
	Modes    string `json:"modes"`
}

// ResultsInfo is the results info record of an analysis kind.
type ResultsInfo struct {
	HasResults  bool              `json:"hasResults"`
	LoadCases   []CaseResultsInfo `json:"loadCases"`
	NotAnalyzed string            `json:"notAnalyzed,omitempty"`
}

// CaseResultsInfo says whether one load case has results.
type CaseResultsInfo struct {
	LoadCase    int64  `json:"loadCase"`
	HasResults  bool   `json:"hasResults"`
	Solver      string `json:"solver"`
	IsNonLinear bool   `json:"isNonLinear"`
	Modes       int    `json:"modes"`
}

// The plate rows. Every value is at the plate's centroid (nodal forces at
// its corners) in the plate's local axes (z the normal, x from its
// direction; see the plate geometry query). Membrane forces are tension
// positive; a positive moment puts the top (+z) face in tension.

// PlateForcesRow is one row of plate-element-forces: the stress
// resultants per unit width, and the Wood–Armer design moments.
type PlateForcesRow struct {
	LoadCase int64   `json:"loadCase"`
	Plate    int64   `json:"plate"`
	Fx       float64 `json:"fx" unit:"force/length" doc:"membrane force along local x, tension positive"`
	Fy       float64 `json:"fy" unit:"force/length"`
	Fxy      float64 `json:"fxy" unit:"force/length" doc:"membrane shear"`
	Mx       float64 `json:"mx" unit:"moment/length" doc:"moment of the stresses σx (bending about local y); positive puts the top (+z) face in tension"`
	My       float64 `json:"my" unit:"moment/length" doc:"moment of the stresses σy"`
	Mxy      float64 `json:"mxy" unit:"moment/length" doc:"twisting moment"`
	Vxz      float64 `json:"vxz" unit:"force/length" doc:"transverse shear on faces normal to local x"`
	Vyz      float64 `json:"vyz" unit:"force/length" doc:"transverse shear on faces normal to local y"`
	MxTop    float64 `json:"mxTop" unit:"moment/length" doc:"Wood–Armer design moment for top reinforcement along x (≥ 0)"`
	MyTop    float64 `json:"myTop" unit:"moment/length" doc:"Wood–Armer design moment for top reinforcement along y (≥ 0)"`
	MxBtm    float64 `json:"mxBtm" unit:"moment/length" doc:"Wood–Armer design moment for bottom reinforcement along x (≤ 0)"`
	MyBtm    float64 `json:"myBtm" unit:"moment/length" doc:"Wood–Armer design moment for bottom reinforcement along y (≤ 0)"`
}

// PlateStressesRow is one row of plate-element-stresses: plane stress on
// the top (+z) and bottom faces, at ± half the actual thickness from the
// reference surface, and the transverse shear stresses.
type PlateStressesRow struct {
	LoadCase int64   `json:"loadCase"`
	Plate    int64   `json:"plate"`
	SxTop    float64 `json:"sxTop" unit:"stress"`
	SyTop    float64 `json:"syTop" unit:"stress"`
	TxyTop   float64 `json:"txyTop" unit:"stress"`
	SxpTop   float64 `json:"sxpTop" unit:"stress" doc:"larger principal stress"`
	SypTop   float64 `json:"sypTop" unit:"stress" doc:"smaller principal stress"`
	TmaxTop  float64 `json:"tmaxTop" unit:"stress" doc:"largest in-plane shear, (sxp − syp)/2"`
	SvmTop   float64 `json:"svmTop" unit:"stress" doc:"von Mises stress"`
	PaTop    float64 `json:"paTop" doc:"angle of sxp from local x, degrees, counter-clockwise seen from +z"`
	SxBtm    float64 `json:"sxBtm" unit:"stress"`
	SyBtm    float64 `json:"syBtm" unit:"stress"`
	TxyBtm   float64 `json:"txyBtm" unit:"stress"`
	SxpBtm   float64 `json:"sxpBtm" unit:"stress"`
	SypBtm   float64 `json:"sypBtm" unit:"stress"`
	TmaxBtm  float64 `json:"tmaxBtm" unit:"stress"`
	SvmBtm   float64 `json:"svmBtm" unit:"stress"`
	PaBtm    float64 `json:"paBtm" doc:"degrees"`
	Txz      float64 `json:"txz" unit:"stress" doc:"peak transverse shear stress, 1.5·vxz/shear thickness, at the mid-surface"`
	Tyz      float64 `json:"tyz" unit:"stress" doc:"1.5·vyz/shear thickness"`
	SvmMax   float64 `json:"svmMax" unit:"stress" doc:"largest von Mises stress of the top, the bottom and the mid-surface (membrane and transverse shear)"`
}

// PlateNodalForcesRow is one row of plate-nodal-forces: arrays over the
// plate's corners A, B, C[, D], the forces the nodes exert on the plate
// in its local axes.
type PlateNodalForcesRow struct {
	LoadCase int64     `json:"loadCase"`
	Plate    int64     `json:"plate"`
	Node     []int64   `json:"node"`
	Fx       []float64 `json:"fx" unit:"force"`
	Fy       []float64 `json:"fy" unit:"force"`
	Fz       []float64 `json:"fz" unit:"force"`
	Mx       []float64 `json:"mx" unit:"moment"`
	My       []float64 `json:"my" unit:"moment"`
	Mz       []float64 `json:"mz" unit:"moment"`
}
