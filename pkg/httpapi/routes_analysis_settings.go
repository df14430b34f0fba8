package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/gusset/gusset/pkg/analysis"
	"net/http"
	"reflect"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/model"
)

// analysisSettingsPath is the parent of the settings of each analysis kind.
const analysisSettingsPath = "/job/analysis"

// Error statuses of the analysis-settings routes. 404 is what any path
// outside the three kinds answers.
var (
	errsSettingsGet   = []int{http.StatusNotFound, http.StatusConflict, http.StatusInternalServerError}
	errsSettingsPatch = []int{http.StatusBadRequest, http.StatusNotFound, http.StatusConflict, http.StatusRequestEntityTooLarge,
		http.StatusUnsupportedMediaType, http.StatusInternalServerError}
)

// Rules shared by the three settings records, for the OpenAPI descriptions.
var (
	settingsPatchDoc = "The body is required and partial: omitted fields stay unchanged; an empty object changes nothing. " +
		"Every failing field is reported at once (errors[] names each); an enum value outside its list is a 400 listing the " +
		"allowed values, an unknown property a 400. While an analysis holds the workspace the change is a 409 " +
		"ANALYSIS_IN_PROGRESS. The run endpoints accept the same partial body as a per-run override."
	settingsCommonDoc = fmt.Sprintf("loadCases is an id list such as \"1,3-7,10\" (empty: every load case) of at most %d entries, "+
		"a number or a range counting as one; it is stored normalised and its ids need not exist (checkNonExistentLoadCases "+
		"decides whether a run reports missing ones). solverType is Paradise or Wavefront; input also takes the integer codes "+
		"0 (Paradise) and 1 (Wavefront), while 2 (the legacy solver, not exposed) and 3 (the cloud solver, which the in-process "+
		"analysis does not support) are 400s; output is always the name. optimizationMethod None keeps the model's node order; Auto, "+
		"General, Linear and Circular all let the solver order the equations. optimizationAxis and optimizationX/Y/Z (in the job "+
		"length unit; the desktop program's axis or centre of Linear and Circular optimisation) are accepted, checked (with "+
		"optimizationAxis Vector, Linear or Circular optimisation needs a non-zero vector) and stored, but ignored: the ordering "+
		"is automatic. drillingStiffness (> 0, default 1) multiplies the plate elements' drilling (in-plane "+
		"rotation) stiffness; a 0 that a job or file saved by an earlier version holds (it meant 1 then) is read as 1. plateType (BCPlates, DLPlates) is stored and returned but selects nothing: each plate's theory "+
		"(Kirchoff: DKQ/DKT; Mindlin: MITC4/MITC3) picks its formulation. Numbers must be "+
		"finite and at most %g in magnitude.", model.MaxAnalysisLoadCases, model.MaxMagnitude)
	settingsEigenDoc = fmt.Sprintf("tolerance is greater than 0 and less than 1; modes is 1 to %d, and a run computes at most %d "+
		"per load case (starting one with more is a 400). The limits are not negative; upperLimit 0 means no upper limit, "+
		"otherwise lowerLimit must be below upperLimit.", model.MaxModesSetting, analysis.MaxEigenModes)
	settingsReversalDoc = fmt.Sprintf("reversalIterations is 1 to %d.", model.MaxIterations)
)

// settingsKind describes the settings record of one analysis kind.
type settingsKind[T any] struct {
	segment string // path segment under /job/analysis
	noun    string // for summaries: "static analysis"
	name    string // resourceType of the metadata
	rules   string // the kind's own rules
	labels  map[string]string
	pick    func(model.AnalysisSettings) T
	patch   func(ctx context.Context, ws string, fn func(*T) error) (T, error)
}

