package model

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Units are the job units: the unit in which each kind of quantity crosses
// the HTTP edge. Values are unit identifiers of the interface.
type Units struct {
	Length            string `json:"length"`
	SectionProperties string `json:"sectionProperties"`
	MaterialStrength  string `json:"materialStrength"`
	MassDensity       string `json:"massDensity"`
	Temperature       string `json:"temperature"`
	Force             string `json:"force"`
	Moment            string `json:"moment"`
	Mass              string `json:"mass"`
	Acceleration      string `json:"acceleration"`
	Translation       string `json:"translation"`
	Stress            string `json:"stress"`
	// Pressure is the unit of plate pressure loads (an extension): kPa in
	// a new job, as engineers give pressures. Units stored before it
	// existed read it as their stress unit, in which plate pressures were
	// then given (see UnmarshalJSON), so that no stored job changes
	// meaning.
	Pressure string `json:"pressure"`
}

// DefaultUnits are the units of a new job.
func DefaultUnits() Units {
	return Units{Length: "m", SectionProperties: "mm", MaterialStrength: "MPa",
		MassDensity: "Tperm3", Temperature: "degC", Force: "kN", Moment: "kNm",
		Mass: "T", Acceleration: "gs", Translation: "mm", Stress: "MPa", Pressure: "kPa"}
}

// UnmarshalJSON decodes units over the ones u holds (members the JSON
// lacks stay as they were). Units without a pressure unit were saved
// before it existed, when plate pressures were read in the stress unit:
// their pressure unit is their stress unit.
func (u *Units) UnmarshalJSON(b []byte) error {
	type plain Units
	p := plain(*u)
	p.Pressure = ""
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	if p.Pressure == "" {
		p.Pressure = p.Stress
	}
	*u = Units(p)
	return nil
}

// UnitsPatch is a partial update of Units.
type UnitsPatch struct {
	Length            *string `json:"length,omitempty"`
	SectionProperties *string `json:"sectionProperties,omitempty"`
	MaterialStrength  *string `json:"materialStrength,omitempty"`
	MassDensity       *string `json:"massDensity,omitempty"`
	Temperature       *string `json:"temperature,omitempty"`
	Force             *string `json:"force,omitempty"`
	Moment            *string `json:"moment,omitempty"`
	Mass              *string `json:"mass,omitempty"`
	Acceleration      *string `json:"acceleration,omitempty"`
	Translation       *string `json:"translation,omitempty"`
	Stress            *string `json:"stress,omitempty"`
	Pressure          *string `json:"pressure,omitempty"`
}

// UnitCategory is one kind of quantity of the job units.
type UnitCategory struct {
	// JSONName is the wire key in the units record.
	JSONName string
	// Description says what the category measures.
	Description string
	// Units lists the allowed units, in display order.
	Units []Unit
}

// Unit is one allowed unit with the factor that turns a value in this unit
// into SI: si = value × ToSI. Temperature factors convert differences
// (a change of 1 degF is 5/9 K), which is all a structural model stores.
type Unit struct {
	ID    string
	Label string
	ToSI  float64
}

// Exact conversion constants (NIST SP 811, Appendix B).
const (
	foot     = 0.3048
	inch     = 0.0254
	poundM   = 0.45359237 // kg
	gravity  = 9.80665    // m/s², standard gravity
	poundF   = poundM * gravity
	kipF     = 1000 * poundF
	kipM     = 1000 * poundM
	sqFoot   = foot * foot
	sqInch   = inch * inch
	cubeFoot = foot * foot * foot
	cubeInch = inch * inch * inch
)

var lengthUnits = []Unit{{"ft", "ft", foot}, {"in", "in", inch}, {"m", "m", 1}, {"cm", "cm", 0.01}, {"mm", "mm", 0.001}}

var strengthUnits = []Unit{
	{"Ksf", "ksf", kipF / sqFoot}, {"Psf", "psf", poundF / sqFoot},
	{"Ksi", "ksi", kipF / sqInch}, {"Psi", "psi", poundF / sqInch},
	{"MPa", "MPa", 1e6}, {"kPa", "kPa", 1e3}, {"Pa", "Pa", 1},
	{"kgperm2", "kg/m²", gravity}, {"kgpercm2", "kg/cm²", gravity * 1e4}, {"kgpermm2", "kg/mm²", gravity * 1e6},
}

