package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/session"
)

// Error statuses most job routes can return.
var (
	errsJob       = []int{http.StatusConflict, http.StatusInternalServerError}
	errsJobBody   = []int{http.StatusBadRequest, http.StatusConflict, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType, http.StatusInternalServerError}
	errsJobLoader = []int{http.StatusBadRequest, http.StatusNotFound, http.StatusConflict, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType, http.StatusInternalServerError}
	errsTemplate  = []int{http.StatusBadRequest, http.StatusConflict, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType, http.StatusInternalServerError, http.StatusServiceUnavailable}
)

// fileRowsChecked documents the check of a job file's rows (editor.CheckSnapshot).
var fileRowsChecked = "A file's rows are held to the rules API input meets on its own (record shape, own key, field rules, " +
	"references to rows the file holds, numbers at most 1e20 in SI); a file that breaks one is a 400 naming the collection, the row and the rule, and nothing opens. " +
	"A zip directory of more than 65,535 entries or 16 MiB (a job file holds 38 entries plus 4 per analysed load case) is refused before it is read, a 400 naming the limit. " +
	fmt.Sprintf("A row (one line of a model entry) longer than %d bytes (16 MiB) is a 400 naming the limit, refused as soon as the reader passes it.", jobfile.MaxRowBytes)

// fileResultsSigned documents which files open with their results
// (jobfile's signatures).
const fileResultsSigned = "Results open only from a file this service signed. Every file it saves holds signature.json: the size and SHA-256 of each entry " +
	"and an HMAC-SHA256 of that list under the service's key (" + jobfile.KeysSetting + "), so that renaming, moving, uploading or re-packing the file " +
	"keeps the signature, and changing any entry breaks it. A file that is not signed (saved before job files were signed, or written by another program), " +
	"signed with a key the service does not list, or changed since it was saved opens with its model only: state.warnings says that the results were not " +
	"opened and why, and the result queries answer 409 until the analyses run again. The results of a signed file are still checked against its model " +
	"(a 400 naming the fault). Keys rotate: " + jobfile.KeysSetting + "=new,old signs with the first key and accepts any. " +
	"An api without " + jobfile.KeysSetting + " signs nothing and opens every file without its results; the standalone keeps a key of its own in the jobs directory."

// savePathRules documents where a save may write.
var savePathRules = fmt.Sprintf("filePath is relative to the jobs directory; .. or a symbolic link leading out of it (or dangling) is a 400; "+
	"links that stay inside are followed, and a save through one writes the file it names. "+
	"Limits (a 400 naming the limit): at most %d folders; a folder name at most %d bytes; the file name at most %d bytes with .gsj "+
	"and the path at most %d bytes, so that the recovery file (.recovery added) stays within the file system's %d bytes per name and %d per path.",
	jobfile.MaxFolders, jobfile.MaxNameBytes, jobfile.MaxJobNameBytes, jobfile.MaxJobPathBytes, jobfile.MaxNameBytes, jobfile.MaxPathBytes)

