package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/analysis"
	"github.com/gusset/gusset/pkg/model"
)

const analysisPath = "/job/analysis"

// Error statuses of the run routes.
var (
	errsRunStart = []int{http.StatusBadRequest, http.StatusConflict, http.StatusRequestEntityTooLarge,
		http.StatusUnsupportedMediaType, http.StatusNotImplemented, http.StatusInternalServerError, http.StatusServiceUnavailable}
	errsRun = []int{http.StatusNotFound, http.StatusInternalServerError}
)

// runsDoc is what every run route says about runs.
const runsDoc = "One analysis runs per workspace at a time, across every API replica and worker: a second start is a 409 " +
	"ANALYSIS_IN_PROGRESS naming the run that holds the workspace. While a run is Queued, Running or Cancelling, model " +
	"changes (and closing the job) answer 409 and GET /job/status shows accessMode ReadOnly; reads and queries still work. " +
	"Statuses: Queued → Running → Completed | Failed; Running → Cancelling → Cancelled; Queued → Cancelled. A model the " +
	"engine cannot analyse (a mechanism, a missing section, a load off its member) ends Failed with a message naming the " +
	"node and DOF, the member or the plate (a degenerate, re-entrant or badly warped plate names its reason; mild " +
	"distortion only warns). A run whose worker is lost is handed to another worker; once its retries are spent it ends Failed " +
	"(\"worker lost\")."

