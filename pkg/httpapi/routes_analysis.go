package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/analysis"
	"github.com/gusset/gusset/pkg/model"
)

const analysisPath = "/job/analysis"

// Error statuses of the run routes.
var (
	errsRunStart = []int{http.StatusBadRequest, http.StatusForbidden, http.StatusConflict, http.StatusRequestEntityTooLarge,
		http.StatusUnsupportedMediaType, http.StatusNotImplemented, http.StatusInternalServerError, http.StatusServiceUnavailable}
	errsRun = []int{http.StatusNotFound, http.StatusInternalServerError}
)

// incompletePlatesDoc says how a run start treats plates created without
// a material or a thickness.
const incompletePlatesDoc = "A plate without a material or an actualThickness (a create needs only the corner nodes, so both may be " +
	"left at 0) makes the start a 400 VALIDATION_FAILED naming the first 10 such plates and what each lacks; nothing is queued."

// runsDoc is what every run route says about runs.
const runsDoc = "One analysis runs per workspace at a time, across every API replica and worker: a second start is a 409 " +
	"ANALYSIS_IN_PROGRESS naming the run that holds the workspace. While a run is Queued, Running or Cancelling, model " +
	"changes (and closing the job) answer 409 and GET /job/status shows accessMode ReadOnly; reads and queries still work. " +
	"Statuses: Queued → Running → Completed | Failed; Running → Cancelling → Cancelled; Queued → Cancelled. A model the " +
	"engine cannot analyse (a mechanism, a missing section, a load off its member) ends Failed with a message naming the " +
	"node and DOF, the member or the plate (a degenerate, re-entrant or badly warped plate names its reason; mild " +
	"distortion only warns). A run whose worker is lost is handed to another worker; once its retries are spent it ends Failed " +
	"(\"worker lost\")."

// resultBytesDoc states the limit on stored result bytes that a run's
// start checks.
const resultBytesDoc = "Before a run is queued its results are estimated from the model (load cases the run analyses × the rows " +
	"and row sizes of the columns it stores): when they, with the workspace's stored results of the other analysis families, " +
	"would pass the workspace's resultBytes limit (MAX_RESULT_BYTES; GET /job/status shows storage.resultBytes " +
	"and storage.maxResultBytes), the start answers 403 LIMIT_EXCEEDED naming the limit and its value, and nothing is queued. Results " +
	"that do not fit in a full store end the run Failed saying the storage is full."

