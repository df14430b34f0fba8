package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Limits of the analysis settings. The spec gives the lower bounds; the
// upper ones are the service's: far beyond what a structure needs, small
// enough that a typo cannot make a run loop for hours. The struct tags
// repeat the numbers (a tag cannot name a constant); a test holds them to
// these.
const (
	// MaxAnalysisLoadCases is how many entries a loadCases list may have;
	// a number and a range ("3-7") count as one entry each (spec).
	MaxAnalysisLoadCases = 50
	// MaxModesSetting bounds the modes setting of buckling and frequency
	// analyses: what a job may store, as the desktop program's files do. It
	// is not the largest count a run computes: the engine's modal.MaxModes
	// is, and a run start asking for more is refused (the analysis
	// package's CheckEigenModes). The settings never need that number, so
	// the model does not import the eigen solver for it.
	MaxModesSetting = 1000
	// MaxIterations bounds reversalIterations, loadStepIterations,
	// dampingSteps and loadSteps.
	MaxIterations = 1000
)

// SolverType names the equation solver. JSON input also accepts the
// desktop program's integer codes 0 (Paradise) and 1 (Wavefront); output
// is always the name.
type SolverType string

// The solvers a job may use.
const (
	SolverParadise  SolverType = "Paradise"
	SolverWavefront SolverType = "Wavefront"
)

// solverAllowed is what every solverType message says is allowed.
const solverAllowed = "allowed: Paradise (or 0), Wavefront (or 1)"

// UnmarshalJSON takes a name or an integer code. A name is kept as given
// and checked by Validate (and by the enum tag at the HTTP edge), so that
// a bad name is reported with the other bad fields; codes 2 (the legacy
// solver) and 3 (the cloud solver) are refused here with the reason.
func (t *SolverType) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || string(b) == "null":
		return nil // as encoding/json does: null leaves the value alone
	case b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = SolverType(s)
		return nil
	}
	n, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return Invalid("solverType", "solverType must be a name or an integer code, got JSON %s; %s", b, solverAllowed)
	}
	switch n {
	case 0:
		*t = SolverParadise
	case 1:
		*t = SolverWavefront
	case 2:
		return Invalid("solverType", "solverType 2 is the legacy solver, which this service does not expose; %s", solverAllowed)
	case 3:
		return Invalid("solverType", "solverType 3 is the cloud solver, which the in-process analysis does not support; %s", solverAllowed)
	default:
		return Invalid("solverType", "solverType %s is not a solver code; %s", b, solverAllowed)
	}
	return nil
}

// Values of the analysis-settings enumerations (the struct tags list them
// too; the tags are what Validate and the HTTP edge check).
const (
	TensionCompressionActivated         = "Activated"
	TensionCompressionNoReversal        = "NoReversal"
	TensionCompressionDeactivated       = "Deactivated"
	TensionCompressionGradualActivation = "GradualActivation"

	TheorySmall  = "Small"
	TheoryFinite = "Finite"
	TheoryLarge  = "Large"

	EigenSigncount = "SigncountEigensolver"
	EigenClassic   = "ClassicEigensolver"

	AxialForceLinear    = "Linear"
	AxialForceNonLinear = "NonLinear"

	MatrixSecant  = "Secant"
	MatrixTangent = "Tangent"

	LoadingFull     = "Full"
	LoadingResidual = "Residual"

	SteppingLinear    = "Linear"
	SteppingParabolic = "Parabolic"
	SteppingFile      = "File"

	OptimizeNone     = "None"
	OptimizeAuto     = "Auto"
	OptimizeGeneral  = "General"
	OptimizeLinear   = "Linear"
	OptimizeCircular = "Circular"

	OptimizationAxisX      = "X"
	OptimizationAxisY      = "Y"
	OptimizationAxisZ      = "Z"
	OptimizationAxisVector = "Vector"

	PlateBC = "BCPlates"
	PlateDL = "DLPlates"
)