func (a *API) registerAnalysisSettingsRoutes() {
	registerSettings(a, settingsKind[model.StaticSettings]{segment: "static", noun: "static analysis", name: "StaticSettings",
		rules: settingsReversalDoc + fmt.Sprintf(" loadStepIterations and loadSteps are 1 to %d, dampingSteps 0 to %d; dampingFactor "+
			"is a percentage from 0 to less than 100, convergenceAccuracy one greater than 0 and less than 100. theory, dampingFactor, "+
			"dampingSteps, loadSteps, convergenceAccuracy, rotateLocalLoads, deflectionsConvergence, residualsConvergence, pDeltaBig, "+
			"pDeltaSmall, matrixType, loading, steppingMethod and keepLoadSteps (an extension) apply to non-linear analyses only: linear runs keep and ignore them.",
			model.MaxIterations, model.MaxIterations),
		labels: map[string]string{"dampingFactor": "%", "convergenceAccuracy": "%"},
		pick:   func(s model.AnalysisSettings) model.StaticSettings { return s.Static }, patch: a.sess.PatchStaticSettings})
	registerSettings(a, settingsKind[model.BucklingSettings]{segment: "buckling", noun: "buckling analysis", name: "BucklingSettings",
		rules: settingsReversalDoc + " " + settingsEigenDoc + " upperLimit and lowerLimit are load factors (no unit, any sign).",
		pick:  func(s model.AnalysisSettings) model.BucklingSettings { return s.Buckling }, patch: a.sess.PatchBucklingSettings})
	registerSettings(a, settingsKind[model.DynamicSettings]{segment: "dynamic-frequency", noun: "dynamic frequency analysis",
		name: "DynamicSettings",
		rules: settingsEigenDoc + " upperLimit, lowerLimit and frequencyShift are frequencies in Hz (>= 0; the job units have no " +
			"frequency unit); frequencyShift 0 means no shift.",
		labels: map[string]string{"upperLimit": "Hz", "lowerLimit": "Hz", "frequencyShift": "Hz"},
		pick:   func(s model.AnalysisSettings) model.DynamicSettings { return s.Dynamic }, patch: a.sess.PatchDynamicSettings})
}

// registerSettings serves GET, PATCH and metadata of one settings record.
func registerSettings[T any](a *API, k settingsKind[T]) {
	const tag = "Analysis settings"
	path := analysisSettingsPath + "/" + k.segment + "/settings"
	var zero T
	def := k.pick(model.DefaultAnalysisSettings())
	defJSON, _ := json.Marshal(def)
	a.add(route{method: "GET", path: path, tag: tag, summary: "Get the " + k.noun + " settings",
		desc: "optimizationX/Y/Z are shown in the job length unit. A job that never set them (also one saved before analysis " +
			"settings existed) has the defaults: " + string(defJSON) + ". " + k.rules + " " + settingsCommonDoc,
		responses: map[int]any{200: zero}, errors: errsSettingsGet, handler: func(c *fiber.Ctx) error {
			job, err := a.sess.Job(c.UserContext(), workspace(c))
			if err != nil {
				return err
			}
			return c.JSON(toWire(k.pick(job.Analysis), job.Units))
		}})
	a.add(route{method: "PATCH", path: path, tag: tag, summary: "Update the " + k.noun + " settings (only the supplied fields change)",
		desc: settingsPatchDoc + " " + k.rules + " " + settingsCommonDoc,
		body: zero, bodyRequired: true, responses: map[int]any{200: zero}, errors: errsSettingsPatch,
		handler: func(c *fiber.Ctx) error {
			if err := requireJSON(c); err != nil {
				return err
			}
			fields, err := objectFields(c.Body(), "")
			if err != nil {
				return err
			}
			ctx, ws := c.UserContext(), workspace(c)
			job, err := a.sess.Job(ctx, ws)
			if err != nil {
				return err
			}
			if len(fields) == 0 { // nothing to change: do not mark the job modified
				return c.JSON(toWire(k.pick(job.Analysis), job.Units))
			}
			rec, err := k.patch(ctx, ws, func(r *T) error { return mergeFields(reflect.ValueOf(r), fields, job.Units, "") })
			if err != nil {
				return err
			}
			return c.JSON(toWire(rec, job.Units))
		}})
	a.add(route{method: "GET", path: path + "/metadata", tag: tag, summary: "Describe the " + k.noun + " settings fields",
		desc:      "Units are resolved against the job units; default is the value of a new job.",
		responses: map[int]any{200: Metadata{}}, errors: errsSettingsGet, handler: func(c *fiber.Ctx) error {
			u, err := a.jobUnits(c)
			if err != nil {
				return err
			}
			return c.JSON(settingsMetadata(k.name, def, u, k.labels))
		}})
}

// settingsMetadata describes a settings record: fieldMetadata with each
// field's default (the first enum value is not always the default), the
// labels of unitless quantities ("%", "Hz") and the field's doc tag.
func settingsMetadata[T any](name string, def T, u model.Units, labels map[string]string) Metadata {
	t := reflect.TypeOf(def)
	md := Metadata{ResourceType: name, Fields: fieldMetadata(t, u, "")}
	var defaults map[string]any
	b, _ := json.Marshal(toWire(def, u))
	_ = json.Unmarshal(b, &defaults)
	docs := map[string]string{}
	for _, f := range model.DefOf(t).Fields {
		docs[f.Name] = f.Doc
	}
	for i := range md.Fields {
		f := &md.Fields[i]
		f.Default = defaults[f.JSONName]
		if l, ok := labels[f.JSONName]; ok {
			f.Units = &l
		}
		if d := docs[f.JSONName]; d != "" {
			f.Description = strings.TrimPrefix(f.Description+"; "+d, "; ")
		}
	}
	return md
}