// UnitCategories lists every category of the job units, in wire order.
var UnitCategories = []UnitCategory{
	{"length", "lengths and coordinates", lengthUnits},
	{"sectionProperties", "section properties (area in unit², second moments in unit⁴)", lengthUnits},
	{"materialStrength", "material moduli and strengths", strengthUnits},
	{"massDensity", "mass density", []Unit{
		{"Kperft3", "kip/ft³", kipM / cubeFoot}, {"Kperin3", "kip/in³", kipM / cubeInch},
		{"lbperft3", "lb/ft³", poundM / cubeFoot}, {"lbperin3", "lb/in³", poundM / cubeInch},
		{"Tperm3", "T/m³", 1e3}, {"Tpercm3", "T/cm³", 1e9}, {"Tpermm3", "T/mm³", 1e12},
		{"kgperm3", "kg/m³", 1}, {"kgpercm3", "kg/cm³", 1e6}, {"kgpermm3", "kg/mm³", 1e9},
	}},
	{"temperature", "temperature changes", []Unit{{"degF", "°F", 5.0 / 9.0}, {"degC", "°C", 1}}},
	{"force", "forces", []Unit{{"K", "kip", kipF}, {"lb", "lbf", poundF}, {"kN", "kN", 1e3}, {"N", "N", 1}, {"kg", "kgf", gravity}}},
	{"moment", "moments", []Unit{
		{"Kft", "kip·ft", kipF * foot}, {"Kin", "kip·in", kipF * inch},
		{"lbft", "lbf·ft", poundF * foot}, {"lbin", "lbf·in", poundF * inch},
		{"kNm", "kN·m", 1e3}, {"kNcm", "kN·cm", 10}, {"kNmm", "kN·mm", 1},
		{"Nm", "N·m", 1}, {"Ncm", "N·cm", 0.01}, {"Nmm", "N·mm", 0.001},
		{"kgm", "kgf·m", gravity}, {"kgcm", "kgf·cm", gravity * 0.01}, {"kgmm", "kgf·mm", gravity * 0.001},
	}},
	{"mass", "masses", []Unit{{"K", "kip (mass)", kipM}, {"lb", "lb", poundM}, {"T", "tonne", 1e3}, {"kg", "kg", 1}}},
	{"acceleration", "accelerations", []Unit{
		{"gs", "g", gravity}, {"ftpersec2", "ft/s²", foot}, {"inpersec2", "in/s²", inch},
		{"mpersec2", "m/s²", 1}, {"cmpersec2", "cm/s²", 0.01}, {"mmpersec2", "mm/s²", 0.001},
		{"kNperkg", "kN/kg", 1e3},
	}},
	{"translation", "displacements", []Unit{{"ft", "ft", foot}, {"inch", "in", inch}, {"m", "m", 1}, {"cm", "cm", 0.01}, {"mm", "mm", 0.001}}},
	{"stress", "stresses", stressUnits},
	{"pressure", "plate pressure loads (an extension: a new job has kPa; a job saved without a pressure unit has its stress unit)", stressUnits},
}

// stressUnits are the units of stresses and of pressures.
var stressUnits = append(append([]Unit(nil), strengthUnits...), Unit{"kNperm2", "kN/m²", 1e3}, Unit{"Npermm2", "N/mm²", 1e6})

// fields pairs each category with its slot in a Units and a UnitsPatch, so
// that validation and application walk one list.
func (u *Units) fields() []*string {
	return []*string{&u.Length, &u.SectionProperties, &u.MaterialStrength, &u.MassDensity, &u.Temperature,
		&u.Force, &u.Moment, &u.Mass, &u.Acceleration, &u.Translation, &u.Stress, &u.Pressure}
}

func (p *UnitsPatch) fields() []*string {
	return []*string{p.Length, p.SectionProperties, p.MaterialStrength, p.MassDensity, p.Temperature,
		p.Force, p.Moment, p.Mass, p.Acceleration, p.Translation, p.Stress, p.Pressure}
}

// Of returns the unit id u holds for the category with the given JSON
// name, "" for none.
func (u Units) Of(category string) string {
	for i, c := range UnitCategories {
		if c.JSONName == category {
			return *u.fields()[i]
		}
	}
	return ""
}

// LookupUnit returns the unit of the category with the given JSON name.
func LookupUnit(category, id string) (Unit, bool) {
	for _, c := range UnitCategories {
		if c.JSONName != category {
			continue
		}
		for _, u := range c.Units {
			if u.ID == id {
				return u, true
			}
		}
	}
	return Unit{}, false
}

// Validate reports every field of u that is not an allowed unit.
func (u Units) Validate() error {
	var fields []FieldError
	for i, v := range u.fields() {
		if err := checkUnit(UnitCategories[i], *v); err != nil {
			fields = append(fields, *err)
		}
	}
	return fieldsError(fields)
}

// Apply validates the patch and writes the supplied fields into u; nothing
// changes when any field is invalid.
func (p UnitsPatch) Apply(u *Units) error {
	src, dst := p.fields(), u.fields()
	var fields []FieldError
	for i, v := range src {
		if v == nil {
			continue
		}
		if err := checkUnit(UnitCategories[i], *v); err != nil {
			fields = append(fields, *err)
		}
	}
	if err := fieldsError(fields); err != nil {
		return err
	}
	for i, v := range src {
		if v != nil {
			*dst[i] = *v
		}
	}
	return nil
}

func checkUnit(c UnitCategory, id string) *FieldError {
	ids := make([]string, len(c.Units))
	for i, u := range c.Units {
		if u.ID == id {
			return nil
		}
		ids[i] = u.ID
	}
	return &FieldError{Field: c.JSONName,
		Message: fmt.Sprintf("unknown %s unit %q; allowed: %s", c.JSONName, id, strings.Join(ids, ", "))}
}

func fieldsError(fields []FieldError) error {
	if len(fields) == 0 {
		return nil
	}
	return &Error{Kind: KindValidation, Msg: fields[0].Message, Fields: fields}
}
