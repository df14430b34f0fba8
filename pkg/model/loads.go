package model

import (
	"bytes"
	"encoding/json"
	"reflect"
)

// Collection names of the load model; they double as the keys of the load
// counts in GET /job/status (memberTorsionLoads counts the distributed
// moments, as the desktop program does).
const (
	CollLoadCases               = "loadCases"
	CollLoadCaseGroups          = "loadCaseGroups"
	CollLoadCategories          = "loadCategories"
	CollNodeLoads               = "nodeLoads"
	CollPrescribedDisplacements = "prescribedDisplacements"
	CollLumpedMassLoads         = "lumpedMassLoads"
	CollMemberConcentratedLoads = "memberConcentratedLoads"
	CollMemberDistributedLoads  = "memberDistributedLoads"
	CollMemberTorsionLoads      = "memberTorsionLoads"
	CollMemberPrestressLoads    = "memberPrestressLoads"
	CollPlateLoads              = "plateLoads"
	CollSelfWeightLoads         = "selfWeightLoads"
	CollThermalLoads            = "thermalLoads"
)

// Load case types (computed, read-only).
const (
	CaseUnused      = "Unused"
	CasePrimary     = "Primary"
	CaseCombination = "Combination"
	CaseStep        = "Step"
)

// Maximum lengths of load case texts.
const (
	MaxCaseTitle = 100
	MaxCaseNotes = 2048
)

// CombinationItem is one component of a combination case.
type CombinationItem struct {
	LoadCase          int64   `json:"loadCase" req:"true"`
	MultiplyingFactor float64 `json:"multiplyingFactor" default:"1"`
}

// defaultFactor is the factor of an item that gives none: its tag's
// default, so that decoding and the metadata cannot disagree.
var defaultFactor = func() float64 {
	var f float64
	if err := json.Unmarshal([]byte(DefOf(reflect.TypeOf(CombinationItem{})).ByName["multiplyingFactor"].Default), &f); err != nil {
		panic("model: the default of multiplyingFactor is not a number")
	}
	return f
}()

// LoadCase is a load case. Its type is computed: Combination when it has
// items, Primary when loads are assigned to it, Unused otherwise, and Step
// for the cases a non-linear analysis generates (StepOf set).
type LoadCase struct {
	ID                  int64             `json:"id"`
	Title               string            `json:"title" req:"true"`
	Notes               string            `json:"notes"`
	Type                string            `json:"type" ro:"true" values:"Primary|Combination|Step|Unused" default:"\"Unused\""`
	HasCombinationItems bool              `json:"hasCombinationItems" ro:"true"`
	CombinationItems    []CombinationItem `json:"combinationItems,omitempty" ro:"true"`
	// StepOf names the case a non-linear load step belongs to; only the
	// analysis sets it.
	StepOf int64 `json:"stepOf,omitempty" ro:"true"`
}

// CombinationLoadCase is the create and update body of a combination case:
// a load case whose items are writable and required.
type CombinationLoadCase struct {
	ID                  int64  `json:"id"`
	Title               string `json:"title" req:"true"`
	Notes               string `json:"notes"`
	Type                string `json:"type" ro:"true" values:"Combination"`
	HasCombinationItems bool   `json:"hasCombinationItems" ro:"true"`
	// CombinationItems are required on create; a list or get with
	// expand=None leaves them out.
	CombinationItems []CombinationItem `json:"combinationItems,omitempty" req:"true"`
	StepOf           int64             `json:"stepOf,omitempty" ro:"true"`
}

// LoadCaseGroup is a named selection of load cases.
type LoadCaseGroup struct {
	ID           int64  `json:"id"`
	Title        string `json:"title" req:"true"`
	LoadCaseList string `json:"loadCaseList"`
}

// LoadCategory labels loads (dead, live, moving...). Source, version and
// username are filled by the server.
type LoadCategory struct {
	ID       int64  `json:"id"`
	Title    string `json:"title" req:"true"`
	Notes    string `json:"notes"`
	Source   string `json:"source" ro:"true"`
	Version  string `json:"version" ro:"true"`
	Username string `json:"username" ro:"true"`
}

