package model

// Collection names of the structure model. They double as the keys of the
// structure counts in GET /job/status.
const (
	CollNodes           = "nodes"
	CollMembers         = "members"
	CollPlates          = "plates"
	CollSections        = "sections"
	CollMaterials       = "materials"
	CollNodeRestraints  = "nodeRestraints"
	CollNodeConstraints = "nodeConstraints"
	CollMemberOffsets   = "memberOffsets"
	CollPlateCuts       = "plateCuts"
	CollPlateStrips     = "plateStrips"
)

// The model records carry struct tags (json, unit, ro, req, enum, min,
// max, ...) that give each field's rules; FieldTags (fields.go) lists them
// and is their one reader.

// Node is a point of the structure.
type Node struct {
	ID            int64           `json:"id"`
	X             float64         `json:"x" unit:"length" req:"true"`
	Y             float64         `json:"y" unit:"length" req:"true"`
	Z             float64         `json:"z" unit:"length" req:"true"`
	HasConstraint bool            `json:"hasConstraint" ro:"true"`
	HasRestraint  bool            `json:"hasRestraint" ro:"true"`
	Constraint    *NodeConstraint `json:"constraint,omitempty" ro:"true"`
	Restraint     *NodeRestraint  `json:"restraint,omitempty" ro:"true"`
}

// Table is a restraint's variable-stiffness table: rows of [x, y] where x is
// a deflection (m) or rotation (rad) and y the spring stiffness.
type Table struct {
	Rows [][]float64 `json:"rows" example:"[[0,0],[0.01,1000]]"`
}

// NodeRestraint is the support of a node (at most one per node).
type NodeRestraint struct {
	Node             int64  `json:"node" req:"true"`
	RestraintCode    string `json:"restraintCode" example:"FFFFFF"`
	ActiveDirection  string `json:"activeDirection"`
	GeneralRestraint bool   `json:"generalRestraint" ro:"true"`

	TxStiffness float64 `json:"txStiffness" unit:"force/length" min:"0"`
	TyStiffness float64 `json:"tyStiffness" unit:"force/length" min:"0"`
	TzStiffness float64 `json:"tzStiffness" unit:"force/length" min:"0"`
	RxStiffness float64 `json:"rxStiffness" unit:"moment" min:"0"`
	RyStiffness float64 `json:"ryStiffness" unit:"moment" min:"0"`
	RzStiffness float64 `json:"rzStiffness" unit:"moment" min:"0"`

	XFrictionNormalAxis      string  `json:"xFrictionNormalAxis" enum:"None|XAxis|YAxis|ZAxis"`
	YFrictionNormalAxis      string  `json:"yFrictionNormalAxis" enum:"None|XAxis|YAxis|ZAxis"`
	ZFrictionNormalAxis      string  `json:"zFrictionNormalAxis" enum:"None|XAxis|YAxis|ZAxis"`
	XFrictionNormalDirection string  `json:"xFrictionNormalDirection" enum:"Either|PositiveOnly|NegativeOnly"`
	YFrictionNormalDirection string  `json:"yFrictionNormalDirection" enum:"Either|PositiveOnly|NegativeOnly"`
	ZFrictionNormalDirection string  `json:"zFrictionNormalDirection" enum:"Either|PositiveOnly|NegativeOnly"`
	XFrictionFactor          float64 `json:"xFrictionFactor" min:"0"`
	YFrictionFactor          float64 `json:"yFrictionFactor" min:"0"`
	ZFrictionFactor          float64 `json:"zFrictionFactor" min:"0"`

	TxPlasticLimit float64 `json:"txPlasticLimit" unit:"force" min:"0"`
	TyPlasticLimit float64 `json:"tyPlasticLimit" unit:"force" min:"0"`
	TzPlasticLimit float64 `json:"tzPlasticLimit" unit:"force" min:"0"`
	RxPlasticLimit float64 `json:"rxPlasticLimit" unit:"moment" min:"0"`
	RyPlasticLimit float64 `json:"ryPlasticLimit" unit:"moment" min:"0"`
	RzPlasticLimit float64 `json:"rzPlasticLimit" unit:"moment" min:"0"`

	TxVariableTable *Table `json:"txVariableTable,omitempty" unit:"translation,force/length"`
	TyVariableTable *Table `json:"tyVariableTable,omitempty" unit:"translation,force/length"`
	TzVariableTable *Table `json:"tzVariableTable,omitempty" unit:"translation,force/length"`
	RxVariableTable *Table `json:"rxVariableTable,omitempty" unit:",moment"`
	RyVariableTable *Table `json:"ryVariableTable,omitempty" unit:",moment"`
	RzVariableTable *Table `json:"rzVariableTable,omitempty" unit:",moment"`
}