func (a *API) registerJobRoutes() {
	const tag = "Job"
	a.add(route{method: "POST", path: "/job/new", tag: tag, summary: "Create a blank job",
		desc:      "Opens a new job with the default units (m, mm, MPa, Tperm3, degC, kN, kNm, T, gs, mm, MPa) and vertical axis YAxis. isNew is true until the first save.",
		responses: map[int]any{200: JobWithState{}}, errors: errsJob, handler: a.newJob})
	a.add(route{method: "POST", path: "/job/new-from-template", tag: tag, summary: "Create a job from an uploaded job file",
		desc: "multipart/form-data with a file part named template holding a .gsj job file. The job opens with isNew true and no file path. " +
			"An upload past the body limit (MAX_BODY_BYTES), or a file larger than MAX_JOB_BYTES or expanding to more, is a 413 naming the limit; " +
			"a file with two entries of one name, a collection its manifest lists twice, or a zip directory that misstates an entry's size is a 400 naming it; " +
			"a file that is not read within the request's time is a 503 (retry later). " +
			fileRowsChecked + " " + fileResultsSigned,
		fileParts: []string{"template"}, responses: map[int]any{200: JobWithState{}}, errors: errsTemplate, handler: a.newFromTemplate})
	a.add(route{method: "POST", path: "/job/open", tag: tag, summary: "Open a job file from the jobs directory",
		desc: "filePath is relative to the jobs directory (JOBS_DIR); a path leading outside it is a 400. When a recovery file newer than the job file exists, " +
			"forceOption None answers 409 naming the options; OpenPreviousSaved deletes the recovery file and opens the saved file; OpenUnsavedMostRecent opens the recovery file (isModified true). " +
			fileRowsChecked + " " + fileResultsSigned,
		body: OpenRequest{}, bodyRequired: true, responses: map[int]any{200: JobWithState{}}, errors: errsJobLoader, handler: a.openJob})
	a.add(route{method: "POST", path: "/job/open-sample", tag: tag, summary: "Open a bundled sample job",
		body: OpenSampleRequest{}, bodyRequired: true, responses: map[int]any{200: JobWithState{}}, errors: errsJobLoader, handler: a.openSample})
	a.add(route{method: "POST", path: "/job/save", tag: tag, summary: "Save the open job",
		desc: "Saves to filePath when given (save as), else to the job's own file. 201 on the first save of a new job, 200 afterwards; 409 when the job was never saved and no filePath is given. " +
			"Saving onto a file that is not the open job's own (a first save or a save-as onto an existing job file, or onto a recovery file of another session) is a 409 naming the file unless overwrite is true (an extension); " +
			"saving the open job to its own file needs no flag. " +
			"The file is written to a temporary file and renamed into place; folders are created. Saving removes the recovery file. " +
			"The file (and the recovery file) is signed with the first key of " + jobfile.KeysSetting + ", so that it reopens with its results (see POST /job/open). " +
			"The file holds the settings record of every analysis family, defaults included, " +
			"so that it keeps the settings its job ran with; opening a file checks them as a PATCH would. " +
			savePathRules,
		body: SaveRequest{}, responses: map[int]any{200: model.State{}, 201: model.State{}}, errors: errsJobLoader, handler: a.saveJob})
	a.add(route{method: "POST", path: "/job/close", tag: tag, summary: "Close the open job",
		desc:      "Discards unsaved changes and the recovery file; the job file on disk is untouched. Closing with no job open is not an error (idempotent).",
		responses: map[int]any{200: model.State{}}, errors: []int{http.StatusInternalServerError}, handler: a.closeJob})
	a.add(route{method: "DELETE", path: "/job/data", tag: tag, summary: "Clear all model data of the open job",
		desc:      "Removes every model row and result; headings, units and settings stay. Requires force=true, else 400.",
		query:     []param{{name: "force", typ: "boolean", required: true, desc: "must be true to confirm"}},
		responses: map[int]any{200: Status{}}, errors: errsJobBody, handler: a.clearJob})
	a.add(route{method: "GET", path: "/job", tag: tag, summary: "Get the job record (headings, settings, units)",
		responses: map[int]any{200: model.Job{}}, errors: errsJob, handler: a.getJob})
	a.add(route{method: "GET", path: "/job/status", tag: tag, summary: "Get the job's state, model counts and result flags",
		desc: "Answers with no job open too, as the interface's job-session table has a state \"no job open\" that status reports: " +
			"200 with state.isOpen false, job null, every count and storage figure 0, every flag false and accessMode NoAccess.",
		responses: map[int]any{200: Status{}}, errors: []int{http.StatusInternalServerError}, handler: a.getStatus})
	a.add(route{method: "GET", path: "/job/headings", tag: tag, summary: "Get the job headings",
		responses: map[int]any{200: model.Headings{}}, errors: errsJob, handler: a.getHeadings})
	a.add(route{method: "PATCH", path: "/job/headings", tag: tag, summary: "Update the job headings",
		desc: "Omitted fields stay unchanged. Maximum lengths: projectHeading 50, heading 50, designerInitials 3, notes 1024 characters.",
		body: model.HeadingsPatch{}, bodyRequired: true, responses: map[int]any{200: model.Headings{}}, errors: errsJobBody, handler: a.patchHeadings})
	a.add(route{method: "GET", path: "/job/settings", tag: tag, summary: "Get the job settings",
		responses: map[int]any{200: model.Settings{}}, errors: errsJob, handler: a.getSettings})
	a.add(route{method: "PATCH", path: "/job/settings", tag: tag, summary: "Update the job settings",
		desc: "Extension: the spec only shows GET. verticalAxis is YAxis (default) or ZAxis; it sets the default member orientation and the direction of gravity.",
		body: model.SettingsPatch{}, bodyRequired: true, responses: map[int]any{200: model.Settings{}}, errors: errsJobBody, handler: a.patchSettings})
	a.add(route{method: "GET", path: "/job/units", tag: tag, summary: "Get the job units",
		desc: pressureUnitDoc, responses: map[int]any{200: model.Units{}}, errors: errsJob, handler: a.getUnits})
	a.add(route{method: "PATCH", path: "/job/units", tag: tag, summary: "Update the job units",
		desc: "Omitted fields stay unchanged. Changing units changes how values are presented and read, never the physical model (stored in SI). " +
			pressureUnitDoc,
		body: model.UnitsPatch{}, bodyRequired: true, responses: map[int]any{200: model.Units{}}, errors: errsJobBody, handler: a.patchUnits})
	a.add(route{method: "GET", path: "/job/units/metadata", tag: tag, summary: "Describe the job units and their allowed values",
		desc: pressureUnitDoc, responses: map[int]any{200: Metadata{}}, errors: []int{http.StatusInternalServerError}, handler: a.unitsMetadata})
	a.add(route{method: "GET", path: "/job/errors", tag: tag, summary: "List the errors of requests on the open job",
		desc:      "The job keeps the last 100 failed requests on /job paths (oldest first); closing the job empties the log.",
		responses: map[int]any{200: ErrorsResponse{}}, errors: errsJob, handler: a.getErrors})
	a.add(route{method: "GET", path: "/job/errors/last", tag: tag, summary: "Get the most recent error of the open job",
		responses: map[int]any{200: LastErrorResponse{}}, errors: errsJob, handler: a.getLastError})
	a.add(route{method: "DELETE", path: "/job/errors", tag: tag, summary: "Empty the job's error log",
		responses: map[int]any{204: nil}, errors: errsJob, handler: a.clearErrors})
}