// NodeLoad is a force and moment at a node, in global axes.
type NodeLoad struct {
	LoadCase     int64   `json:"loadCase" req:"true"`
	Node         int64   `json:"node" req:"true"`
	LoadCategory int64   `json:"loadCategory"`
	Fx           float64 `json:"fx" unit:"force"`
	Fy           float64 `json:"fy" unit:"force"`
	Fz           float64 `json:"fz" unit:"force"`
	Mx           float64 `json:"mx" unit:"moment"`
	My           float64 `json:"my" unit:"moment"`
	Mz           float64 `json:"mz" unit:"moment"`
}

// PrescribedDisplacement imposes displacements (m) and rotations (rad) at
// a node, in global axes.
type PrescribedDisplacement struct {
	LoadCase     int64   `json:"loadCase" req:"true"`
	Node         int64   `json:"node" req:"true"`
	LoadCategory int64   `json:"loadCategory"`
	Tx           float64 `json:"tx" unit:"translation"`
	Ty           float64 `json:"ty" unit:"translation"`
	Tz           float64 `json:"tz" unit:"translation"`
	Rx           float64 `json:"rx"`
	Ry           float64 `json:"ry"`
	Rz           float64 `json:"rz"`
}

// LumpedMassLoad adds translational (kg) and rotational (kg·m²) mass at a
// node.
type LumpedMassLoad struct {
	LoadCase     int64   `json:"loadCase" req:"true"`
	Node         int64   `json:"node" req:"true"`
	LoadCategory int64   `json:"loadCategory"`
	Tmx          float64 `json:"tmx" unit:"mass" min:"0"`
	Tmy          float64 `json:"tmy" unit:"mass" min:"0"`
	Tmz          float64 `json:"tmz" unit:"mass" min:"0"`
	Rmx          float64 `json:"rmx" unit:"mass*length^2" min:"0"`
	Rmy          float64 `json:"rmy" unit:"mass*length^2" min:"0"`
	Rmz          float64 `json:"rmz" unit:"mass*length^2" min:"0"`
}

// MemberConcentratedLoad is a force and moment at a point of a member.
// Position is in m (positionUnits Actual) or percent of the length
// (Percent); it is measured from end A along the member.
type MemberConcentratedLoad struct {
	LoadCase      int64   `json:"loadCase" req:"true"`
	Member        int64   `json:"member" req:"true"`
	SubLoad       int64   `json:"subLoad"`
	LoadCategory  int64   `json:"loadCategory"`
	Axes          string  `json:"axes" enum:"Local|GlobalInclined|GlobalProjected"`
	PositionUnits string  `json:"positionUnits" enum:"Actual|Percent"`
	Position      float64 `json:"position" unit:"length" positional:"true"`
	Fx            float64 `json:"fx" unit:"force"`
	Fy            float64 `json:"fy" unit:"force"`
	Fz            float64 `json:"fz" unit:"force"`
	Mx            float64 `json:"mx" unit:"moment"`
	My            float64 `json:"my" unit:"moment"`
	Mz            float64 `json:"mz" unit:"moment"`
}

// MemberDistributedLoad is a trapezoidal force per length over part of a
// member.
type MemberDistributedLoad struct {
	LoadCase       int64   `json:"loadCase" req:"true"`
	Member         int64   `json:"member" req:"true"`
	SubLoad        int64   `json:"subLoad"`
	LoadCategory   int64   `json:"loadCategory"`
	Axes           string  `json:"axes" enum:"Local|GlobalInclined|GlobalProjected"`
	PositionUnits  string  `json:"positionUnits" enum:"Actual|Percent"`
	StartPosition  float64 `json:"startPosition" unit:"length" positional:"true"`
	FinishPosition float64 `json:"finishPosition" unit:"length" positional:"true"`
	FxStart        float64 `json:"fxStart" unit:"force/length"`
	FxFinish       float64 `json:"fxFinish" unit:"force/length"`
	FyStart        float64 `json:"fyStart" unit:"force/length"`
	FyFinish       float64 `json:"fyFinish" unit:"force/length"`
	FzStart        float64 `json:"fzStart" unit:"force/length"`
	FzFinish       float64 `json:"fzFinish" unit:"force/length"`
}

