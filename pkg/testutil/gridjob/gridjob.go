// Package gridjob builds the grid-n benchmark structure (package
// fem/gridn: n×n×n bays of 3 m, fixed base, steel members) as a job, for
// tests and benchmarks that drive the service end to end. Vertical axis Z.
//
// Load case k (1 ≤ k ≤ cases) is self-weight (−Z) plus k × 10 kN in +X at
// every node above the base, so the cases differ and each is in
// equilibrium with a reaction summary that is easy to check:
// ΣFx = −10 kN·k·(free nodes), ΣFz = +weight of all members.
// SnapshotOf and FileOf vary it (Options): a floor gravity load at every
// node above the base, for second-order (P-Δ) runs that need columns
// under real axial load; ΣFz then gains −NodeFz·(free nodes).
package gridjob

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/gusset/gusset/pkg/fem/gridn"
	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// Counts are the sizes of grid-n.
type Counts struct {
	Nodes, FreeNodes, Members int
}

// Size returns the node and member counts of grid-n.
func Size(n int) Counts {
	side := n + 1
	return Counts{Nodes: side * side * side, FreeNodes: side * side * n,
		// beams along x and y on every floor above the base, and columns.
		Members: 2*n*side*n + side*side*n}
}

// Options vary grid-n; the zero value is the grid of Snapshot and File.
type Options struct {
	// NodeFz is a vertical load (N, in +Z: negative is down) at every node
	// above the base in every load case, on top of the members' own
	// weight: the floors' gravity load.
	NodeFz float64
}

// Snapshot returns grid-n with the given number of load cases.
func Snapshot(n, cases int) store.Snapshot { return SnapshotOf(n, cases, Options{}) }

// SnapshotOf returns grid-n with the given number of load cases, varied
// by o.
func SnapshotOf(n, cases int, o Options) store.Snapshot {
	side := n + 1
	id := func(i, j, k int) int64 { return int64(i + side*(j+side*k) + 1) }
	job := model.NewJob()
	job.Settings.VerticalAxis = model.VerticalZ
	job.Headings.Heading = "grid-" + itoa(n)
	c := map[string][]store.Row{}
	add := func(coll string, key []int64, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		c[coll] = append(c[coll], store.Row{Key: store.Key(key...), Value: b})
	}
	add(model.CollMaterials, []int64{1}, model.Material{ID: 1, Name: "steel", YoungsModulus: gridn.E,
		PoissonsRatio: gridn.E/(2*gridn.G) - 1, MassDensity: gridn.Rho, Source: "User"})
	add(model.CollSections, []int64{1}, model.Section{ID: 1, Name: "grid", A: gridn.Area, J: gridn.J, Iy: gridn.I, Iz: gridn.I,
		Ay: gridn.ShearA, Az: gridn.ShearA, Source: "User", AreaFactor: 1, TorsionFactor: 1, IyFactor: 1, IzFactor: 1,
		AngleType: "NotApplicable"})
	for k := 0; k < side; k++ {
		for j := 0; j < side; j++ {
			for i := 0; i < side; i++ {
				nid := id(i, j, k)
				add(model.CollNodes, []int64{nid}, model.Node{ID: nid, X: gridn.Bay * float64(i), Y: gridn.Bay * float64(j), Z: gridn.Bay * float64(k)})
				if k == 0 {
					add(model.CollNodeRestraints, []int64{nid}, model.NodeRestraint{Node: nid, RestraintCode: "FFFFFF", ActiveDirection: "BBBBBB",
						XFrictionNormalAxis: "None", YFrictionNormalAxis: "None", ZFrictionNormalAxis: "None",
						XFrictionNormalDirection: "Either", YFrictionNormalDirection: "Either", ZFrictionNormalDirection: "Either"})
				}
			}
		}
	}
	var mid int64
	member := func(a, b int64) {
		mid++
		add(model.CollMembers, []int64{mid}, model.Member{ID: mid, NodeA: a, NodeB: b, Type: "Normal", Section: 1, Material: 1,
			Direction: model.Direction{Source: "Angle", DirAxis: "NotApplicable"},
			Releases:  model.Releases{FixityCodeAtA: "FFFFFF", FixityCodeAtB: "FFFFFF"}})
	}
	for k := 1; k < side; k++ {
		for j := 0; j < side; j++ {
			for i := 0; i < side; i++ {
				if i+1 < side {
					member(id(i, j, k), id(i+1, j, k))
				}
				if j+1 < side {
					member(id(i, j, k), id(i, j+1, k))
				}
			}
		}
	}
	for k := 0; k < n; k++ {
		for j := 0; j < side; j++ {
			for i := 0; i < side; i++ {
				member(id(i, j, k), id(i, j, k+1))
			}
		}
	}
	for lc := int64(1); lc <= int64(cases); lc++ {
		add(model.CollLoadCases, []int64{lc}, model.LoadCase{ID: lc, Title: "self-weight + " + itoa(int(lc)) + " × lateral"})
		add(model.CollSelfWeightLoads, []int64{lc}, model.SelfWeightLoad{LoadCase: lc, AccelerationZ: -gridn.Gravity})
		for k := 1; k < side; k++ {
			for j := 0; j < side; j++ {
				for i := 0; i < side; i++ {
					add(model.CollNodeLoads, []int64{lc, id(i, j, k)}, model.NodeLoad{LoadCase: lc, Node: id(i, j, k),
						Fx: gridn.Lateral * float64(lc), Fz: o.NodeFz})
				}
			}
		}
	}
	return store.Snapshot{Job: job, Collections: c}
}

// File returns grid-n with the given number of load cases as a job file.
func File(n, cases int) []byte { return FileOf(n, cases, Options{}) }

// FileOf returns grid-n with the given number of load cases, varied by o,
// as a job file.
func FileOf(n, cases int, o Options) []byte {
	var b bytes.Buffer
	if err := jobfile.Encode(&b, SnapshotOf(n, cases, o), "gridjob", time.Unix(0, 0)); err != nil {
		panic(err)
	}
	return b.Bytes()
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