func withState(o session.Opened) JobWithState { return JobWithState{Job: o.Job, State: o.State} }

func (a *API) newJob(c *fiber.Ctx) error {
	o, err := a.sess.NewJob(c.UserContext(), workspace(c))
	if err != nil {
		return err
	}
	return c.JSON(withState(o))
}

// newFromTemplate opens the uploaded job file. The upload is no bigger
// than the body limit (Fiber refuses a longer body with a 413) and is read
// in place, never copied: the session refuses one larger than
// MAX_JOB_BYTES, or one that expands to more, with a 413, and one that
// does not read in the request's time with a 503.
func (a *API) newFromTemplate(c *fiber.Ctx) error {
	if !strings.HasPrefix(strings.ToLower(c.Get(fiber.HeaderContentType)), fiber.MIMEMultipartForm) {
		return model.E(model.KindUnsupportedMedia, "send the template as multipart/form-data with a file part named template")
	}
	fh, err := c.FormFile("template")
	if err != nil {
		return model.Invalid("template", "the multipart body has no file part named template: %v", err)
	}
	f, err := fh.Open()
	if err != nil {
		return fmt.Errorf("read uploaded template: %w", err)
	}
	defer f.Close()
	o, err := a.sess.NewFromTemplateReader(c.UserContext(), workspace(c), f, fh.Size, fh.Filename)
	if err != nil {
		return err
	}
	return c.JSON(withState(o))
}

