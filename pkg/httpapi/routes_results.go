package httpapi

import (
	"context"
	"net/http"
	"reflect"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/analysis"
	"github.com/gusset/gusset/pkg/model"
)

// queryPath is the prefix of the result queries.
const queryPath = "/job/query/analysis"

// Envelope is the body of every result query: the rows and the warnings.
type Envelope[T any] struct {
	Results  []T                   `json:"results"`
	Warnings model.ResultsWarnings `json:"warnings"`
}

// queryDoc is what every static result query says.
const queryDoc = "Values are in the job units (rotations in radians). Rows are ordered by load case, then by node, member or plate, " +
	"and paged by offset and limit (Total-Count counts every row). Filters are id lists (\"1,3-7\"); an id the model does " +
	"not have is a 400, a range included. warnings.loadCasesNotAnalyzed lists the selected load cases without results (an " +
	"id list usable as loadCases of a run). 409 before any static analysis; any model change deletes every result."

// eigenQueryDoc is what every buckling and dynamic-frequency query says.
const eigenQueryDoc = "Rows are ordered by load case, then mode (1 the lowest), then member or node, and paged by offset and " +
	"limit (Total-Count counts every row). loadCases, members and nodes are id lists (\"1,3-7\"); an id the model does not " +
	"have is a 400, a range included. modes is a list of mode numbers: modes beyond those found, and, without the filter, " +
	"modes the run asked for but did not find (no more exist in the range), are listed per case in " +
	"warnings.modesNotAnalyzed. warnings.loadCasesNotAnalyzed lists the selected load cases without results. 409 before " +
	"any analysis of the kind; any model change deletes every result."

// resultQuery describes one result query route.
type resultQuery[T any] struct {
	kind    model.AnalysisKind
	name    string // path segment under the kind's
	summary string
	desc    string
	filters []string
	// extra are further query parameters (besides paging and filters)
	// that resultFilter reads.
	extra []param
	run   func(ctx context.Context, ws string, f analysis.Filter) (analysis.Page[T], error)
}

