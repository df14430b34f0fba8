package library

import "math"

// Built-in material tables. Every entry states its source; where a standard
// is silent on a value (e.g. timber density) the Source says the value is
// typical rather than normative.

const (
	mpa = 1e6 // Pa per MPa
	gpa = 1e9 // Pa per GPa
	// psi is the pascal value of one pound-force per square inch (exact
	// definition 0.45359237 kgf × 9.80665 / 0.0254²).
	psi = 6894.757293168361
	// ksi is 1000 psi.
	ksi = 1000 * psi
)

// austConcrete builds an AS 3600 concrete grade: f'c and the tabulated Ec of
// AS 3600:2018 Table 3.1.2 (which equals ρ^1.5·0.043·√fcmi for fcmi ≤ 40 MPa
// and ρ^1.5·(0.024·√fcmi + 0.12) above, with ρ = 2400 kg/m³).
func austConcrete(name string, fc, ec float64) Material {
	return Material{
		Name: name, YoungsModulus: ec * mpa, PoissonsRatio: 0.2,
		MassDensity: 2400, ThermalCoeff: 10e-6, ConcreteStrength: fc * mpa,
		Source: "AS 3600:2018 Table 3.1.2 (f'c, Ec); Cl. 3.1.5 (ν = 0.2); Cl. 3.1.3 (ρ = 2400 kg/m³); Cl. 3.1.8 (α = 10×10⁻⁶/°C)",
	}
}

// austMaterials is the "Aust" library. Names: STEEL; N20, N25, N32, N40, N50,
// N65, N80, N100 (AS 1379 normal-class concrete of that f'c in MPa; aliases
// CONC20 … CONC100); ALUMINIUM (alias ALUMINUM); F17 (seasoned hardwood stress
// grade) and MGP10 (machine-graded pine).
var austMaterials = []Material{
	{
		Name: "STEEL", YoungsModulus: 200 * gpa, PoissonsRatio: 0.25, MassDensity: 7850, ThermalCoeff: 11.7e-6,
		Source: "AS 4100:2020 Cl. 2.2.4 (E = 200 000 MPa, ν = 0.25, ρ = 7850 kg/m³, α = 11.7×10⁻⁶/°C)",
	},
	austConcrete("N20", 20, 24000),
	austConcrete("N25", 25, 26700),
	austConcrete("N32", 32, 30100),
	austConcrete("N40", 40, 32800),
	austConcrete("N50", 50, 34800),
	austConcrete("N65", 65, 37400),
	austConcrete("N80", 80, 39600),
	austConcrete("N100", 100, 42200),
	{
		Name: "ALUMINIUM", YoungsModulus: 70 * gpa, PoissonsRatio: 0.33, MassDensity: 2700, ThermalCoeff: 23e-6,
		Source: "AS/NZS 1664.1:1997 (E = 70 000 MPa); ν, ρ and α typical of 6000-series alloys",
	},
	{
		Name: "F17", YoungsModulus: 14000 * mpa, PoissonsRatio: 0.3, MassDensity: 1100, ThermalCoeff: 5e-6,
		Source: "AS 1720.1:2010 Table H2.1 (F17: E = 14 000 MPa); AS 1720.1 gives no ν, ρ or α: typical seasoned-hardwood values, and G from ν overstates timber's shear stiffness (E/G ≈ 15 in practice)",
	},
	{
		Name: "MGP10", YoungsModulus: 10000 * mpa, PoissonsRatio: 0.3, MassDensity: 550, ThermalCoeff: 5e-6,
		Source: "AS 1720.1:2010 Table H3.1 (MGP10: E = 10 000 MPa); ν, ρ, α typical of seasoned radiata pine, not normative",
	},
}

var austAliases = map[string]string{
	"CONC20": "N20", "CONC25": "N25", "CONC32": "N32", "CONC40": "N40",
	"CONC50": "N50", "CONC65": "N65", "CONC80": "N80", "CONC100": "N100",
	"ALUMINUM": "ALUMINIUM",
}

// usSteel is the elastic data shared by all AISC structural steels.
func usSteel(name string) Material {
	return Material{
		Name: name, YoungsModulus: 29000 * ksi, PoissonsRatio: 0.3,
		MassDensity: 7849, ThermalCoeff: 6.5e-6 * 1.8,
		Source: "AISC 360-16 (E = 29 000 ksi, G = 11 200 ksi ⇒ ν ≈ 0.3); AISC Manual (490 lb/ft³, α = 6.5×10⁻⁶/°F)",
	}
}