// NodeConstraint ties a slave node to a master node (at most one per slave).
type NodeConstraint struct {
	SlaveNode      int64   `json:"slaveNode" req:"true"`
	MasterNode     int64   `json:"masterNode" req:"true" example:"2"`
	ConstraintCode string  `json:"constraintCode"`
	Axes           string  `json:"axes" enum:"Global|Inclined"`
	XVector        float64 `json:"xVector"`
	YVector        float64 `json:"yVector"`
	ZVector        float64 `json:"zVector"`
}

// MemberOffset is a member's rigid end zones (at most one row per member).
type MemberOffset struct {
	Member     int64   `json:"member" req:"true"`
	Axes       string  `json:"axes" enum:"Global|Local"`
	XOffsetAtA float64 `json:"xOffsetAtA" unit:"length"`
	YOffsetAtA float64 `json:"yOffsetAtA" unit:"length"`
	ZOffsetAtA float64 `json:"zOffsetAtA" unit:"length"`
	XOffsetAtB float64 `json:"xOffsetAtB" unit:"length"`
	YOffsetAtB float64 `json:"yOffsetAtB" unit:"length"`
	ZOffsetAtB float64 `json:"zOffsetAtB" unit:"length"`
}

// Direction orients a member's or plate's local axes: by an angle (degrees)
// about local x, by a direction node, or by a global axis. Setting one
// source zeroes the other two.
type Direction struct {
	Source   string  `json:"source" enum:"Angle|Node|Axis"`
	DirAngle float64 `json:"dirAngle" min:"-360" max:"360" example:"0"`
	DirNode  int64   `json:"dirNode"`
	DirAxis  string  `json:"dirAxis" enum:"NotApplicable|XAxis|YAxis|ZAxis|NegativeXAxis|NegativeYAxis|NegativeZAxis"`
}

// Releases are a member's end fixities: 6 characters per end (TX, TY, TZ,
// RX, RY, RZ in member local axes) of F fixed, R released, S spring, with
// the spring stiffnesses.
type Releases struct {
	FixityCodeAtA  string  `json:"fixityCodeAtA" example:"FFFFFF"`
	FixityCodeAtB  string  `json:"fixityCodeAtB"`
	TxStiffnessAtA float64 `json:"txStiffnessAtA" unit:"force/length"`
	TyStiffnessAtA float64 `json:"tyStiffnessAtA" unit:"force/length"`
	TzStiffnessAtA float64 `json:"tzStiffnessAtA" unit:"force/length"`
	RxStiffnessAtA float64 `json:"rxStiffnessAtA" unit:"moment"`
	RyStiffnessAtA float64 `json:"ryStiffnessAtA" unit:"moment"`
	RzStiffnessAtA float64 `json:"rzStiffnessAtA" unit:"moment"`
	TxStiffnessAtB float64 `json:"txStiffnessAtB" unit:"force/length"`
	TyStiffnessAtB float64 `json:"tyStiffnessAtB" unit:"force/length"`
	TzStiffnessAtB float64 `json:"tzStiffnessAtB" unit:"force/length"`
	RxStiffnessAtB float64 `json:"rxStiffnessAtB" unit:"moment"`
	RyStiffnessAtB float64 `json:"ryStiffnessAtB" unit:"moment"`
	RzStiffnessAtB float64 `json:"rzStiffnessAtB" unit:"moment"`
}

// Member is a frame member between two nodes.
type Member struct {
	ID                   int64         `json:"id"`
	NodeA                int64         `json:"nodeA" req:"true"`
	NodeB                int64         `json:"nodeB" req:"true" example:"2"`
	Type                 string        `json:"type" enum:"Normal|TensionOnly|CompressionOnly|Cable|Gap|BrittleFuse|PlasticFuse|Pulley|Truss"`
	Section              int64         `json:"section" req:"true"`
	Material             int64         `json:"material" req:"true"`
	CableLength          float64       `json:"cableLength" unit:"length" min:"0"`
	GapTensionLimit      float64       `json:"gapTensionLimit" unit:"length" min:"0"`
	GapCompressionLimit  float64       `json:"gapCompressionLimit" unit:"length" min:"0"`
	FuseTensionLimit     float64       `json:"fuseTensionLimit" unit:"force" min:"0"`
	FuseCompressionLimit float64       `json:"fuseCompressionLimit" unit:"force" min:"0"`
	Direction            Direction     `json:"direction"`
	Releases             Releases      `json:"releases"`
	HasOffsets           bool          `json:"hasOffsets" ro:"true"`
	Offsets              *MemberOffset `json:"offsets,omitempty" ro:"true"`
}