func (a *API) openJob(c *fiber.Ctx) error {
	var req OpenRequest
	if err := decodeJSON(c, &req, true); err != nil {
		return err
	}
	if err := checkRequest(&req); err != nil {
		return err
	}
	o, err := a.sess.Open(c.UserContext(), workspace(c), req.FilePath, session.ForceOption(req.ForceOption))
	if err != nil {
		return err
	}
	return c.JSON(withState(o))
}

func (a *API) openSample(c *fiber.Ctx) error {
	var req OpenSampleRequest
	if err := decodeJSON(c, &req, true); err != nil {
		return err
	}
	o, err := a.sess.OpenSample(c.UserContext(), workspace(c), req.FileName)
	if err != nil {
		return err
	}
	return c.JSON(withState(o))
}

func (a *API) saveJob(c *fiber.Ctx) error {
	var req SaveRequest
	if err := decodeJSON(c, &req, false); err != nil {
		return err
	}
	s, err := a.sess.Save(c.UserContext(), workspace(c), req.FilePath, req.Overwrite)
	if err != nil {
		return err
	}
	if s.First {
		c.Status(fiber.StatusCreated)
	}
	return c.JSON(s.State)
}

func (a *API) closeJob(c *fiber.Ctx) error {
	st, err := a.sess.Close(c.UserContext(), workspace(c))
	if err != nil {
		return err
	}
	return c.JSON(st)
}

func (a *API) clearJob(c *fiber.Ctx) error {
	force, err := queryBool(c, "force")
	if err != nil {
		return err
	}
	if _, err := a.sess.Clear(c.UserContext(), workspace(c), force); err != nil {
		return err
	}
	return a.getStatus(c)
}

func (a *API) getJob(c *fiber.Ctx) error {
	job, err := a.sess.Job(c.UserContext(), workspace(c))
	if err != nil {
		return err
	}
	return c.JSON(job)
}

func (a *API) getStatus(c *fiber.Ctx) error {
	st, err := a.status(c.UserContext(), workspace(c))
	if model.KindOf(err) == model.KindNoJobOpen {
		// The job-session table's "no job open" is a state to report, as
		// close reports it, not an error; a job closed while its status
		// was being read reports it too.
		st, err = Status{State: model.ClosedState(), AccessMode: AccessNoAccess}, nil
	}
	if err != nil {
		return err
	}
	return c.JSON(st)
}

// status reads the open job's status.
func (a *API) status(ctx context.Context, ws string) (Status, error) {
	job, sl, err := a.sess.JobAndSlot(ctx, ws)
	if err != nil {
		return Status{}, err
	}
	counts, err := a.sess.Counts(ctx, ws)
	if err != nil {
		return Status{}, err
	}
	if sl.Analysing && a.analysis != nil {
		// A run whose worker was lost must not hold the job read-only.
		if sl.Analysing, err = a.analysis.Busy(ctx, ws); err != nil {
			return Status{}, err
		}
	}
	st := Status{Job: &job, State: sl.State, AccessMode: AccessReadWrite}
	if sl.Analysing {
		st.AccessMode = AccessReadOnly
	}
	if a.query != nil {
		for _, f := range a.kinds.Families() {
			has, err := f.HasResults(ctx, a.query, ws)
			if err != nil {
				return Status{}, err
			}
			st.Analysis.set(f.StatusFlag, has)
		}
	}
	if a.analysis != nil {
		if st.Storage.ResultBytes, st.Storage.MaxResultBytes, err = a.analysis.ResultBytes(ctx, ws); err != nil {
			return Status{}, err
		}
	}
	fillCounts(&st.Structure, counts)
	fillCounts(&st.Loads, counts)
	if a.loads != nil && st.Loads.LoadCases > 0 {
		cases, err := a.loads.Cases.All(ctx, ws)
		if err != nil {
			return Status{}, err
		}
		for _, lc := range cases {
			if len(lc.CombinationItems) > 0 {
				st.Loads.CombinationLoadCases++
			}
		}
	}
	return st, nil
}

