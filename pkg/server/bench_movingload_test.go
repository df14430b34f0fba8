package server

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
)

// The moving-load benchmark deck: a 50 m simply supported grillage along X
// (Y up), four girders 3 m apart along Z split into 1 m members (the 200
// members to load), cross-beams every 10 m (18 more members, not loaded),
// and three lanes on the centrelines between the girders.
const (
	mbSpan    = 50.0 // m
	mbBays    = 50   // members per girder
	mbGirders = 4
	mbGap     = 3.0  // m between girders
	mbCross   = 10   // a cross-beam line every 10 members
	mbStep    = 0.15 // m per step: 15 m/s × 0.01 s
	// The M1600 is 25 m long, so it is on its 50 m path for leading-axle
	// positions 0 … 75 m; starting half a step before the path,
	// s = −0.075 + 0.15·k, that is k = 1 … 500: 500 cases, each boundary
	// half a step away.
	mbStart = -mbStep / 2
	mbCases = 500
)

// buildMovingLoadDeck builds the deck, three library vehicles and the
// scenario through HTTP.
func buildMovingLoadDeck(s *stack) {
	s.t.Helper()
	s.must(200, "POST", "/job/new", nil)
	s.must(201, "POST", "/job/structure/materials", map[string]any{"id": 1, "name": "concrete", "youngsModulus": 32e3, "poissonsRatio": 0.2})
	// Section properties in mm: a 1400 × 600 mm girder and a 900 × 300 mm
	// cross-beam, near enough.
	s.must(201, "POST", "/job/structure/sections", map[string]any{"id": 1, "name": "girder", "a": 8.4e5, "j": 7.9e10, "iy": 2.52e10, "iz": 1.372e11, "ay": 7e5, "az": 7e5})
	s.must(201, "POST", "/job/structure/sections", map[string]any{"id": 2, "name": "cross-beam", "a": 2.7e5, "j": 6.8e9, "iy": 2.03e9, "iz": 1.82e10, "ay": 2.25e5, "az": 2.25e5})
	node := func(g, i int) int { return g*1000 + i + 1 }
	var nodes, members, supports []map[string]any
	for g := range mbGirders {
		for i := 0; i <= mbBays; i++ {
			nodes = append(nodes, map[string]any{"id": node(g, i), "x": mbSpan * float64(i) / mbBays, "y": 0, "z": mbGap * float64(g)})
			if i > 0 {
				members = append(members, map[string]any{"id": g*mbBays + i, "nodeA": node(g, i-1), "nodeB": node(g, i), "section": 1, "material": 1})
			}
		}
		// Pinned at x = 0, sliding at x = 50 m; girder 1's far bearing
		// is guided across, so the deck cannot slide sideways.
		far := "RFRRRR"
		if g == 0 {
			far = "RFFRRR"
		}
		supports = append(supports, map[string]any{"node": node(g, 0), "restraintCode": "FFFRRR"},
			map[string]any{"node": node(g, mbBays), "restraintCode": far})
	}
	id := mbGirders * mbBays
	for i := 0; i <= mbBays; i += mbCross {
		for g := 1; g < mbGirders; g++ {
			id++
			members = append(members, map[string]any{"id": id, "nodeA": node(g-1, i), "nodeB": node(g, i), "section": 2, "material": 1})
		}
	}
	s.must(200, "POST", "/job/structure/nodes/bulk", nodes)
	s.must(200, "POST", "/job/structure/members/bulk", members)
	s.must(200, "POST", "/job/structure/node-restraints/bulk", supports)
	s.must(200, "PATCH", "/job/loads/moving-loads/settings", map[string]any{"keepLoadsWithinTravelPath": true})
	s.must(200, "PATCH", "/job/loads/moving-loads/elements-to-load", map[string]any{"members": fmt.Sprintf("1-%d", mbGirders*mbBays)})
	var loads []map[string]any
	for lane, v := range []struct{ name, library string }{
		{"M1600", "AS5100"}, {"HL-93 Design Truck", "AASHTO"}, {"HL-93 Design Tandem", "AASHTO"},
	} {
		s.must(201, "POST", "/job/loads/moving-loads/vehicles/library", map[string]any{"id": lane + 1, "name": v.name, "library": v.library})
		z := mbGap * (float64(lane) + 0.5)
		s.must(201, "POST", "/job/loads/moving-loads/travel-paths", map[string]any{"id": lane + 1, "name": fmt.Sprintf("lane %d", lane+1),
			"stations": []map[string]any{{"x": 0, "y": 0, "z": z}, {"x": mbSpan, "y": 0, "z": z}}})
		loads = append(loads, map[string]any{"vehicleId": lane + 1, "travelPathId": lane + 1, "speed": mbStep / 0.01, "startPosition": mbStart})
	}
	s.must(201, "POST", "/job/loads/moving-loads/scenarios", map[string]any{"name": "three lanes", "timeInterval": 0.01, "loads": loads})
}

// mlListTotal reads the Total-Count of an unfiltered list.
func mlListTotal(s *stack, path string) int {
	s.t.Helper()
	r := s.must(200, "GET", path+"?limit=1", nil)
	n, err := strconv.Atoi(r.header.Get("Total-Count"))
	if err != nil {
		s.t.Fatalf("GET %s: Total-Count %q", path, r.header.Get("Total-Count"))
	}
	return n
}

// BenchmarkMovingLoadGenerate times POST moving-loads/generate on a
// 200-member deck with three vehicles on three lanes stepping 500
// positions, then the linear analysis of the 500 cases, separately
// (target: generation under 1 s). rows counts the load rows the
// generation wrote (node, member and plate loads), cases the cases.
func BenchmarkMovingLoadGenerate(b *testing.B) {
	s := startStack(b, 1)
	buildMovingLoadDeck(s)
	b.ResetTimer()
	var gen, ana []time.Duration
	var rows, cases int
	for range b.N {
		t0 := time.Now()
		ids, _ := generate(s, nil)
		gen = append(gen, time.Since(t0))
		if len(ids) != mbCases {
			b.Fatalf("generated %d cases, want %d", len(ids), mbCases)
		}
		t1 := time.Now()
		if run := s.waitQuick(s.run(nil).RunID); run.Status != model.RunCompleted {
			b.Fatalf("run %s: %s", run.Status, run.ErrorMessage)
		}
		ana = append(ana, time.Since(t1))
		cases = len(ids)
		rows = mlListTotal(s, "/job/loads/node-loads") + mlListTotal(s, "/job/loads/member-concentrated-loads") + mlListTotal(s, "/job/loads/plate-pressure-loads")
	}
	b.ReportMetric(median(gen).Seconds(), "generate-s")
	b.ReportMetric(median(ana).Seconds(), "analyse-s")
	b.ReportMetric(float64(rows), "rows")
	b.ReportMetric(float64(cases), "cases")
}