// StaticSettings are the settings of linear and non-linear static
// analyses. Fields marked non-linear only are kept (and checked) for
// linear runs too, which ignore them. optimizationX/Y/Z are lengths (SI
// here, job units at the edge); the other numbers have no unit.
type StaticSettings struct {
	LoadCases                  string     `json:"loadCases" example:"1-3" doc:"id list such as \"1,3-7,10\" of the load cases to analyse; empty: all; at most 50 entries, a number or a range counting as one"`
	RetainLoadCases            bool       `json:"retainLoadCases" doc:"keep the stored results of load cases this run does not analyse"`
	CheckNonExistentLoadCases  bool       `json:"checkNonExistentLoadCases" doc:"report load cases of the list that do not exist"`
	StabilizeUnrestrainedNodes bool       `json:"stabilizeUnrestrainedNodes" doc:"add a small stiffness to otherwise unrestrained node freedoms"`
	TensionCompressionOnly     string     `json:"tensionCompressionOnly" enum:"Activated|NoReversal|Deactivated|GradualActivation" doc:"treatment of tension-only and compression-only members"`
	ReversalIterations         int        `json:"reversalIterations" min:"1" max:"1000" doc:"iterations allowed for tension/compression-only reversals"`
	Theory                     string     `json:"theory" enum:"Small|Finite|Large" doc:"displacement theory (non-linear only)"`
	DampingFactor              float64    `json:"dampingFactor" min:"0" doc:"percent, 0 to less than 100 (non-linear only)"`
	DampingSteps               int        `json:"dampingSteps" min:"0" max:"1000" doc:"load steps damped (non-linear only)"`
	LoadSteps                  int        `json:"loadSteps" min:"1" max:"1000" doc:"load steps (non-linear only)"`
	ConvergenceAccuracy        float64    `json:"convergenceAccuracy" min:"0" max:"100" exclusive:"true" doc:"percent, greater than 0 and less than 100 (non-linear only)"`
	LoadStepIterations         int        `json:"loadStepIterations" min:"1" max:"1000" doc:"iterations allowed per load step"`
	FrameBucklingCheck         bool       `json:"frameBucklingCheck" doc:"stop when the frame buckles"`
	RotateLocalLoads           bool       `json:"rotateLocalLoads" doc:"Finite and Large theories: member loads in member local axes turn with their members (loads in global axes, self-weight and node loads keep their directions); off: every member load keeps its initial direction; no effect in the Small theory (non-linear only)"`
	DeflectionsConvergence     bool       `json:"deflectionsConvergence" doc:"converge on deflections (non-linear only)"`
	ResidualsConvergence       bool       `json:"residualsConvergence" doc:"converge on residual forces (non-linear only)"`
	PDeltaBig                  bool       `json:"pDeltaBig" doc:"P-Δ effects of joint displacements (non-linear only)"`
	PDeltaSmall                bool       `json:"pDeltaSmall" doc:"P-δ effects of member curvature (non-linear only)"`
	MatrixType                 string     `json:"matrixType" enum:"Secant|Tangent" doc:"stiffness matrix of the iterations (non-linear only)"`
	Loading                    string     `json:"loading" enum:"Full|Residual" doc:"load applied at each iteration (non-linear only)"`
	SteppingMethod             string     `json:"steppingMethod" enum:"Linear|Parabolic|File" doc:"how the load steps grow (non-linear only)"`
	KeepLoadSteps              bool       `json:"keepLoadSteps" doc:"keep every converged load step as a Step load case with its own results, numbered above the model's load cases (non-linear only; an extension of the interface)"`
	OptimizationMethod         string     `json:"optimizationMethod" enum:"None|Auto|General|Linear|Circular" doc:"node-numbering optimisation of the solver: None keeps the model's node order; Auto, General, Linear and Circular all let the solver order the equations (see solverType)"`
	OptimizationAxis           string     `json:"optimizationAxis" enum:"X|Y|Z|Vector" doc:"axis of Linear and Circular optimisation in the desktop program; accepted, checked and stored, but ignored: the equation ordering is automatic (see optimizationMethod)"`
	OptimizationX              float64    `json:"optimizationX" unit:"length" doc:"x of the optimisation vector (Vector axis) or centre; job length unit; accepted, checked and stored, but ignored: the equation ordering is automatic"`
	OptimizationY              float64    `json:"optimizationY" unit:"length" doc:"y of the optimisation vector (Vector axis) or centre; job length unit; accepted, checked and stored, but ignored: the equation ordering is automatic"`
	OptimizationZ              float64    `json:"optimizationZ" unit:"length" doc:"z of the optimisation vector (Vector axis) or centre; job length unit; accepted, checked and stored, but ignored: the equation ordering is automatic"`
	SolverType                 SolverType `json:"solverType" enum:"Paradise|Wavefront" doc:"reads as Paradise or Wavefront (enums travel as names); input also takes the integer codes 0 (Paradise) and 1 (Wavefront); 2 and 3 are a 400 saying why"`
	DrillingStiffness          float64    `json:"drillingStiffness" min:"0" exclusive:"true" doc:"multiplier (> 0) of the plate elements' drilling stiffness (the Hughes–Brezzi in-plane rotation penalty); 1 is the formulation's own"`
	PlateType                  string     `json:"plateType" enum:"BCPlates|DLPlates" doc:"plate element formulation"`
}

