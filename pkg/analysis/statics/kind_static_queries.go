package statics

import (
	"github.com/gusset/gusset/pkg/analysis"
	"github.com/gusset/gusset/pkg/analysis/query"
)

// plateQueryDoc is what every plate query of the static family says.
const plateQueryDoc = "Plate local axes (z the normal, x from the plate's direction: the axes the plate geometry query " +
	"reports), at the plate's centroid. Membrane forces are tension positive; a positive moment puts the top (+z) face " +
	"in tension. "

// staticQueries are the result queries of the static family.
var staticQueries = []analysis.ResultQuery{
	analysis.NewStreamQuery(analysis.ResultQuery{Name: "node-displacements", Summary: "Node displacements",
		Doc: "Global axes.", Filters: []string{"loadCases", "nodes"}}, query.Method(newReader, reader.NodeDisplacements)),
	analysis.NewStreamQuery(analysis.ResultQuery{Name: "node-reactions", Summary: "Node reactions",
		Doc:     "Global axes: the forces the supports (and support springs) exert on the nodes; supported nodes only.",
		Filters: []string{"loadCases", "nodes"}}, query.Method(newReader, reader.NodeReactions)),
	analysis.NewStreamQuery(analysis.ResultQuery{Name: "reaction-summary", Summary: "Reaction summary",
		Doc: "Three rows per load case, resultants about the global origin: Load (the applied loads), Reaction (the " +
			"reactions) and Residual (their sum, the out-of-balance; ideally zero).",
		Filters: []string{"loadCases"}}, query.Method(newReader, reader.ReactionSummary)),
	analysis.NewStreamQuery(analysis.ResultQuery{Name: "member-end-forces", Summary: "Member end forces",
		Doc: "Member local axes: the forces the nodes exert on the member ends, arrays over ends A and B. Cases of a " +
			"non-linear run: Small theory with the geometric (P-Δ) forces; Finite and Large in each member's current chord " +
			"frame. finalCableLength holds, for a Cable member of a non-linear case, one value: its stretched length " +
			"L0·(1 + N/EA), the chord when taut, the unstressed length when slack; empty for other members and linear cases.",
		Filters: []string{"loadCases", "members"}}, query.Method(newReader, reader.MemberEndForces)),
	analysis.NewStreamQuery(analysis.ResultQuery{Name: "member-intermediate-forces", Summary: "Member intermediate forces",
		Doc: "Member local axes, at the stations of each member (10 equal divisions plus both sides of every point load): " +
			"the actions of the part beyond the station on the part before it; fx (N) is tension positive, mz positive for " +
			"tension at local −y. Derived at query time from the stored end forces and the member loads: exact. Cases of a " +
			"Small-theory non-linear run add the member's axial force acting on its displacement relative to end A " +
			"(along the displaced member with P-δ, along the chord with P-Δ alone), so they follow the deformed statics.",
		Filters: []string{"loadCases", "members"}}, query.Method(newReader, reader.MemberForces)),
	analysis.NewStreamQuery(analysis.ResultQuery{Name: "member-intermediate-displacements", Summary: "Member intermediate displacements",
		Doc:     "Displacements at the stations in global and member local axes, derived at query time: exact.",
		Filters: []string{"loadCases", "members"}}, query.Method(newReader, reader.MemberDisplacements)),
	analysis.NewStreamQuery(analysis.ResultQuery{Name: "member-stresses", Summary: "Member stresses",
		Doc: "At the stations: n = N/A, vy = Vy/Ay, vz = Vz/Az (A when a shear area is 0), bending stresses at the " +
			"extreme fibres (top +y/+z, bottom −y/−z; zero for sections without fibre distances) and their sums with n. mx " +
			"(torsion) is not computed: sections carry no torsion modulus, so it is 0.",
		Filters: []string{"loadCases", "members"}}, query.Method(newReader, reader.MemberStresses)),
	analysis.NewStreamQuery(analysis.ResultQuery{Name: "plate-element-forces", Summary: "Plate element forces",
		Doc: plateQueryDoc + "Per unit width: membrane forces fx, fy, fxy; moments mx (of the stresses σx), my, mxy; transverse " +
			"shears vxz, vyz. Kirchoff plates have no shear strain: their shears come from equilibrium with the moment " +
			"gradient, the slope of a quadratic fit of the centroid moments of the plate and its Kirchoff neighbours (two " +
			"rings, within 2.9° of its plane). mxTop, myTop, mxBtm, myBtm are the Wood–Armer design " +
			"moments for reinforcement along local x and y: top steel (≥ 0, hogging) and bottom steel (≤ 0, sagging).",
		Filters: []string{"loadCases", "plates"}}, query.Method(newReader, reader.PlateForces)),
	analysis.NewStreamQuery(analysis.ResultQuery{Name: "plate-element-stresses", Summary: "Plate element stresses",
		Doc: plateQueryDoc + "Plane stress on the top (+z) and bottom faces, at half the actual thickness from the reference " +
			"surface: σ = F/membraneThickness ± M·(t/2)/(bendingThickness³/12), which is F/t ± 6M/t² when the thicknesses " +
			"are equal; principal stresses sxp ≥ syp, tmax = (sxp − syp)/2, von Mises, and the angle pa of sxp from local x " +
			"in degrees. txz, tyz are the peak transverse shear stresses, 1.5·v/shearThickness at the mid-surface; svmMax is " +
			"the largest von Mises stress of the top, the bottom and the mid-surface.",
		Filters: []string{"loadCases", "plates"}}, query.Method(newReader, reader.PlateStresses)),
	analysis.NewStreamQuery(analysis.ResultQuery{Name: "plate-nodal-forces", Summary: "Plate nodal forces",
		Doc: "The forces the nodes exert on the plate at its corners A, B, C[, D] (arrays over the corners, 3 for a " +
			"triangle), in the plate's local axes. With the loads on the plate they are in equilibrium; summed over the " +
			"plates and members at a node they balance its loads and reaction.",
		Filters: []string{"loadCases", "plates"}}, query.Method(newReader, reader.PlateNodalForces)),
}
