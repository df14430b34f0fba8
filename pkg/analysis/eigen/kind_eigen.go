package eigen

import (
	"context"
	"fmt"
	"strconv"

	"github.com/gusset/gusset/pkg/analysis"
	"github.com/gusset/gusset/pkg/analysis/columns"
	"github.com/gusset/gusset/pkg/analysis/lifecycle"
	"github.com/gusset/gusset/pkg/analysis/query"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// The eigen families: buckling and dynamic frequency analyses, one kind
// each, with their own settings records and results.

// eigenSettingsDoc states the rules the two eigen settings records share.
var eigenSettingsDoc = fmt.Sprintf("tolerance is greater than 0 and less than 1; modes is 1 to %d, and a run computes at most %d "+
	"per load case (starting one with more is a 400). The limits are not negative; upperLimit 0 means no upper limit, "+
	"otherwise lowerLimit must be below upperLimit.", model.MaxModesSetting, MaxEigenModes)

// eigenQueryDoc is what every buckling and dynamic-frequency query says.
const eigenQueryDoc = "Rows are ordered by load case, then mode (1 the lowest), then member or node, and paged by offset and " +
	"limit (Total-Count counts every row). loadCases, members and nodes are id lists (\"1,3-7\"); an id the model does not " +
	"have is a 400, a range included. modes is a list of mode numbers: modes beyond those found, and, without the filter, " +
	"modes the run asked for but did not find (no more exist in the range), are listed per case in " +
	"warnings.modesNotAnalyzed. warnings.loadCasesNotAnalyzed lists the selected load cases without results. 409 before " +
	"any analysis of the kind (a filter naming ids the model lacks is still the 400: filters are checked first); any model change deletes every result."

// Parts of the eigen queries' descriptions.
const tolQueryDoc = " Each mode's warning is set when its relative residual is above the tolerance its run asked for."

var shapeQueryDoc = "One row per load case and mode, arrays over the selected nodes (all by default), global axes. A page holds " +
	"at most " + strconv.Itoa(MaxShapeEntries) + " node entries (rows × nodes); a larger one is a 400 naming the " +
	"limit. "

// eigenCases reads the load cases of an eigen meta record.
func eigenCases(raw []byte) ([]model.CaseResultsInfo, error) {
	meta, err := decodeEigenMeta(raw)
	if err != nil || meta == nil {
		return nil, err
	}
	out := make([]model.CaseResultsInfo, 0, len(meta.Cases))
	for _, c := range meta.Cases {
		out = append(out, model.CaseResultsInfo{LoadCase: c.LoadCase, HasResults: true, Solver: c.Solver, Modes: c.Modes})
	}
	return out, nil
}

// Names of the eigen families (constants, as staticName).
const (
	bucklingName model.AnalysisFamily = "buckling"
	dynamicName  model.AnalysisFamily = "dynamic-frequency"
)

// bucklingFamily is the family of the buckling analysis.
var bucklingFamily = &analysis.Family{
	Name: bucklingName, QueryDir: "buckling", Noun: "buckling analysis", StatusFlag: "hasBucklingResults",
	SettingsName: "BucklingSettings",
	SettingsDoc: model.ReversalDoc + " " + eigenSettingsDoc + " upperLimit and lowerLimit are load factors (no unit, any sign). " +
		model.CommonSettingsDoc,
	SettingsKey: "buckling",
	Default:     model.DefaultBucklingSettings(),
	QueryDoc:    eigenQueryDoc,
	Queries: []analysis.ResultQuery{
		analysis.NewStreamQuery(analysis.ResultQuery{Name: "load-factors", Summary: "Buckling load factors",
			Doc: "The smallest positive load factors λ with (K + λ·K_G)·φ = 0, K_G from the axial forces of a linear static " +
				"analysis of the same case; loads reversed (negative factors) are a different case. nodeAtMaxTrans and " +
				"nodeAtMaxRotn are the nodes of the mode shape's largest translation and rotation, with their global axes (node 0 " +
				"and an empty axis when no node moves that way beyond round-off). " +
				"The loadCases and modes filters are optional." + tolQueryDoc,
			Filters: []string{"loadCases", "modes"}}, query.Method(newReader, reader.LoadFactors)),
		analysis.NewStreamQuery(analysis.ResultQuery{Name: "member-effective-lengths", Summary: "Buckling effective lengths of the members",
			Doc: "For each member in compression: pcr = λ·|N| with N its most compressive axial force, and ly, lz = " +
				"π·√(E·I/pcr) about the section's principal axes y and z, in the job units. Members in tension or without axial " +
				"force have an exclusionReason and zeros.",
			Filters: []string{"loadCases", "members", "modes"}}, query.Method(newReader, reader.EffectiveLengths)),
		analysis.NewStreamQuery(analysis.ResultQuery{Name: "mode-shapes", Summary: "Buckling mode shapes",
			Doc:           shapeQueryDoc + "Buckling shapes are normalized so that the largest translation is +1 (normalization Unit, the only value).",
			Filters:       []string{"loadCases", "modes", "nodes"},
			Normalization: "Unit (default and only value)"},
			func(q *query.Query, ctx context.Context, ws string, f query.Filter, sink query.Sink[model.ModeShapeRow]) error {
				return reader{q}.ModeShapes(ctx, ws, bucklingName, f, sink)
			}),
	},
	Cases: eigenCases,
	Check: func(set store.ResultSet, colls map[string][]store.Row) error {
		return checkEigen(bucklingName, set, colls)
	},
}

// dynamicFamily is the family of the natural-frequency analysis.
var dynamicFamily = &analysis.Family{
	Name: dynamicName, QueryDir: "dynamic", Noun: "dynamic frequency analysis", StatusFlag: "hasDynamicResults",
	SettingsName: "DynamicSettings",
	SettingsDoc: eigenSettingsDoc + " upperLimit, lowerLimit and frequencyShift are frequencies in Hz (>= 0; the job units have no " +
		"frequency unit); frequencyShift 0 means no shift. " + model.CommonSettingsDoc,
	SettingsLabels: map[string]string{"upperLimit": "Hz", "lowerLimit": "Hz", "frequencyShift": "Hz"},
	SettingsKey:    "dynamicFrequency",
	Default:        model.DefaultDynamicSettings(),
	QueryDoc:       eigenQueryDoc,
	Queries: []analysis.ResultQuery{
		analysis.NewStreamQuery(analysis.ResultQuery{Name: "natural-frequencies", Summary: "Natural frequencies",
			Doc: "Frequencies in Hz and periods in s, lowest first. Mass participation (percent) is the share of the " +
				"structure's whole mass along each global axis, supported nodes included, that the mode moves; the massPartSum " +
				"fields add it up over modes 1 to the row's." + tolQueryDoc,
			Filters: []string{"loadCases", "modes"}}, query.Method(newReader, reader.NaturalFrequencies)),
		analysis.NewStreamQuery(analysis.ResultQuery{Name: "mode-shapes", Summary: "Vibration mode shapes",
			Doc: shapeQueryDoc + "normalization Mass (default): φᵀ·M·φ = 1, translations in m/√kg and rotations in rad/√kg whatever " +
				"the job units, signed so that the largest translation is positive; Unit: the largest translation is +1 (the " +
				"largest rotation when no node translates beyond round-off); None: " +
				"as the eigensolver returns them (mass-normalized, arbitrary sign).",
			Filters:       []string{"loadCases", "modes", "nodes"},
			Normalization: "Mass (default), Unit or None"},
			func(q *query.Query, ctx context.Context, ws string, f query.Filter, sink query.Sink[model.ModeShapeRow]) error {
				return reader{q}.ModeShapes(ctx, ws, dynamicName, f, sink)
			}),
	},
	Cases: eigenCases,
	Check: func(set store.ResultSet, colls map[string][]store.Row) error {
		return checkEigen(dynamicName, set, colls)
	},
}

// checkModes is the Check of the eigen kinds: a run computes at most
// MaxEigenModes per case.
func checkModes(what string, s analysis.Settings) error {
	switch s := s.(type) {
	case model.BucklingSettings:
		return CheckEigenModes(s.Modes)
	case model.DynamicSettings:
		return CheckEigenModes(s.Modes)
	}
	return fmt.Errorf("check %s settings: a %T is not an eigen settings record", what, s)
}

// Buckling is the buckling analysis.
var Buckling analysis.Kind = bucklingKind{}

// bucklingKind is the buckling analysis.
type bucklingKind struct{}

var _ analysis.Kind = bucklingKind{}

// Type implements Kind.
func (bucklingKind) Type() model.AnalysisType { return "BucklingAnalysis" }

// Family implements Kind.
func (bucklingKind) Family() *analysis.Family { return bucklingFamily }

// Describe implements Kind.
func (bucklingKind) Describe() string { return "buckling analysis" }

// Start implements Kind.
func (bucklingKind) Start() analysis.StartRoute {
	return analysis.StartRoute{Path: "buckling/run", Summary: "Start a buckling analysis",
		Doc: "For each primary load case (combinations " +
			"are refused) it finds the smallest positive load factors of the case's loads, from the axial forces of a linear " +
			"static analysis; query them under /job/query/analysis/buckling. Members are subdivided internally so that one " +
			"member per column gives its Euler load. theory SigncountEigensolver and ClassicEigensolver both run shift-invert " +
			"block Lanczos with the Sturm check. axialForceDistribution NonLinear, and tension-only or compression-only " +
			"members with tensionCompressionOnly Activated or GradualActivation, fail the run with a message saying so. " +
			"Results replace the stored buckling results, or with retainLoadCases only those of the cases analysed."}
}

// Check implements Kind.
func (bucklingKind) Check(s analysis.Settings) error { return checkModes("buckling", s) }

// ResultBytes implements Kind.
func (bucklingKind) ResultBytes(s analysis.Settings, a analysis.Admission) int64 {
	return eigenBytes(s, a, true)
}

// eigenBytes estimates the eigen results of the load cases a run analyses
// (combinations are refused, and counted here) on the model a describes,
// with the modes the settings ask for.
func eigenBytes(s analysis.Settings, a analysis.Admission, lengths bool) int64 {
	var modes int
	var cases int64
	switch s := s.(type) {
	case model.BucklingSettings:
		modes, cases = s.Modes, a.Selected(s.LoadCaseList())
	case model.DynamicSettings:
		modes, cases = s.Modes, a.Selected(s.LoadCaseList())
	}
	return columns.EigenBytes(a.Counts[model.CollNodes], a.Counts[model.CollMembers], cases, int64(modes), lengths)
}

// Run implements Kind.
func (bucklingKind) Run(ctx context.Context, r *lifecycle.Runner, t lifecycle.Task) error {
	return runner{r}.runBuckling(ctx, t)
}

// Dynamic is the dynamic frequency analysis.
var Dynamic analysis.Kind = dynamicKind{}

// dynamicKind is the natural-frequency analysis.
type dynamicKind struct{}

var _ analysis.Kind = dynamicKind{}

// Type implements Kind.
func (dynamicKind) Type() model.AnalysisType { return "DynamicFrequencyAnalysis" }

// Family implements Kind.
func (dynamicKind) Family() *analysis.Family { return dynamicFamily }

// Describe implements Kind.
func (dynamicKind) Describe() string { return "dynamic frequency analysis" }

// Start implements Kind.
func (dynamicKind) Start() analysis.StartRoute {
	return analysis.StartRoute{Path: "dynamic-frequency/run", Summary: "Start a dynamic frequency analysis",
		Doc: "For each primary load case " +
			"(combinations are refused) it finds the lowest natural frequencies (or those nearest frequencyShift, or inside " +
			"[lowerLimit, upperLimit]) with the case's loads as mass: self-weight gives the members' mass, lumped mass loads " +
			"their nodes', and downward node and member forces F/g; query them under /job/query/analysis/dynamic. A Sturm " +
			"count checks that no mode in the range was missed; the run warns, naming the range, when one was. Results " +
			"replace the stored frequency results, or with retainLoadCases only those of the cases analysed."}
}

// Check implements Kind.
func (dynamicKind) Check(s analysis.Settings) error { return checkModes("frequency", s) }

// ResultBytes implements Kind.
func (dynamicKind) ResultBytes(s analysis.Settings, a analysis.Admission) int64 {
	return eigenBytes(s, a, false)
}

// Run implements Kind.
func (dynamicKind) Run(ctx context.Context, r *lifecycle.Runner, t lifecycle.Task) error {
	return runner{r}.runDynamic(ctx, t)
}