func (a *API) registerAnalysisRoutes() {
	const tag = "Analysis"
	overrideDoc := func(kind string) string {
		return "The optional body is a partial " + kind + " settings record (the same fields and rules as PATCH " +
			analysisPath + "/" + kind + "/settings), applied to this run only; the stored settings do not change. "
	}
	a.add(route{method: "POST", path: analysisPath + "/static/run-linear", tag: tag, summary: "Start a linear static analysis",
		desc: overrideDoc("static") + "Answers 202 with the run record (Queued); poll GET " + analysisPath +
			"/runs/{runId}. Results replace the stored static results, or, with retainLoadCases, only those of the cases " +
			"analysed. " + runsDoc,
		body: model.StaticSettings{}, responses: map[int]any{202: model.Run{}}, errors: errsRunStart,
		handler: func(c *fiber.Ctx) error { return a.startRun(c, model.LinearStatic) }})
	a.add(route{method: "POST", path: analysisPath + "/static/run-non-linear", tag: tag, summary: "Start a non-linear static analysis",
		desc: overrideDoc("static") + "Answers 202 with the run record (Queued); poll GET " + analysisPath + "/runs/{runId}. " +
			"Each load case or combination is analysed on its own (a combination as its combined loads, not superposed), " +
			"as a sub-task that any idle worker takes, so more workers finish a run of many cases sooner. " +
			"theory Small is second-order analysis on the initial geometry (P-Δ with pDeltaBig, P-δ with pDeltaSmall too; " +
			"pDeltaSmall alone is a 400); Finite and Large are large-displacement analyses (co-rotational members and plates; " +
			"member loads in member axes turn with their members when rotateLocalLoads is on). " +
			"The load is applied in loadSteps steps (steppingMethod Linear or Parabolic; File is a 400), each iterated up to " +
			"loadStepIterations times until the convergence measure is at most convergenceAccuracy percent: the out-of-balance " +
			"forces over the applied load (residualsConvergence), the last correction over the displacements " +
			"(deflectionsConvergence), or the larger of the two (both on; both off is a 400). matrixType Tangent refactors the " +
			"stiffness every iteration, Secant once per step. dampingFactor percent scales the corrections of the first " +
			"dampingSteps steps. loading Full and Residual reach the same converged state (the iterations work on the " +
			"out-of-balance forces). A case that does not converge, or is past its buckling load in the Small theory, has no " +
			"results: the run completes with the others, lists the failure in warnings (step, load factor and residual) and " +
			"in progress.messages as it happens; the run fails only when no case converged and no load step was kept. convergenceHistory lists every " +
			"iteration of every case (the latest 2000), live while the run is under way; progress.loadCaseCount counts the cases " +
			"done, and progress.messages has one Information line per solved case (steps, iterations, solve time, worker). " +
			"Results replace the stored static results, or, with retainLoadCases, only those of the cases analysed; " +
			"results info marks them isNonLinear. keepLoadSteps (an extension) keeps every converged load step as a Step " +
			"load case with its own results, queryable like any case: the steps of the analysed cases, ascending, then of " +
			"their steps, are numbered on from the largest load case id of the model (with retainLoadCases, from the largest " +
			"id of any case, earlier Step cases included), so with cases 1, 2 and 4 and loadSteps 4 the steps of case 1 are " +
			fmt.Sprintf("5–8, of case 2 9–12 and of case 4 13–16. A run keeps at most %d steps (cases × loadSteps); more fail ", analysis.MaxStepLoadCases) +
			"the run naming the limit. The last step is the case's own state; a case that fails keeps the steps it converged. " +
			"Step cases are listed by the load-case list (type Step, stepOf the case) and go with their results: a static " +
			"run that does not retain them, or analyses their case again, removes them.",
		body: model.StaticSettings{}, responses: map[int]any{202: model.Run{}}, errors: errsRunStart,
		handler: func(c *fiber.Ctx) error { return a.startRun(c, model.NonLinearStatic) }})
	a.add(route{method: "POST", path: analysisPath + "/buckling/run", tag: tag, summary: "Start a buckling analysis",
		desc: overrideDoc("buckling") + "Answers 202 with the run record (Queued). For each primary load case (combinations " +
			"are refused) it finds the smallest positive load factors of the case's loads, from the axial forces of a linear " +
			"static analysis; query them under /job/query/analysis/buckling. Members are subdivided internally so that one " +
			"member per column gives its Euler load. theory SigncountEigensolver and ClassicEigensolver both run shift-invert " +
			"block Lanczos with the Sturm check. axialForceDistribution NonLinear, and tension-only or compression-only " +
			"members with tensionCompressionOnly Activated or GradualActivation, fail the run with a message saying so. " +
			"Results replace the stored buckling results, or with retainLoadCases only those of the cases analysed. " + runsDoc,
		body: model.BucklingSettings{}, responses: map[int]any{202: model.Run{}}, errors: errsRunStart,
		handler: func(c *fiber.Ctx) error { return a.startRun(c, model.BucklingAnalysis) }})
	a.add(route{method: "POST", path: analysisPath + "/dynamic-frequency/run", tag: tag, summary: "Start a dynamic frequency analysis",
		desc: overrideDoc("dynamic-frequency") + "Answers 202 with the run record (Queued). For each primary load case " +
			"(combinations are refused) it finds the lowest natural frequencies (or those nearest frequencyShift, or inside " +
			"[lowerLimit, upperLimit]) with the case's loads as mass: self-weight gives the members' mass, lumped mass loads " +
			"their nodes', and downward node and member forces F/g; query them under /job/query/analysis/dynamic. A Sturm " +
			"count checks that no mode in the range was missed; the run warns, naming the range, when one was. Results " +
			"replace the stored frequency results, or with retainLoadCases only those of the cases analysed. " + runsDoc,
		body: model.DynamicSettings{}, responses: map[int]any{202: model.Run{}}, errors: errsRunStart,
		handler: func(c *fiber.Ctx) error { return a.startRun(c, model.DynamicFrequency) }})
	a.add(route{method: "GET", path: analysisPath + "/runs", tag: tag, summary: "List the current run and the 10 most recent",
		desc: "Newest first. elapsedTime (hh:mm:ss.fff) is null while Queued, live while Running or Cancelling, and " +
			"frozen once the run has finished. parameters are label/value pairs: Nodes, Members, Plates, Load cases, " +
			"Solver, Degrees of freedom, Ordering, Factor nonzeros, Factorization flops. " + runsDoc,
		responses: map[int]any{200: []model.Run{}}, errors: []int{http.StatusInternalServerError}, handler: a.listRuns})
	a.add(route{method: "GET", path: analysisPath + "/runs/:runId", tag: tag, summary: "Get a run",
		desc:      "404 when the run is not among the current run and the 10 most recent. " + runsDoc,
		responses: map[int]any{200: model.Run{}}, errors: errsRun, handler: a.getRun})
	a.add(route{method: "DELETE", path: analysisPath + "/runs/:runId", tag: tag, summary: "Cancel a run",
		desc: "204 when cancellation was initiated: a Queued run ends Cancelled at once; a Running one passes through " +
			"Cancelling to Cancelled, and the workspace stays locked until its solver has really returned (within about a " +
			"second). 404 when the run is unknown or has already finished.",
		responses: map[int]any{204: nil}, errors: errsRun, handler: a.cancelRun})
	a.add(route{method: "GET", path: analysisPath + "/runs/:runId/result", tag: tag, summary: "Get the result record of a finished run",
		desc:      "409 while the run has not finished; 404 for an unknown run.",
		responses: map[int]any{200: model.RunResult{}}, errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusInternalServerError},
		handler: a.runResult})
	for _, kind := range model.AnalysisKinds {
		a.add(route{method: "GET", path: analysisPath + "/" + string(kind) + "/info", tag: tag,
			summary: "Say which load cases have " + string(kind) + " results",
			desc: "loadCases (optional id list) narrows the cases listed; ids not in the model are dropped. notAnalyzed lists " +
				"the model's load cases (of those selected) without results, and is omitted when every one has them. Any model " +
				"change deletes every result.",
			query:     []param{{name: "loadCases", typ: "string", desc: "id list, e.g. 1,3-7"}},
			responses: map[int]any{200: model.ResultsInfo{}}, errors: []int{http.StatusBadRequest, http.StatusConflict, http.StatusInternalServerError},
			handler: func(c *fiber.Ctx) error { return a.resultsInfo(c, kind) }})
	}
}