// BucklingSettings are the settings of buckling analyses. upperLimit and
// lowerLimit bound the load factors sought (upperLimit 0: no bound).
type BucklingSettings struct {
	LoadCases                  string     `json:"loadCases" example:"1-3" doc:"id list such as \"1,3-7,10\" of the load cases to analyse; empty: all; at most 50 entries, a number or a range counting as one"`
	RetainLoadCases            bool       `json:"retainLoadCases" doc:"keep the stored results of load cases this run does not analyse"`
	CheckNonExistentLoadCases  bool       `json:"checkNonExistentLoadCases" doc:"report load cases of the list that do not exist"`
	StabilizeUnrestrainedNodes bool       `json:"stabilizeUnrestrainedNodes" doc:"add a small stiffness to otherwise unrestrained node freedoms"`
	TensionCompressionOnly     string     `json:"tensionCompressionOnly" enum:"Activated|NoReversal|Deactivated|GradualActivation" doc:"treatment of tension-only and compression-only members"`
	ReversalIterations         int        `json:"reversalIterations" min:"1" max:"1000" doc:"iterations allowed for tension/compression-only reversals"`
	Tolerance                  float64    `json:"tolerance" min:"0" max:"1" exclusive:"true" doc:"relative convergence tolerance of the eigensolver"`
	UpperLimit                 float64    `json:"upperLimit" min:"0" doc:"greatest load factor sought; 0: no upper limit"`
	LowerLimit                 float64    `json:"lowerLimit" min:"0" doc:"least load factor sought; below upperLimit unless upperLimit is 0"`
	Modes                      int        `json:"modes" min:"1" max:"1000" doc:"buckling modes to find"`
	ExtraIterations            bool       `json:"extraIterations" doc:"iterate further to refine the modes"`
	AxialForceDistribution     string     `json:"axialForceDistribution" enum:"Linear|NonLinear" doc:"axial forces of the buckling load from a linear or non-linear static analysis"`
	Theory                     string     `json:"theory" enum:"SigncountEigensolver|ClassicEigensolver" doc:"eigensolver"`
	OptimizationMethod         string     `json:"optimizationMethod" enum:"None|Auto|General|Linear|Circular" doc:"node-numbering optimisation of the solver: None keeps the model's node order; Auto, General, Linear and Circular all let the solver order the equations (see solverType)"`
	OptimizationAxis           string     `json:"optimizationAxis" enum:"X|Y|Z|Vector" doc:"axis of Linear and Circular optimisation in the desktop program; accepted, checked and stored, but ignored: the equation ordering is automatic (see optimizationMethod)"`
	OptimizationX              float64    `json:"optimizationX" unit:"length" doc:"x of the optimisation vector (Vector axis) or centre; job length unit; accepted, checked and stored, but ignored: the equation ordering is automatic"`
	OptimizationY              float64    `json:"optimizationY" unit:"length" doc:"y of the optimisation vector (Vector axis) or centre; job length unit; accepted, checked and stored, but ignored: the equation ordering is automatic"`
	OptimizationZ              float64    `json:"optimizationZ" unit:"length" doc:"z of the optimisation vector (Vector axis) or centre; job length unit; accepted, checked and stored, but ignored: the equation ordering is automatic"`
	SolverType                 SolverType `json:"solverType" enum:"Paradise|Wavefront" doc:"reads as Paradise or Wavefront (enums travel as names); input also takes the integer codes 0 (Paradise) and 1 (Wavefront); 2 and 3 are a 400 saying why"`
	DrillingStiffness          float64    `json:"drillingStiffness" min:"0" exclusive:"true" doc:"multiplier (> 0) of the plate elements' drilling stiffness (the Hughes–Brezzi in-plane rotation penalty); 1 is the formulation's own"`
	PlateType                  string     `json:"plateType" enum:"BCPlates|DLPlates" doc:"plate element formulation"`
}