// MemberDistributedMoment is a trapezoidal moment per length over part of a
// member.
type MemberDistributedMoment struct {
	LoadCase       int64   `json:"loadCase" req:"true"`
	Member         int64   `json:"member" req:"true"`
	SubLoad        int64   `json:"subLoad"`
	LoadCategory   int64   `json:"loadCategory"`
	Axes           string  `json:"axes" enum:"Local|GlobalInclined|GlobalProjected"`
	PositionUnits  string  `json:"positionUnits" enum:"Actual|Percent"`
	StartPosition  float64 `json:"startPosition" unit:"length" positional:"true"`
	FinishPosition float64 `json:"finishPosition" unit:"length" positional:"true"`
	MxStart        float64 `json:"mxStart" unit:"moment/length"`
	MxFinish       float64 `json:"mxFinish" unit:"moment/length"`
	MyStart        float64 `json:"myStart" unit:"moment/length"`
	MyFinish       float64 `json:"myFinish" unit:"moment/length"`
	MzStart        float64 `json:"mzStart" unit:"moment/length"`
	MzFinish       float64 `json:"mzFinish" unit:"moment/length"`
}

// MemberPrestressLoad is an axial prestress force (tension positive).
type MemberPrestressLoad struct {
	LoadCase     int64   `json:"loadCase" req:"true"`
	Member       int64   `json:"member" req:"true"`
	LoadCategory int64   `json:"loadCategory"`
	Prestress    float64 `json:"prestress" unit:"force"`
}

// PlatePressureLoad is a pressure on a plate, in the job's pressure unit
// (kPa in a new job).
type PlatePressureLoad struct {
	LoadCase     int64   `json:"loadCase" req:"true"`
	Plate        int64   `json:"plate" req:"true"`
	LoadCategory int64   `json:"loadCategory"`
	Axes         string  `json:"axes" enum:"Local|GlobalInclined|GlobalProjected"`
	Px           float64 `json:"px" unit:"pressure"`
	Py           float64 `json:"py" unit:"pressure"`
	Pz           float64 `json:"pz" unit:"pressure"`
}

// SelfWeightLoad applies the model's own weight in a case, as
// accelerations along the global axes (job unit: g by default).
type SelfWeightLoad struct {
	LoadCase      int64   `json:"loadCase" req:"true"`
	LoadCategory  int64   `json:"loadCategory"`
	AccelerationX float64 `json:"accelerationX" unit:"acceleration"`
	AccelerationY float64 `json:"accelerationY" unit:"acceleration"`
	AccelerationZ float64 `json:"accelerationZ" unit:"acceleration"`
}

// Thermal element types, as they appear in keys.
const (
	ThermalMember int64 = 1
	ThermalPlate  int64 = 2
)

// ThermalLoad is a uniform temperature change with gradients across a
// member's local y and z (or a plate's thickness).
type ThermalLoad struct {
	LoadCase         int64   `json:"loadCase" req:"true"`
	ElementType      string  `json:"elementType" req:"true" enum:"Member|Plate"`
	ElementID        int64   `json:"elementId" req:"true"`
	LoadCategory     int64   `json:"loadCategory"`
	ThermalLoad      float64 `json:"thermalLoad" unit:"temperature"`
	YThermalGradient float64 `json:"yThermalGradient" unit:"temperature/length"`
	ZThermalGradient float64 `json:"zThermalGradient" unit:"temperature/length"`
}

// Positional is implemented by member loads whose position fields are in
// percent, not a length, when PositionUnits is Percent.
type Positional interface {
	PercentPositions() bool
}

// PercentPositions implements Positional.
func (l *MemberConcentratedLoad) PercentPositions() bool { return l.PositionUnits == "Percent" }

// PercentPositions implements Positional.
func (l *MemberDistributedLoad) PercentPositions() bool { return l.PositionUnits == "Percent" }

// PercentPositions implements Positional.
func (l *MemberDistributedMoment) PercentPositions() bool { return l.PositionUnits == "Percent" }

// UnmarshalJSON gives an item without a multiplying factor the default
// 1.0, and rejects unknown properties like every request body.
func (c *CombinationItem) UnmarshalJSON(b []byte) error {
	type plain CombinationItem
	v := plain{MultiplyingFactor: defaultFactor}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return err
	}
	*c = CombinationItem(v)
	return nil
}
