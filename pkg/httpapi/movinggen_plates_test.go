package httpapi_test

import (
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/model"
)

// A lane pressure on a plate deck through HTTP: the patch is clipped by the
// loaded area and split across the plates it covers, whole plates getting
// plate pressures and cut ones the consistent nodal loads of the covered
// part. Statics: the loads must add up to the pressure times the covered
// plan area, and act at its centroid (the shape functions' partition of
// unity and linear completeness); round-off tolerance 1e-9.
func TestMovingLoadGenerateLanePressureOnPlates(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.must(200, "POST", "/job/new", nil)
	e.must(201, "POST", sp+"/materials", map[string]any{"name": "concrete", "youngsModulus": 32000, "poissonsRatio": 0.2})
	// A 6 × 4 m deck of 1 m plates in the plan X–Z (Y up).
	const nx, nz = 6, 4
	node := func(i, j int) int { return 1 + i + (nx+1)*j }
	at := map[int64][2]float64{}
	var nodes, plates []map[string]any
	for j := 0; j <= nz; j++ {
		for i := 0; i <= nx; i++ {
			nodes = append(nodes, map[string]any{"id": node(i, j), "x": float64(i), "y": 0, "z": float64(j)})
			at[int64(node(i, j))] = [2]float64{float64(i), float64(j)}
			if i < nx && j < nz {
				plates = append(plates, map[string]any{"id": len(plates) + 1, "nodeA": node(i, j), "nodeB": node(i+1, j),
					"nodeC": node(i+1, j+1), "nodeD": node(i, j+1), "material": 1, "actualThickness": 200})
			}
		}
	}
	e.must(200, "POST", sp+"/nodes/bulk", nodes)
	e.must(200, "POST", sp+"/plates/bulk", plates)
	e.must(200, "PATCH", mp+"/elements-to-load", map[string]any{"plates": "1-24"})
	e.must(200, "PATCH", mp+"/settings", map[string]any{"ignoreOutsideLoadedArea": true,
		"loadedArea": [][]float64{{0, 0}, {3.5, 0}, {3.5, 3}, {0, 3}}})
	const pz = -4.0 // kPa
	e.must(201, "POST", mp+"/pressures", map[string]any{"name": "lane", "width": 2, "length": 3, "pz": pz, "loadSpacing": 0.5})
	e.must(201, "POST", mp+"/travel-paths", map[string]any{"name": "lane", "stations": []map[string]any{{"x": 0, "z": 1.3}, {"x": 6, "z": 1.3}}})
	e.must(201, "POST", mp+"/scenarios", map[string]any{"name": "parked lane",
		"loads": []map[string]any{{"loadType": "Pressure", "pressureId": 1, "travelPathId": 1, "startPosition": 4.2}}})
	out := mlgGenerate(t, e, nil)
	if len(out.GeneratedLoadCaseIDs) != 1 {
		t.Fatalf("generated %v, want one case", out.GeneratedLoadCaseIDs)
	}
	lc := out.GeneratedLoadCaseIDs[0]
	// The patch is x ∈ [1.2, 4.2], z ∈ [0.3, 2.3]; inside the loaded area
	// it is [1.2, 3.5] × [0.3, 2.3]: 4.6 m², centroid (2.35, 1.3).
	area, cx, cz := 2.3*2.0, 2.35, 1.3
	var fy, mx, mz float64
	nodeLoads, _ := list[model.NodeLoad](t, e, mlgLoads+"/node-loads?loadCases="+mlgIDs(out.GeneratedLoadCaseIDs))
	for _, l := range nodeLoads {
		fy += l.Fy
		mx += l.Fy * at[l.Node][0]
		mz += l.Fy * at[l.Node][1]
	}
	pressures, _ := list[model.PlatePressureLoad](t, e, mlgLoads+"/plate-pressure-loads?loadCases="+mlgIDs(out.GeneratedLoadCaseIDs))
	// Only the plate x ∈ [2, 3], z ∈ [1, 2] lies wholly inside: id
	// 1 + i + nx·j = 1 + 2 + 6 = 9.
	if len(pressures) != 1 || pressures[0].Plate != 9 || pressures[0].Axes != "GlobalInclined" || pressures[0].LoadCase != lc {
		t.Fatalf("plate pressures %+v, want one on plate 9 (the only one covered whole)", pressures)
	}
	// Plate pressures read in the job's pressure unit (kPa by default),
	// the moving pressure in force per length² (kN/m²): 1 kPa = 1 kN/m².
	py := pressures[0].Py * 1 // kN over the 1 m² plate
	fy += py
	mx += py * 2.5
	mz += py * 1.5
	if want := pz * area; math.Abs(fy-want) > 1e-9*math.Abs(want) {
		t.Errorf("total %.12g kN, want %.12g kN", fy, want)
	}
	if math.Abs(mx/fy-cx) > 1e-9 || math.Abs(mz/fy-cz) > 1e-9 {
		t.Errorf("resultant at (%.12g, %.12g), want (%g, %g)", mx/fy, mz/fy, cx, cz)
	}
}