func (a *API) registerResultRoutes() {
	q := a.query
	addResultQuery(a, resultQuery[model.NodeDisplacementRow]{name: "node-displacements", summary: "Node displacements",
		desc: "Global axes.", filters: []string{"loadCases", "nodes"}, run: q.NodeDisplacements})
	addResultQuery(a, resultQuery[model.NodeReactionRow]{name: "node-reactions", summary: "Node reactions",
		desc:    "Global axes: the forces the supports (and support springs) exert on the nodes; supported nodes only.",
		filters: []string{"loadCases", "nodes"}, run: q.NodeReactions})
	addResultQuery(a, resultQuery[model.ReactionSummaryRow]{name: "reaction-summary", summary: "Reaction summary",
		desc: "Three rows per load case, resultants about the global origin: Load (the applied loads), Reaction (the " +
			"reactions) and Residual (their sum, the out-of-balance; ideally zero).",
		filters: []string{"loadCases"}, run: q.ReactionSummary})
	addResultQuery(a, resultQuery[model.MemberEndForcesRow]{name: "member-end-forces", summary: "Member end forces",
		desc: "Member local axes: the forces the nodes exert on the member ends, arrays over ends A and B. Cases of a " +
			"non-linear run: Small theory with the geometric (P-Δ) forces; Finite and Large in each member's current chord " +
			"frame. finalCableLength holds, for a Cable member of a non-linear case, one value: its stretched length " +
			"L0·(1 + N/EA), the chord when taut, the unstressed length when slack; empty for other members and linear cases.",
		filters: []string{"loadCases", "members"}, run: q.MemberEndForces})
	addResultQuery(a, resultQuery[model.MemberForcesRow]{name: "member-intermediate-forces", summary: "Member intermediate forces",
		desc: "Member local axes, at the stations of each member (10 equal divisions plus both sides of every point load): " +
			"the actions of the part beyond the station on the part before it; fx (N) is tension positive, mz positive for " +
			"tension at local −y. Derived at query time from the stored end forces and the member loads: exact. Cases of a " +
			"Small-theory non-linear run add the member's axial force acting on its displacement relative to end A " +
			"(along the displaced member with P-δ, along the chord with P-Δ alone), so they follow the deformed statics.",
		filters: []string{"loadCases", "members"}, run: q.MemberForces})
	addResultQuery(a, resultQuery[model.MemberDisplacementsRow]{name: "member-intermediate-displacements",
		summary: "Member intermediate displacements",
		desc:    "Displacements at the stations in global and member local axes, derived at query time: exact.",
		filters: []string{"loadCases", "members"}, run: q.MemberDisplacements})
	addResultQuery(a, resultQuery[model.MemberStressesRow]{name: "member-stresses", summary: "Member stresses",
		desc: "At the stations: n = N/A, vy = Vy/Ay, vz = Vz/Az (A when a shear area is 0), bending stresses at the " +
			"extreme fibres (top +y/+z, bottom −y/−z; zero for sections without fibre distances) and their sums with n. mx " +
			"(torsion) is not computed: sections carry no torsion modulus, so it is 0.",
		filters: []string{"loadCases", "members"}, run: q.MemberStresses})
	const plateDoc = "Plate local axes (z the normal, x from the plate's direction: the axes the plate geometry query " +
		"reports), at the plate's centroid. Membrane forces are tension positive; a positive moment puts the top (+z) face " +
		"in tension. "
	addResultQuery(a, resultQuery[model.PlateForcesRow]{name: "plate-element-forces", summary: "Plate element forces",
		desc: plateDoc + "Per unit width: membrane forces fx, fy, fxy; moments mx (of the stresses σx), my, mxy; transverse " +
			"shears vxz, vyz. Kirchoff plates have no shear strain: their shears come from equilibrium with the moment " +
			"gradient, the slope of a quadratic fit of the centroid moments of the plate and its Kirchoff neighbours (two " +
			"rings, within 2.9° of its plane). mxTop, myTop, mxBtm, myBtm are the Wood–Armer design " +
			"moments for reinforcement along local x and y: top steel (≥ 0, hogging) and bottom steel (≤ 0, sagging).",
		filters: []string{"loadCases", "plates"}, run: q.PlateForces})
	addResultQuery(a, resultQuery[model.PlateStressesRow]{name: "plate-element-stresses", summary: "Plate element stresses",
		desc: plateDoc + "Plane stress on the top (+z) and bottom faces, at half the actual thickness from the reference " +
			"surface: σ = F/membraneThickness ± M·(t/2)/(bendingThickness³/12), which is F/t ± 6M/t² when the thicknesses " +
			"are equal; principal stresses sxp ≥ syp, tmax = (sxp − syp)/2, von Mises, and the angle pa of sxp from local x " +
			"in degrees. txz, tyz are the peak transverse shear stresses, 1.5·v/shearThickness at the mid-surface; svmMax is " +
			"the largest von Mises stress of the top, the bottom and the mid-surface.",
		filters: []string{"loadCases", "plates"}, run: q.PlateStresses})
	addResultQuery(a, resultQuery[model.PlateNodalForcesRow]{name: "plate-nodal-forces", summary: "Plate nodal forces",
		desc: "The forces the nodes exert on the plate at its corners A, B, C[, D] (arrays over the corners, 3 for a " +
			"triangle), in the plate's local axes. With the loads on the plate they are in equilibrium; summed over the " +
			"plates and members at a node they balance its loads and reaction.",
		filters: []string{"loadCases", "plates"}, run: q.PlateNodalForces})
	a.registerEigenResultRoutes()
}