// DynamicSettings are the settings of dynamic frequency analyses.
// upperLimit, lowerLimit and frequencyShift are frequencies in Hz (the
// job units have no frequency unit); upperLimit 0 means no bound.
type DynamicSettings struct {
	LoadCases                  string     `json:"loadCases" example:"1-3" doc:"id list such as \"1,3-7,10\" of the load cases whose loads give the mass; empty: all; at most 50 entries, a number or a range counting as one"`
	RetainLoadCases            bool       `json:"retainLoadCases" doc:"keep the stored results of load cases this run does not analyse"`
	CheckNonExistentLoadCases  bool       `json:"checkNonExistentLoadCases" doc:"report load cases of the list that do not exist"`
	StabilizeUnrestrainedNodes bool       `json:"stabilizeUnrestrainedNodes" doc:"add a small stiffness to otherwise unrestrained node freedoms"`
	Tolerance                  float64    `json:"tolerance" min:"0" max:"1" exclusive:"true" doc:"relative convergence tolerance of the eigensolver"`
	UpperLimit                 float64    `json:"upperLimit" min:"0" doc:"greatest frequency sought, Hz; 0: no upper limit"`
	LowerLimit                 float64    `json:"lowerLimit" min:"0" doc:"least frequency sought, Hz; below upperLimit unless upperLimit is 0"`
	FrequencyShift             float64    `json:"frequencyShift" min:"0" doc:"eigenvalue shift, Hz; 0: none"`
	Modes                      int        `json:"modes" min:"1" max:"1000" doc:"vibration modes to find"`
	ExtraIterations            bool       `json:"extraIterations" doc:"iterate further to refine the modes"`
	OptimizationMethod         string     `json:"optimizationMethod" enum:"None|Auto|General|Linear|Circular" doc:"node-numbering optimisation of the solver: None keeps the model's node order; Auto, General, Linear and Circular all let the solver order the equations (see solverType)"`
	OptimizationAxis           string     `json:"optimizationAxis" enum:"X|Y|Z|Vector" doc:"axis of Linear and Circular optimisation in the desktop program; accepted, checked and stored, but ignored: the equation ordering is automatic (see optimizationMethod)"`
	OptimizationX              float64    `json:"optimizationX" unit:"length" doc:"x of the optimisation vector (Vector axis) or centre; job length unit; accepted, checked and stored, but ignored: the equation ordering is automatic"`
	OptimizationY              float64    `json:"optimizationY" unit:"length" doc:"y of the optimisation vector (Vector axis) or centre; job length unit; accepted, checked and stored, but ignored: the equation ordering is automatic"`
	OptimizationZ              float64    `json:"optimizationZ" unit:"length" doc:"z of the optimisation vector (Vector axis) or centre; job length unit; accepted, checked and stored, but ignored: the equation ordering is automatic"`
	SolverType                 SolverType `json:"solverType" enum:"Paradise|Wavefront" doc:"reads as Paradise or Wavefront (enums travel as names); input also takes the integer codes 0 (Paradise) and 1 (Wavefront); 2 and 3 are a 400 saying why"`
	DrillingStiffness          float64    `json:"drillingStiffness" min:"0" exclusive:"true" doc:"multiplier (> 0) of the plate elements' drilling stiffness (the Hughes–Brezzi in-plane rotation penalty); 1 is the formulation's own"`
	PlateType                  string     `json:"plateType" enum:"BCPlates|DLPlates" doc:"plate element formulation"`
}

// AnalysisSettings are the analysis settings of a job: the settings
// record of each analysis family, by the family's settings key ("static",
// "buckling", "dynamicFrequency"), as the JSON of the record in SI. A
// family the job never set has no entry, and its defaults apply; a record
// stored by an earlier version holds only the fields it knew, and the
// defaults fill in the rest. Package analysis reads and writes the
// records (Family.Settings): this package does not name the families.
type AnalysisSettings map[string]json.RawMessage

// Clone returns a copy of a that changing cannot reach a through.
func (a AnalysisSettings) Clone() AnalysisSettings {
	if a == nil {
		return nil
	}
	out := make(AnalysisSettings, len(a))
	for k, v := range a {
		out[k] = bytes.Clone(v)
	}
	return out
}

