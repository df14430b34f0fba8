package model

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// FuzzUnitIDs: unit identifiers are looked up exactly. For any identifier
// per category, Validate accepts the units iff every one is a unit of its
// category (LookupUnit finds it, with a finite positive factor), names
// exactly the failing categories, in order, as a validation error; and
// UnitsPatch.Apply changes nothing when it fails and exactly the
// supplied fields when it succeeds.
func FuzzUnitIDs(f *testing.F) {
	join := func(u Units) string {
		return strings.Join([]string{u.Length, u.SectionProperties, u.MaterialStrength, u.MassDensity, u.Temperature,
			u.Force, u.Moment, u.Mass, u.Acceleration, u.Translation, u.Stress, u.Pressure}, "|")
	}
	us := Units{Length: "ft", SectionProperties: "in", MaterialStrength: "Ksi", MassDensity: "Kperft3", Temperature: "degF",
		Force: "K", Moment: "Kft", Mass: "K", Acceleration: "gs", Translation: "inch", Stress: "Ksi", Pressure: "Psf"}
	f.Add(join(DefaultUnits()), uint16(0xfff))
	f.Add(join(us), uint16(0xfff))
	f.Add(join(us), uint16(0x155))
	f.Add("m|mm|MPa|Tperm3|degC|kN|kNm|T|gs|in|MPa", uint16(0x7ff)) // translation is "inch", not "in"
	f.Add("M|MM|mpa|||kn|KNM|t|GS|mm|mpa", uint16(0x3))
	f.Add("m |mm|MPa|Tperm3|degC|kN|kNm|T|gs|mm|MPa\x00", uint16(0x401))
	f.Add("kNperm2|kNperm2|kNperm2|kg|degK|kg|kg|kg|kg|kg|kNperm2", uint16(0x7ff))
	f.Add("|||", uint16(0))
	f.Fuzz(func(t *testing.T, joined string, mask uint16) {
		ids := strings.SplitN(joined, "|", len(UnitCategories))
		for len(ids) < len(UnitCategories) {
			ids = append(ids, "")
		}
		var u Units
		for i, p := range u.fields() {
			*p = ids[i]
		}
		var bad []string
		for i, c := range UnitCategories {
			unit, ok := LookupUnit(c.JSONName, ids[i])
			if ok && (unit.ID != ids[i] || !(unit.ToSI > 0) || math.IsInf(unit.ToSI, 0)) {
				t.Fatalf("LookupUnit(%s, %q) = %+v", c.JSONName, ids[i], unit)
			}
			if !ok {
				bad = append(bad, c.JSONName)
			}
		}
		err := u.Validate()
		checkUnitsErr(t, "Validate", u, err, bad)

		// The same identifiers as a patch of the supplied fields (mask) on
		// the default units.
		var patch UnitsPatch
		pf := []**string{&patch.Length, &patch.SectionProperties, &patch.MaterialStrength, &patch.MassDensity, &patch.Temperature,
			&patch.Force, &patch.Moment, &patch.Mass, &patch.Acceleration, &patch.Translation, &patch.Stress, &patch.Pressure}
		var badSupplied []string
		for i := range pf {
			if mask&(1<<i) != 0 {
				s := ids[i]
				*pf[i] = &s
				if _, ok := LookupUnit(UnitCategories[i].JSONName, s); !ok {
					badSupplied = append(badSupplied, UnitCategories[i].JSONName)
				}
			}
		}
		before := DefaultUnits()
		after := before
		err = patch.Apply(&after)
		checkUnitsErr(t, "Apply", u, err, badSupplied)
		if err != nil {
			if after != before {
				t.Fatalf("a failed Apply changed the units: %+v → %+v", before, after)
			}
			return
		}
		want := before
		for i, p := range want.fields() {
			if mask&(1<<i) != 0 {
				*p = ids[i]
			}
		}
		if after != want {
			t.Fatalf("Apply(mask %#x) gave %+v, want %+v", mask, after, want)
		}
		if err := after.Validate(); err != nil {
			t.Fatalf("units after a successful Apply do not validate: %v", err)
		}
	})
}

func checkUnitsErr(t *testing.T, what string, u Units, err error, bad []string) {
	t.Helper()
	if len(bad) == 0 {
		if err != nil {
			t.Fatalf("%s(%+v): %v, but every unit is known", what, u, err)
		}
		return
	}
	if err == nil {
		t.Fatalf("%s(%+v) accepted unknown units of %v", what, u, bad)
	}
	if KindOf(err) != KindValidation {
		t.Fatalf("%s: error of kind %d, want validation: %v", what, KindOf(err), err)
	}
	var me *Error
	if !errors.As(err, &me) {
		t.Fatalf("%s: %T is no *Error: %v", what, err, err)
	}
	if len(me.Fields) != len(bad) {
		t.Fatalf("%s(%+v) names %v, want %v", what, u, me.Fields, bad)
	}
	for i, fe := range me.Fields {
		if fe.Field != bad[i] {
			t.Fatalf("%s(%+v) names %v, want %v", what, u, me.Fields, bad)
		}
	}
}
