package library

import (
	"errors"
	"reflect"
	"testing"
)

func TestSectionLibraries(t *testing.T) {
	want := []string{"AISC15", "Aust300", "Parametric"}
	if got := SectionLibraries(); !reflect.DeepEqual(got, want) {
		t.Errorf("SectionLibraries() = %v, want %v", got, want)
	}
}

func TestUnknownSectionLibrary(t *testing.T) {
	_, err := LookupSection("BS5950", "UB 305x165x40")
	var ul *UnknownLibraryError
	if !errors.As(err, &ul) || !errors.Is(err, ErrUnknownLibrary) {
		t.Fatalf("err = %v, want *UnknownLibraryError", err)
	}
	if want := `unknown section library "BS5950" (known: AISC15, Aust300, Parametric)`; err.Error() != want {
		t.Errorf("message %q, want %q", err.Error(), want)
	}
	if _, err := SectionNames("BS5950"); !errors.Is(err, ErrUnknownLibrary) {
		t.Errorf("SectionNames: err = %v, want ErrUnknownLibrary", err)
	}
}

func TestSectionNames(t *testing.T) {
	names, err := SectionNames("aisc15")
	if err != nil || len(names) != 2091 || names[0] != "W1100X499" {
		t.Errorf("AISC15: %d names starting %v, err %v; want 2091 starting W1100X499", len(names), names[:1], err)
	}
	names, err = SectionNames(LibParametric)
	if err != nil || len(names) != 0 {
		t.Errorf("Parametric: %v, %v; want an empty list", names, err)
	}
}

// TestShapeIsCopied makes sure a caller cannot corrupt the cached catalogue
// through the Shape pointer it receives.
func TestShapeIsCopied(t *testing.T) {
	s := mustSection(t, LibAust300, "360UB44.7")
	s.Shape.D = 99
	if again := mustSection(t, LibAust300, "360UB44.7"); again.Shape.D != 0.352 {
		t.Errorf("catalogue depth changed to %g through a returned Shape", again.Shape.D)
	}
}

// TestElasticModuli checks the moduli against textbook values: a 300×200
// rectangle has Wz = b·d²/6 = 200·300²/6 = 3.0e6 mm³ and Wy = d·b²/6 = 2.0e6
// mm³ (exact, so 1e-12); a channel's two y-moduli differ because its centroid
// is off-centre, and the larger belongs to the fibre nearer the centroid.
func TestElasticModuli(t *testing.T) {
	m, ok := mustSection(t, LibParametric, "RECT 300x200").ElasticModuli()
	if !ok {
		t.Fatal("no moduli for a rectangle")
	}
	checkRel(t, "WzPos", m.WzPos, 3.0e-3, 1e-12)
	checkRel(t, "WzNeg", m.WzNeg, 3.0e-3, 1e-12)
	checkRel(t, "WyPos", m.WyPos, 2.0e-3, 1e-12)
	checkRel(t, "WyNeg", m.WyNeg, 2.0e-3, 1e-12)

	c := mustSection(t, LibAust300, "380PFC")
	m, ok = c.ElasticModuli()
	f := c.Shape.ExtremeFibres()
	if !ok || f.ZNeg >= f.ZPos || m.WyNeg <= m.WyPos {
		t.Errorf("channel: fibres %+v moduli %+v, want ZNeg < ZPos and WyNeg > WyPos", f, m)
	}
	if _, ok := (Section{A: 1}).ElasticModuli(); ok {
		t.Error("a section without a shape reported moduli")
	}
}