// startRun checks a run request and starts it.
func (a *API) startRun(c *fiber.Ctx, kind model.AnalysisType) error {
	ctx, ws := c.UserContext(), workspace(c)
	job, err := a.sess.Job(ctx, ws)
	if err != nil {
		return err
	}
	var overrides json.RawMessage
	switch kind {
	case model.LinearStatic, model.NonLinearStatic:
		overrides, err = runOverrides(c, job.Analysis.Static, job.Units)
	case model.BucklingAnalysis:
		var s model.BucklingSettings
		if s, overrides, err = runSettings(c, job.Analysis.Buckling, job.Units); err == nil {
			err = analysis.CheckEigenModes(s.Modes)
		}
	case model.DynamicFrequency:
		var s model.DynamicSettings
		if s, overrides, err = runSettings(c, job.Analysis.Dynamic, job.Units); err == nil {
			err = analysis.CheckEigenModes(s.Modes)
		}
	}
	if err != nil {
		return err
	}
	if kind == model.NonLinearStatic {
		s := job.Analysis.Static
		if overrides != nil {
			if err := json.Unmarshal(overrides, &s); err != nil {
				return err
			}
		}
		if err := analysis.CheckNonLinear(s); err != nil {
			return err
		}
	}
	run, err := a.analysis.Start(ctx, ws, kind, overrides)
	if err != nil {
		return err
	}
	c.Location(apiPrefix + analysisPath + "/runs/" + run.RunID)
	return c.Status(fiber.StatusAccepted).JSON(run)
}

// runSettings returns the settings a run will use (the stored ones with
// the body's overrides applied) and the overrides (runOverrides).
func runSettings[T validator](c *fiber.Ctx, base T, u model.Units) (T, json.RawMessage, error) {
	raw, err := runOverrides(c, base, u)
	if err != nil || raw == nil {
		return base, raw, err
	}
	eff := base
	if err := json.Unmarshal(raw, &eff); err != nil {
		return base, nil, err
	}
	return eff, raw, nil
}

// validator is a settings record.
type validator interface{ Validate() error }

// runOverrides checks a run's optional override body against the current
// settings base and returns the fields it supplies, in SI, as a JSON
// object (nil without a body).
func runOverrides[T validator](c *fiber.Ctx, base T, u model.Units) (json.RawMessage, error) {
	if !bodyPresent(c) {
		return nil, nil
	}
	if err := requireJSON(c); err != nil {
		return nil, err
	}
	fields, err := objectFields(c.Body(), "")
	if err != nil || len(fields) == 0 {
		return nil, err
	}
	rec := base
	if err := mergeFields(reflect.ValueOf(&rec), fields, u, ""); err != nil {
		return nil, err
	}
	if err := rec.Validate(); err != nil {
		return nil, err
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, err
	}
	out := make(map[string]json.RawMessage, len(fields))
	for name := range fields {
		out[name] = all[name]
	}
	return json.Marshal(out)
}

func (a *API) listRuns(c *fiber.Ctx) error {
	runs, err := a.analysis.List(c.UserContext(), workspace(c))
	if err != nil {
		return err
	}
	return c.JSON(runs)
}

func (a *API) getRun(c *fiber.Ctx) error {
	run, err := a.analysis.Get(c.UserContext(), workspace(c), c.Params("runId"))
	if err != nil {
		return err
	}
	return c.JSON(run)
}

func (a *API) cancelRun(c *fiber.Ctx) error {
	if err := a.analysis.Cancel(c.UserContext(), workspace(c), c.Params("runId")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (a *API) runResult(c *fiber.Ctx) error {
	res, err := a.analysis.Result(c.UserContext(), workspace(c), c.Params("runId"))
	if err != nil {
		return err
	}
	return c.JSON(res)
}

func (a *API) resultsInfo(c *fiber.Ctx, kind model.AnalysisKind) error {
	list, some, err := model.ParseIDList("loadCases", c.Query("loadCases"))
	if err != nil {
		return err
	}
	var lp *model.IDList
	if some {
		lp = &list
	}
	info, err := a.query.Info(c.UserContext(), workspace(c), kind, lp)
	if err != nil {
		return err
	}
	return c.JSON(info)
}