// Plate is a 3- or 4-node plate element (NodeD 0 means a triangle).
type Plate struct {
	ID                int64     `json:"id"`
	NodeA             int64     `json:"nodeA" req:"true"`
	NodeB             int64     `json:"nodeB" req:"true" example:"2"`
	NodeC             int64     `json:"nodeC" req:"true" example:"3"`
	NodeD             int64     `json:"nodeD"`
	Material          int64     `json:"material" min:"0" doc:"material id; 0 (the default) means none yet: an analysis refuses to start while a plate has none"`
	ActualThickness   float64   `json:"actualThickness" unit:"sectionProperties" min:"0" doc:"0 (the default) means none yet: an analysis refuses to start while a plate has none"`
	MembraneThickness float64   `json:"membraneThickness" unit:"sectionProperties" min:"0" doc:"0 follows actualThickness"`
	BendingThickness  float64   `json:"bendingThickness" unit:"sectionProperties" min:"0" doc:"0 follows actualThickness"`
	ShearThickness    float64   `json:"shearThickness" unit:"sectionProperties" min:"0" doc:"0 follows actualThickness"`
	Direction         Direction `json:"direction"`
	Theory            string    `json:"theory" enum:"Kirchoff|Mindlin"`
	Offset            float64   `json:"offset" unit:"length"`
}

// Section is a member cross-section; properties are about the principal
// axes, local y being the section's "up" (see pkg/model/library).
type Section struct {
	ID             int64   `json:"id"`
	Name           string  `json:"name" req:"true"`
	Library        string  `json:"library" ro:"true"`
	Mark           string  `json:"mark"`
	A              float64 `json:"a" unit:"sectionProperties^2" req:"true" min:"0" exclusive:"true"`
	J              float64 `json:"j" unit:"sectionProperties^4" req:"true" min:"0" exclusive:"true"`
	Iy             float64 `json:"iy" unit:"sectionProperties^4" req:"true" min:"0" exclusive:"true"`
	Iz             float64 `json:"iz" unit:"sectionProperties^4" req:"true" min:"0" exclusive:"true"`
	Ay             float64 `json:"ay" unit:"sectionProperties^2" req:"true" min:"0" exclusive:"true"`
	Az             float64 `json:"az" unit:"sectionProperties^2" req:"true" min:"0" exclusive:"true"`
	PrincipalAngle float64 `json:"principalAngle" min:"-360" max:"360"`
	Source         string  `json:"source" ro:"true" enum:"User|Library"`
	Shapes         []Shape `json:"shapes" ro:"true"`
	AreaFactor     float64 `json:"areaFactor" min:"0" exclusive:"true"`
	TorsionFactor  float64 `json:"torsionFactor" min:"0" exclusive:"true"`
	IyFactor       float64 `json:"iyFactor" min:"0" exclusive:"true"`
	IzFactor       float64 `json:"izFactor" min:"0" exclusive:"true"`
	AngleType      string  `json:"angleType" enum:"NotApplicable|SingleType|ShortShort|LongLong|Starred"`
	Transposed     bool    `json:"transposed"`
}

// Shape is the geometry of a library section, kept for extreme-fibre
// stresses: the family and its dimensions (m), and the distances from the
// centroid to the extreme fibres along local +y, −y, +z, −z.
type Shape struct {
	Family string  `json:"family"`
	D      float64 `json:"d" unit:"sectionProperties"`
	B      float64 `json:"b" unit:"sectionProperties"`
	Tf     float64 `json:"tf" unit:"sectionProperties"`
	Tw     float64 `json:"tw" unit:"sectionProperties"`
	T      float64 `json:"t" unit:"sectionProperties"`
	R      float64 `json:"r" unit:"sectionProperties"`
	YTop   float64 `json:"yTop" unit:"sectionProperties"`
	YBtm   float64 `json:"yBtm" unit:"sectionProperties"`
	ZTop   float64 `json:"zTop" unit:"sectionProperties"`
	ZBtm   float64 `json:"zBtm" unit:"sectionProperties"`
}

// Material is an isotropic material.
type Material struct {
	ID               int64   `json:"id"`
	Name             string  `json:"name" req:"true"`
	YoungsModulus    float64 `json:"youngsModulus" unit:"materialStrength" req:"true" min:"0" exclusive:"true"`
	PoissonsRatio    float64 `json:"poissonsRatio" req:"true" min:"-1" max:"0.5" exclusive:"true"`
	MassDensity      float64 `json:"massDensity" unit:"massDensity" min:"0"`
	ThermalCoeff     float64 `json:"thermalCoeff" unit:"temperature^-1"`
	ConcreteStrength float64 `json:"concreteStrength" unit:"materialStrength" min:"0"`
	Source           string  `json:"source" ro:"true" enum:"User|Library"`
	Library          string  `json:"library" ro:"true"`
}
