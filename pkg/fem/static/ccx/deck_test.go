//go:build ccx

package ccx

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
)

// freqDat and buckleDat are excerpts of ccx 2.20 .dat files, with the
// table that follows each eigenvalue table.
const freqDat = `
     E I G E N V A L U E   O U T P U T

 MODE NO    EIGENVALUE                       FREQUENCY   
                                     REAL PART            IMAGINARY PART
                           (RAD/TIME)      (CYCLES/TIME     (RAD/TIME)

      1   0.1382391E+03   0.1175751E+02   0.1871266E+01   0.0000000E+00
      2   0.2574448E+03   0.1604509E+02   0.2553655E+01   0.0000000E+00

     P A R T I C I P A T I O N   F A C T O R S

MODE NO.   X-COMPONENT     Y-COMPONENT     Z-COMPONENT     X-ROTATION      Y-ROTATION      Z-ROTATION

      1   0.4387098E+02   0.5068857E-09   0.4903628E-13  -0.1103957E-08   0.9491509E+02  -0.2642031E-04
`

const buckleDat = `
     B U C K L I N G   F A C T O R   O U T P U T

 MODE NO       BUCKLING
                FACTOR

      1   0.3269957E+02
      2   0.3481775E+02
      3   0.3747605E+02
`

func TestReadEigen(t *testing.T) {
	for _, tc := range []struct {
		name    string
		dat     string
		step    Step
		want    []float64
		wantErr string
	}{
		{"frequencies in cycles per time", freqDat, Frequency, []float64{1.871266, 2.553655}, ""},
		{"buckling factors", buckleDat, Buckle, []float64{32.69957, 34.81775, 37.47605}, ""},
		{"the last of two steps", buckleDat + strings.Replace(buckleDat, "0.3269957E+02", "0.1E+01", 1), Buckle,
			[]float64{1, 34.81775, 37.47605}, ""},
		{"the other step's table", freqDat, Buckle, nil, "no \"B U C K L I N G"},
		{"a mode missing", strings.Replace(buckleDat, "      2   0.3481775E+02\n", "", 1), Buckle, nil, "mode 3 after 1 modes"},
		{"a static step", freqDat, Static, nil, "has no eigenvalue table"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadEigen(strings.NewReader(tc.dat), tc.step)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// The .dat values have 7 digits.
			if !slices.EqualFunc(got, tc.want, func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*b }) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestWriteEigenRefuses checks that an eigen deck refuses what it cannot
// write rather than dropping it.
func TestWriteEigenRefuses(t *testing.T) {
	for _, tc := range []struct {
		name    string
		step    Step
		lc      int64
		mutate  func(m *domain.Model)
		wantErr string
	}{
		{"frequencies with node loads", Frequency, 3, func(*domain.Model) {}, "self-weight only"},
		{"buckling with self-weight", Buckle, 2, func(*domain.Model) {}, "no self-weight"},
		{"a release", Frequency, 2, func(m *domain.Model) { m.Members[0].ReleaseB = "FFFFRR" }, "no releases"},
		{"an offset", Buckle, 3, func(m *domain.Model) { m.Members[0].OffsetA[0] = 0.1 }, "no releases or offsets"},
		{"a property factor", Buckle, 3, func(m *domain.Model) { m.Members[0].IyFactor = 2 }, "no property factors"},
		{"a section that is not the rectangle", Frequency, 2, func(m *domain.Model) { m.Sections[0].Iz *= 1.01 }, "Iz ="},
		{"a lumped mass", Frequency, 2, func(m *domain.Model) {
			m.LoadCases[0].Masses = []domain.NodeMass{{Node: m.Nodes[len(m.Nodes)-1].ID}}
		}, "lumped masses"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := rectGridModel(2)
			tc.mutate(m)
			_, err := Write(m, tc.lc, Options{Step: tc.step, Rect: map[int64]Rect{1: gridRect}})
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}