// DefaultStaticSettings are the static settings of a new job, and of a
// job saved before analysis settings existed: every load case, reported
// when missing; tension/compression-only members activated with 20
// reversal iterations; small-displacement theory, 10 load steps of up to
// 20 iterations to 1 % accuracy, no damping, P-Δ and P-δ both on; the
// Paradise solver with automatic optimisation; BC plates with drilling
// stiffness 1.
func DefaultStaticSettings() StaticSettings {
	return StaticSettings{
		CheckNonExistentLoadCases: true,
		TensionCompressionOnly:    TensionCompressionActivated,
		ReversalIterations:        20,
		Theory:                    TheorySmall,
		LoadSteps:                 10,
		ConvergenceAccuracy:       1,
		LoadStepIterations:        20,
		FrameBucklingCheck:        true,
		RotateLocalLoads:          true,
		DeflectionsConvergence:    true,
		ResidualsConvergence:      true,
		PDeltaBig:                 true,
		PDeltaSmall:               true,
		MatrixType:                MatrixSecant,
		Loading:                   LoadingFull,
		SteppingMethod:            SteppingLinear,
		OptimizationMethod:        OptimizeAuto,
		OptimizationAxis:          OptimizationAxisX,
		SolverType:                SolverParadise,
		DrillingStiffness:         1,
		PlateType:                 PlateBC,
	}
}

// DefaultBucklingSettings are the buckling settings of a new job: 5
// modes to a tolerance of 1e-4 with no range limits, axial forces of a
// linear analysis, the other fields as DefaultStaticSettings.
func DefaultBucklingSettings() BucklingSettings {
	return BucklingSettings{
		CheckNonExistentLoadCases: true,
		TensionCompressionOnly:    TensionCompressionActivated,
		ReversalIterations:        20,
		Tolerance:                 1e-4,
		Modes:                     5,
		AxialForceDistribution:    AxialForceLinear,
		Theory:                    EigenSigncount,
		OptimizationMethod:        OptimizeAuto,
		OptimizationAxis:          OptimizationAxisX,
		SolverType:                SolverParadise,
		DrillingStiffness:         1,
		PlateType:                 PlateBC,
	}
}

// DefaultDynamicSettings are the dynamic frequency settings of a new job:
// 10 modes to a tolerance of 1e-4 with no range limits or shift, the
// other fields as DefaultStaticSettings.
func DefaultDynamicSettings() DynamicSettings {
	return DynamicSettings{
		CheckNonExistentLoadCases: true,
		Tolerance:                 1e-4,
		Modes:                     10,
		OptimizationMethod:        OptimizeAuto,
		OptimizationAxis:          OptimizationAxisX,
		SolverType:                SolverParadise,
		DrillingStiffness:         1,
		PlateType:                 PlateBC,
	}
}

// Validate checks every field and reports every failing one at once.
func (s StaticSettings) Validate() error {
	c := checkTagged(s)
	c.loadCases(s.LoadCases)
	if s.DampingFactor >= 100 && s.DampingFactor <= MaxMagnitude { // larger: reported as out of range already
		c.add("dampingFactor", "dampingFactor is a percentage from 0 to less than 100, got %g", s.DampingFactor)
	}
	c.optimization(s.OptimizationMethod, s.OptimizationAxis, s.OptimizationX, s.OptimizationY, s.OptimizationZ)
	return c.err()
}

// Validate checks every field and reports every failing one at once.
func (s BucklingSettings) Validate() error {
	c := checkTagged(s)
	c.loadCases(s.LoadCases)
	c.limits(s.LowerLimit, s.UpperLimit, "load factor")
	c.optimization(s.OptimizationMethod, s.OptimizationAxis, s.OptimizationX, s.OptimizationY, s.OptimizationZ)
	return c.err()
}

// Validate checks every field and reports every failing one at once.
func (s DynamicSettings) Validate() error {
	c := checkTagged(s)
	c.loadCases(s.LoadCases)
	c.limits(s.LowerLimit, s.UpperLimit, "frequency")
	c.optimization(s.OptimizationMethod, s.OptimizationAxis, s.OptimizationX, s.OptimizationY, s.OptimizationZ)
	return c.err()
}

// Upgrade brings settings stored by earlier versions up to the present
// rules before they are validated: drillingStiffness was allowed to be 0
// until plates were analysed, and the engine read 0 as the formulation's
// own stiffness, 1, which is what it becomes. Without this a job saved
// then could not be opened to change the setting.
func (s *StaticSettings) Upgrade() { upgradeDrilling(&s.DrillingStiffness) }

// Upgrade is StaticSettings.Upgrade for the buckling settings.
func (s *BucklingSettings) Upgrade() { upgradeDrilling(&s.DrillingStiffness) }

