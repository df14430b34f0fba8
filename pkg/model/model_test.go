package model

import (
	"encoding/json"
	"math"
	"testing"
)

// Conversion factors against the exact definitions of NIST SP 811,
// Appendix B (1 ft = 0.3048 m, 1 lb = 0.45359237 kg, g = 9.80665 m/s²).
// The factors are products of exact constants, so they must agree to
// round-off (1e-14 relative).
func TestUnitFactors(t *testing.T) {
	cases := []struct {
		category, id string
		toSI         float64
	}{
		{"length", "ft", 0.3048},
		{"length", "in", 0.0254},
		{"force", "K", 4448.2216152605}, // 1 kip = 1000 lbf, NIST: 4.4482216152605 N/lbf
		{"force", "kg", 9.80665},        // kilogram-force
		{"moment", "Kft", 4448.2216152605 * 0.3048},
		{"materialStrength", "Ksi", 6894757.293168361}, // 1000 × 0.45359237 × 9.80665 / 0.0254² Pa, exact
		{"materialStrength", "Psf", 47.880258980336},
		{"massDensity", "lbperft3", 16.018463373960}, // NIST: 1 lb/ft³ = 16.01846337 kg/m³
		{"massDensity", "Tperm3", 1000},
		{"acceleration", "gs", 9.80665},
		{"temperature", "degF", 5.0 / 9.0}, // a change of 1 °F is 5/9 K
		{"stress", "Npermm2", 1e6},
		{"pressure", "kPa", 1e3},
		{"pressure", "Psf", 47.880258980336},
		{"mass", "lb", 0.45359237},
		{"translation", "inch", 0.0254},
	}
	for _, c := range cases {
		t.Run(c.category+"/"+c.id, func(t *testing.T) {
			u, ok := LookupUnit(c.category, c.id)
			if !ok {
				t.Fatalf("unit %s/%s missing", c.category, c.id)
			}
			// Expected values are written to 14 significant digits.
			if rel := math.Abs(u.ToSI-c.toSI) / c.toSI; rel > 1e-12 {
				t.Errorf("ToSI = %.15g, want %.15g (rel %.1e)", u.ToSI, c.toSI, rel)
			}
		})
	}
}

// Every unit identifier of the interface is accepted, and the default
// units of a new job are valid.
func TestUnitIdentifiers(t *testing.T) {
	want := map[string]int{"length": 5, "sectionProperties": 5, "materialStrength": 10, "massDensity": 10,
		"temperature": 2, "force": 5, "moment": 13, "mass": 4, "acceleration": 7, "translation": 5, "stress": 12,
		"pressure": 12} // pressure, an extension, takes the stress units
	for _, c := range UnitCategories {
		if len(c.Units) != want[c.JSONName] {
			t.Errorf("%s has %d units, the interface lists %d", c.JSONName, len(c.Units), want[c.JSONName])
		}
	}
	if err := DefaultUnits().Validate(); err != nil {
		t.Errorf("default units: %v", err)
	}
	bad := "parsec"
	u := DefaultUnits()
	err := UnitsPatch{Length: &bad}.Apply(&u)
	if KindOf(err) != KindValidation || u != DefaultUnits() {
		t.Errorf("invalid patch: err %v, units %+v", err, u)
	}
}

// Units saved before the pressure unit existed read plate pressures in
// their stress unit, as they were then read; units that name a pressure
// unit keep it, and members a record lacks keep the value decoded into.
func TestUnitsWithoutPressure(t *testing.T) {
	for _, tc := range []struct {
		name, json, base string
		want             Units
	}{
		{"old record", `{"length":"ft","stress":"Ksi"}`, "defaults",
			func() Units { u := DefaultUnits(); u.Length, u.Stress, u.Pressure = "ft", "Ksi", "Ksi"; return u }()},
		{"old record without stress", `{"force":"N"}`, "defaults",
			func() Units { u := DefaultUnits(); u.Force, u.Pressure = "N", "MPa"; return u }()},
		{"new record", `{"stress":"MPa","pressure":"Psf"}`, "defaults",
			func() Units { u := DefaultUnits(); u.Pressure = "Psf"; return u }()},
		{"into zero units", `{"stress":"kPa"}`, "zero", Units{Stress: "kPa", Pressure: "kPa"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := DefaultUnits()
			if tc.base == "zero" {
				u = Units{}
			}
			if err := json.Unmarshal([]byte(tc.json), &u); err != nil {
				t.Fatal(err)
			}
			if u != tc.want {
				t.Errorf("got %+v\nwant %+v", u, tc.want)
			}
		})
	}
	if u := DefaultUnits(); u.Pressure != "kPa" || u.Of("pressure") != "kPa" || u.Of("stress") != "MPa" {
		t.Errorf("a new job's pressure unit: %+v", u)
	}
}

func TestWrapKeepsKind(t *testing.T) {
	err := Wrap("open job", ErrJobAlreadyOpen)
	if KindOf(err) != KindJobAlreadyOpen || err.Error() != "open job: "+ErrJobAlreadyOpen.Msg {
		t.Errorf("Wrap = %v (%d)", err, KindOf(err))
	}
	if KindOf(Wrap("x", errPlain("boom"))) != KindInternal {
		t.Error("a plain error must become internal")
	}
}

type errPlain string

func (e errPlain) Error() string { return string(e) }