func (a *API) getHeadings(c *fiber.Ctx) error {
	job, err := a.sess.Job(c.UserContext(), workspace(c))
	if err != nil {
		return err
	}
	return c.JSON(job.Headings)
}

func (a *API) patchHeadings(c *fiber.Ctx) error {
	var p model.HeadingsPatch
	if err := decodeJSON(c, &p, true); err != nil {
		return err
	}
	h, err := a.sess.PatchHeadings(c.UserContext(), workspace(c), p)
	if err != nil {
		return err
	}
	return c.JSON(h)
}

func (a *API) getSettings(c *fiber.Ctx) error {
	job, err := a.sess.Job(c.UserContext(), workspace(c))
	if err != nil {
		return err
	}
	return c.JSON(job.Settings)
}

func (a *API) patchSettings(c *fiber.Ctx) error {
	var p model.SettingsPatch
	if err := decodeJSON(c, &p, true); err != nil {
		return err
	}
	s, err := a.sess.PatchSettings(c.UserContext(), workspace(c), p)
	if err != nil {
		return err
	}
	return c.JSON(s)
}

func (a *API) getUnits(c *fiber.Ctx) error {
	job, err := a.sess.Job(c.UserContext(), workspace(c))
	if err != nil {
		return err
	}
	return c.JSON(job.Units)
}

func (a *API) patchUnits(c *fiber.Ctx) error {
	var p model.UnitsPatch
	if err := decodeJSON(c, &p, true); err != nil {
		return err
	}
	u, err := a.sess.PatchUnits(c.UserContext(), workspace(c), p)
	if err != nil {
		return err
	}
	return c.JSON(u)
}

// unitsMetadata describes the units record; it needs no open job because
// the allowed units do not depend on one.
func (a *API) unitsMetadata(c *fiber.Ctx) error {
	def := model.DefaultUnits()
	md := Metadata{ResourceType: "Units", Fields: []FieldMetadata{}}
	for _, cat := range model.UnitCategories {
		f := FieldMetadata{JSONName: cat.JSONName, DataType: "Enum", Default: def.Of(cat.JSONName),
			Description: "unit of " + cat.Description}
		for _, u := range cat.Units {
			f.AllowedValues = append(f.AllowedValues, AllowedValue{Value: u.ID, Label: u.Label})
		}
		md.Fields = append(md.Fields, f)
	}
	return c.JSON(md)
}

func (a *API) getErrors(c *fiber.Ctx) error {
	recs, err := a.sess.Errors(c.UserContext(), workspace(c))
	if err != nil {
		return err
	}
	return c.JSON(ErrorsResponse{Errors: recs, Count: len(recs)})
}

func (a *API) getLastError(c *fiber.Ctx) error {
	recs, err := a.sess.Errors(c.UserContext(), workspace(c))
	if err != nil {
		return err
	}
	out := LastErrorResponse{}
	if n := len(recs); n > 0 {
		out.Error, out.HasError = &recs[n-1], true
	}
	return c.JSON(out)
}

func (a *API) clearErrors(c *fiber.Ctx) error {
	if err := a.sess.ClearErrors(c.UserContext(), workspace(c)); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// pressureUnitDoc explains the pressure unit, the one unit the job units
// add to the interface's.
const pressureUnitDoc = "pressure (an extension) is the unit of plate pressure loads (px, py, pz of plate-pressure-loads): kPa " +
	"in a new job, since engineers give pressures in kPa, not in the stress unit (MPa); the desktop program's unit set " +
	"has no pressure unit, and its documentation states area loads of a metric job in kPa. A separate unit keeps the " +
	"meaning of jobs saved before it existed: a job file or stored job without a pressure unit has its stress unit as " +
	"pressure unit, the unit its plate pressures were given in. Moving-load pressures stay in force per length squared, " +
	"like every other moving-load quantity (the job's force and length units)."