// Upgrade is StaticSettings.Upgrade for the dynamic frequency settings.
func (s *DynamicSettings) Upgrade() { upgradeDrilling(&s.DrillingStiffness) }

func upgradeDrilling(d *float64) {
	if *d == 0 {
		*d = 1
	}
}

// Normalize writes a valid loadCases list in its normal form ("3,1-2"
// becomes "1-3"); an invalid list stays as it is for Validate to report.
func (s *StaticSettings) Normalize() { normalizeLoadCases(&s.LoadCases) }

// Normalize is StaticSettings.Normalize for the buckling settings.
func (s *BucklingSettings) Normalize() { normalizeLoadCases(&s.LoadCases) }

// Normalize is StaticSettings.Normalize for the dynamic frequency
// settings.
func (s *DynamicSettings) Normalize() { normalizeLoadCases(&s.LoadCases) }

func normalizeLoadCases(p *string) {
	if list, ok, err := ParseIDList("loadCases", *p); err == nil {
		*p = ""
		if ok {
			*p = list.String()
		}
	}
}

// LoadCaseList returns the parsed loadCases; ok false means every load
// case. It is meant for validated settings: a list Validate refuses also
// reports ok false.
func (s StaticSettings) LoadCaseList() (IDList, bool) { return loadCaseList(s.LoadCases) }

// LoadCaseList returns the parsed loadCases; ok false means every load
// case (see StaticSettings.LoadCaseList).
func (s BucklingSettings) LoadCaseList() (IDList, bool) { return loadCaseList(s.LoadCases) }

// LoadCaseList returns the parsed loadCases; ok false means every load
// case (see StaticSettings.LoadCaseList).
func (s DynamicSettings) LoadCaseList() (IDList, bool) { return loadCaseList(s.LoadCases) }

func loadCaseList(s string) (IDList, bool) {
	list, ok, err := ParseIDList("loadCases", s)
	if err != nil {
		return IDList{}, false
	}
	return list, ok
}

// settingsChecker collects the failures of one settings record, so that a
// client fixes them all in one round trip.
type settingsChecker struct{ fields []FieldError }

func (c *settingsChecker) add(field, format string, args ...any) {
	c.fields = append(c.fields, FieldError{Field: field, Message: fmt.Sprintf(format, args...)})
}

func (c *settingsChecker) failed(field string) bool {
	return slices.ContainsFunc(c.fields, func(f FieldError) bool { return f.Field == field })
}

func (c *settingsChecker) err() error { return joinedFieldsError(c.fields) }

// joinedFieldsError is the validation error of several fields; nil when there
// are none.
func joinedFieldsError(fields []FieldError) error {
	if len(fields) == 0 {
		return nil
	}
	msgs := make([]string, len(fields))
	for i, f := range fields {
		msgs[i] = f.Message
	}
	return &Error{Kind: KindValidation, Msg: strings.Join(msgs, "; "), Fields: fields}
}

// checkTagged checks the fields of a settings struct against their field
// definitions (DefOf), the ones the HTTP edge uses for merge and
// metadata: enum for strings, min, max and exclusive for numbers. Every
// number must also be finite and at most MaxMagnitude. Keeping the rules
// in the tags keeps Validate, merge and the metadata from drifting apart.
func checkTagged(rec any) *settingsChecker {
	c := &settingsChecker{}
	v := reflect.ValueOf(rec)
	for _, f := range DefOf(v.Type()).Fields {
		fv, name := v.Field(f.Index), f.Name
		lo, hasLo := bound(f.Min)
		hi, hasHi := bound(f.Max)
		excl := f.Exclusive
		switch fv.Kind() {
		case reflect.String:
			if f.Enum == nil || slices.Contains(f.Enum, fv.String()) {
				continue
			}
			hint := ""
			if fv.Type() == reflect.TypeOf(SolverType("")) {
				hint = " (or the integer codes 0 and 1)"
			}
			c.add(name, "%s must be one of %s%s, got %q", name, strings.Join(f.Enum, ", "), hint, fv.String())
		case reflect.Int:
			n := fv.Int()
			switch {
			case hasLo && hasHi && (float64(n) < lo || float64(n) > hi):
				c.add(name, "%s must be an integer from %g to %g, got %d", name, lo, hi, n)
			case hasLo && !hasHi && float64(n) < lo:
				c.add(name, "%s must be an integer of at least %g, got %d", name, lo, n)
			}
		case reflect.Float64:
			x := fv.Float()
			switch {
			case math.IsNaN(x) || math.Abs(x) > MaxMagnitude:
				c.add(name, "%s must be a finite number of magnitude at most %g, got %g", name, MaxMagnitude, x)
			case excl && hasLo && hasHi && (x <= lo || x >= hi):
				c.add(name, "%s must be greater than %g and less than %g, got %g", name, lo, hi, x)
			case !excl && hasLo && hasHi && (x < lo || x > hi):
				c.add(name, "%s must be from %g to %g, got %g", name, lo, hi, x)
			case excl && hasLo && !hasHi && x <= lo:
				c.add(name, "%s must be greater than %g, got %g", name, lo, x)
			case !excl && hasLo && !hasHi && x < lo:
				c.add(name, "%s must be %g or more, got %g", name, lo, x)
			}
		}
	}
	return c
}