func (a *API) registerAnalysisRoutes() {
	const tag = "Analysis"
	for _, k := range a.kinds.Kinds() {
		st, f := k.Start(), k.Family()
		a.add(route{method: "POST", path: analysisPath + "/" + st.Path, tag: tag, summary: st.Summary,
			desc: "The optional body is a partial " + string(f.Name) + " settings record (the same fields and rules as PATCH " +
				analysisPath + "/" + string(f.Name) + "/settings), applied to this run only; the stored settings do not change. " +
				"Answers 202 with the run record (Queued); poll GET " + analysisPath + "/runs/{runId}. Without an open job: 409 " +
				"NO_JOB_OPEN. " + incompletePlatesDoc + " " + st.Doc + " " + runsDoc + " " + resultBytesDoc,
			body: analysis.DefaultSettings(f), responses: map[int]any{202: model.Run{}}, errors: errsRunStart,
			handler: func(c *fiber.Ctx) error { return a.startRun(c, k) }})
	}
	a.add(route{method: "GET", path: analysisPath + "/runs", tag: tag, summary: "List the 10 most recent runs",
		desc: "Newest first; the current run, if any, is the first of the 10, and starting a run drops the oldest when 10 are kept. elapsedTime (hh:mm:ss.fff) is null while Queued, live while Running or Cancelling, and " +
			"frozen once the run has finished. parameters are label/value pairs: Nodes, Members, Plates, Load cases, " +
			"Solver, Degrees of freedom, Ordering, Factor nonzeros, Factorization flops. " + runsDoc,
		responses: map[int]any{200: []model.Run{}}, errors: []int{http.StatusInternalServerError}, handler: a.listRuns})
	a.add(route{method: "GET", path: analysisPath + "/runs/:runId", tag: tag, summary: "Get a run",
		desc:      "404 when the run is not among the 10 most recent (the current one included). " + runsDoc,
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
	for _, f := range a.kinds.Families() {
		a.add(route{method: "GET", path: analysisPath + "/" + string(f.Name) + "/info", tag: tag,
			summary: "Say which load cases have " + string(f.Name) + " results",
			desc: "loadCases (optional id list) narrows the cases listed; ids not in the model are dropped. notAnalyzed lists " +
				"the model's load cases (of those selected) without results, and is omitted when every one has them. The flag is " +
				"spelled hasResults at the top and on each case (loadCases[].hasResults). Any model change deletes every result.",
			query:     []param{{name: "loadCases", typ: "string", desc: "id list, e.g. 1,3-7"}},
			responses: map[int]any{200: model.ResultsInfo{}}, errors: []int{http.StatusBadRequest, http.StatusConflict, http.StatusInternalServerError},
			handler: func(c *fiber.Ctx) error { return a.resultsInfo(c, f) }})
	}
}

// startRun checks a run request of kind k and starts it: the body's
// overrides are merged into the family's stored settings, the kind checks
// the outcome, and the results it estimates must fit the workspace's
// limit on stored result bytes, before anything is queued.
func (a *API) startRun(c *fiber.Ctx, k analysis.Kind) error {
	ctx, ws := c.UserContext(), workspace(c)
	job, err := a.sess.Job(ctx, ws)
	if err != nil {
		return err
	}
	base, err := k.Family().Settings(job.Analysis)
	if err != nil {
		return err
	}
	eff, overrides, err := runOverrides(c, base, job.Units)
	if err != nil {
		return err
	}
	if err := k.Check(eff); err != nil {
		return err
	}
	if a.structure != nil {
		if err := a.structure.CheckPlatesComplete(ctx, ws); err != nil {
			return err
		}
	}
	if err := a.admit(ctx, ws, k, eff); err != nil {
		return err
	}
	run, err := a.analysis.Start(ctx, ws, k.Type(), overrides)
	if err != nil {
		return err
	}
	c.Location(apiPrefix + analysisPath + "/runs/" + run.RunID)
	return c.Status(fiber.StatusAccepted).JSON(run)
}

// admit holds a run of k with settings s to the workspace's limits: those
// k's runs can pass (analysis.Admitter), and the bytes of results it
// would store (resultBytes).
func (a *API) admit(ctx context.Context, ws string, k analysis.Kind, s analysis.Settings) error {
	if a.limits == nil {
		return nil
	}
	l, err := a.limits(ctx, ws)
	if err != nil {
		return err
	}
	cases, err := a.loads.Cases.All(ctx, ws)
	if err != nil {
		return err
	}
	ids := make([]int64, 0, len(cases))
	for _, c := range cases {
		if c.StepOf == 0 {
			ids = append(ids, c.ID)
		}
	}
	slices.Sort(ids)
	counts, err := a.sess.Counts(ctx, ws)
	if err != nil {
		return err
	}
	ad := analysis.Admission{Cases: ids, Counts: counts, Limits: l}
	if adm, ok := k.(analysis.Admitter); ok {
		if err := adm.Admit(s, ad); err != nil {
			return err
		}
	}
	return a.analysis.CheckResultBytes(ctx, ws, k.Family().Name, k.ResultBytes(s, ad), l.ResultBytes)
}

// runOverrides checks a run's optional override body against the stored
// settings base and returns the settings the run will use, and the fields
// the body supplies, in SI, as a JSON object (nil without a body).
func runOverrides(c *fiber.Ctx, base analysis.Settings, u model.Units) (analysis.Settings, json.RawMessage, error) {
	if !bodyPresent(c) {
		return base, nil, nil
	}
	if err := requireJSON(c); err != nil {
		return nil, nil, err
	}
	fields, err := objectFields(c.Body(), "")
	if err != nil || len(fields) == 0 {
		return base, nil, err
	}
	rec, err := mergeSettingsRecord(base, fields, u)
	if err != nil {
		return nil, nil, err
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return nil, nil, err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, nil, err
	}
	out := make(map[string]json.RawMessage, len(fields))
	for name := range fields {
		out[name] = all[name]
	}
	raw, err := json.Marshal(out)
	return rec, raw, err
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

func (a *API) resultsInfo(c *fiber.Ctx, f *analysis.Family) error {
	list, some, err := model.ParseIDList("loadCases", c.Query("loadCases"))
	if err != nil {
		return err
	}
	var lp *model.IDList
	if some {
		lp = &list
	}
	info, err := f.Info(c.UserContext(), a.query, workspace(c), lp)
	if err != nil {
		return err
	}
	return c.JSON(info)
}