func (a *API) registerEigenResultRoutes() {
	q := a.query
	const tolDoc = " Each mode's warning is set when its relative residual is above the tolerance its run asked for."
	addResultQuery(a, resultQuery[model.BucklingLoadFactorRow]{kind: model.KindBuckling, name: "load-factors",
		summary: "Buckling load factors",
		desc: "The smallest positive load factors λ with (K + λ·K_G)·φ = 0, K_G from the axial forces of a linear static " +
			"analysis of the same case; loads reversed (negative factors) are a different case. nodeAtMaxTrans and " +
			"nodeAtMaxRotn are the nodes of the mode shape's largest translation and rotation, with their global axes (node 0 " +
			"and an empty axis when no node moves that way beyond round-off). " +
			"The loadCases and modes filters are optional." + tolDoc,
		filters: []string{"loadCases", "modes"}, run: q.LoadFactors})
	addResultQuery(a, resultQuery[model.EffectiveLengthRow]{kind: model.KindBuckling, name: "member-effective-lengths",
		summary: "Buckling effective lengths of the members",
		desc: "For each member in compression: pcr = λ·|N| with N its most compressive axial force, and ly, lz = " +
			"π·√(E·I/pcr) about the section's principal axes y and z, in the job units. Members in tension or without axial " +
			"force have an exclusionReason and zeros.",
		filters: []string{"loadCases", "members", "modes"}, run: q.EffectiveLengths})
	addResultQuery(a, resultQuery[model.NaturalFrequencyRow]{kind: model.KindDynamic, name: "natural-frequencies",
		summary: "Natural frequencies",
		desc: "Frequencies in Hz and periods in s, lowest first. Mass participation (percent) is the share of the " +
			"structure's whole mass along each global axis, supported nodes included, that the mode moves; the massPartSum " +
			"fields add it up over modes 1 to the row's." + tolDoc,
		filters: []string{"loadCases", "modes"}, run: q.NaturalFrequencies})
	shapeDoc := "One row per load case and mode, arrays over the selected nodes (all by default), global axes. A page holds " +
		"at most " + strconv.Itoa(analysis.MaxShapeEntries) + " node entries (rows × nodes); a larger one is a 400 naming the " +
		"limit. "
	addResultQuery(a, resultQuery[model.ModeShapeRow]{kind: model.KindDynamic, name: "mode-shapes",
		summary: "Vibration mode shapes",
		desc: shapeDoc + "normalization Mass (default): φᵀ·M·φ = 1, translations in m/√kg and rotations in rad/√kg whatever " +
			"the job units, signed so that the largest translation is positive; Unit: the largest translation is +1 (the " +
			"largest rotation when no node translates beyond round-off); None: " +
			"as the eigensolver returns them (mass-normalized, arbitrary sign).",
		filters: []string{"loadCases", "modes", "nodes"},
		extra:   []param{{name: "normalization", typ: "string", desc: "Mass (default), Unit or None"}},
		run: func(ctx context.Context, ws string, f analysis.Filter) (analysis.Page[model.ModeShapeRow], error) {
			return q.ModeShapes(ctx, ws, model.KindDynamic, f)
		}})
	addResultQuery(a, resultQuery[model.ModeShapeRow]{kind: model.KindBuckling, name: "mode-shapes",
		summary: "Buckling mode shapes",
		desc:    shapeDoc + "Buckling shapes are normalized so that the largest translation is +1 (normalization Unit, the only value).",
		filters: []string{"loadCases", "modes", "nodes"},
		extra:   []param{{name: "normalization", typ: "string", desc: "Unit (default and only value)"}},
		run: func(ctx context.Context, ws string, f analysis.Filter) (analysis.Page[model.ModeShapeRow], error) {
			return q.ModeShapes(ctx, ws, model.KindBuckling, f)
		}})
}

