package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/analysis"
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

// noJobDoc says what the settings routes answer without an open job.
const noJobDoc = " Without an open job: 409 NO_JOB_OPEN, as every job route answers (the contract's status list for the " +
	"settings names 404; the desktop program's API answers 409 here too)."

// settingsPatchDoc states the rules of every settings PATCH.
const settingsPatchDoc = "The body is required and partial: omitted fields stay unchanged; an empty object changes nothing. " +
	"Every failing field is reported at once (errors[] names each); an enum value outside its list is a 400 listing the " +
	"allowed values, an unknown property a 400. While an analysis holds the workspace the change is a 409 " +
	"ANALYSIS_IN_PROGRESS. The run endpoints accept the same partial body as a per-run override."

func (a *API) registerAnalysisSettingsRoutes() {
	for _, f := range a.kinds.Families() {
		registerSettings(a, f)
	}
}

// registerSettings serves GET, PATCH and metadata of the settings record
// of family f.
func registerSettings(a *API, f *analysis.Family) {
	const tag = "Analysis settings"
	path := analysisSettingsPath + "/" + string(f.Name) + "/settings"
	def := analysis.DefaultSettings(f)
	defJSON, _ := json.Marshal(def)
	a.add(route{method: "GET", path: path, tag: tag, summary: "Get the " + f.Noun + " settings",
		desc: "optimizationX/Y/Z are shown in the job length unit. A job that never set them (also one saved before analysis " +
			"settings existed) has the defaults: " + string(defJSON) + ". " + f.SettingsDoc + noJobDoc,
		responses: map[int]any{200: def}, errors: errsSettingsGet, handler: func(c *fiber.Ctx) error {
			job, err := a.sess.Job(c.UserContext(), workspace(c))
			if err != nil {
				return err
			}
			return settingsReply(c, f, job.Analysis, job.Units)
		}})
	a.add(route{method: "PATCH", path: path, tag: tag, summary: "Update the " + f.Noun + " settings (only the supplied fields change)",
		desc: settingsPatchDoc + " " + f.SettingsDoc + noJobDoc,
		body: def, bodyRequired: true, responses: map[int]any{200: def}, errors: errsSettingsPatch,
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
				return settingsReply(c, f, job.Analysis, job.Units)
			}
			// Only the record being changed is checked, so that its errors
			// are the client's own.
			all, err := a.sess.PatchAnalysisSettings(ctx, ws, func(as *model.AnalysisSettings) error {
				base, err := f.Settings(*as)
				if err != nil {
					return err
				}
				rec, err := mergeSettingsRecord(base, fields, job.Units)
				if err != nil {
					return err
				}
				return f.SetSettings(as, rec)
			})
			if err != nil {
				return err
			}
			return settingsReply(c, f, all, job.Units)
		}})
	a.add(route{method: "GET", path: path + "/metadata", tag: tag, summary: "Describe the " + f.Noun + " settings fields",
		desc:      "Units are resolved against the job units; default is the value of a new job.",
		responses: map[int]any{200: Metadata{}}, errors: errsSettingsGet, handler: func(c *fiber.Ctx) error {
			u, err := a.jobUnits(c)
			if err != nil {
				return err
			}
			return c.JSON(settingsMetadata(f.SettingsName, def, u, f.SettingsLabels))
		}})
}

// mergeSettingsRecord returns base with the client's fields (in job units u)
// merged in, converted to SI and validated.
func mergeSettingsRecord(base analysis.Settings, fields map[string]json.RawMessage, u model.Units) (analysis.Settings, error) {
	p := reflect.New(reflect.TypeOf(base))
	p.Elem().Set(reflect.ValueOf(base))
	if err := mergeFields(p, fields, u, ""); err != nil {
		return nil, err
	}
	rec, ok := p.Elem().Interface().(analysis.Settings)
	if !ok {
		return nil, fmt.Errorf("merge settings: a %T is not a settings record", base)
	}
	return rec, rec.Validate()
}

// settingsReply answers the settings record of family f of a, in job
// units u.
func settingsReply(c *fiber.Ctx, f *analysis.Family, a model.AnalysisSettings, u model.Units) error {
	s, err := f.Settings(a)
	if err != nil {
		return err
	}
	return c.JSON(settingsToWire(s, u))
}

// settingsToWire returns a copy of the SI settings record s in job units.
// Settings records hold no pointers or slices, so a shallow copy
// suffices.
func settingsToWire(s analysis.Settings, u model.Units) any {
	p := reflect.New(reflect.TypeOf(s))
	p.Elem().Set(reflect.ValueOf(s))
	scale(p, u, false)
	return p.Elem().Interface()
}

// settingsMetadata describes a settings record: fieldMetadata with each
// field's default (the first enum value is not always the default), the
// labels of unitless quantities ("%", "Hz") and the field's doc tag.
func settingsMetadata(name string, def analysis.Settings, u model.Units, labels map[string]string) Metadata {
	t := reflect.TypeOf(def)
	md := Metadata{ResourceType: name, Fields: fieldMetadata(t, u, "")}
	var defaults map[string]any
	b, _ := json.Marshal(settingsToWire(def, u))
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
