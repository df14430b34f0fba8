package editor

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/gusset/gusset/pkg/model"
)

// storedTypes are the record types the editor writes to the store.
var storedTypes = []any{
	model.Node{}, model.NodeRestraint{}, model.NodeConstraint{}, model.Member{}, model.MemberOffset{},
	model.Plate{}, model.Section{}, model.Material{},
	model.LoadCase{}, model.CombinationLoadCase{}, model.LoadCaseGroup{}, model.LoadCategory{},
	model.NodeLoad{}, model.PrescribedDisplacement{}, model.LumpedMassLoad{},
	model.MemberConcentratedLoad{}, model.MemberDistributedLoad{}, model.MemberDistributedMoment{},
	model.MemberPrestressLoad{}, model.PlatePressureLoad{}, model.SelfWeightLoad{}, model.ThermalLoad{},
	model.MovingLoadSettings{}, model.MovingLoadElements{}, model.Vehicle{}, model.MovingPressure{},
	model.TravelPath{}, model.Scenario{},
}

// The direct encoder must write exactly compact(json.Marshal(record)),
// byte for byte, for every stored type: zero records, records with every
// field set, and random mixes that include the values encoding/json
// writes specially (tiny and huge floats, -0, escaped strings, nil and
// empty slices and pointers).
func TestEncodeCompactMatchesMarshal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, proto := range storedTypes {
		typ := reflect.TypeOf(proto)
		t.Run(typ.Name(), func(t *testing.T) {
			if planOf(typ) == nil {
				t.Fatalf("%s falls back to json.Marshal; the bulk path expects a plan", typ)
			}
			for trial := 0; trial < 300; trial++ {
				v := reflect.New(typ).Elem()
				switch trial {
				case 0: // zero
				case 1:
					fill(v, rng, 1) // every field set
				default:
					fill(v, rng, 0.5)
				}
				want, err := json.Marshal(v.Interface())
				if err != nil {
					t.Fatal(err)
				}
				want = compact(want)
				got, err := encodeCompact(v.Interface())
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != string(want) {
					t.Fatalf("trial %d:\n got %s\nwant %s", trial, got, want)
				}
			}
		})
	}
}

func TestEncodeCompactRefusesNaN(t *testing.T) {
	if _, err := encodeCompact(model.Node{X: math.NaN()}); err == nil {
		t.Error("NaN encoded")
	}
}

var specialFloats = []float64{0, math.Copysign(0, -1), 1, -2.5, 1e-7, -3.2e-9, 1e21, 1.5e300, 123456789.125, 5e-324, 0.1}
var specialStrings = []string{"", "a", "Angle", `quo"te`, `back\slash`, "<tag>&", "tab\there", "ünïcode", "\u2028"}

// fill sets each field of v with probability p to a random value.
func fill(v reflect.Value, rng *rand.Rand, p float64) {
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() && rng.Float64() < p {
				fill(v.Field(i), rng, p)
			}
		}
	case reflect.Float64:
		v.SetFloat(specialFloats[rng.IntN(len(specialFloats))] * float64(1+rng.IntN(3)))
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt([]int64{0, 1, -7, 1 << 40}[rng.IntN(4)])
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 0)
	case reflect.String:
		v.SetString(specialStrings[rng.IntN(len(specialStrings))])
	case reflect.Pointer:
		if rng.IntN(3) > 0 {
			v.Set(reflect.New(v.Type().Elem()))
			fill(v.Elem(), rng, p)
		}
	case reflect.Slice:
		switch n := rng.IntN(4); n {
		case 0: // nil
		default:
			s := reflect.MakeSlice(v.Type(), n-1, n-1)
			for i := 0; i < s.Len(); i++ {
				fill(s.Index(i), rng, p)
			}
			v.Set(s)
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			fill(v.Index(i), rng, p)
		}
	case reflect.Map:
		if rng.IntN(2) == 0 {
			m := reflect.MakeMap(v.Type())
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(k, rng, 1)
			fill(e, rng, 1)
			m.SetMapIndex(k, e)
			v.Set(m)
		}
	}
}