// addResultQuery serves a result query and its metadata.
func addResultQuery[T any](a *API, rq resultQuery[T]) {
	const tag = "Results"
	doc, dir := queryDoc, "static"
	switch rq.kind {
	case model.KindBuckling:
		doc, dir = eigenQueryDoc, "buckling"
	case model.KindDynamic:
		doc, dir = eigenQueryDoc, "dynamic"
	}
	path := queryPath + "/" + dir + "/" + rq.name
	params := []param{{name: "offset", typ: "integer"}, {name: "limit", typ: "integer"}}
	for _, f := range rq.filters {
		desc := "id list, e.g. 1,3-7"
		if f == "modes" {
			desc = "list of mode numbers, e.g. 1-3"
		}
		params = append(params, param{name: f, typ: "string", desc: desc})
	}
	params = append(params, rq.extra...)
	a.add(route{method: "GET", path: path, tag: tag, headers: pagingHeaders, summary: rq.summary, desc: rq.desc + " " + doc, query: params,
		responses: map[int]any{200: Envelope[T]{}}, errors: []int{http.StatusBadRequest, http.StatusConflict, http.StatusInternalServerError},
		handler: func(c *fiber.Ctx) error {
			f, err := resultFilter(c, rq.filters)
			if err != nil {
				return err
			}
			if len(rq.extra) > 0 {
				f.Normalization = c.Query("normalization")
			}
			if err != nil {
				return err
			}
			ctx, ws := c.UserContext(), workspace(c)
			u, err := a.jobUnits(c)
			if err != nil {
				return err
			}
			page, err := rq.run(ctx, ws, f)
			if err != nil {
				return err
			}
			rows := page.Rows
			if rows == nil {
				rows = []T{}
			}
			scaleRows(rows, u)
			setPaging(c, page.Total, f.Offset, f.Limit, f.Limit >= 0 && f.Offset+f.Limit < page.Total)
			w := page.Warnings
			if w.ModesNotAnalyzed == nil {
				w.ModesNotAnalyzed = []model.ModesNotFound{}
			}
			return c.JSON(Envelope[T]{Results: rows, Warnings: w})
		}})
	a.add(route{method: "GET", path: path + "/metadata", tag: tag, summary: "Describe the fields of " + rq.name,
		desc:      "Units are resolved against the job units.",
		responses: map[int]any{200: Metadata{}}, errors: []int{http.StatusConflict, http.StatusInternalServerError},
		handler: func(c *fiber.Ctx) error {
			u, err := a.jobUnits(c)
			if err != nil {
				return err
			}
			var zero T
			return c.JSON(Metadata{ResourceType: rq.name, Fields: fieldMetadata(reflect.TypeOf(zero), u, "")})
		}})
}

// resultFilter reads the paging and the id-list filters of a query.
func resultFilter(c *fiber.Ctx, names []string) (analysis.Filter, error) {
	var f analysis.Filter
	var err error
	if f.Offset, f.Limit, err = paging(c); err != nil {
		return f, err
	}
	for _, name := range names {
		list, some, err := model.ParseIDList(name, c.Query(name))
		if err != nil {
			return f, err
		}
		if !some {
			continue
		}
		switch name {
		case "loadCases":
			f.LoadCases = &list
		case "nodes":
			f.Nodes = &list
		case "members":
			f.Members = &list
		case "plates":
			f.Plates = &list
		case "modes":
			f.Modes = &list
		}
	}
	return f, nil
}

// scaleRows converts result rows from SI to the job units. Result pages
// hold up to hundreds of thousands of numbers, so each field's factor is
// worked out once per page rather than once per value as scale does.
func scaleRows[T any](rows []T, u model.Units) {
	if len(rows) == 0 {
		return
	}
	type fieldScale struct {
		index int
		slice bool
		div   float64
	}
	var fs []fieldScale
	for _, f := range infoOf(reflect.TypeOf(rows[0])).fields {
		if f.unit == nil {
			continue
		}
		if d := f.unit.factor(u); d != 1 {
			fs = append(fs, fieldScale{f.index, f.typ.Kind() == reflect.Slice, d})
		}
	}
	for i := range rows {
		v := reflect.ValueOf(&rows[i]).Elem()
		for _, f := range fs {
			fv := v.Field(f.index)
			if !f.slice {
				fv.SetFloat(fv.Float() / f.div)
				continue
			}
			xs := fv.Interface().([]float64)
			for k := range xs {
				xs[k] /= f.div
			}
		}
	}
}