// bound is the value of a tagged bound and whether there is one.
func bound(b *float64) (float64, bool) {
	if b == nil {
		return 0, false
	}
	return *b, true
}

// loadCases checks an id list and its entry count.
func (c *settingsChecker) loadCases(s string) {
	list, _, err := ParseIDList("loadCases", s)
	if err != nil {
		c.add("loadCases", "%s", err.Error())
		return
	}
	if list.Entries > MaxAnalysisLoadCases {
		c.add("loadCases", "loadCases has %d entries; at most %d are allowed (a number or a range such as 3-7 counts as one)",
			list.Entries, MaxAnalysisLoadCases)
	}
}

// limits checks a range of eigenvalues sought: upper 0 means no upper
// limit, else lower may not exceed upper. A limit already refused on its
// own is not compared as well.
func (c *settingsChecker) limits(lower, upper float64, what string) {
	if c.failed("lowerLimit") || c.failed("upperLimit") {
		return
	}
	if upper != 0 && lower >= upper {
		c.add("lowerLimit", "lowerLimit (%g) must be below upperLimit (%g); set upperLimit to 0 for no upper %s limit", lower, upper, what)
	}
}

// optimization checks that Linear and Circular optimisation along a
// Vector axis have a direction to follow.
func (c *settingsChecker) optimization(method, axis string, x, y, z float64) {
	if axis == OptimizationAxisVector && (method == OptimizeLinear || method == OptimizeCircular) && x == 0 && y == 0 && z == 0 {
		c.add("optimizationAxis", "optimizationAxis Vector with %s optimisation needs a non-zero vector (optimizationX, optimizationY, optimizationZ)", method)
	}
}

// Rules shared by the analysis settings records, for their
// documentation: CommonSettingsDoc for the fields every record has,
// ReversalDoc for reversalIterations.
var (
	CommonSettingsDoc = fmt.Sprintf("loadCases is an id list such as \"1,3-7,10\" (empty: every load case) of at most %d entries, "+
		"a number or a range counting as one; it is stored normalised and its ids need not exist (checkNonExistentLoadCases "+
		"decides whether a run reports missing ones). solverType is Paradise or Wavefront; input also takes the integer codes "+
		"0 (Paradise) and 1 (Wavefront), while 2 (the legacy solver, not exposed) and 3 (the cloud solver, which the in-process "+
		"analysis does not support) are 400s; output is always the name. optimizationMethod None keeps the model's node order; Auto, "+
		"General, Linear and Circular all let the solver order the equations. optimizationAxis and optimizationX/Y/Z (in the job "+
		"length unit; the desktop program's axis or centre of Linear and Circular optimisation) are accepted, checked (with "+
		"optimizationAxis Vector, Linear or Circular optimisation needs a non-zero vector) and stored, but ignored: the ordering "+
		"is automatic. drillingStiffness (> 0, default 1) multiplies the plate elements' drilling (in-plane "+
		"rotation) stiffness; a 0 that a job or file saved by an earlier version holds (it meant 1 then) is read as 1. plateType (BCPlates, DLPlates) is stored and returned but selects nothing: each plate's theory "+
		"(Kirchoff: DKQ/DKT; Mindlin: MITC4/MITC3) picks its formulation. Numbers must be "+
		"finite and at most %g in magnitude.", MaxAnalysisLoadCases, MaxMagnitude)
	ReversalDoc = fmt.Sprintf("reversalIterations is 1 to %d.", MaxIterations)
)