// usConcrete builds normal-weight concrete of f'c given in psi, with
// Ec = 4700·√f'c (MPa) per ACI 318-19 §19.2.2.1(b).
func usConcrete(name string, fcPsi float64) Material {
	fc := fcPsi * psi
	return Material{
		Name: name, YoungsModulus: 4700 * sqrtMPa(fc) * mpa, PoissonsRatio: 0.2,
		MassDensity: 2400, ThermalCoeff: 5.5e-6 * 1.8, ConcreteStrength: fc,
		Source: "ACI 318-19 §19.2.2.1(b) (Ec = 4700√f'c MPa, normal weight); ν = 0.2 and 150 lb/ft³ customary; α = 5.5×10⁻⁶/°F per ACI 209R",
	}
}

// sqrtMPa returns √(f/1 MPa): the ACI and AS modulus formulas take the
// strength as a number of MPa.
func sqrtMPa(f float64) float64 { return math.Sqrt(f / mpa) }

// usMaterials is the "US" library. Names: A992, A36, A572-50 (structural
// steels; identical elastic data); CONC3000, CONC4000, CONC5000, CONC6000
// (normal-weight concrete of that f'c in psi); AL6061-T6 (aliases 6061-T6,
// ALUMINUM, ALUMINIUM).
var usMaterials = []Material{
	usSteel("A992"),
	usSteel("A36"),
	usSteel("A572-50"),
	usConcrete("CONC3000", 3000),
	usConcrete("CONC4000", 4000),
	usConcrete("CONC5000", 5000),
	usConcrete("CONC6000", 6000),
	{
		Name: "AL6061-T6", YoungsModulus: 10100 * ksi, PoissonsRatio: 0.33,
		MassDensity: 0.098 * 27679.9047, ThermalCoeff: 13e-6 * 1.8,
		Source: "Aluminum Design Manual, Specification §A.3 (E = 10 100 ksi, ν = 0.33, 0.098 lb/in³, α = 13×10⁻⁶/°F)",
	},
}

var usAliases = map[string]string{
	"6061T6": "AL6061-T6", "ALUMINUM": "AL6061-T6", "ALUMINIUM": "AL6061-T6",
	"A572GR50": "A572-50",
}

// euroSteel is the elastic data EN 1993-1-1 gives for all its steels.
func euroSteel(name string) Material {
	return Material{
		Name: name, YoungsModulus: 210 * gpa, PoissonsRatio: 0.3, MassDensity: 7850, ThermalCoeff: 12e-6,
		Source: "EN 1993-1-1 §3.2.6 (E = 210 000 MPa, ν = 0.3, α = 12×10⁻⁶/K); EN 1991-1-1 Table A.4 (78.5 kN/m³)",
	}
}

// euroConcrete builds an EN 1992-1-1 strength class with its Ecm from
// Table 3.1 (GPa).
func euroConcrete(name string, fck, ecm float64) Material {
	return Material{
		Name: name, YoungsModulus: ecm * gpa, PoissonsRatio: 0.2,
		MassDensity: 2400, ThermalCoeff: 10e-6, ConcreteStrength: fck * mpa,
		Source: "EN 1992-1-1 Table 3.1 (fck, Ecm); §3.1.3(4) ν = 0.2; §3.1.3(5) α = 10×10⁻⁶/K; EN 1991-1-1 Table A.1 (24 kN/m³)",
	}
}

// euroMaterials is the "Euro" library. Names: S235, S275, S355; C20/25,
// C25/30, C30/37, C35/45, C40/50, C45/55, C50/60 (aliases C20 … C50 by fck);
// ALUMINIUM (alias ALUMINUM).
var euroMaterials = []Material{
	euroSteel("S235"),
	euroSteel("S275"),
	euroSteel("S355"),
	euroConcrete("C20/25", 20, 30),
	euroConcrete("C25/30", 25, 31),
	euroConcrete("C30/37", 30, 33),
	euroConcrete("C35/45", 35, 34),
	euroConcrete("C40/50", 40, 35),
	euroConcrete("C45/55", 45, 36),
	euroConcrete("C50/60", 50, 37),
	{
		Name: "ALUMINIUM", YoungsModulus: 70 * gpa, PoissonsRatio: 0.3, MassDensity: 2700, ThermalCoeff: 23e-6,
		Source: "EN 1999-1-1 §3.2.5 (E = 70 000 MPa, ν = 0.3, α = 23×10⁻⁶/K, ρ = 2700 kg/m³)",
	},
}

var euroAliases = map[string]string{
	"C20": "C20/25", "C25": "C25/30", "C30": "C30/37", "C35": "C35/45",
	"C40": "C40/50", "C45": "C45/55", "C50": "C50/60",
	"ALUMINUM": "ALUMINIUM",
}
